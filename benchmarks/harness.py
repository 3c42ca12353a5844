"""Shared plumbing for the scripts in benchmarks/: a throwaway HOME, interleaved timing of commands,
medians and ratios against a bare start of the same interpreter, measured in the same run.

A benchmark script builds its data under ``temp_home()``, describes each command as a ``Case`` and
calls ``measure()`` then ``report()``. Every case runs as a fresh process (that is what Claude Code
does with a hook), the cases take turns within each round (so a slow minute on the machine hits
them all), and the figures are medians. The baseline is ``python -c pass`` of ``sys.executable``;
``python -S -c pass`` (no site packages) is printed beside it for information, because on some
machines a ``.pth`` file in site-packages makes every bare start slower.

Needs lazy-harness installed in the interpreter that runs the script (``pip install -e .``): the
timed commands are ``sys.executable -m ...`` child processes.
"""

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Callable

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MIN_RUNS = 15
BARE = "python -c pass"
BARE_NO_SITE = "python -S -c pass"
# variables that would point lazy-harness away from the temporary HOME, and PYTHONDONTWRITEBYTECODE:
# without cached bytecode every run compiles our modules again, which is not how an installed tool runs
DROPPED = ("CLAUDE_CONFIG_DIR", "LH_CONFIG", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME",
           "LH_WORKER_CALL", "CLAUDE_PROJECT_DIR", "PYTHONDONTWRITEBYTECODE")

if ROOT not in sys.path:
    sys.path.insert(0, ROOT)  # why: scripts build their data with the same builders as the tests (tests/support)


@dataclass
class Case:
    """One command to time. ``check`` looks at a finished run and raises if the output is wrong."""

    name: str
    argv: list[str]
    stdin: bytes = b""
    env: dict | None = None
    cwd: str | None = None
    check: Callable[[subprocess.CompletedProcess], None] | None = None


def parse_args(description: str, default_runs: int = 21) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=description,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=default_runs,
                        help=f"timed runs per case (at least {MIN_RUNS}; default {default_runs})")
    parser.add_argument("--check", action="store_true", help="exit 1 when a goal is missed")
    parser.add_argument("--keep", action="store_true", help="keep the temporary HOME and print where it is")
    opts = parser.parse_args()
    if opts.runs < MIN_RUNS:
        parser.error(f"--runs must be at least {MIN_RUNS}")
    return opts


@contextmanager
def temp_home(keep: bool = False):
    """Yields ``(root, env)``: a temporary folder and an environment whose HOME is ``root/home``, with
    every variable that could move lazy-harness state elsewhere removed (see DROPPED)."""
    root = tempfile.mkdtemp(prefix="lh-bench-")
    home = os.path.join(root, "home")
    os.makedirs(home)
    env = {k: v for k, v in os.environ.items() if k not in DROPPED}
    env["HOME"] = home
    try:
        yield root, env
    finally:
        if keep:
            print(f"kept {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)


def bare_cases(env: dict) -> list[Case]:
    """The baseline (``python -c pass``) and, for information, the same without site-packages."""
    return [Case(BARE, [sys.executable, "-c", "pass"], env=env),
            Case(BARE_NO_SITE, [sys.executable, "-S", "-c", "pass"], env=env)]


def run_once(case: Case) -> float:
    """Wall time of one run in seconds; stops the benchmark when the command fails or its output is wrong."""
    started = time.perf_counter()
    proc = subprocess.run(case.argv, input=case.stdin, capture_output=True, env=case.env, cwd=case.cwd)
    took = time.perf_counter() - started
    if proc.returncode != 0:
        sys.exit(f"{case.name}: exit {proc.returncode}\n{proc.stderr.decode(errors='replace')[-2000:]}")
    if case.check is not None:
        case.check(proc)
    return took


def measure(cases: list[Case], runs: int, warmup: int = 2) -> dict[str, list[float]]:
    """``runs`` timings per case, interleaved: each round runs every case once, starting one case
    later than the round before. ``warmup`` untimed rounds first (page cache, compiled config)."""
    for _ in range(warmup):
        for case in cases:
            run_once(case)
    times: dict[str, list[float]] = {c.name: [] for c in cases}
    for r in range(runs):
        k = r % len(cases)
        for case in cases[k:] + cases[:k]:
            times[case.name].append(run_once(case))
    return times


def report(times: dict[str, list[float]], goals: dict[str, float] | None = None, title: str = "") -> bool:
    """Prints medians, spread and ratios to ``python -c pass``; returns True when every goal is met."""
    goals = goals or {}
    base = statistics.median(times[BARE])
    no_site = statistics.median(times[BARE_NO_SITE]) if BARE_NO_SITE in times else None
    runs = min(len(v) for v in times.values())
    print(f"{title or 'benchmark'}: Python {platform.python_version()} ({sys.executable}), "
          f"{platform.system()} {platform.machine()}, {runs} interleaved runs per case")
    width = max(len(n) for n in times)
    print(f"{'case':<{width}}  {'median':>9}  {'min':>9}  {'max':>9}  {'x bare':>7}  {'x -S':>6}  goal")
    ok = True
    for name, values in times.items():
        med = statistics.median(values)
        ratio = med / base
        goal = goals.get(name)
        verdict = ""
        if goal is not None:
            met = ratio <= goal
            ok = ok and met
            verdict = f"<= {goal:g}x {'met' if met else 'MISSED'}"
        vs_s = f"{med / no_site:6.2f}" if no_site else "     -"
        print(f"{name:<{width}}  {med * 1000:7.1f}ms  {min(values) * 1000:7.1f}ms  {max(values) * 1000:7.1f}ms  "
              f"{ratio:7.2f}  {vs_s}  {verdict}")
    return ok
