"""Ordinary open items and the learned check (worker/learned_check.py, ADR 0046): the to-dos of
``todo_blind``, written blind and never read by the check's build, and the review's 30, as the worker
reads a handoff item (``check_records``). Held to what they reached when measured, so a rebuild that
holds more of them fails; printed with ``-s``."""

from lazy_harness.memory import trust
from lazy_harness.worker import learned_check
from tests.eval import todo_blind

BLIND_HELD_MOST = 0  # of 100, as measured with the weights shipped (2 before the to-dos were trained on, 1
# before the attributed notes were, attributed_train)
REVIEW_HELD_MOST = 1  # of 30 (2 before the to-dos, 0 before the attributed notes: "move secrets from .env to
# the vault" scores 0.19, -0.55 before, and the bar went from 0.1 to -0.2, ADR 0046)


def _held(items: list[dict]) -> list[str]:
    verdicts = learned_check.check_records([({"text": e["text"]}, "handoff") for e in items])
    return [e["text"] for e, why in zip(items, verdicts, strict=True) if why]


def test_the_rules_hold_none_of_the_open_items():
    items = todo_blind.BLIND + todo_blind.REVIEW
    assert [e["text"] for e in items if trust.check({"text": e["text"]}, "handoff")] == []


def test_blind_open_items_held_by_the_learned_check():
    held = _held(todo_blind.BLIND)
    print(f"\nblind open items held: {len(held)} / {len(todo_blind.BLIND)}", *held, sep="\n  ")
    assert len(todo_blind.BLIND) == 100
    assert len(held) <= BLIND_HELD_MOST, held


def test_the_reviews_open_items_held_by_the_learned_check():
    held = _held(todo_blind.REVIEW)
    print(f"\nthe review's open items held: {len(held)} / {len(todo_blind.REVIEW)}", *held, sep="\n  ")
    assert len(held) <= REVIEW_HELD_MOST, held
