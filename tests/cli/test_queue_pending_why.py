"""``lh queue``: a pending task no worker took yet says why, where the queue's files tell it: the
distillation paused (an invalid config.toml), a worker holding the queue (its pid), the last worker
dead while it held the queue, or no worker at all. A task's own reason (a wait, a spend cap) comes
first, and nothing is said of what cannot be known."""

import os

from lazy_harness import paths, queue
from lazy_harness.queue.consume import OWNER
from tests.cli.lhrun import invoke
from tests.cli.test_status_statfx_worker_running import worker_holding_lock
from tests.hooks.hookrun import enable_loop
from tests.support.sessions import place


def _pending(isolated_home, tmp_path) -> str:
    enable_loop(isolated_home)
    project = tmp_path / "proj"
    project.mkdir()
    return queue.task_id(queue.enqueue(paths.queue_dir(), queue.task_fields(place(project), "SessionEnd", True)))


def _row(tid: str) -> str:
    out = invoke("queue").out
    return next(ln for ln in out.splitlines() if tid in ln)


def test_no_worker_running_is_said(isolated_home, tmp_path):
    tid = _pending(isolated_home, tmp_path)
    row = _row(tid)
    assert " pending " in row
    assert row.endswith("no worker is running: a session's start or end starts one, or lh worker run --once"), row


def test_the_worker_holding_the_queue_is_named_by_its_pid(isolated_home, tmp_path):
    tid = _pending(isolated_home, tmp_path)
    with worker_holding_lock() as proc:
        row = _row(tid)
    assert row.endswith(f"queued: the worker (pid {proc.pid}) holds the queue and takes its tasks in turn"), row


def test_a_holder_that_did_not_record_itself_is_a_worker_without_a_pid(isolated_home, tmp_path):
    tid = _pending(isolated_home, tmp_path)
    with worker_holding_lock(owner=False):
        row = _row(tid)
    assert row.endswith("queued: a worker holds the queue and takes its tasks in turn"), row


def test_a_worker_that_died_holding_the_queue_is_said(isolated_home, tmp_path):
    tid = _pending(isolated_home, tmp_path)
    q = paths.queue_dir()
    with open(os.path.join(q, OWNER), "w") as fh:  # what a SIGKILLed worker leaves
        fh.write("4242 123\n")
    assert _row(tid).endswith("no worker is running: the last one (pid 4242) died holding the queue; a session's "
                              "start or end starts one, or lh worker run --once")


def test_an_invalid_config_is_the_reason_before_the_worker(isolated_home, tmp_path):
    tid = _pending(isolated_home, tmp_path)
    with open(paths.config_file(), "w") as fh:
        fh.write('[compound_loop]\nenabled = true\nmax_attempts = "three"\n')
    row = _row(tid)
    assert row.endswith("paused: config.toml is invalid, nothing is distilled until it is fixed "
                        "(lh config validate)"), row
    assert "no worker" not in row


def test_a_task_s_own_wait_comes_first(isolated_home, tmp_path):
    tid = _pending(isolated_home, tmp_path)
    q = paths.queue_dir()
    [name] = queue.pending(q)
    fields = queue.read_task(os.path.join(q, name))
    fields.update(wait_reason="the API is unreachable", not_before="9999999999")
    with open(os.path.join(q, name), "w") as fh:
        fh.write(queue.format_task(fields))
    row = _row(tid)
    assert "waiting, not before" in row and "the API is unreachable" in row and "no worker" not in row


def test_memory_writing_paused_for_room_is_the_reason(isolated_home, tmp_path):
    from lazy_harness import notice

    tid = _pending(isolated_home, tmp_path)
    notice.storage_paused("lazy-harness: memory writing is paused: no space left on the device")
    row = _row(tid)
    assert row.endswith("waiting: memory writing is paused (no space left, or an I/O error, where lazy-harness "
                        "keeps its data); the tasks run by themselves once a write works"), row
