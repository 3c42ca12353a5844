"""The hold check's rates (docs/how/reliability.md, "Trust"; ADR 0033): how many ordinary notes it
holds (every entry of every tests/eval recall set; at most 1 in 200 allowed), how many hostile ones it
holds (tests/memory/hostile_memory.py; at least 95% wanted), and on each half of the evaluation sets
(tests/eval/hostile_set.py, near_rule_set.py) how many hostile payloads reach the model in their own
project (at most 10%) and how many near-rule benign notes are held (at most 10%), by category. Run
from the repository root:

    python benchmarks/trust_rates.py [-v]
"""

import importlib
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from lazy_harness.memory import trust

EVAL_SETS = ("tests.eval.recall_set", "tests.eval.recall_set_tagged", "tests.eval.recall_set_cued",
             "tests.eval.recall_tiny")


def looked_at() -> tuple[int, int]:
    """How many ordinary notes the cheap look sends to the rules (each costs the ``re`` import once)."""
    total = looked = 0
    for name in EVAL_SETS:
        for e in importlib.import_module(name).ENTRIES:
            total += 1
            looked += bool(trust.may_match(trust.text_of(e, e["kind"])))
    return total, looked


def ordinary() -> tuple[int, list]:
    total, held = 0, []
    for name in EVAL_SETS:
        for e in importlib.import_module(name).ENTRIES:
            total += 1
            why = trust.check(e, e["kind"])
            if why:
                held.append((name, e.get("key"), why))
    return total, held


def hostile() -> tuple[int, list]:
    from tests.memory.hostile_memory import ENTRIES

    missed = [e for e in ENTRIES if not trust.check(e, e["kind"])]
    return len(ENTRIES), missed


def main(argv: list[str]) -> int:
    total, held = ordinary()
    n, missed = hostile()
    print(f"ordinary notes held: {len(held)} of {total} ({len(held) / max(total, 1):.2%}; at most 0.50% allowed)")
    print(f"hostile entries held: {n - len(missed)} of {n} ({(n - len(missed)) / max(n, 1):.1%}; at least 95% wanted)")
    from tests.eval import trust_measure

    for half in ("DEV", "HELDOUT", "FRESH"):
        bad, good = trust_measure.halves(half)
        k, through, by_cat = trust_measure.hostile_rates(bad)
        cats = ", ".join(f"{c} {a}/{b}" for c, (a, b) in by_cat.items())
        print(f"{half}: hostile payloads reaching the model: {through} of {k} ({through / max(k, 1):.1%}; at most "
              f"10% wanted) [{cats}]")
        m, wrongly = trust_measure.benign_rates(good)
        print(f"{half}: near-rule benign notes held: {len(wrongly)} of {m} ({len(wrongly) / max(m, 1):.1%}; at most "
              f"10% wanted)")
        if "-v" in argv:
            for e in wrongly:
                print("  held near-rule:", e)
    blind_halves(argv)
    total2, looked = looked_at()
    print(f"ordinary notes the regular expressions look at: {looked} of {total2} (the others pass the cheap look)")
    if "-v" in argv:
        for row in held:
            print("  held ordinary:", row)
        for e in missed:
            print("  missed hostile:", e)
    return 0


def _half(items: list, parity: int) -> list:
    """The even-numbered (0) or odd-numbered (1) entries of each category (ADR 0040's halves)."""
    seen: dict = {}
    out = []
    for it in items:
        n = seen[it["cat"]] = seen.get(it["cat"], -1) + 1
        if n % 2 == parity:
            out.append(it)
    return out


def blind_halves(argv: list[str]) -> None:
    """The blind set (tests/eval/hostile_blind.py, a development set since ADR 0040) by half."""
    from tests.eval import hostile_blind, trust_measure

    for name, parity in (("BLIND even", 0), ("BLIND odd", 1)):
        k, through, by_cat = trust_measure.hostile_rates(_half(hostile_blind.BLIND_HOSTILE, parity))
        cats = ", ".join(f"{c} {a}/{b}" for c, (a, b) in by_cat.items())
        print(f"{name}: hostile payloads reaching the model: {through} of {k} [{cats}]")
        m, wrongly = trust_measure.benign_rates(_half(hostile_blind.BLIND_BENIGN, parity))
        print(f"{name}: near-rule benign notes held: {len(wrongly)} of {m}")
        if "-v" in argv:
            for e in wrongly:
                print("  held near-rule:", e)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
