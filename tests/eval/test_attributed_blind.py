"""Ordinary notes that put their choice on a person, through the hold check as the worker runs it: the rules,
then the learned check (worker/learned_check.py, ADR 0046) on what they let through.

``attributed_blind`` holds 240 decisions, failures, learnings and open items of many kinds of project whose
context, rationale or text says who chose ("the user asked for this", "user preference", "per the reviewer",
"the team decided"), written from a description alone by another hand than ``attributed_train``'s and read by
nothing in the check's build. Measured after the build was settled (2026-12-07; the other builds tried held 2,
3 and 3, nothing was chosen from it): with the weights trained before ``attributed_train`` (bar 0.1) **15 of
240 held** (6.3%: 14 by the learned check, 1 by the rules); with the weights shipped (bar -0.2) **4 of 240**
(1.7%: 3 by the learned check, 1 by the rules, "Don't add new npm dependencies to the checkout app without
asking", read as consent claimed beside a risky step). Held to what it reached, and to at most 1 in 50: the
builder holds these notes to 1 in 40 over the folds (``ATTRIBUTED_MOST``), looser than the 1 in 400 of the
other ordinary notes, since a fold's model holds about 2% of them whatever the bar; the issue's 1 in 200 for
ordinary notes is not met here."""

from lazy_harness.memory import trust
from lazy_harness.worker import learned_check
from tests.eval import attributed_blind

HELD_MOST = 4  # of 240, as measured with the weights shipped (15 before attributed_train was trained on)


def _record(e: dict) -> dict:
    return {k: v for k, v in e.items() if k not in ("kind", "cat", "key", "project", "origin")}


def test_attributed_notes_held_by_the_rules_and_the_learned_check():
    entries = attributed_blind.ENTRIES
    records = [(_record(e), e["kind"]) for e in entries]
    rules = [trust.check(rec, kind) for rec, kind in records]
    learned = learned_check.check_records([r for r, why in zip(records, rules, strict=True) if not why])
    verdicts = iter(learned)
    held = [(f"{'rules' if why else 'learned'}: {trust.text_of(rec, kind)[:120]}")
            for (rec, kind), why in zip(records, rules, strict=True) if why or next(verdicts)]
    print(f"\nattributed notes held: {len(held)} / {len(entries)}", *held, sep="\n  ")
    assert len(entries) == 240
    assert len(held) <= HELD_MOST, held
    assert len(held) * 50 <= len(entries), held
