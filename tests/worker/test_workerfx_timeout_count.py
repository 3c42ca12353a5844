"""A call that gives no answer in time makes the task wait after one attempt; the task fails at its
``compound_loop.max_attempts``-th timeout (worker/one_task.py, its ``timeouts`` field). worker.log
numbers each timed-out call by that count (1/3, 2/3, 3/3), not by the attempts of one run, which is
always the first: it said "model call 1/3 failed" three times, then "failed 3 time(s)"."""

import os
import re
import time

from lazy_harness import paths, queue
from tests.support import fake_claude
from tests.worker.spendrig import configure, queue_session, run_worker, tasks

SID = "33333333-3333-4333-8333-333333333333"


def _worker_log() -> str:
    with open(os.path.join(paths.logs_dir(), "worker.log"), encoding="utf-8") as fh:
        return fh.read()


def _due_now() -> None:
    """The waiting task's time has come (minutes later)."""
    q = paths.queue_dir()
    [name] = queue.pending(q)
    fields = queue.read_task(os.path.join(q, name))
    fields["not_before"] = repr(time.time() - 1)
    with open(os.path.join(q, name), "w", encoding="utf-8") as fh:
        fh.write(queue.format_task({k: v for k, v in fields.items() if k != "task_id"}))


def test_workerfx_each_timeout_is_numbered_by_the_tasks_count(isolated_home, tmp_path, monkeypatch):
    fake_claude.use(tmp_path, monkeypatch, sleep=30)
    configure(isolated_home, timeout_seconds=1, max_attempts=3)
    project = tmp_path / "a"
    project.mkdir()
    queue_session(project, session_id=SID)
    for _ in range(2):
        assert run_worker().waiting == 1
        _due_now()
    assert run_worker().failed == 1
    [failed] = tasks(queue.FAILED)
    assert failed["reason"].startswith("model call failed 3 time(s)")
    numbered = re.findall(r"model call (\d+)/(\d+) failed \(timeout\)", _worker_log())
    assert numbered == [("1", "3"), ("2", "3"), ("3", "3")]
