"""SessionStart when decisions.jsonl ends with a very long line, against the same memory without it.

Builds, in a temporary HOME, three projects with the same memory (2,000 decisions, 500 failures, a
handoff; 300 learnings shared): one as written, one whose decisions.jsonl then ends with a 60 MB line
(newline included), one whose decisions.jsonl ends with an unterminated 16 MB line (a write cut
short). Times the SessionStart command Claude Code runs for each, interleaved with ``python -c pass``,
and prints each long-line case's median against the normal one's, measured in the same run. Each run
checks what is shown: the newest decision for the normal memory; for the long lines, which are longer
than files.MAX_LINE + files.LONG_SCAN, the newest failure, and no decision (the tail stops at the long
line, issue 35, item 9). Goal (issue 26, item 3): at most 1.5x the normal case.

    python benchmarks/bench_long_line.py [--runs 21] [--check]
"""

import json
import os
import statistics
import sys
import time

import harness
from harness import Case

from lazy_harness.memory import files
from tests.support import memory_samples as ms

GOAL = 1.5
NORMAL = "SessionStart, normal memory"
LONG = "SessionStart, 60 MB last line"
TORN = "SessionStart, unterminated 16 MB line"
MB = 1 << 20


def append(path: str, head: bytes, size: int, end: bytes) -> None:
    """A line of ``size`` bytes in all (an object holding one long string) after what ``path`` holds."""
    with open(path, "ab") as fh:
        fh.write(head)
        left, chunk = size - len(head) - len(end), b"x" * MB
        while left > 0:
            fh.write(chunk[:left])
            left -= MB
        fh.write(end)


def main() -> int:
    opts = harness.parse_args(__doc__)
    with harness.temp_home(opts.keep) as (root, env):
        now = time.time()
        projects = {}
        for name in (NORMAL, LONG, TORN):
            slug = name.split(", ")[1].replace(" ", "-")
            project = ms.make_project(root, slug, branch="main")
            facts = ms.build_large(project, env, now, decisions=2_000, failures=500,
                                   learnings=300 if name == NORMAL else 0, name=slug)
            projects[name] = (project, facts)
        append(os.path.join(projects[LONG][1]["memory_dir"], files.DECISIONS), b'{"summary": "', 60 * MB, b'"}\n')
        append(os.path.join(projects[TORN][1]["memory_dir"], files.DECISIONS), b'{"summary": "', 16 * MB, b"")

        def payload(cwd: str) -> bytes:
            return json.dumps({"session_id": "7d2f4c1a-0b3e-4f5a-9c8d-1e2f3a4b5c6d", "cwd": cwd,
                               "transcript_path": f"{root}/t.jsonl", "hook_event_name": "SessionStart",
                               "source": "startup", "model": "claude-sonnet-4-5"}).encode()

        def shows(newest: str, absent: str | None = None):
            def check(proc) -> None:
                text = json.loads(proc.stdout)["hookSpecificOutput"]["additionalContext"]
                if newest not in text or len(text) > 6000 or (absent is not None and absent in text):
                    sys.exit(f"unexpected SessionStart output: {text[:300]!r}")
            return check

        hook = harness.hook_command("SessionStart")
        cases = harness.bare_cases(env) + [
            Case(name, hook, payload(project), env,
                 check=shows(facts["newest_decision"]) if name == NORMAL
                 else shows(facts["newest_prevention"], facts["newest_decision"]))
            for name, (project, facts) in projects.items()]
        for case in cases[2:]:
            print(f"one run, {case.name}: {harness.run_once(case) * 1000:.0f} ms")
        times = harness.measure(cases, opts.runs)
    harness.report(times, title="SessionStart with a long last line in decisions.jsonl")
    normal = statistics.median(times[NORMAL])
    ok = True
    for name in (LONG, TORN):
        ratio = statistics.median(times[name]) / normal
        met = ratio <= GOAL
        ok = ok and met
        print(f"{name}: {ratio:.2f}x the normal memory (goal <= {GOAL:g}x {'met' if met else 'MISSED'})")
    return 1 if opts.check and not ok else 0


if __name__ == "__main__":
    sys.exit(main())
