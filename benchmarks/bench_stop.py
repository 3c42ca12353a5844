"""Stop hook cost against a bare start of the same interpreter (issue 7).

Claude Code runs the Stop hook after every model turn. Its common path: the session was queued a
moment ago, so the hook is debounced. Timed here, each as ``<python> -m lazy_harness.hooks Stop``
with the JSON payload on stdin, interleaved with ``python -c pass``:

- ``Stop, debounced``: the session's task is pending (goal: at most 2.5 times ``python -c pass``);
- ``Stop, debounced, 50k history``: the same in a HOME whose queue holds 50,000 finished tasks in
  done/ (and the state files of their 20,000 sessions, 500 failed tasks); goal: at most 1.25 times
  the figure without them;
- ``Stop, no growth, small`` / ``Stop, no growth, 300 MB``: the session finished recently, so the
  gate stats the transcript and skips; the transcript is 2 KB or 300 MB (goal: the 300 MB figure at
  most 1.2 times the small one);
- ``Stop, queued``: the gates pass, the hook enqueues a task and spawns the worker (information).

The config sets ``debounce_seconds = 86400`` so the debounced case stays debounced however long the
run takes. The worker lock is held for the whole run: the workers the queued case spawns find it
taken and exit at once, and after each queued run the script waits for that worker to be gone so
it does not share the CPU with the next timed run. The 300 MB transcript is generated once into a
cache folder (see big_transcript.py) and hard-linked into the temporary HOME.

    python benchmarks/bench_stop.py [--runs 41] [--check]
"""

import os
import sys
import time

import big_transcript
import harness
from harness import BARE, Case
from hook_world import expect, fill_history, payload, project, small_transcript

from lazy_harness import paths, queue

DEBOUNCED = "Stop, debounced"
HISTORY = "Stop, debounced, 50k history"
SMALL = "Stop, no growth, small"
UNCHANGED = "skipped: not queued: the transcript has not changed since its last check"  # the hook's words
BIG = "Stop, no growth, 300 MB"
QUEUED = "Stop, queued (enqueue + spawn)"
HOOK = harness.hook_command("Stop")
SIDS = {name: f"{n:08x}-5c1e-4d7a-9b3f-0e6a2d4c8b1f" for n, name in enumerate(
    (DEBOUNCED, HISTORY, SMALL, BIG, QUEUED), start=0x7a10)}


def main() -> int:
    opts = harness.parse_args(__doc__, default_runs=41)
    print(harness.interpreter_note())
    big_path = big_transcript.cached(300)
    with harness.temp_home(opts.keep) as (root, env_a), \
            harness.temp_home(opts.keep) as (root_b, env_b), \
            harness.temp_home(opts.keep) as (root_c, env_c):
        harness.write_config(env_a, debounce_seconds=86400)
        harness.write_config(env_b, debounce_seconds=86400)
        harness.write_config(env_c, debounce_seconds=0, reprocess_min_growth_seconds=0)
        started = time.perf_counter()
        fill_history(env_b)
        print(f"history: 50,000 tasks in done/, 500 in failed/, state of 20,000 sessions "
              f"({time.perf_counter() - started:.1f} s)")
        cases = harness.bare_cases(env_a)
        with harness.worker_lock(paths.claude_dir(env_a)), harness.worker_lock(paths.claude_dir(env_b)), \
                harness.worker_lock(paths.claude_dir(env_c)):
            for env, r, name in ((env_a, root, DEBOUNCED), (env_b, root_b, HISTORY)):
                proj, folder = project(env, r, "billing")
                sid = SIDS[name]
                data = payload(sid, small_transcript(folder, sid), proj)
                case = Case(name, HOOK, data, env, check=expect(env, sid, "skipped: debounced"))
                first = Case("queue it", HOOK, data, env, check=expect(env, sid, "queued", wait_worker=True))
                harness.run_once(first)  # the session's task is now pending
                cases.append(case)
            proj, folder = project(env_a, root, "billing")
            q = paths.queue_dir(env_a)
            for name, path in ((SMALL, small_transcript(folder, SIDS[SMALL])), (BIG, None)):
                sid = SIDS[name]
                if path is None:
                    path = os.path.join(folder, f"{sid}.jsonl")
                    try:
                        os.link(big_path, path)
                    except OSError:
                        os.symlink(big_path, path)
                queue.mark_done(q, sid, os.stat(path).st_mtime, time.time())
                cases.append(Case(name, HOOK, payload(sid, path, proj), env_a,
                                  check=expect(env_a, sid, UNCHANGED)))
            print(f"300 MB transcript: {os.path.getsize(big_path) / 2**20:.0f} MB ({big_path})")
            proj, folder = project(env_c, root_c, "billing")
            sid = SIDS[QUEUED]
            cases.append(Case(QUEUED, HOOK, payload(sid, small_transcript(folder, sid), proj), env_c,
                              check=expect(env_c, sid, "queued", wait_worker=True)))
            cpu: dict = {}
            times = harness.measure(cases, opts.runs, cpu=cpu)
            done = len(os.listdir(os.path.join(paths.queue_dir(env_b), "done")))
            if done != 50_000:
                sys.exit(f"done/ holds {done} tasks, expected 50,000")
    harness.report(times, title="Stop hook")
    ok = harness.goal_lines(times, [(DEBOUNCED, BARE, 2.5), (HISTORY, DEBOUNCED, 1.25), (BIG, SMALL, 1.2)])
    harness.cpu_report(cpu)
    print("for information (wall time, then CPU time):")
    harness.goal_lines(times, [(HISTORY, BARE, 2.5), (SMALL, BARE, 2.5), (BIG, BARE, 2.5)])
    harness.goal_lines(cpu, [(DEBOUNCED, BARE, 2.5), (HISTORY, DEBOUNCED, 1.25), (BIG, SMALL, 1.2)], " in CPU time")
    return 1 if opts.check and not ok else 0


if __name__ == "__main__":
    sys.exit(main())
