"""Shared plumbing for the scripts in benchmarks/: a throwaway HOME, interleaved timing of commands,
medians and ratios against a bare start of the same interpreter, measured in the same run.

A benchmark script builds its data under ``temp_home()``, describes each command as a ``Case`` and
calls ``measure()`` then ``report()``. Every case runs as a fresh process (that is what Claude Code
does with a hook), the cases take turns within each round (so a slow minute on the machine hits
them all), and the figures are medians. The baseline is ``python -c pass`` of ``sys.executable``;
``python -S -c pass`` (no site packages) is printed beside it for information, because on some
machines a ``.pth`` file in site-packages makes every bare start slower.

Needs lazy-harness installed in the interpreter that runs the script (``pip install -e .``): the
timed commands are child processes of ``sys.executable``; a hook runs as the command ``lh hooks
install`` writes (``hook_command``).
"""

import argparse
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass

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



def module_at(rev: str, path: str):
    """The module at ``path`` (from the repository's root) as it is at git revision ``rev``, loaded from a
    temporary file under a name of its own; its imports are the working tree's (``--against`` of the
    benchmarks that time one module's old version beside the new)."""
    import importlib.util

    source = subprocess.run(["git", "show", f"{rev}:{path}"], cwd=ROOT, capture_output=True, text=True,
                            check=True).stdout
    name = f"{os.path.splitext(os.path.basename(path))[0]}_{re.sub(r'[^A-Za-z0-9_]', '_', rev)}"
    where = os.path.join(tempfile.mkdtemp(prefix="bench_at_"), name + ".py")
    with open(where, "w", encoding="utf-8") as fh:
        fh.write(source)
    spec = importlib.util.spec_from_file_location(name, where)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # why: a dataclass in the module looks its module up there
    spec.loader.exec_module(module)
    return module

