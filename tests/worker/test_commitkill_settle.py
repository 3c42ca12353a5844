"""What a killed process's committed persist still owed is kept by the next worker (worker/owed.py):
the session's cursor moved past what it distilled (never backwards), its checks run; a record whose
persist's undo record still names it is left to that persist's rollback. And the worker's start
sweeps the temp files killed writers left where no writer of the folder sweeps."""

import os
import subprocess
import sys

from lazy_harness import config, paths
from lazy_harness.cost import markers
from lazy_harness.memory import intent
from lazy_harness.worker import cursor, owed, persist
from tests.worker.spendrig import configure, run_worker

SID = "55555555-5555-4555-8555-555555555555"
NOW = 1_760_000_000.0


def _transcript(tmp_path, size: int = 20_000) -> str:
    path = tmp_path / "t.jsonl"
    path.write_bytes(bytes(i % 251 for i in range(size)))
    return str(path)


def test_catch_up_moves_the_cursor_forward_only_over_the_bytes_it_was_read_with(isolated_home, tmp_path):
    path = _transcript(tmp_path)
    early, late = cursor.position(SID, path, 6000, NOW), cursor.position(SID, path, 12_000, NOW)
    assert cursor.catch_up(None, late) and cursor.start(None, SID, path) == 12_000
    assert not cursor.catch_up(None, early) and cursor.start(None, SID, path) == 12_000  # never backwards
    assert not cursor.catch_up(None, late)  # done already
    other = tmp_path / "other.jsonl"
    other.write_bytes(b"x" * 20_000)
    moved = cursor.position(SID, str(other), 15_000, NOW)
    with open(other, "r+b") as fh:  # the transcript rewritten since it was read
        fh.write(b"y")
    assert not cursor.catch_up(None, dict(moved, session_id="66666666-6666-4666-8666-666666666666"))


def _record(memory_dir: str, moved: dict | None, undo: str) -> dict:
    return {"memory_dir": memory_dir, "learnings_dir": paths.learnings_dir(), "written": [], "texts": [],
            "over": [], "meta": {"project": "p", "session_id": SID, "task_id": "t1"}, "cursor": moved, "intent": undo}


def _left_by_a_killed_writer(memory_dir: str, moved: dict, pending: bool) -> str:
    """The record a writer killed just after saving it left (its lock gone with it); its persist's
    undo record naming it still there when ``pending`` (killed before the commit)."""
    os.makedirs(memory_dir, exist_ok=True)
    log = intent.begin(memory_dir, "t1", SID, {}, False)
    record = owed.path_for(None, "t1")
    log.promising(record)
    owing = owed.save(None, "t1", _record(memory_dir, moved, log.path))
    if not pending:
        log.commit()
    owed.done(owing, remove=False)
    return record


def test_settle_moves_the_cursor_of_a_committed_persist_and_leaves_an_uncommitted_one(isolated_home, tmp_path):
    configure(isolated_home)
    path = _transcript(tmp_path)
    memory_dir = os.path.join(paths.memory_root(), "proj")
    moved = cursor.position(SID, path, 9000, NOW)
    record = _left_by_a_killed_writer(memory_dir, moved, pending=True)
    logged: list[str] = []
    persist.settle_owed(config.load(), dict(os.environ), logged.append)
    assert os.path.exists(record) and cursor.start(None, SID, path) == 0, logged  # left to the rollback
    assert any("not rolled back yet" in line for line in logged), logged
    intent.recover(memory_dir)
    assert not os.path.exists(record)  # the rollback took the promise with it

    record = _left_by_a_killed_writer(memory_dir, moved, pending=False)
    logged.clear()
    persist.settle_owed(config.load(), dict(os.environ), logged.append)
    assert not os.path.exists(record) and cursor.start(None, SID, path) == 9000, logged
    assert any("cursor moved" in line for line in logged), logged


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_the_worker_start_sweeps_the_temps_killed_writers_left(isolated_home, tmp_path):
    configure(isolated_home)
    memory_dir = os.path.join(paths.memory_root(), "proj")
    cache = paths.cache_dir()
    folders = [paths.persist_intents_dir(), owed.folder(), markers.open_calls_dir(),
               os.path.join(memory_dir, "journal"), os.path.join(paths.learnings_dir(), "2026-11"),
               os.path.join(cache, "verdicts"), os.path.join(paths.recall_dir(), "seen"), cache]
    dead, alive = _dead_pid(), os.getpid()
    for folder in folders:
        os.makedirs(folder, exist_ok=True)
        for pid in (dead, alive):
            with open(os.path.join(folder, f".x.json.{pid}.0a1b2c3d.tmp"), "w") as fh:
                fh.write("half")
    run_worker()
    left = sorted(os.path.join(f, n) for f in folders for n in os.listdir(f) if n.endswith(".tmp"))
    assert left == sorted(os.path.join(f, f".x.json.{alive}.0a1b2c3d.tmp") for f in folders)  # a live writer's


def test_a_model_calls_marker_temp_is_named_as_atomic_write_names_its_temps(isolated_home, monkeypatch):
    """Its writer killed mid-write, the worker's start recognises it (``sweep_stale_temps``)."""
    made: list[str] = []
    real_open = os.open

    def spy(path, *args, **kwargs):
        if str(path).endswith(".tmp"):
            made.append(os.path.basename(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", spy)
    folder = markers.open_calls_dir()
    os.makedirs(folder, exist_ok=True)
    call = markers.OpenCall(call="c1", pid=os.getpid(), who="the worker", started=NOW, budget=1.0)
    marked = markers.mark(folder, call)
    os.close(marked.fd)
    [name] = made
    head, pid, rand, tmp = name.rsplit(".", 3)
    assert head == ".c1.json" and pid == str(os.getpid()) and tmp == "tmp" and len(rand) == 8
