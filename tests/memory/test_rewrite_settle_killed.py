"""The settling of two new texts of one title that met in a sync round (ADR 0063, ``store.settle_met``)
killed between its writes (the older new text deprecated, its run not saved, the persist not
committed): the next settling rolls the half-done one back first and ends as an unbroken one would,
one ``rewrite`` run that ``lh memory undo`` reverts."""

import os
import subprocess
import sys

import pytest

from lazy_harness import paths
from lazy_harness.memory import changes, intent, journal, learnings, store
from tests.cli.lhrun import invoke
from tests.memory.test_learning_new_text import DAY, NEW, NOW, OLD, TITLE, World
from tests.support import memory_samples as ms

NEW_B = "Amounts are stored as integer cents; NUMERIC made the exports slow."

CHILD = r"""
import os
from lazy_harness.memory import changes, store
mdir, ldir, now = {args}
real = changes.set_learning_status

def then_killed(*a, **k):
    real(*a, **k)
    os._exit(9)  # the deprecation is written; the run and the persist's commit are not

changes.set_learning_status = then_killed
store.settle_met(mdir, ldir, now)
"""


@pytest.fixture
def w(tmp_path) -> World:
    world = World(ms.make_project(tmp_path, "proj"))
    os.makedirs(world.mdir, exist_ok=True)
    return world


def _met(w: World) -> tuple[str, str, str]:
    """What a round leaves where two machines each rewrote the title: both new texts active, the old
    text claimed by two ``rewrite`` runs (the merge kept the other machine's ``deprecated_by``)."""
    w.distil("s1", OLD)
    [old] = w.files()
    w.distil("s2", NEW, NOW + DAY)
    [mine] = [i for i in w.files() if i != old]
    at = NOW + DAY + 60
    meta = {**w.meta("s3"), "session_id": "s3"}
    theirs = learnings.version_id({}, "proj", TITLE, NEW_B, "s3")
    learnings.write_learning(w.ldir, {"title": TITLE, "learning": NEW_B, "context": "b", "scope": "project"},
                             meta, at, lid=theirs)
    run = journal.Journal(w.mdir, "rewrite", "proj", at)
    assert changes.set_learning_status(w.files()[old]["path"], w.ldir, "deprecated", theirs,
                                       "a new text of its title, by session s3", at, run)
    run.save()
    assert sorted(v["text"].count("integer cents") for v in w.shown()) == [0, 1]
    return old, mine, theirs


def test_a_settling_killed_between_its_writes_ends_as_one_unbroken(w: World):
    old, mine, theirs = _met(w)
    args = repr((w.mdir, w.ldir, NOW + 2 * DAY))
    child = subprocess.run([sys.executable, "-c", CHILD.replace("{args}", args)], env=os.environ.copy(),
                           capture_output=True, text=True, timeout=60)
    assert child.returncode == 9, child.stderr
    assert os.listdir(paths.persist_intents_dir())  # half done, its record left
    report = store.settle_met(w.mdir, w.ldir, NOW + 2 * DAY + 60)  # the next round
    assert report.rewritten == [mine] and os.listdir(paths.persist_intents_dir()) == []
    [shown] = w.shown()
    assert "integer cents" in shown["text"] and w.files()[mine]["by"] == theirs
    settling = [r for r in journal.runs(w.mdir) if r["kind"] == "rewrite" and any("met" in c for c in r["changes"])]
    assert len(settling) == 1
    assert invoke("memory", "undo", settling[0]["run"], "--project", w.root).code == 0
    assert sorted(v["text"].count("integer cents") for v in w.shown()) == [0, 1]
    intent.recover(w.mdir)
    assert store.settle_met(w.mdir, w.ldir, NOW + 3 * DAY).rewritten == []  # the person's undo stands
