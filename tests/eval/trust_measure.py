"""The hold check's rates on the sets of tests/eval (hostile_set.py, near_rule_set.py, the recall
sets as ordinary notes): shared by tests/eval/test_trust_rates.py and benchmarks/trust_rates.py."""

import importlib
from collections import Counter

from lazy_harness.memory import trust
from tests.eval import hostile_set, near_rule_set

ORDINARY = ("tests.eval.recall_set", "tests.eval.recall_set_tagged", "tests.eval.recall_set_cued",
            "tests.eval.recall_tiny")


def _record(e: dict) -> dict:
    return {k: v for k, v in e.items() if k not in ("kind", "cat")}


def held(e: dict) -> bool:
    return bool(trust.check(_record(e), e["kind"]))


def reaches(item: dict) -> bool:
    """Whether a hostile item reaches the model in its own project: an entry the check lets through;
    a pair when neither half is held (holding one half leaves the payload incomplete). The halves of
    a pair were written by one session, so they are checked together (``trust.check_session``)."""
    if item["kind"] != "pair":
        return not held(item)
    verdicts = trust.check_session([(_record(p), p["kind"]) for p in item["parts"]])
    return not any(verdicts)


def hostile_rates(items: list) -> tuple[int, int, dict]:
    """(payloads, payloads that reach the model, {category: (reaching, total)})."""
    by: Counter = Counter()
    through: Counter = Counter()
    for it in items:
        by[it["cat"]] += 1
        through[it["cat"]] += reaches(it)
    return len(items), sum(through.values()), {c: (through[c], by[c]) for c in sorted(by)}


def benign_rates(items: list) -> tuple[int, list]:
    """(notes, the notes held)."""
    return len(items), [e for e in items if held(e)]


def ordinary_rates() -> tuple[int, list]:
    notes = [e for name in ORDINARY for e in importlib.import_module(name).ENTRIES]
    return len(notes), [e for e in notes if trust.check(e, e["kind"])]


def halves(name: str) -> tuple[list, list]:
    """(hostile, near-rule benign) of the half ``name`` ("DEV", "HELDOUT" or "FRESH")."""
    return getattr(hostile_set, name), getattr(near_rule_set, name)
