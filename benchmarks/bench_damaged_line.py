"""How long reading one damaged line of a memory file takes (``memory/lines.py`` ``records_of``: every
reader of decisions.jsonl, failures.jsonl, handoff.jsonl and marks.jsonl goes through it, SessionStart
too), against an older version of the module measured in the same run.

The lines are up to the reader's limit (1 MiB) and as bad as a scribble or a hostile synced line can
make them: a run of "{", of '{"', of '{"a": 1, ' (an object's start that never ends), of "{}", and
of a key whose value is a bad escape, for the salvage that rebuilds a record from its string fields;
each at 250 KB and 1 MB, ending in a whole record (the last: in the fields that survived). Printed:
medians of in-process wall time and how much longer the 1 MB line took than the 250 KB one (4.0
grows with the length, 16 with its square).

    python benchmarks/bench_damaged_line.py [--runs 5] [--against REV]
"""

import argparse
import json
import statistics
import sys
import time

import harness

RECORD = json.dumps({"id": "d-1a2b3c4d", "ts": "2026-11-02T10:00:00Z", "summary": "Use the pooled connection"})
JUNK = {"braces": ("{", RECORD), "quoted braces": ('{"', RECORD), "open objects": ('{"a": 1, ', RECORD),
        "empty objects": ("{}", RECORD), "bad escapes": ('"summary": "\\q", ', '"id": "d-1a2b3c4d", "summary": "kept"')}
SIZES = (250_000, 1_000_000)


def load(rev: str | None):
    if rev is None:
        from lazy_harness.memory import lines
        return lines
    return harness.module_at(rev, "src/lazy_harness/memory/lines.py")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--against", metavar="REV", help="also time lines.py as it is at this git revision")
    opts = parser.parse_args()
    versions = {"this tree": load(None)}
    if opts.against:
        versions[opts.against] = load(opts.against)

    def repair(text: str) -> dict | None:  # a file kind's repair, as entries.py's: the fields that survived
        return versions_module.string_fields(text, ("id", "ts", "summary")) or None

    print(f"Python {sys.version.split()[0]}, {opts.runs} runs, medians (ms)")
    print(f"{'version':12} {'line':16} " + " ".join(f"{s // 1000:>7} KB" for s in SIZES) + "   x size")
    for name, module in versions.items():
        versions_module = module
        for label, (unit, tail) in JUNK.items():
            med = []
            for size in SIZES:
                raw = (unit * (size // len(unit)) + tail).encode()
                times = []
                for _ in range(opts.runs):
                    started = time.perf_counter()
                    module.records_of(raw, repair)
                    times.append(time.perf_counter() - started)
                med.append(statistics.median(times))
            print(f"{name:12} {label:16} " + " ".join(f"{m * 1000:10.1f}" for m in med) + f"   {med[1] / med[0]:6.1f}")


if __name__ == "__main__":
    main()
