"""A learning's status fields have several writers (consolidation's deprecate, the hold check, approve,
the person's ``lh memory forget``); each reads the file, journals, then replaces it. The person's forget
must never be lost to a writer that read the file before it: one side is stopped at its write (its
``atomic_write`` waits on an event), the other runs meanwhile, then the first is let go."""

import os
import stat
import threading

import pytest

from lazy_harness import atomic, paths
from lazy_harness.memory import approval_key, by_hand, changes, frontmatter, held, held_review, journal, learnings
from lazy_harness.worker import consolidate
from lazy_harness.worker.consolidate_answer import Change
from lazy_harness.worker.consolidate_prompt import Candidates, Entry
from tests.support import memory_samples as ms

NOW = 1_760_000_000.0
WAIT = 30  # seconds: a bound on a wait for an event, never a sleep


def status_of(path: str) -> str:
    return frontmatter.read_frontmatter_values(path, ("status",)).get("status") or "active"


@pytest.fixture
def world(tmp_path):
    """(memory folder, learnings folder, the older learning, the newer one)."""
    mdir = paths.memory_dir(ms.make_project(tmp_path, "proj"))
    atomic.ensure_dir(mdir)
    ldir = paths.learnings_dir()
    old = ms.write_learning(ldir, "Pin node to 18", "proj", NOW - 3600)
    new = ms.write_learning(ldir, "Pin node to 20", "proj", NOW - 60)
    return mdir, ldir, old, new


def _deprecate(mdir: str, ldir: str, old: str, new: str) -> journal.Journal:
    lo, ln = learnings.id_of(old), learnings.id_of(new)
    c = Candidates(learnings=[Entry(lo, "learning", "Pin node to 18", 0, old),
                              Entry(ln, "learning", "Pin node to 20", 1, new)])
    j = journal.Journal(mdir, "consolidate", "proj", NOW)
    consolidate.apply([Change("deprecate_learnings", lo, ln, "superseded by node 20")], c, mdir, ldir, NOW, j)
    return j


def _hold(mdir: str, ldir: str, old: str, new: str) -> None:
    held.hold(mdir, ldir, [("learning", learnings.id_of(old), old, "asks for curl")], "proj", NOW, "test")


def _approve(mdir: str, ldir: str, old: str, new: str) -> journal.Journal:
    j = journal.Journal(mdir, "approve", "proj", NOW)
    held_review.approve(mdir, ldir, learnings.id_of(old), "learning", old, "mine", j, NOW)
    j.save()
    return j


def _race(monkeypatch, mdir: str, ldir: str, old: str, writer) -> tuple[list, str | None]:
    """Run ``writer`` in a thread stopped at its write of ``old``; meanwhile the person forgets ``old``
    (in a thread too: once fixed, the forget waits for the writer's lock). Returns (what ``writer``
    returned, the forget's run)."""
    real_write, real_lock = changes.atomic_write, atomic.lock
    at_write, go, forget_ready = threading.Event(), threading.Event(), threading.Event()

    def paused_write(path, *a, **kw):
        if path == old and threading.current_thread().name == "writer":
            at_write.set()
            assert go.wait(WAIT)
        return real_write(path, *a, **kw)

    def watched_lock(path, *a, **kw):
        if threading.current_thread().name == "forget" and paths.is_within(path, ldir):
            forget_ready.set()  # why: about to wait for the writer's lock
        return real_lock(path, *a, **kw)

    monkeypatch.setattr(changes, "atomic_write", paused_write)
    monkeypatch.setattr(atomic, "lock", watched_lock)
    out: list = []
    runs: list = []

    def forget() -> None:
        try:
            runs.append(by_hand.forget(mdir, ldir, "proj", learnings.id_of(old), "wrong, never use", NOW + 1))
        finally:
            forget_ready.set()

    t = threading.Thread(target=lambda: out.append(writer()), name="writer")
    t.start()
    assert at_write.wait(WAIT)
    f = threading.Thread(target=forget, name="forget")
    f.start()
    assert forget_ready.wait(WAIT)  # the forget ran whole, or waits for the lock
    go.set()
    t.join(WAIT)
    f.join(WAIT)
    assert not t.is_alive() and not f.is_alive()
    return out, (runs or [None])[0]


@pytest.mark.parametrize("writer", [_deprecate, _hold, _approve], ids=["consolidation", "hold", "approve"])
def test_a_forget_made_while_another_writer_is_at_its_write_is_kept(world, monkeypatch, writer):
    mdir, ldir, old, new = world
    approval_key.read_key(create=True)
    if writer is _approve:
        _hold(mdir, ldir, old, new)
        assert status_of(old) == held.HELD
    out, forget_run = _race(monkeypatch, mdir, ldir, old, lambda: writer(mdir, ldir, old, new))
    assert forget_run is not None
    assert status_of(old) == "forgotten"
    j = out[0] if out else None
    if j is not None:  # undo of the other writer's run never brings the forgotten learning back
        by_hand.undo(mdir, ldir, j.run, 14, NOW + 2)
        assert status_of(old) == "forgotten"
    assert status_of(new) == "active"


def test_a_writer_that_finds_the_learning_forgotten_writes_and_journals_nothing(world):
    mdir, ldir, old, new = world
    by_hand.forget(mdir, ldir, "proj", learnings.id_of(old), "wrong", NOW)
    before = open(old, "rb").read()
    j = journal.Journal(mdir, "restore", "proj", NOW + 1)
    # why without only_from: the restore of a learning made again (memory/apply.py) passes none
    assert changes.set_learning_status(old, ldir, "active", None, "made again", NOW + 1, j) is False
    assert open(old, "rb").read() == before
    assert not [f for f in j.data["files"] if f["path"] == old]


def test_approving_a_learning_forgotten_since_the_listing_leaves_it_forgotten(world):
    mdir, ldir, old, new = world
    approval_key.read_key(create=True)
    _hold(mdir, ldir, old, new)
    by_hand.forget(mdir, ldir, "proj", learnings.id_of(old), "wrong", NOW + 1)
    j = _approve(mdir, ldir, old, new)
    assert status_of(old) == "forgotten"
    assert not [f for f in j.data["files"] if f["path"] == old]


def test_the_status_lock_is_not_read_as_a_learning(world):
    mdir, ldir, old, new = world
    _deprecate(mdir, ldir, old, new)
    assert status_of(old) == "deprecated"
    from lazy_harness.memory import files

    assert sorted(files.recent_learning_files(ldir, 100)) == sorted([old, new])
    others = [n for n in os.listdir(ldir) if n != os.path.basename(os.path.dirname(old))]
    for name in others:  # a lock file: hidden from every lister, private, and kept out of sync (*.lock)
        assert name.startswith(".") and name.endswith(".lock")
        assert stat.S_IMODE(os.stat(os.path.join(ldir, name)).st_mode) == 0o600


def test_a_deprecation_for_a_learning_forgotten_since_writes_nothing(world):
    mdir, ldir, old, new = world
    by_hand.forget(mdir, ldir, "proj", learnings.id_of(new), "wrong", NOW)
    j = journal.Journal(mdir, "consolidate", "proj", NOW + 1)
    assert changes.set_learning_status(old, ldir, "deprecated", learnings.id_of(new), "superseded", NOW + 1, j,
                                       only_from="active", others_active=(new,)) is False
    assert status_of(old) == "active"
    assert not [f for f in j.data["files"] if f["path"] == old]
    assert changes.set_learning_status(old, ldir, "deprecated", None, "outdated", NOW + 1, j,
                                       only_from="active") is True
    assert status_of(old) == "deprecated"