@dataclass
class Case:
    """One command to time. ``check`` looks at a finished run and raises if the output is wrong.
    ``inputs``: when given, each run takes the next of them as its stdin instead of ``stdin`` (a hook
    fed a different prompt each time, as a session feeds it)."""

    name: str
    argv: list[str]
    stdin: bytes = b""
    env: dict | None = None
    cwd: str | None = None
    check: Callable[[subprocess.CompletedProcess], None] | None = None
    inputs: tuple[bytes, ...] = ()
    runs: int = 0  # runs so far: which of ``inputs`` the next one takes

    def next_stdin(self) -> bytes:
        if not self.inputs:
            return self.stdin
        self.runs += 1
        return self.inputs[(self.runs - 1) % len(self.inputs)]


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
    from lazy_harness import hotload

    # why: what lh hooks install leaves for the user: the hooks' modules compiled into one file
    hotload.build(env=env)
    try:
        yield root, env
    finally:
        if keep:
            print(f"kept {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)


def hook_command(event: str) -> list[str]:
    """The command ``lh hooks install`` writes into settings.json for ``event``, as argv (what the
    install leaves beside it, the hooks' bundle, is written by :func:`temp_home`)."""
    import shlex

    from lazy_harness import settings

    command = settings.command_for(event)
    # why without the guard (`` || exit 0``, for an interpreter gone): it is the shell's, run only when the
    # command could not start; the baseline is timed without a shell too
    if command.endswith(settings.GUARD):
        command = command[:-len(settings.GUARD)]
    return shlex.split(command)


def bare_cases(env: dict) -> list[Case]:
    """The baseline (``python -c pass``) and, for information, the same without site-packages."""
    return [Case(BARE, [sys.executable, "-c", "pass"], env=env),
            Case(BARE_NO_SITE, [sys.executable, "-S", "-c", "pass"], env=env)]


def run_once(case: Case) -> float:
    """Wall time of one run in seconds; stops the benchmark when the command fails or its output is wrong."""
    return run_once_cpu(case)[0]


def run_once_cpu(case: Case) -> tuple[float, float]:
    """(wall time, CPU time) of one run in seconds. The CPU time (user + system of the child, from
    ``RUSAGE_CHILDREN``) hardly moves when other programs load the machine, so it backs up the
    wall-time medians; a worker the hook detaches is not its child's child any more and is not counted."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    proc = subprocess.run(case.argv, input=case.next_stdin(), capture_output=True, env=case.env, cwd=case.cwd)
    took = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if proc.returncode != 0:
        sys.exit(f"{case.name}: exit {proc.returncode}\n{proc.stderr.decode(errors='replace')[-2000:]}")
    if case.check is not None:
        case.check(proc)
    return took, cpu


def measure(cases: list[Case], runs: int, warmup: int = 2,
            cpu: dict[str, list[float]] | None = None) -> dict[str, list[float]]:
    """``runs`` timings per case, interleaved: each round runs every case once, starting one case
    later than the round before. ``warmup`` untimed rounds first (page cache, compiled config).
    When ``cpu`` is a dict it receives the CPU times of the same runs, by case name."""
    for _ in range(warmup):
        for case in cases:
            run_once(case)
    times: dict[str, list[float]] = {c.name: [] for c in cases}
    if cpu is not None:
        cpu.update({c.name: [] for c in cases})
    for r in range(runs):
        k = r % len(cases)
        for case in cases[k:] + cases[:k]:
            wall, used = run_once_cpu(case)
            times[case.name].append(wall)
            if cpu is not None:
                cpu[case.name].append(used)
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


# --- additions for bench_stop.py, bench_session_end.py and the other scripts -----------------------

def interpreter_note() -> str:
    """Which interpreter runs the figures: a virtualenv (what users and CI have) or a base install,
    and the ``.pth`` files of its site-packages (one that imports a module slows every bare start)."""
    import site

    venv = sys.prefix != sys.base_prefix
    pths = []
    for folder in site.getsitepackages():
        try:
            pths += sorted(n for n in os.listdir(folder) if n.endswith(".pth"))
        except OSError:
            pass
    import lazy_harness

    where = os.path.dirname(os.path.abspath(lazy_harness.__file__))
    kind = f"virtualenv {sys.prefix}" if venv else f"base interpreter {sys.prefix}"
    return (f"interpreter: {kind}; .pth files in site-packages: {', '.join(pths) or 'none'}\n"
            f"lazy_harness measured from: {where}")


def cpu_report(cpu: dict[str, list[float]]) -> None:
    """CPU time medians (user + system of each run) and their ratio to ``python -c pass``."""
    base = statistics.median(cpu[BARE])
    width = max(len(n) for n in cpu)
    print("CPU time of the same runs (steadier than wall time on a loaded machine):")
    for name, values in cpu.items():
        med = statistics.median(values)
        print(f"{name:<{width}}  {med * 1000:7.1f}ms  {med / base:5.2f}x bare")


def goal_lines(times: dict[str, list[float]], goals: list[tuple[str, str, float]], what: str = "") -> bool:
    """Print one ``PASS``/``MISS`` line per goal and return True when all pass.

    A goal is ``(case, reference, limit)``: the median of ``case`` divided by the median of
    ``reference`` (``BARE`` for the bare interpreter, or another case of the same run) must be at
    most ``limit``.
    """
    ok = True
    for case, ref, limit in goals:
        ratio = statistics.median(times[case]) / statistics.median(times[ref])
        met = ratio <= limit
        ok = ok and met
        print(f"{'PASS' if met else 'MISS'}  {case}: {ratio:.2f}x {ref}{what} (goal <= {limit:g}x)")
    return ok


def spawned_pid(hooks_log: str) -> int | None:
    """The worker pid the last hook run logged (``... (worker pid N) ...``), if any."""
    try:
        with open(hooks_log, encoding="utf-8") as fh:
            last = fh.read().splitlines()[-1]
    except (OSError, IndexError):
        return None
    at = last.find("worker pid ")
    if at < 0:
        return None
    digits = last[at + len("worker pid "):].split(")", 1)[0]
    return int(digits) if digits.isdigit() else None


def wait_gone(pid: int | None, timeout: float = 10.0) -> None:
    """Wait until process ``pid`` has exited (and been reaped), so a detached worker a hook spawned
    does not share the CPU with the next timed run."""
    if pid is None:
        return
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{pid}/stat", encoding="ascii") as fh:
                state = fh.read().rsplit(")", 1)[1].split()[0]
            if state == "Z":
                time.sleep(0.002)  # its parent (init or a subreaper) reaps it in a moment
                continue
        except (OSError, IndexError):
            return
        time.sleep(0.002)
    sys.exit(f"spawned worker {pid} still runs after {timeout} s")


@contextmanager
def worker_lock(claude_dir: str):
    """Hold the worker's lock (``<queue>/.worker.lock``) so the workers the hooks spawn find it taken
    and exit at once, leaving the queue as the hooks wrote it."""
    import fcntl

    q = os.path.join(claude_dir, "queue")
    os.makedirs(q, mode=0o700, exist_ok=True)
    fd = os.open(os.path.join(q, ".worker.lock"), os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        yield q
    finally:
        os.close(fd)


def write_config(env: dict, **loop) -> str:
    """Write ``config.toml`` for the HOME of ``env`` with the loop on and the given
    ``[compound_loop]`` keys; returns its path."""
    import json

    path = os.path.join(env["HOME"], ".config", "lazy-harness", "config.toml")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    lines = ["[compound_loop]", "enabled = true"] + [f"{k} = {json.dumps(v)}" for k, v in loop.items()]
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("\n".join(lines) + "\n")
    return path
