"""How long the worker takes to find (or not find) the answer in ``claude -p``'s output, whole and cut
short, against an older version of worker/answer_parse.py measured in the same run.

The output is what ``claude -p --output-format json`` prints: one envelope whose ``result`` is the
model's answer as text (an answer object of decisions, failures, learnings and open items, sentences
drawn from tests/fixtures/redact_corpus.txt, so quotes and brackets of code are in it). Cut short is
that output with its end missing (a process killed while it wrote, a pipe closed early): the worker
must say there is no answer, in time that grows with the output's length, not with its square (the
worker holds its lock meanwhile). Sizes: about 25, 50 and 100 KB.
The figures are medians of in-process wall time; the last column is how much longer a size took than
half of it (2.0 is linear).

    python benchmarks/bench_answer_parse.py [--runs 9] [--against REV]
"""

import argparse
import json
import os
import random
import statistics
import sys
import time

import harness

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIZES = (25_000, 50_000, 100_000)


def load(rev: str | None):
    if rev is None:
        from lazy_harness.worker import answer_parse
        return answer_parse
    return harness.module_at(rev, "src/lazy_harness/worker/answer_parse.py")


def output(size: int) -> str:
    """A ``claude -p`` envelope of about ``size`` characters."""
    with open(os.path.join(ROOT, "tests", "fixtures", "redact_corpus.txt"), encoding="utf-8") as fh:
        lines = [ln.strip() for ln in fh if ln.strip()]
    r = random.Random(size)
    decisions: list[dict] = []
    answer = {"decisions": decisions, "failures": [], "learnings": [], "handoff": ["Finish the migration"]}
    while len(json.dumps(json.dumps(answer))) < size:
        decisions.append({"summary": r.choice(lines)[:160], "rationale": " ".join(r.sample(lines, 3))[:600],
                          "tags": ["db", "pool"], "cues": [r.choice(lines)[:60]]})
    return json.dumps({"type": "result", "subtype": "success", "is_error": False, "result": json.dumps(answer),
                       "total_cost_usd": 0.21})


def timed(module, text: str) -> float:
    started = time.perf_counter()
    try:
        module.parse_envelope(text)
    except Exception as exc:  # the cut output: the worker's ModelError, whatever the version names it
        if type(exc).__name__ != "ModelError":
            raise
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--against", metavar="REV", help="also time answer_parse.py as it is at this git revision")
    opts = parser.parse_args()
    versions = {"this tree": load(None)}
    if opts.against:
        versions[opts.against] = load(opts.against)
    cases = {}
    for size in SIZES:
        whole = output(size)
        cases[f"whole {size // 1000} KB"] = whole
        cases[f"cut {size // 1000} KB"] = whole[:len(whole) - 40]
    times: dict[tuple[str, str], list[float]] = {(v, c): [] for v in versions for c in cases}
    for _ in range(opts.runs):
        for case, text in cases.items():
            for name, module in versions.items():
                times[(name, case)].append(timed(module, text))
    print(f"Python {sys.version.split()[0]}, {opts.runs} runs, medians (ms); x half: against the size half as long")
    print(f"{'version':12} {'case':14} {'median':>10} {'x half':>8}")
    for name in versions:
        for case in cases:
            med = statistics.median(times[(name, case)]) * 1000
            kind, size = case.split()[0], int(case.split()[1])
            half = f"{kind} {size // 2} KB"
            ratio = f"{med / (statistics.median(times[(name, half)]) * 1000):8.1f}" if half in cases else ""
            print(f"{name:12} {case:14} {med:10.2f} {ratio:>8}")


if __name__ == "__main__":
    main()
