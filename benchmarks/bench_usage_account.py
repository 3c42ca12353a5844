"""Cost of the usage accounting of one distilled session (worker/usage.py) and of ``lh memory usage``'s
count against a long usage.jsonl (ADR 0036, docs/how/usage.md).

usage.jsonl only grows: a heavy user's year is about 10,000 sessions of 30 showings, 300,000 lines
(33 MB). The accounting reads it once per distilled session (``usage_log.record``: what is new, then
the ranks from the same read); before, it read it twice. Printed: the medians of

- ``read once``: ``usage_log.read`` of the file alone, the baseline measured in the same run;
- ``read twice``: what the accounting did before (``read``, then ``refresh_ranks``, which reads again);
- ``account``: ``worker.usage.account`` of a new session (its showings, its transcript, the append,
  the ranks);
- ``lh memory usage count``: ``tally`` of the records and its report, as the command does.

    python benchmarks/bench_usage_account.py [--lines 300000] [--runs 5]
"""

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _isolate(root: str) -> None:
    """Every state folder of lazy-harness under ``root`` (never the real home)."""
    os.environ["HOME"] = os.path.join(root, "home")
    for var, sub in (("XDG_CONFIG_HOME", "config"), ("XDG_DATA_HOME", "data"), ("XDG_CACHE_HOME", "cache"),
                     ("XDG_STATE_HOME", "state"), ("CLAUDE_CONFIG_DIR", "claude")):
        os.environ[var] = os.path.join(root, sub)
        os.makedirs(os.environ[var], exist_ok=True)
    for var in [k for k in os.environ if k.startswith("LH_") or k.startswith("LAZY_HARNESS")]:
        del os.environ[var]


def _build(mdir: str, n_lines: int) -> list[str]:
    """A usage.jsonl of ``n_lines`` lines: sessions of one ``session`` line and 29 showings, drawn from
    3,000 entries; returns four entry ids that each session was shown."""
    from lazy_harness.memory import usage_log

    os.makedirs(mdir, exist_ok=True)
    four = [f"d-{k:08x}" for k in range(4)]
    start = time.time() - 300 * 86400
    with open(usage_log.path_of(mdir), "w", encoding="utf-8") as fh:
        for s in range(n_lines // 30):
            at = start + s * 2000
            rows = [usage_log.line("session", at, session=f"s{s:06d}", chars=4000)]
            rows += [usage_log.line("shown", at, session=f"s{s:06d}", chars=130,
                                    id=four[k] if k < 4 else f"d-{(s * 29 + k) % 3000:08x}") for k in range(29)]
            if s % 7 == 0:
                rows.append(usage_log.line("used", at + 60, session=f"s{s:06d}", id=four[s % 4], evidence="echo hi"))
            fh.write("".join(json.dumps(r) + "\n" for r in rows))
    return four


def _transcript(root: str) -> str:
    src = os.path.join(ROOT, "tests", "fixtures", "transcripts", "interactive.jsonl")
    dst = os.path.join(root, "session.jsonl")
    shutil.copyfile(src, dst)
    return dst


def _median(fn, runs: int) -> float:
    times = []
    for k in range(runs):
        t0 = time.perf_counter()
        fn(k)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--lines", type=int, default=300_000)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    root = tempfile.mkdtemp(prefix="lh-bench-usage-")
    try:
        _isolate(root)
        from lazy_harness import paths
        from lazy_harness.memory import usage, usage_log
        from lazy_harness.worker import usage as accounting

        mdir = os.path.join(root, "memory", "proj")
        four = _build(mdir, args.lines)
        transcript = _transcript(root)
        size = os.path.getsize(usage_log.path_of(mdir)) / 1e6
        print(f"usage.jsonl: {args.lines:,} lines, {size:.1f} MB; {args.runs} runs each; "
              f"python {sys.version.split()[0]}")

        def account(k: int) -> None:
            sid = f"bench-{k:04d}-{time.time_ns()}"
            usage.note(None, sid, "startup", 500, [(i, 100) for i in four], time.time() - 60, mdir)
            accounting.account(sid, transcript, {}, mdir, paths.learnings_dir(), None, time.time())

        cases = {
            "read once (baseline)": lambda k: usage_log.read(mdir),
            "read twice (before)": lambda k: (usage_log.read(mdir), usage_log.refresh_ranks(None, mdir)),
            "account one session": account,
            "lh memory usage count": lambda k: usage_log.tally(usage_log.read(mdir),
                                                             into=usage_log.merged_into(mdir)).report(),
        }
        got = {name: _median(fn, args.runs) for name, fn in cases.items()}
        base = got["read once (baseline)"]
        for name, secs in got.items():
            print(f"  {name:<24} median {secs:7.3f} s   {secs / base:5.2f} x baseline")
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
