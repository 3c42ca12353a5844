"""SessionStart hook cost on a large memory, against a bare start of the same interpreter.

Builds, in a temporary HOME, a project with 10,000 decisions, 5,000 failures, 3,000 learnings spread
over a year and a handoff, plus a project with no memory. Then times the command Claude Code runs,
``<python> -m lazy_harness.hooks SessionStart`` with the JSON payload on stdin, for each project,
interleaved with ``python -c pass``. Goal (issues 5 and 7): at most 3 times ``python -c pass``.

    python benchmarks/bench_session_start.py [--runs 21] [--check]
"""

import json
import sys
import time

import harness
from harness import Case

from tests.support import memory_samples as ms

GOAL = 3.0
LARGE = "SessionStart, large memory"
EMPTY = "SessionStart, empty project"


def main() -> int:
    opts = harness.parse_args(__doc__)
    with harness.temp_home(opts.keep) as (root, env):
        now = time.time()
        big = ms.make_project(root, "big-project", branch="feature/read-back")
        empty = ms.make_project(root, "empty-project", branch="main")
        started = time.perf_counter()
        facts = ms.build_large(big, env, now, name="big-project")
        print(f"built 10,000 decisions, 5,000 failures, 3,000 learnings and a handoff in "
              f"{time.perf_counter() - started:.1f} s under {root}")

        def payload(cwd: str) -> bytes:
            return json.dumps({"session_id": "7d2f4c1a-0b3e-4f5a-9c8d-1e2f3a4b5c6d", "cwd": cwd,
                               "transcript_path": f"{root}/t.jsonl", "hook_event_name": "SessionStart",
                               "source": "startup", "model": "claude-sonnet-4-5"}).encode()

        def has_context(proc) -> None:
            text = json.loads(proc.stdout)["hookSpecificOutput"]["additionalContext"]
            if facts["newest_decision"] not in text or len(text) > 6000:
                sys.exit(f"unexpected SessionStart output: {text[:300]!r}")

        def silent(proc) -> None:
            if proc.stdout:
                sys.exit(f"the empty project got output: {proc.stdout[:300]!r}")

        hook = harness.hook_command("SessionStart")
        cases = harness.bare_cases(env) + [
            Case(LARGE, hook, payload(big), env, check=has_context),
            Case(EMPTY, hook, payload(empty), env, check=silent),
        ]
        sample = harness.run_once(cases[2])
        print(f"one SessionStart run on the large memory: {sample * 1000:.0f} ms")
        times = harness.measure(cases, opts.runs)
    ok = harness.report(times, goals={LARGE: GOAL, EMPTY: GOAL}, title="SessionStart")
    return 1 if opts.check and not ok else 0


if __name__ == "__main__":
    sys.exit(main())
