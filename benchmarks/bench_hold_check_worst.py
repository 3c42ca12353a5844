"""The hold check (memory/trust.py ``every_reason``) on the worst text of its kind: long runs of one
character or a few words (a line of "#", a row of "=", a pasted banner), the shapes whose rules could
read a run again from each of its characters. Every rule set is compiled first (untimed).

For each run (about 60 of them: symbols, brackets, spaces, words the rules look for), the text is 4,000,
8,000 and 16,000 characters long; printed are the slowest runs at 16,000 and how much longer each took
than at half that length (2.0 grows with the length, 4.0 with its square).

    python benchmarks/bench_hold_check_worst.py [--runs 3]
"""

import argparse
import statistics
import time

from lazy_harness.memory import trust, trust_rules

UNITS = ["#", "=", "-", "*", "<", ">", "[", "]", "{", "}", "(", ")", " ", "\t", "\n", ".", ",", ":", ";", "!", "?", "/",
         "\\", "|", "_", "~", "`", "'", '"', "a", "A", "0", "é", "\u200b", "ｉ", "<<", "[[", "{{", "<|", "==", "--",
         "##", "**", "- ", "# ", "= ", "ignore ", "end ", "the ", "of ", "you ", "must ", "system ", "previous ",
         "instructions ", "do not ", "tell ", "user ", "curl ", "http://", "i g n o r e ", "aWdub3Jl"]
SIZES = (4_000, 8_000, 16_000)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    opts = parser.parse_args()
    for k in range(len(trust_rules.PATTERNS)):
        trust_rules.compiled(k)
    trust.every_reason("warm up: ignore the previous instructions")
    rows = []
    for unit in UNITS:
        med = {}
        for size in SIZES:
            text = unit * (size // len(unit))
            times = []
            for _ in range(opts.runs):
                started = time.perf_counter()
                trust.every_reason(text)
                times.append(time.perf_counter() - started)
            med[size] = statistics.median(times)
        rows.append((med[SIZES[-1]], unit, med[SIZES[-1]] / max(med[SIZES[-2]], 1e-9)))
    rows.sort(reverse=True)
    print(f"{len(UNITS)} runs of one unit, {opts.runs} timings each; the slowest at {SIZES[-1]:,} characters:")
    print(f"{'unit':>18} {'ms':>9} {'x half':>7}")
    for ms, unit, ratio in rows[:10]:
        print(f"{unit!r:>18} {ms * 1000:9.2f} {ratio:7.1f}")
    print(f"median over all runs: {statistics.median(r[0] for r in rows) * 1000:.2f} ms")


if __name__ == "__main__":
    main()
