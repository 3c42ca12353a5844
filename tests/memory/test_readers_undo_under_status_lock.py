"""``lh memory undo`` (and the page's undo) puts a learning's status fields back under the learnings
folder's status lock, the lock every writer of those fields takes. Without it, a forget made while the
undo had read the learning and not yet written it was overwritten by the undo's write: the person's
forget was lost, and the learning reached every session again."""

import fcntl
import os
import threading
import time

from lazy_harness import paths
from lazy_harness.memory import by_hand, changes, frontmatter, journal, learnings, state
from tests.support import memory_samples as ms


def _status(path: str) -> str | None:
    return frontmatter.read_frontmatter_values(path, ("status",)).get("status")


def test_a_forget_made_during_an_undo_waits_for_it_and_is_kept(tmp_path, monkeypatch):
    root = ms.make_project(str(tmp_path), "proj")
    mdir, ldir = paths.memory_dir(root), paths.learnings_dir()
    now = time.time()
    path = ms.write_learning(ldir, "Pin the compiler version", "proj", now - 3600, scope="project",
                             project_folder=paths.project_key(root))
    lid = learnings.id_of(path)
    j = journal.Journal(mdir, "consolidate", "proj", now - 100)  # a run that deprecated it
    assert changes.set_learning_status(path, ldir, "deprecated", None, "merged", now - 100, j)
    j.note("deprecate")
    j.save()
    assert _status(path) == "deprecated"

    at_write, go, decided = threading.Event(), threading.Event(), threading.Event()
    real_write, real_lock = journal.atomic_write, changes.status_lock
    outcome: dict = {}

    def paused_write(target, *args, **kwargs):
        if threading.current_thread().name == "undo" and target == path:
            at_write.set()  # undo has read the learning and computed what to put back; nothing written yet
            assert go.wait(30)
        return real_write(target, *args, **kwargs)

    def watched_lock(folder):
        if threading.current_thread().name == "forget":
            probe = os.open(os.path.join(folder, changes.STATUS_LOCK), os.O_RDWR | os.O_CREAT, 0o600)
            try:
                fcntl.flock(probe, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                decided.set()  # the undo holds the status lock: the forget waits for it
            finally:
                os.close(probe)
        return real_lock(folder)

    def forget():
        try:
            outcome["forget"] = by_hand.forget(mdir, ldir, "proj", lid, "obsolete", now - 5)
        finally:
            decided.set()  # or it ran to its end while the undo was paused

    monkeypatch.setattr(journal, "atomic_write", paused_write)
    monkeypatch.setattr(changes, "status_lock", watched_lock)
    undoing = threading.Thread(name="undo", daemon=True, target=lambda: outcome.setdefault(
        "undo", by_hand.undo(mdir, ldir, j.run, 14, now - 10)))
    forgetting = threading.Thread(name="forget", daemon=True, target=forget)
    undoing.start()
    assert at_write.wait(30)
    forgetting.start()
    assert decided.wait(30)
    go.set()
    undoing.join(30)
    forgetting.join(30)
    assert not undoing.is_alive() and not forgetting.is_alive()

    data, restored, problems = outcome["undo"]
    assert problems == [] and path in restored
    assert outcome["forget"] is not None  # the forget was journalled as a run of its own
    assert _status(path) == state.FORGOTTEN
