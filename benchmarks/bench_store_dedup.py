"""Cost of the store's de-duplication scan (``memory.entries.recorded``) on 10,000 entries.

Every persist scans decisions.jsonl and failures.jsonl in full (the file is its own index, so a crash
between two appends can never leave an index out of step). This times that scan on two files of
10,000 entries: typical entries (~1 KB), entries at the answer caps (~6 KB), and a worst case where
every summary holds an escape and a non-ASCII character. Goal: about 50 ms for typical entries.
Figures are the best of several runs, in-process, wall and CPU time.

    python benchmarks/bench_store_dedup.py [--runs 7]
"""

import argparse
import json
import os
import random
import tempfile
import time
from functools import partial

from lazy_harness.memory import entries
from lazy_harness.memory.sanitize import normalise

WORDS = ["the", "queue", "worker", "uses", "a", "lock", "file", "and", "renames", "tasks", "into", "processing",
         "because", "it", "is", "atomic", '"quoted"', "path\\to", "é"]
PLAIN = WORDS[:16]
META = {"project": "p", "session_id": "s", "task_id": "t"}


def text(rnd: random.Random, n: int, words=WORDS) -> str:
    out, size = [], 0
    while size < n:
        w = rnd.choice(words)
        out.append(w)
        size += len(w) + 1
    return " ".join(out)


def build(folder: str, name: str, sizes: tuple[int, int, int], mixed: bool = True) -> tuple[str, list[str]]:
    rnd = random.Random(1)
    path, keys = os.path.join(folder, name), []
    with open(path, "w", encoding="utf-8") as fh:
        for i in range(10_000):
            # summaries: mostly plain; one in ten non-ASCII, one in ten with quotes or backslashes
            summary = f"Decision {i}: " + text(rnd, 90, PLAIN if mixed else WORDS)
            if mixed and i % 10 == 1:
                summary += " für die Übergabe"
            elif mixed and i % 10 == 2:
                summary += ' "quoted" C:\\path'
            elif not mixed:
                summary += " é"
            rec = entries.record("decision", {"summary": summary, "context": text(rnd, sizes[0]),
                                              "alternatives": [text(rnd, sizes[1])] * 3,
                                              "rationale": text(rnd, sizes[2]), "tags": ["a", "b"]}, META, 0.0)
            keys.append(normalise(rec["summary"]))
            fh.write(entries.json_line(rec) + "\n")
    return path, keys


def best(fn, runs: int) -> str:
    """Best wall and best CPU time in ms (CPU time is steadier on a busy machine)."""
    wall, cpu = [], []
    for _ in range(runs):
        t, c = time.perf_counter(), time.process_time()
        fn()
        wall.append((time.perf_counter() - t) * 1000)
        cpu.append((time.process_time() - c) * 1000)
    return f"{min(wall):6.1f} ms (cpu {min(cpu):5.1f})"


def naive(path: str) -> set[str]:
    """The obvious scan, for scale: parse every line in full."""
    with open(path, encoding="utf-8") as fh:
        return {normalise(json.loads(line)["summary"]) for line in fh}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    runs = parser.parse_args().runs
    with tempfile.TemporaryDirectory() as folder:
        for label, sizes, mixed in (("typical", (300, 60, 300), True), ("at caps", (2000, 600, 2000), True),
                                    ("escapes", (300, 60, 300), False)):
            path, keys = build(folder, f"{label}.jsonl", sizes, mixed)
            mb = os.path.getsize(path) / 1e6
            new = {"a decision never taken", "another new one"}
            present = set(keys[::2000])
            t_new = best(partial(entries.recorded, path, new), runs)
            t_old = best(partial(entries.recorded, path, present), runs)
            assert entries.recorded(path, present | new) == present
            t_naive = best(partial(naive, path), max(3, runs // 3))
            print(f"{label:8} 10,000 entries, {mb:5.1f} MB: 2 new summaries {t_new}, 5 already recorded {t_old}; "
                  f"for scale, json.loads of every line {t_naive}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
