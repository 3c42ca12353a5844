"""A fork (``claude --resume P --fork-session``) that corrects a learning its parent wrote (ADR 0063):
the fork's distillation starts past the copied conversation its parent distilled (worker/cursor.py),
so what it says of the title is news from its own turns, and its new text replaces the parent's. The
fork read again from its top (``lh knowledge handoff-now``) holds the copy: its rewording of the
parent's learning is that learning, no news."""

import os

import pytest

from lazy_harness.memory import lineage, store
from tests.memory.test_learning_new_text import NEW, NOW, OLD, TITLE, World, _start
from tests.support import memory_samples as ms


@pytest.fixture
def w(tmp_path) -> World:
    world = World(ms.make_project(tmp_path, "proj"))
    os.makedirs(world.mdir, exist_ok=True)
    return world


def _distil(w: World, session: str, text: str, part: tuple[int, int], at: float):
    answer = {"learnings": [{"title": TITLE, "learning": text, "context": f"seen in {session}",
                             "scope": "project", "tags": ["money"]}]}
    meta = {**w.meta(session), "read_from": part[0], "read_to": part[1]}
    return store.persist(answer, w.mdir, w.ldir, meta, at)


def test_a_fork_corrects_the_learning_its_parent_wrote(w: World):
    assert len(_distil(w, "parent", OLD, (0, 5000), NOW).created) == 1
    [old] = w.files()
    lineage.record(None, "fork", ["parent"])  # the worker reads the fork's parents from its transcript
    # the fork's first distillation starts past the copy the parent distilled: its own turns only
    report = _distil(w, "fork", NEW, (5200, 8000), NOW + 600)
    assert len(report.created) == 1 and report.rewritten == [old], "the fork's correction was dropped"
    [shown] = w.shown()
    assert "NUMERIC(19,6)" in shown["text"] and "four decimals" not in _start(w)
    # the fork read again from its top holds the parent's turns: the parent's text reworded is no news
    whole = _distil(w, "fork", OLD + " Checked against the ledger.", (0, 8000), NOW + 1200)
    assert whole.created == [] and whole.rewritten == [] and whole.restored == []
    assert [v["path"] for v in w.shown()] == [shown["path"]]
