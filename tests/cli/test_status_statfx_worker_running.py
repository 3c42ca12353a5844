"""``lh status``'s worker line while a worker is draining the queue: worker.json is written when a
run ends, so the line said "never ran" (or the previous run's counts) next to sessions the running
worker had already distilled. The lock is probed, never taken, and the last success is read from
done/ when worker.json is older or missing."""

import contextlib
import json
import os
import subprocess
import sys
import time

import pytest

from lazy_harness import logfile, paths
from lazy_harness import queue as spool
from tests.cli.lhrun import invoke, run
from tests.support import memory_samples as ms

SID = "5a5a5a5a-aaaa-4bbb-8ccc-000000000001"

# A worker as far as the lock goes: takes it as the worker does, records itself as its holder when
# asked (queue.consume.claim_queue, as worker/loop.py does after the lock), says so, then holds the
# lock until its stdin closes.
HOLDER = """
import sys
from lazy_harness import queue
from lazy_harness.queue import consume
q = sys.argv[1]
fd = queue.acquire_worker_lock(q)
assert fd is not None, "the lock was held already"
if sys.argv[2] == "owner":
    assert consume.claim_queue(q) is None
print("holding", flush=True)
sys.stdin.read()
"""


@pytest.fixture
def here(tmp_path, monkeypatch):
    project = ms.make_project(str(tmp_path), "app")
    monkeypatch.chdir(project)
    spool.ensure_layout(paths.queue_dir())
    return project


@contextlib.contextmanager
def worker_holding_lock(owner: bool = True):
    """A process holding the worker lock (and, with ``owner``, recorded as its holder) until the end."""
    proc = subprocess.Popen([sys.executable, "-c", HOLDER, paths.queue_dir(), "owner" if owner else "-"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "holding"
        yield proc
    finally:
        assert proc.stdin is not None
        proc.stdin.close()
        proc.wait(timeout=30)


def finished(here: str, outcome: str, age: float | None = None) -> float:
    """A task the worker finished (queue.finish, as the worker does), ``age`` seconds ago if given:
    its file's mtime."""
    q = paths.queue_dir()
    name = f"{time.time_ns()}-{SID[:8]}{spool.SUFFIX}"
    fields = {"cwd": here, "session_jsonl": f"/t/{SID}.jsonl", "session_id": SID,
              "memory_dir": paths.memory_dir(here), "event": "SessionEnd", "task_id": spool.task_id(name)}
    reason = {"processed": "distilled", "skipped": "too short", "failed": "claude exited 1"}[outcome]
    path = spool.finish(q, name, fields, outcome, reason)
    if age is not None:
        os.utime(path, (time.time() - age, time.time() - age))
    return os.stat(path).st_mtime


def write_worker_json(**fields) -> None:
    path = paths.worker_state_file()
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(fields, fh)


def worker_line(out: str) -> str:
    lines = [line for line in out.splitlines() if line.startswith("worker: ")]
    assert len(lines) == 1, out
    return lines[0]


def status_worker_line() -> str:
    r = invoke("status")
    assert r.code == 0, r.out + r.err
    return worker_line(r.out)


def test_status_while_a_worker_holds_the_lock_says_running_and_names_the_last_success(here):
    mtime = finished(here, "processed")
    with worker_holding_lock() as holder:
        # why a process of its own: lh status must answer while the lock is held, not wait for it
        r = run("status", cwd=here)
    assert r.returncode == 0, r.stdout + r.stderr
    line = worker_line(r.stdout)
    worker, _, success = line.partition("; last successful distillation: ")
    assert "running" in worker and f"pid {holder.pid}" in worker, line
    assert "never" not in line, line
    assert success == logfile.stamp(mtime), line


def test_a_previous_runs_record_is_not_shown_while_another_worker_runs(here):
    old = time.time() - 3600
    write_worker_json(started=logfile.stamp(old - 5), finished=logfile.stamp(old), pid=1, processed=0, failed=0,
                      skipped=0, last_success=logfile.stamp(old - 60), last_success_task="from-the-old-run")
    mtime = finished(here, "processed")
    with worker_holding_lock(owner=False):
        line = status_worker_line()
    assert line.startswith("worker: running"), line
    assert "last ran" not in line and "0 processed" not in line, line
    assert line.endswith(f"last successful distillation: {logfile.stamp(mtime)}"), line


def test_what_the_running_worker_finished_since_it_took_the_queue_is_counted(here):
    finished(here, "processed", age=600)  # an earlier run's
    with worker_holding_lock():
        finished(here, "processed")
        finished(here, "skipped")
        finished(here, "failed")
        line = status_worker_line()
    worker = line.partition(";")[0]
    assert "2 done" in worker and "1 failed" in worker, line


def test_worker_json_newer_than_done_keeps_its_last_success(here):
    finished(here, "processed", age=7200)
    now = time.time()
    write_worker_json(started=logfile.stamp(now - 120), finished=logfile.stamp(now - 60), processed=1, failed=0,
                      last_success=logfile.stamp(now - 90), last_success_task="from-worker-json")
    line = status_worker_line()
    assert line.startswith("worker: last ran"), line
    assert line.endswith(f"last successful distillation: {logfile.stamp(now - 90)} (task from-worker-json)"), line


def test_a_distillation_worker_json_never_recorded_is_the_last_success(here):
    """A foreground lh distill, or a worker killed before its run ended, writes no worker.json."""
    mtime = finished(here, "processed")
    finished(here, "skipped")
    line = status_worker_line()
    assert line.startswith("worker: never ran"), line
    assert line.endswith(f"last successful distillation: {logfile.stamp(mtime)}"), line


@pytest.mark.parametrize("command", [("doctor",), ("hooks", "status")])
def test_doctor_and_hooks_status_say_running_too(here, command):
    finished(here, "processed")
    with worker_holding_lock() as proc:
        out = invoke(*command)
    [line] = [x for x in out.out.splitlines() if "worker" in x and "running" in x]
    assert f"pid {proc.pid}" in line and "never" not in line
