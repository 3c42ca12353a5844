"""How long ``lh memory held`` and ``lh status`` take on six months of memory: the hold check's verdicts
kept per text, and this week's usage read from the lines that can fall in it.

Builds, in a temporary HOME, a project of realistic text (tests/support/realistic_memory.py: 5,000
decisions, 2,500 failures, 1,500 learnings over a year, 50 open items) and a usage.jsonl of 100,000
lines over 180 days (bench_ui_page.py's), then prints:

- ``held_review.listing`` (what ``lh memory held`` and ``lh status`` list): the first call, which works every
  verdict out and keeps it, then the median of the next ``--runs`` (each text looked up, not checked);
- this week's usage: the whole file read and tallied (``tally(read(...))``, what ``lh status`` did
  before) against ``usage_log.this_week``, which parses only the lines that can fall in the week;
- ``lh memory held`` and ``lh status`` as a person runs them (a subprocess each), twice.

    python benchmarks/bench_held_status.py [--runs 5] [--usage-lines 100000]
"""

import argparse
import os
import statistics
import subprocess
import sys
import time

import harness
from bench_ui_page import write_usage

from tests.support import realistic_memory as rm


def timed(fn, runs: int) -> tuple[float, float]:
    """(the first call, the median of the next ``runs``) in ms."""
    times = []
    for _ in range(runs + 1):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return times[0], statistics.median(times[1:])


def lh(args: list[str], cwd: str, env: dict) -> float:
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "lazy_harness", *args], cwd=cwd, env=env, capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr
    return (time.perf_counter() - t0) * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--usage-lines", type=int, default=100_000)
    opts = parser.parse_args()
    with harness.temp_home(False) as (root, env):
        os.environ.clear()
        os.environ.update(env)  # why: the tests' helpers resolve paths from the process environment
        from lazy_harness import paths
        from lazy_harness.memory import held_review, usage_log

        now = time.time()
        big = os.path.join(root, "big-project")
        os.makedirs(os.path.join(big, ".git"))
        made = rm.build(big, env, now, entries=9_000)
        mdir, ldir = made["memory_dir"], made["learnings_dir"]
        write_usage(mdir, opts.usage_lines, now)
        print(f"built {made['decisions']:,} decisions, {made['failures']:,} failures, {made['learnings']:,} "
              f"learnings, {opts.usage_lines:,} usage lines")
        first, then = timed(lambda: held_review.listing(mdir, ldir), opts.runs)
        print(f"held_review.listing   first {first:8.1f} ms (every verdict worked out)  then median {then:7.1f} ms")
        before = statistics.median(timed(lambda: usage_log.tally(usage_log.read(mdir), since=now - usage_log.WEEK)
                                         .totals(), opts.runs))
        after = statistics.median(timed(lambda: usage_log.this_week(mdir, now), opts.runs))
        assert usage_log.this_week(mdir, now) == usage_log.tally(usage_log.read(mdir), since=now - usage_log.WEEK
                                                                 ).totals()
        print(f"usage this week       before {before:8.1f} ms (whole file)  after {after:7.1f} ms")
        os.remove(held_review.listing_verdicts(mdir).path)
        for args in (["memory", "held"], ["status"]):
            runs = [lh(args, big, env) for _ in range(2)]
            print(f"lh {' '.join(args):<18} first {runs[0]:8.1f} ms  second {runs[1]:7.1f} ms")
        print(f"(memory: {paths.memory_dir(big)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
