"""One persist (``memory.store.persist``) with its undo record (ADR 0021), on a memory of 5,000 decisions.

Each run writes a typical answer: 3 decisions, 1 failure, 1 learning and 2 handoff items. The undo
record adds one small file written before the first append, a line per learning, and an unlink;
the rest of a persist (the de-duplication scan, the fsynced appends, the handoff render) is what it
was. Figures are in-process, wall and CPU time, median and best; the fsyncs make the wall time
depend on the disk (tmpfs or page cache: milliseconds; a laptop SSD: a few more).

    python benchmarks/bench_persist.py [--runs 30] [--entries 5000]
"""

import argparse
import os
import statistics
import tempfile
import time


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--entries", type=int, default=5000)
    args = ap.parse_args()
    home = tempfile.mkdtemp(prefix="lh-bench-persist-")
    os.environ["HOME"] = home
    for var in ("XDG_DATA_HOME", "CLAUDE_CONFIG_DIR", "XDG_CONFIG_HOME"):
        os.environ.pop(var, None)
    from lazy_harness import paths
    from lazy_harness.memory import store

    mdir, ldir = os.path.join(paths.memory_root(), "bench"), paths.learnings_dir()
    os.makedirs(mdir)
    for i in range(0, args.entries, 100):
        store.persist({"decisions": [{"summary": f"earlier decision {i + j} on the queue", "context": "c" * 300}
                                     for j in range(100)]}, mdir, ldir, {"project": "bench"}, 1e9 + i)
    wall, cpu = [], []
    for i in range(args.runs):
        answer = {"decisions": [{"summary": f"decision {i}.{j} keeps the queue in files", "context": "c" * 300}
                                for j in range(3)],
                  "failures": [{"summary": f"failure {i}: a lock was held", "prevention": "a timeout"}],
                  "learnings": [{"title": f"learning {i} on locks", "learning": "take them in one order"}],
                  "handoff": [f"follow up {i} a", f"follow up {i} b"]}
        t, c = time.perf_counter(), time.process_time()
        store.persist(answer, mdir, ldir, {"project": "bench", "session_id": "s", "task_id": "t"}, 1.7e9 + i)
        wall.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    print(f"persist on {args.entries} decisions, {args.runs} runs: wall median {statistics.median(wall) * 1000:.1f} ms "
          f"(best {min(wall) * 1000:.1f}), CPU median {statistics.median(cpu) * 1000:.1f} ms "
          f"(best {min(cpu) * 1000:.1f})")


if __name__ == "__main__":
    main()
