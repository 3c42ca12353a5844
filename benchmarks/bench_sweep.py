"""Cost of the idle-session sweep in the SessionStart hook, with 1,000 and 10,000 sessions.

Each case is the command Claude Code runs, ``<python> -m lazy_harness.hooks SessionStart``, started
through a small launcher that first sets the sweep's throttle stamp: to "just swept" for the
throttled case (what nearly every SessionStart sees, since a sweep runs at most once a minute) or
to "long ago" so the sweep runs on every timed start. The launcher is the same for every hook case,
so the difference between two hook cases is the sweep alone. Each case has its own Claude dir:

- 1,000 open sessions: every one examined (marker read, transcript stat'ed), none idle yet;
- 10,000 open sessions: the cap (queue.sweep.SWEEP_CAP) bounds what one sweep examines;
- 10,000 closed sessions: the steady state, 30,000 gate state files and no open marker
  (a checked idle session's marker is removed, so history costs one listdir of state/open).

Nothing is queued by any timed run (the sessions are not idle), so every run sees the same data.
Goal: a due sweep adds at most 25 ms to SessionStart with 10,000 sessions of either kind.

    python benchmarks/bench_sweep.py [--runs 21] [--check]
"""

import json
import os
import statistics
import sys
import time

import harness
from harness import Case

from lazy_harness import queue

GOAL_MS = 25.0
THROTTLED = "SessionStart, sweep throttled (1,000 open)"
CASES = (("1,000 open", 1000, True), ("10,000 open", 10_000, True), ("10,000 closed", 10_000, False))
LAUNCH = ("import os, sys, time; t = time.time() - float(sys.argv[2]); os.utime(sys.argv[1], (t, t)); "
          "os.execv(sys.executable, [sys.executable, '-m', 'lazy_harness.hooks', 'SessionStart'])")


def build(claude: str, projects: str, count: int, open_markers: bool) -> str:
    """``count`` sessions with their gate state; open markers for each when ``open_markers``."""
    q = os.path.join(claude, "queue")
    queue.ensure_layout(q)
    state = os.path.join(q, "state")
    now = time.time()
    for i in range(count):
        sid = f"{i:08x}-0000-4000-8000-{i:012x}"
        transcript = os.path.join(projects, f"{sid}.jsonl")
        with open(transcript, "w") as fh:
            fh.write("{}\n")
        for kind, text in (("pending", f"{int(now * 1e9)}-{sid[:8]}.task\n{now!r}\n"),
                           ("done", f"{now - 60!r}\n{now!r}\ndistilled\n"), ("lock", "")):
            with open(os.path.join(state, f"{sid}.{kind}"), "w") as fh:
                fh.write(text)
        if open_markers:
            with open(os.path.join(state, "open", sid), "w") as fh:
                fh.write(queue.format_task({"session_id": sid, "transcript": transcript, "cwd": "/p"}))
    stamp = os.path.join(state, ".sweep")
    with open(stamp, "w") as fh:
        fh.write("\n")
    return stamp


def main() -> int:
    opts = harness.parse_args(__doc__)
    with harness.temp_home(opts.keep) as (root, env):
        cfg = os.path.join(env["HOME"], ".config", "lazy-harness", "config.toml")
        os.makedirs(os.path.dirname(cfg))
        with open(cfg, "w") as fh:
            fh.write("[compound_loop]\nenabled = true\n")
        project = os.path.join(root, "project")
        os.makedirs(project)
        payload = json.dumps({"session_id": "7d2f4c1a-0b3e-4f5a-9c8d-1e2f3a4b5c6d", "cwd": project,
                              "transcript_path": os.path.join(root, "t.jsonl"), "hook_event_name": "SessionStart",
                              "source": "startup"}).encode()
        cases = harness.bare_cases(env)
        started = time.perf_counter()
        for i, (label, count, open_markers) in enumerate(CASES):
            claude = os.path.join(root, f"claude-{i}")
            transcripts = os.path.join(root, f"transcripts-{i}")
            os.makedirs(transcripts)
            stamp = build(claude, transcripts, count, open_markers)
            case_env = dict(env, CLAUDE_CONFIG_DIR=claude)
            if i == 0:
                cases.append(Case(THROTTLED, [sys.executable, "-c", LAUNCH, stamp, "0"], payload, case_env))
            cases.append(Case(f"SessionStart, sweep due ({label})", [sys.executable, "-c", LAUNCH, stamp, "3600"],
                              payload, case_env))
        print(f"built {sum(c for _, c, _ in CASES):,} sessions in {time.perf_counter() - started:.1f} s under {root}")
        times = harness.measure(cases, opts.runs)
    harness.report(times, title="SessionStart with the idle-session sweep")
    base = statistics.median(times[THROTTLED])
    ok = True
    print(f"\nwhat a due sweep adds to SessionStart (median minus the throttled case's {base * 1000:.1f} ms):")
    for label, count, _ in CASES:
        added = (statistics.median(times[f"SessionStart, sweep due ({label})"]) - base) * 1000
        flag = "ok" if count < 10_000 or added <= GOAL_MS else f"MISSED (goal {GOAL_MS:.0f} ms)"
        ok = ok and "MISSED" not in flag
        print(f"  {label:<14} {added:7.1f} ms  {flag}")
    return 1 if opts.check and not ok else 0


if __name__ == "__main__":
    sys.exit(main())
