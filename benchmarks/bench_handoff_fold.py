"""The handoff read-back's cost as the item log grows: ``memory.handoff.load`` on logs of 0 to 10,000 records.

The SessionStart hook folds ``handoff.jsonl`` whole (every open and close record) and reads
``handoff.md`` to see hand edits. The log grows by one line per item opened or closed, so a project
reaches a few hundred records in months of daily use; this measures how that cost grows (CPU time
of the process, so other processes on a shared machine do not count). Each size has a rendered
handoff.md with 20 open items beside it. Goal: under 5 ms at 200 records; the cost is linear in
the log's size beyond that (measured: 1.5 ms at 200, 21 ms at 2,000, 111 ms at 10,000 records on
a shared 2-core machine under load). What SessionStart actually reads is the open-items cache every
writer leaves beside the log (``handoff.open_for_reading``): flat, about 0.07 ms at any size; the
fold happens only after a hand edit, a sync or a crash between the log write and the render.

    python benchmarks/bench_handoff_fold.py [--runs 20] [--sizes 0,200,2000,10000] [--check]
"""

import argparse
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))

from lazy_harness.memory import handoff  # noqa: E402

NOW = 1_760_000_000.0


def make(folder: str, n: int) -> None:
    """``n`` records: items opened and, all but the last 20, closed a day later."""
    os.makedirs(folder, exist_ok=True)
    items = max(20, (n + 20) // 2)
    recs = []
    for i in range(items):
        text = f"open item number {i}: check the retry backoff of the worker after the queue change"
        recs.append(handoff.record("open", text, f"session-{i % 50}", f"task-{i}", NOW + i * 60))
        if i < items - 20 and len(recs) < n:
            recs.append(handoff.record("close", text, f"session-{(i + 1) % 50}", f"task-{i}c", NOW + i * 60 + 86400))
    handoff.append(folder, recs[:max(n, 20)])
    handoff.write_markdown(folder, {"session_id": "s", "task_id": "t", "project": "bench"}, NOW + items * 60)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--sizes", default="0,200,2000,10000")
    ap.add_argument("--check", action="store_true", help="exit 1 when the goal is missed")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        print(f"{'records':>8}  {'log KB':>7}  {'fold median ms':>14}  {'max':>7}  {'cached median ms':>16}")
        for n in sizes:
            folder = os.path.join(tmp, f"m{n}")
            if n:
                make(folder, n)
            else:
                os.makedirs(folder)
            size = os.path.getsize(os.path.join(folder, handoff.STATE)) if n else 0
            times = []
            for _ in range(args.runs):
                t = time.process_time()  # why: CPU time; a shared machine's wall time counts other processes' turns
                state, _ = handoff.load(folder)
                handoff.open_items(state)
                times.append((time.process_time() - t) * 1000)
            med = statistics.median(times)
            cached = []
            for _ in range(args.runs):  # what SessionStart reads after a writer rendered the handoff
                t = time.process_time()
                handoff.open_for_reading(folder)
                cached.append((time.process_time() - t) * 1000)
            print(f"{n:>8}  {size / 1024:>7.0f}  {med:>14.2f}  {max(times):>7.2f}  {statistics.median(cached):>16.2f}")
            if n == 200 and med > 5:
                ok = False
    return 0 if ok or not args.check else 1


if __name__ == "__main__":
    sys.exit(main())
