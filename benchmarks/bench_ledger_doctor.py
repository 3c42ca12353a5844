"""What a long spend ledger costs ``lh doctor``, ``lh cost`` and the worker's cap check (cost/ledger.py).

A busy machine writes 250,000 ledger lines a month (about 110 MB; each signed with its spend key, ADR
0065). ``lh doctor`` reads the whole ledger for its damaged and claimed lines (``ledger.unread``) and
the month back for the spend it shows (``budget.spend``, which the worker also asks before each task).
Printed: the medians, wall and CPU (the CPU time hardly moves when other programs load the machine), of

- ``lh doctor``, ``lh cost``: the whole command, a fresh process each run;
- ``ledger.unread``, ``budget.spend``: the two reads alone, in this process.

The ledger is written as ``ledger.record`` writes it, this machine's lines of this month, from its
first day to now. ``--against REV`` also times the two reads of cost/ledger.py as it is at git revision
REV (its imports are this tree's), in turns with this tree's, so a loaded machine slows both alike.

    python benchmarks/bench_ledger_doctor.py [--lines 250000] [--runs 5] [--against REV]
"""

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

DIRS = (("XDG_CONFIG_HOME", "config"), ("XDG_DATA_HOME", "data"), ("XDG_CACHE_HOME", "cache"),
        ("XDG_STATE_HOME", "state"), ("CLAUDE_CONFIG_DIR", "claude"))


def _isolate(root: str) -> None:
    """Every state folder of lazy-harness under ``root`` (never the real home)."""
    os.environ["HOME"] = os.path.join(root, "home")
    for var, sub in DIRS:
        os.environ[var] = os.path.join(root, sub)
        os.makedirs(os.environ[var], exist_ok=True)
    for var in [k for k in os.environ if k.startswith("LH_") or k.startswith("LAZY_HARNESS")]:
        del os.environ[var]


def _build(n: int) -> str:
    """A ledger of ``n`` lines signed with this machine's key, dated from the month's first day to now."""
    from lazy_harness import logfile, paths
    from lazy_harness.cost import budget, own

    keys = own.ring(None, lambda since: [], make=True)
    now = time.time()
    start = budget.month_start(now)
    path = paths.ledger_file()
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        for i in range(n):
            ts = start + (now - 60 - start) * i / n
            line = {"time": logfile.stamp(ts), "ts": round(ts, 3), "project": f"project-{i % 7}",
                    "session": f"{i // 5:08d}-5555-4555-8555-555555555555", "task": f"{i:020d}-{i % 997}",
                    "kind": "distill", "model": "claude-sonnet-4-5", "input_tokens": 1200 + i % 300,
                    "output_tokens": 300, "cache_creation_tokens": 0, "cache_read_tokens": 5000,
                    "total_cost_usd": 1e-05 * (1 + i % 5), "cost_reported": True, "cost_source": "reported",
                    "duration_s": 9.5, "outcome": "ok", "prompt_chars": 12000, "call": f"c-{i:012d}"}
            fh.write(keys.sign(json.dumps(line, separators=(",", ":"))) + "\n")
    return path


def _timed(fn) -> tuple[float, float]:
    """(wall, CPU) seconds of ``fn()``, its children's CPU included."""
    def cpu() -> float:
        own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime

    c0, w0 = cpu(), time.perf_counter()
    fn()
    return time.perf_counter() - w0, cpu() - c0


def _doctor() -> None:
    proc = subprocess.run([sys.executable, "-m", "lazy_harness", "doctor"], capture_output=True, text=True)
    if proc.returncode not in (0, 1) or "spend:" not in proc.stdout:  # 1: a check failed (no hooks installed)
        sys.exit(f"lh doctor: exit {proc.returncode}\n{proc.stdout[-2000:]}{proc.stderr[-2000:]}")


def _cost() -> None:
    proc = subprocess.run([sys.executable, "-m", "lazy_harness", "cost"], capture_output=True, text=True)
    if proc.returncode != 0 or "this month" not in proc.stdout:
        sys.exit(f"lh cost: exit {proc.returncode}\n{proc.stdout[-2000:]}{proc.stderr[-2000:]}")


def _older(rev: str, budget) -> dict:
    """The two reads as cost/ledger.py at ``rev`` does them: its ``unread``, and the month's read of
    ``budget.spend`` (this machine's lines of the month, parsed as that version parses them)."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from harness import module_at

    old = module_at(rev, "src/lazy_harness/cost/ledger.py")
    since = min(budget.day_start(time.time()), budget.month_start(time.time()))
    return {f"ledger.unread at {rev}": old.unread,
            f"month's read at {rev}": lambda: old.read_since(since, None, mine=True)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--lines", type=int, default=250_000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--against", metavar="REV", help="also time cost/ledger.py as it is at this git revision")
    args = ap.parse_args()
    root = tempfile.mkdtemp(prefix="lh-bench-ledger-")
    try:
        _isolate(root)
        from lazy_harness.cost import budget, ledger

        path = _build(args.lines)
        print(f"ledger: {args.lines:,} lines this month, {os.path.getsize(path) / 1e6:.0f} MB; {args.runs} runs "
              f"each; python {sys.version.split()[0]}; {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}")
        cases = {"lh doctor": _doctor, "lh cost": _cost, "ledger.unread": ledger.unread,
                 "budget.spend": lambda: budget.spend(None, time.time())}
        if args.against:
            cases.update(_older(args.against, budget))
        for fn in cases.values():
            fn()  # warm: the page cache, compiled modules
        got: dict[str, list[tuple[float, float]]] = {name: [] for name in cases}
        for _ in range(args.runs):  # in turns: a slow minute on the machine hits every case
            for name, fn in cases.items():
                got[name].append(_timed(fn))
        for name, times in got.items():
            print(f"  {name:<24} median wall {statistics.median(w for w, _ in times):6.2f} s   "
                  f"CPU {statistics.median(c for _, c in times):6.2f} s")
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
