"""SessionEnd hook cost against a bare start of the same interpreter (issue 7).

SessionEnd fires once when a session ends: the hook enqueues a forced task (no gates) and spawns
the worker detached. Timed as ``<python> -m lazy_harness.hooks SessionEnd`` with the JSON payload on
stdin, interleaved with ``python -c pass``; goal: at most 4 times ``python -c pass``. Also, for
information, the same in a HOME whose queue holds 50,000 finished tasks.

Each run really enqueues (replacing the session's previous pending task, as a second SessionEnd
of a resumed session does) and really spawns ``python -m lazy_harness.worker``. The worker lock is
held for the whole run, so every spawned worker finds it taken and exits at once without touching
the queue; after each run the script waits until that worker is gone, so it never shares the CPU
with the next timed run. The hook's time includes the enqueue's fsyncs, so a busy disk shows here.

    python benchmarks/bench_session_end.py [--runs 41] [--check]
"""

import os
import sys
import time

import harness
from harness import BARE, Case
from hook_world import expect, fill_history, payload, project, small_transcript

from lazy_harness import paths

GOAL = 4.0
END = "SessionEnd (enqueue + spawn)"
END_HISTORY = "SessionEnd, 50k history"
HOOK = harness.hook_command("SessionEnd")


def main() -> int:
    opts = harness.parse_args(__doc__, default_runs=41)
    print(harness.interpreter_note())
    with harness.temp_home(opts.keep) as (root, env), harness.temp_home(opts.keep) as (root_b, env_b):
        harness.write_config(env)
        harness.write_config(env_b)
        started = time.perf_counter()
        fill_history(env_b)
        print(f"history: 50,000 tasks in done/, 500 in failed/, state of 20,000 sessions "
              f"({time.perf_counter() - started:.1f} s)")
        cases = harness.bare_cases(env)
        with harness.worker_lock(paths.claude_dir(env)), harness.worker_lock(paths.claude_dir(env_b)):
            for e, r, name, sid in ((env, root, END, "5e55e0d0-1a2b-4c3d-8e4f-5a6b7c8d9e0f"),
                                    (env_b, root_b, END_HISTORY, "5e55e0d1-1a2b-4c3d-8e4f-5a6b7c8d9e0f")):
                proj, folder = project(e, r, "billing")
                data = payload(sid, small_transcript(folder, sid), proj, "SessionEnd")
                cases.append(Case(name, HOOK, data, e, check=expect(e, sid, "queued", wait_worker=True)))
            cpu: dict = {}
            times = harness.measure(cases, opts.runs, cpu=cpu)
            pending = [n for n in os.listdir(paths.queue_dir(env)) if n.endswith(".task")]
            if len(pending) != 1:
                sys.exit(f"expected the session's one pending task, found {pending}")
    harness.report(times, title="SessionEnd hook")
    ok = harness.goal_lines(times, [(END, BARE, GOAL)])
    harness.cpu_report(cpu)
    print("for information (wall time, then CPU time):")
    harness.goal_lines(times, [(END_HISTORY, BARE, GOAL), (END_HISTORY, END, 1.25)])
    harness.goal_lines(cpu, [(END, BARE, GOAL), (END_HISTORY, END, 1.25)], " in CPU time")
    return 1 if opts.check and not ok else 0


if __name__ == "__main__":
    sys.exit(main())
