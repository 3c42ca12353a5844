"""``lh memory undo`` (and the page's undo) renders handoff.md and the open items' cache under the
memory folder's lock. Without it, an item the worker's persist opened between undo's read of
handoff.jsonl and its write was left out of handoff.md, and the cache undo wrote carried the stamp of
the new files: SessionStart, the hold screen and the index left the item out until the next handoff
write."""

import fcntl
import os
import threading
import time

from lazy_harness import paths
from lazy_harness.memory import by_hand, files, handoff, store
from tests.support import memory_samples as ms


def _meta(session: str, when: float) -> dict:
    return {"project": "proj", "session_id": session, "task_id": f"t-{session}", "cwd": "/x/proj",
            "session_time": when}


def test_a_persist_during_an_undo_waits_for_it_and_its_item_is_read_back(tmp_path, monkeypatch):
    root = ms.make_project(str(tmp_path), "proj")
    mdir, ldir = paths.memory_dir(root), paths.learnings_dir()
    now = time.time()
    store.persist({"handoff": ["Item X: keep", "Item Y: to close"]}, mdir, ldir, _meta("s1", now - 100), now - 100)
    _, _, run = by_hand.close(mdir, "proj", "Item Y: to close", "done", now - 50)

    rendered, go, worker_waits = threading.Event(), threading.Event(), threading.Event()
    real_render = handoff.render

    def paused_render(*args, **kwargs):
        text = real_render(*args, **kwargs)
        if threading.current_thread().name == "undo":
            rendered.set()  # undo has folded handoff.jsonl and rendered; nothing written yet
            assert go.wait(30)
        return text

    class WatchedLock(files.FolderLock):
        def __enter__(self):
            if threading.current_thread().name == "worker":
                probe = os.open(self.folder, os.O_RDONLY | os.O_DIRECTORY)
                try:
                    fcntl.flock(probe, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    worker_waits.set()  # someone holds the folder: the persist waits for it
                finally:
                    os.close(probe)
            return super().__enter__()

    def worker():
        try:
            store.persist({"handoff": ["Item Z: new from session s2"]}, mdir, ldir, _meta("s2", now - 5), now - 5)
        finally:
            worker_waits.set()  # or it ran to its end while undo was paused

    monkeypatch.setattr(handoff, "render", paused_render)
    monkeypatch.setattr(files, "FolderLock", WatchedLock)
    undoing = threading.Thread(target=by_hand.undo, args=(mdir, ldir, run, 14, now - 10), name="undo")
    undoing.start()
    assert rendered.wait(30)
    persisting = threading.Thread(target=worker, name="worker")
    persisting.start()
    assert worker_waits.wait(30)
    go.set()
    undoing.join(30)
    persisting.join(30)
    assert not undoing.is_alive() and not persisting.is_alive()
    monkeypatch.setattr(handoff, "render", real_render)

    truth = sorted(i["text"] for i in handoff.open_items(handoff.load(mdir)[0]))
    assert [t for t in truth if t.startswith("Item Z")], truth  # the persist did open it
    assert "Item Y: to close" in truth  # and the undo did reopen Y
    assert sorted(i["text"] for i in handoff.open_for_reading(mdir)) == truth
    with open(os.path.join(mdir, files.HANDOFF), encoding="utf-8") as fh:
        md = fh.read()
    assert all(t in md for t in truth), md
