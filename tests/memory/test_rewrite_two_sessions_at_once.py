"""Two sessions of one project that each correct a learning's title at once (ADR 0063): each planned
its rewrite against the old text before the other wrote (the plan is made before the folder's lock,
the writes under it). The one applied second finds the old text replaced already: its new text
replaces the first one's as well, so one text of the title is shown, not both."""

import os

import pytest

from lazy_harness.memory import journal, store
from tests.cli.lhrun import invoke
from tests.memory.test_learning_new_text import DAY, NEW, NOW, OLD, TITLE, World, _start
from tests.support import memory_samples as ms

OTHER = "Amounts are stored as NUMERIC(19,6) and rounded half-even at invoice time."


@pytest.fixture
def w(tmp_path) -> World:
    world = World(ms.make_project(tmp_path, "proj"))
    os.makedirs(world.mdir, exist_ok=True)
    return world


def _answer(text: str) -> dict:
    return {"learnings": [{"title": TITLE, "learning": text, "context": "billing", "scope": "project"}]}


def test_two_sessions_correcting_one_title_at_once_leave_one_text_shown(w: World):
    w.distil("s1", OLD)
    [old] = w.files()
    # s3 plans its correction; before it takes the folder's lock, s2 writes its own
    late = store.plan(_answer(OTHER), w.mdir, w.ldir, w.meta("s3"), NOW + DAY + 1)
    first = w.distil("s2", NEW, NOW + DAY)
    assert first.rewritten == [old]
    second = store.apply(late)
    assert len(second.created) == 1
    shown = w.shown()
    assert len(shown) == 1, "both new texts of the title are shown"
    assert "half-even" in shown[0]["text"] and "NUMERIC(19,6); NUMERIC(14,4) overflowed" not in _start(w)
    [mid] = [i for i, v in w.files().items() if "overflowed" in v["text"]]
    assert second.rewritten == [mid]
    # undoing the second session's run (the newest) shows the first one's text again, beside it
    run = [r for r in journal.runs(w.mdir) if r["kind"] == "rewrite"][0]
    assert any(c.startswith(f"deprecate {mid} for") for c in run["changes"])
    assert invoke("memory", "undo", run["run"], "--project", w.root).code == 0
    assert sorted(v["text"].count("half-even") for v in w.shown()) == [0, 1]
    assert w.files()[old]["status"] == "deprecated"
