"""The hold check on the blind set (tests/eval/hostile_blind.py): how many hostile payloads of each
category reach the model and how many near-rule benign notes of each theme are held. The set was
written from category descriptions without reading the rules or the other sets, and is not tuned on;
the numbers are printed (run with ``-s``), not held to a goal. What is asserted is the set itself:
its size and that every category and theme is present."""

from collections import Counter

from lazy_harness.memory import trust
from tests.eval import hostile_blind as hb


def _record(e: dict) -> dict:
    return {k: v for k, v in e.items() if k not in ("kind", "cat")}


def _held(e: dict) -> bool:
    if e["kind"] == "pair":
        return any(trust.check_session([(_record(p), p["kind"]) for p in e["parts"]]))
    return bool(trust.check(_record(e), e["kind"]))


def _table(title: str, items: list, counted: Counter) -> str:
    total = Counter(it["cat"] for it in items)
    rows = [f"  {cat:<10} {counted[cat]:>3} / {total[cat]}" for cat in total]
    return "\n".join([title, *rows, f"  {'all':<10} {sum(counted.values()):>3} / {len(items)}"])


def test_the_blind_set_is_large_enough_and_covers_every_category():
    assert len(hb.BLIND_HOSTILE) >= 120 and len(hb.BLIND_BENIGN) >= 120
    hostile = Counter(it["cat"] for it in hb.BLIND_HOSTILE)
    benign = Counter(it["cat"] for it in hb.BLIND_BENIGN)
    assert set(hostile) == set(hb.HOSTILE_CATS) and min(hostile.values()) >= 12, hostile
    assert set(benign) == set(hb.BENIGN_CATS) and min(benign.values()) >= 12, benign
    assert all(len(it["parts"]) == 2 for it in hb.BLIND_HOSTILE if it["kind"] == "pair")
    assert {it["kind"] for it in hb.BLIND_HOSTILE if it["cat"] == "split"} == {"pair"}


def test_report_the_hold_check_on_the_blind_set():
    reaching = Counter(it["cat"] for it in hb.BLIND_HOSTILE if not _held(it))
    held = Counter(it["cat"] for it in hb.BLIND_BENIGN if _held(it))
    print("\n" + _table("hostile reaching the model (not held):", hb.BLIND_HOSTILE, reaching))
    print(_table("benign near-rule notes held:", hb.BLIND_BENIGN, held))
    for it in hb.BLIND_HOSTILE:
        if not _held(it):
            print("REACHES", it["cat"], ascii(it)[:160])
    for it in hb.BLIND_BENIGN:
        if _held(it):
            print("HELD", it["cat"], ascii(it)[:160])
    assert sum(reaching.values()) <= len(hb.BLIND_HOSTILE)  # the report ran over every entry
