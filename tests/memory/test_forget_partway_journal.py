"""A forget that stops partway (the second copy of a learning cannot be read) keeps the journal of what
it already changed: the first copy's change stays listed and undoable. Only a close refused before any
change (an item a rolled-back persist took with it) leaves no run."""

import glob
import os
import time

import pytest

from lazy_harness import paths
from lazy_harness.errors import LhError
from lazy_harness.memory import by_hand, journal, store
from tests.memory.test_store import META, NOW, answer


def test_a_forget_stopped_partway_keeps_its_run(isolated_home, tmp_path):
    project = tmp_path / "proj"
    project.mkdir()
    mdir, ldir = paths.memory_dir(str(project)), paths.learnings_dir()
    store.persist(answer(handoff=None), mdir, ldir, META, NOW)
    [first] = glob.glob(os.path.join(ldir, "**", "*.md"), recursive=True)
    raw = open(first, "rb").read()
    lid = next(line.split(":", 1)[1].strip() for line in raw.decode().splitlines() if line.startswith("id:"))
    copy = first[:-3] + "-copy.md"
    with open(copy, "wb") as fh:  # the same learning, one value saved in Latin-1 by an editor
        fh.write(raw.replace(b"\n---\n", b"\nnote: caf\xe9\n---\n", 1))
    os.utime(first, (time.time() + 10, time.time() + 10))
    before = open(first, "rb").read()
    with pytest.raises(LhError):
        by_hand.forget(mdir, ldir, "proj", lid, "not needed", NOW + 60)
    assert open(first, "rb").read() != before  # the first copy was changed before the stop
    [run] = journal.runs(mdir)
    assert run["kind"] == "forget"
    by_hand.undo(mdir, ldir, run["run"], 7.0, NOW + 120)
    assert open(first, "rb").read() == before
