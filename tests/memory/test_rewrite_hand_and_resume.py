"""A learning rewritten under its title (ADR 0063) met by the person's own hand and by sessions read
again: a learning the person deprecated by hand in its file stays hidden when a later session restates
its text (only what consolidation or a rewrite deprecated is brought back), and the undo of a rewrite
followed by the same session processed again writes nothing more."""

import os

import pytest

from lazy_harness.memory import journal
from tests.cli.lhrun import invoke
from tests.memory.test_learning_new_text import DAY, NEW, NOW, OLD, World, _start
from tests.support import memory_samples as ms


@pytest.fixture
def w(tmp_path) -> World:
    world = World(ms.make_project(tmp_path, "proj"))
    os.makedirs(world.mdir, exist_ok=True)
    return world


def _deprecate_by_hand(path: str) -> None:
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    with open(path, "w", encoding="utf-8") as fh:  # the person's editor
        fh.write(text.replace("status: active", "status: deprecated", 1))


def test_a_learning_deprecated_by_hand_stays_hidden_when_a_session_restates_it(w: World):
    w.distil("s1", OLD)
    [(old, v)] = w.files().items()
    _deprecate_by_hand(v["path"])
    report = w.distil("s2", OLD, NOW + DAY)
    assert report.restored == [] and report.created == []
    assert w.shown() == [] and "four decimals" not in _start(w)


def test_a_learning_a_rewrite_deprecated_stays_out_when_a_session_restates_it(w: World):
    w.distil("s1", OLD)
    [old] = w.files()
    w.distil("s2", NEW, NOW + DAY)
    # a third session goes back to the first text: the newest text stands, nothing is written or restored
    report = w.distil("s3", OLD, NOW + 2 * DAY)
    assert report.created == [] and report.restored == []
    assert [v["text"].count("NUMERIC(19,6)") for v in w.shown()] == [1]
    assert w.files()[old]["status"] == "deprecated"


def test_undoing_a_rewrite_then_the_session_again_writes_nothing(w: World):
    w.distil("s1", OLD)
    w.distil("s2", NEW, NOW + DAY)
    [run] = [r for r in journal.runs(w.mdir) if r["kind"] == "rewrite"]
    assert invoke("memory", "undo", run["run"], "--project", w.root).code == 0
    shown = sorted(v["path"] for v in w.shown())
    again = w.distil("s2", NEW, NOW + DAY + 600)
    assert again.created == [] and again.rewritten == [] and again.restored == []
    assert sorted(v["path"] for v in w.shown()) == shown
    assert not [r for r in journal.runs(w.mdir) if r["kind"] == "rewrite" and not r.get("undone")]
    assert os.path.exists(shown[0])


def test_consolidation_is_offered_the_newest_text_of_a_rewritten_title_only(w: World):
    """Consolidation never sees both texts, so it cannot deprecate the new one for the old one; when it
    deprecates the new text for another learning, the session that wrote it processed again keeps it
    hidden and the old text stays out."""
    from lazy_harness.memory import changes
    from lazy_harness.worker import consolidate

    w.distil("s1", OLD)
    [old] = w.files()
    w.distil("s2", NEW, NOW + DAY)
    w.distil("s3", "Invoices are numbered per year, reset each January.", NOW + DAY, title="Invoice numbers")
    files = w.files()
    [new] = [i for i, v in files.items() if "NUMERIC(19,6)" in v["text"]]
    offered = [e.id for e in consolidate.candidates(w.mdir, w.ldir, "proj").learnings]
    assert new in offered and old not in offered
    [other] = [e.id for e in consolidate.candidates(w.mdir, w.ldir, "proj").learnings if e.id != new]
    run = journal.Journal(w.mdir, "consolidate", "proj", NOW + DAY + 60)
    assert changes.set_learning_status(files[new]["path"], w.ldir, "deprecated", other, "same thing", NOW + DAY + 60,
                                       run)
    run.save()
    again = w.distil("s2", NEW, NOW + 2 * DAY)
    assert again.restored == [] and again.created == []
    assert [v["status"] for v in w.files().values() if "four decimals" in v["text"]] == ["deprecated"]
