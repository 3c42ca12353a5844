"""``lh memory undo`` (and the page's undo) puts a learning's status fields back under the learnings
folder's status lock, the lock every writer of those fields takes. Without it, a forget made while the
undo had read the learning and not yet written it was overwritten by the undo's write: the person's
forget was lost, and the learning reached every session again."""

import os
import threading
import time

from lazy_harness import paths
from lazy_harness.memory import by_hand, changes, frontmatter, journal, journal_putback, learnings, state
from tests.support import memory_samples as ms
from tests.support import pausing


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

    # undo has read the learning and computed what to put back; nothing written yet
    at_write = pausing.pause(monkeypatch, journal_putback, "atomic_write", "undo", target=path)
    decided = threading.Event()  # the undo holds the status lock: the forget waits for it
    watch = pausing.on_lock(monkeypatch, changes, "status_lock", "forget", decided,
                            lock_path=lambda folder: os.path.join(folder, changes.STATUS_LOCK))
    undoing = pausing.run("undo", by_hand.undo, mdir, ldir, j.run, 14, now - 10)
    at_write.wait()
    forgetting = pausing.run("forget", by_hand.forget, mdir, ldir, "proj", lid, "obsolete", now - 5,
                             ended=decided)  # or it ran to its end while the undo was paused
    pausing.wait_for(decided, "the forget neither waited for the status lock nor ended")
    at_write.go()
    undone = undoing.join()
    forgot = forgetting.join()
    assert watch.waited, "the forget did not wait for the undo's status lock"

    _, restored, problems = undone
    assert problems == [] and path in restored
    assert forgot is not None  # the forget was journalled as a run of its own
    assert _status(path) == state.FORGOTTEN
