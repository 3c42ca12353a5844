"""``lh queue retry <8-character session part>`` when the session has a done task and a failed one: only
the failed one can be retried, so it is the one retried (it said "2 tasks match ...; give the whole id")."""

import os
import time

from lazy_harness import paths, queue
from tests.cli.lhrun import invoke
from tests.hooks.hookrun import enable_loop
from tests.support import fake_claude
from tests.support.sessions import place, wait_finished


def _done_and_failed(isolated_home, tmp_path, monkeypatch):
    enable_loop(isolated_home, retry_backoff_seconds=0, max_attempts=1)
    bin_dir = fake_claude.use(tmp_path, monkeypatch, mode="fail", code=3, stderr="boom")
    project = tmp_path / "proj"
    project.mkdir()
    q = paths.queue_dir()
    payload = place(project)
    failed = queue.task_id(queue.enqueue(q, queue.task_fields(payload, "SessionEnd", True)))
    assert invoke("worker", "run", "--once").code == 0
    sid8 = failed.partition("-")[2]
    done = f"{int((time.time() - 3600) * 1e9)}-{sid8}"  # the session distilled an hour earlier
    fields = dict(queue.task_fields(payload, "Stop", False), outcome="processed", reason="distilled")
    with open(os.path.join(q, queue.DONE, done + queue.SUFFIX), "w", encoding="utf-8") as fh:
        fh.write(queue.format_task(fields))
    return bin_dir, q, sid8, failed, done


def test_workerfx_retry_by_session_part_takes_the_failed_task(isolated_home, tmp_path, monkeypatch):
    bin_dir, q, sid8, failed, done = _done_and_failed(isolated_home, tmp_path, monkeypatch)
    fake_claude.control(bin_dir, mode="ok", answer=fake_claude.DEFAULT_ANSWER)
    result = invoke("queue", "retry", sid8)
    assert result.code == 0, result.err
    assert f"(retry of {failed})" in result.out
    assert os.listdir(os.path.join(q, queue.FAILED)) == []
    finished = wait_finished(q, count=2)
    assert os.path.join(q, queue.DONE, done + queue.SUFFIX) in finished  # the done one left as it was
    [again] = [queue.read_task(p) for p in finished if queue.read_task(p).get("retry_of")]
    assert (again["retry_of"], again["outcome"]) == (failed, "processed")


def test_workerfx_show_by_session_part_still_asks_for_the_whole_id(isolated_home, tmp_path, monkeypatch):
    """lh queue show shows any task, so two matching ones stay ambiguous: both are named with their state."""
    _, _, sid8, failed, done = _done_and_failed(isolated_home, tmp_path, monkeypatch)
    result = invoke("queue", "show", sid8)
    assert result.code == 1 and "2 tasks match" in result.err
    assert f"{done} (done)" in result.err and f"{failed} (failed)" in result.err
