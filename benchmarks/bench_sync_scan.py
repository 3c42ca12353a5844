"""Cost of the sync's secret scan (sync/scan.py ``_added_secrets``) on a first ``lh sync``: every line
of memory is new, so every line is scanned (docs/how/sync.md, "What the scan reads").

Two files like a heavy user's: a usage.jsonl of about ``--mb`` MB (sessions of one ``session`` line and
29 ``shown`` lines, a ``used`` line with its evidence every seventh session, as worker/usage.py
writes them) and a decisions.jsonl of ``--decisions`` decisions whose words come from real technical
text (tests/support/realistic_memory.py). Printed, in seconds (median of ``--runs``):

- ``per line``: the redactor once per added line, then each run read together (the scan before);
- ``blocks``: ``_added_secrets`` as it is;

and what each found (both must be the same list).

    python benchmarks/bench_sync_scan.py [--mb 11] [--decisions 3000] [--runs 3]
"""

import argparse
import json
import os
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT]


def usage_lines(mb: float) -> list[str]:
    from lazy_harness.memory import usage_log

    out: list[str] = []
    start, size, s = time.time() - 180 * 86400, 0, 0
    while size < mb * 1e6:
        at, sid = start + s * 600, f"5f0c{s:08x}-aa41-4c1e-9f0e-{s * 7919:012x}"
        rows = [usage_log.line("session", at, session=sid, chars=4000)]
        rows += [usage_log.line("shown", at, session=sid, id=f"d-{(s * 29 + k) % 3000:08x}", chars=130)
                 for k in range(29)]
        if s % 7 == 0:
            rows.append(usage_log.line("used", at + 60, session=sid, id=f"d-{s % 3000:08x}",
                                       evidence=f"pytest tests/test_sync.py -k round_{s}"))
        for r in rows:
            out.append(json.dumps(r, ensure_ascii=False, separators=(", ", ": ")))
            size += len(out[-1]) + 1
        s += 1
    return out


def decision_lines(n: int) -> list[str]:
    from lazy_harness.memory import entries
    from tests.support.realistic_memory import Writer

    words, now = Writer(seed=11), time.time()
    return [json.dumps(entries.record("decision", {"summary": words.sentence(6, 14), "rationale": words.text(15, 40),
                                                   "tags": words.tags(), "cues": words.cues()},
                                      {"project": "bigapp", "session_id": f"s{k}", "task_id": f"t{k}"},
                                      now - k * 3000), ensure_ascii=False) for k in range(n)]


def diff_of(name: str, lines: list[str]) -> str:
    return (f"diff --git a/{name} b/{name}\n--- /dev/null\n+++ b/{name}\n@@ -0,0 +1,{len(lines)} @@\n"
            + "".join("+" + ln + "\n" for ln in lines))


def per_line(lines: list[str], name: str) -> list[str]:
    """The scan before: the redactor once per line, then the run read together when no line matched."""
    from lazy_harness.redact import redact
    from lazy_harness.sync import scan

    found = [f"{name}:{k + 1}" for k, ln in enumerate(lines) if scan._holds_secret(ln, (), redact)]
    if not found and len(lines) > 1 and redact("\n".join(lines))[1]:
        found.append(f"{name}:1")
    return found


def timed(fn, runs: int) -> tuple[float, object]:
    took, got = [], None
    for _ in range(runs):
        t = time.perf_counter()
        got = fn()
        took.append(time.perf_counter() - t)
    return statistics.median(took), got


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mb", type=float, default=11.0)
    ap.add_argument("--decisions", type=int, default=3000)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    from lazy_harness.sync import scan

    for name, lines in (("usage.jsonl", usage_lines(args.mb)), ("decisions.jsonl", decision_lines(args.decisions))):
        diff = diff_of(name, lines)
        before, old = timed(lambda lines=lines, name=name: per_line(lines, name), args.runs)
        after, new = timed(lambda diff=diff: scan._added_secrets(diff), args.runs)
        print(f"{name}: {len(diff) / 1e6:.1f} MB, {len(lines)} lines: per line {before:.2f} s, "
              f"blocks {after:.2f} s ({before / max(after, 1e-9):.0f}x); found {old} / {new}")


if __name__ == "__main__":
    main()
