"""``lh memory undo`` (and the page's undo) renders handoff.md and the open items' cache under the
memory folder's lock. Without it, an item the worker's persist opened between undo's read of
handoff.jsonl and its write was left out of handoff.md, and the cache undo wrote carried the stamp of
the new files: SessionStart, the hold screen and the index left the item out until the next handoff
write."""

import os
import threading
import time

from lazy_harness import paths
from lazy_harness.memory import by_hand, files, handoff, handoff_markdown, store
from tests.support import memory_samples as ms
from tests.support import pausing


def _meta(session: str, when: float) -> dict:
    return {"project": "proj", "session_id": session, "task_id": f"t-{session}", "cwd": "/x/proj",
            "session_time": when}


def test_a_persist_during_an_undo_waits_for_it_and_its_item_is_read_back(tmp_path, monkeypatch):
    root = ms.make_project(str(tmp_path), "proj")
    mdir, ldir = paths.memory_dir(root), paths.learnings_dir()
    now = time.time()
    store.persist({"handoff": ["Item X: keep", "Item Y: to close"]}, mdir, ldir, _meta("s1", now - 100), now - 100)
    _, _, run = by_hand.close(mdir, "proj", "Item Y: to close", "done", now - 50)

    # undo has folded handoff.jsonl and rendered handoff.md; nothing written yet
    rendered = pausing.pause(monkeypatch, handoff_markdown, "render", "undo", after=True)
    worker_waits = threading.Event()  # someone holds the folder: the persist waits for it
    watch = pausing.on_lock(monkeypatch, files, "FolderLock", "worker", worker_waits,
                            lock_path=lambda folder: folder)
    undoing = pausing.run("undo", by_hand.undo, mdir, ldir, run, 14, now - 10)
    rendered.wait()
    persisting = pausing.run("worker", store.persist, {"handoff": ["Item Z: new from session s2"]}, mdir, ldir,
                             _meta("s2", now - 5), now - 5, ended=worker_waits)  # or it ran to its end
    pausing.wait_for(worker_waits, "the persist neither waited for the folder lock nor ended")
    rendered.go()
    undoing.join()
    persisting.join()
    # why asked: without the lock, atomic_write's unchanged check alone also keeps the item (undo renders
    # again once the persist's handoff.md replaced the one it read); the lock is what this test is about
    assert watch.waited, "the persist did not wait for the undo's folder lock"

    truth = sorted(i["text"] for i in handoff.open_items(handoff.load(mdir)[0]))
    assert [t for t in truth if t.startswith("Item Z")], truth  # the persist did open it
    assert "Item Y: to close" in truth  # and the undo did reopen Y
    assert sorted(i["text"] for i in handoff.open_for_reading(mdir)) == truth
    with open(os.path.join(mdir, files.HANDOFF), encoding="utf-8") as fh:
        md = fh.read()
    assert all(t in md for t in truth), md
