"""``lh memory close`` of an item while the worker, another process, writes the handoff at that moment:
the close is held after it planned its record (the journal says what it will write) and before it
writes; the worker's persist, a real process, runs to its end meanwhile (it restates the item and opens
one of its own). The item is closed all the same (the close outranks the restate), the worker's item is
open, and undoing the close takes out only the close: the worker's lines stay. Other race tests pit two
closes (test_by_hand_racefx.py) or an undo and a persist (test_undoranks_undo_under_lock.py)."""

import subprocess
import sys
import time

from lazy_harness import paths
from lazy_harness.memory import by_hand, handoff, store
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms
from tests.support import pausing

NOW = time.time()
WORKER = """
import sys, time
from lazy_harness.memory import store
mdir, ldir, root = sys.argv[1:4]
meta = {"project": "proj", "session_id": "s-worker", "task_id": "t-worker", "cwd": root, "session_time": time.time()}
store.persist({"handoff": sys.argv[4:]}, mdir, ldir, meta, time.time())
"""


def _open(mdir: str) -> dict[str, str]:
    return {i["text"]: i["id"] for i in handoff.open_items(handoff.load(mdir)[0])}


def test_a_close_while_the_worker_persists_closes_the_item_and_its_undo_keeps_the_workers_lines(tmp_path,
                                                                                            monkeypatch):
    root = ms.make_project(tmp_path, "proj")
    mdir, ldir = paths.memory_dir(root), paths.learnings_dir()
    meta = {"project": "proj", "session_id": "s1", "task_id": "t1", "cwd": root, "session_time": NOW - 100}
    store.persist({"handoff": ["rotate the api keys", "update the invoice fonts"]}, mdir, ldir, meta, NOW - 100)
    paused = pausing.pause(monkeypatch, handoff, "close_items", "closer")
    closer = pausing.run("closer", by_hand.close, mdir, "proj", "update the invoice fonts", "done", NOW)
    paused.wait()
    worker = subprocess.run([sys.executable, "-c", WORKER, mdir, ldir, root, "rotate the api keys",
                             "update the invoice fonts", "move the cron job to the worker"],
                            capture_output=True, text=True, timeout=60)
    assert worker.returncode == 0, worker.stderr
    paused.go()
    hid, _, run = closer.join()
    assert sorted(_open(mdir)) == ["move the cron job to the worker", "rotate the api keys"]
    shown = invoke("memory", "show", "--project", root, "--section", "handoff").out
    assert "move the cron job to the worker" in shown and f"{hid}," not in shown
    undone = invoke("memory", "undo", run, "--project", root)
    assert undone.code == 0, undone.err
    assert sorted(_open(mdir)) == ["move the cron job to the worker", "rotate the api keys",
                                   "update the invoice fonts"]
    assert _open(mdir)["update the invoice fonts"] == hid
