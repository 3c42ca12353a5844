"""A decision held for approval replaces nothing (ADR 0060, amended): the decision it named comes back
at once, so a held replacement never leaves a project with neither; undoing the hold restores both marks."""

import json
import os
import time

from lazy_harness import config, paths
from lazy_harness.memory import held, ids, journal, store
from lazy_harness.recall.readback import digest
from tests.memory.test_replaced_when_distilled import _answer, _meta, _marks, proj  # noqa: F401 - a fixture
from tests.memory.test_replaced_when_distilled import NEW_ID, NOW, OLD, OLD_ID

__all__ = ["proj"]


def _start(root: str) -> str:
    text, _ = digest.build_context(root, config.defaults(), os.environ, time.time(), "startup")
    return text or ""


def _replaced(root: str) -> None:
    store.persist(_answer([OLD_ID]), paths.memory_dir(root), paths.learnings_dir(), _meta(root, "s-2"), NOW)
    assert [(m["op"], m["id"], m.get("by")) for m in _marks(root)] == [("supersede", OLD_ID, NEW_ID)]
    assert OLD not in _start(root)


def test_a_held_replacement_gives_the_replaced_decision_back(proj):  # noqa: F811 - the fixture
    _replaced(proj)
    run = held.hold(paths.memory_dir(proj), paths.learnings_dir(), [("decision", NEW_ID, "", "reads as an order")],
                    "proj", NOW + 1, "judged by the model check")
    assert run
    ops = [(m["op"], m["id"]) for m in _marks(proj)]
    assert ops == [("hold", NEW_ID)], ops
    assert OLD in _start(proj)  # the project is not left with neither
    with open(os.path.join(journal.folder(paths.memory_dir(proj)), f"{run}.json"), encoding="utf-8") as fh:
        noted = json.load(fh)["changes"]
    assert any(OLD_ID in str(line) and NEW_ID in str(line) for line in noted), noted


def test_approving_the_held_replacement_replaces_the_decision_again_and_undo_gives_it_back(proj):  # noqa: F811
    _replaced(proj)
    mdir, ldir = paths.memory_dir(proj), paths.learnings_dir()
    held.hold(mdir, ldir, [("decision", NEW_ID, "", "reads as an order")], "proj", NOW + 1, "test")
    from lazy_harness.memory import by_hand

    run, approved = by_hand.approve(mdir, ldir, "proj", [NEW_ID], "mine", NOW + 2)
    assert approved == [NEW_ID]
    assert [(m["op"], m["id"], m.get("by")) for m in _marks(proj)] == [
        ("approve", NEW_ID, None), ("supersede", OLD_ID, NEW_ID)]
    start = _start(proj)
    assert OLD not in start and "NUMERIC(14,4)" in start
    by_hand.undo(mdir, ldir, run, 30, NOW + 3)  # the approval undone: held again, the old one shown
    assert [(m["op"], m["id"]) for m in _marks(proj)] == [("hold", NEW_ID)]
    assert OLD in _start(proj)


def test_a_held_decision_that_replaced_nothing_changes_no_other_mark(proj):  # noqa: F811 - the fixture
    other = ids.entry_id("decision", "Keep the stylesheet in one file")
    _replaced(proj)
    held.hold(paths.memory_dir(proj), paths.learnings_dir(), [("decision", other, "", "reads as an order")], "proj",
              NOW + 1, "test")
    assert [(m["op"], m["id"]) for m in _marks(proj)] == [("supersede", OLD_ID), ("hold", other)]
