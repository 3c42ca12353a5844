import os
import time

from lazy_harness import paths, queue
from tests.cli.lhrun import invoke
from tests.hooks.hookrun import enable_loop
from tests.support import fake_claude
from tests.support.sessions import place, wait_finished


def _failed_task(isolated_home, tmp_path, monkeypatch):
    enable_loop(isolated_home, retry_backoff_seconds=0, max_attempts=1)
    bin_dir = fake_claude.use(tmp_path, monkeypatch, mode="fail", code=3, stderr="boom")
    project = tmp_path / "proj"
    project.mkdir()
    q = paths.queue_dir()
    name = queue.enqueue(q, queue.task_fields(place(project), "SessionEnd", True))
    assert invoke("worker", "run", "--once").code == 0
    return bin_dir, q, queue.task_id(name)


def test_queue_lists_counts_and_reasons(isolated_home, tmp_path, monkeypatch):
    _, q, tid = _failed_task(isolated_home, tmp_path, monkeypatch)
    result = invoke("queue")
    assert result.code == 0
    assert "failed      1" in result.out and "pending     0" in result.out
    assert tid in result.out and "model call failed" in result.out


def test_queue_show_prints_fields_and_the_error(isolated_home, tmp_path, monkeypatch):
    _, q, tid = _failed_task(isolated_home, tmp_path, monkeypatch)
    result = invoke("queue", "show", tid[:12])
    assert result.code == 0
    assert "state: failed" in result.out and "outcome: failed" in result.out
    assert "boom" in result.out.split("error:", 1)[1]


def test_queue_show_unknown_id_is_one_line(isolated_home):
    result = invoke("queue", "show", "nope")
    assert result.code == 1 and result.err.count("\n") == 1 and "no task matches 'nope'" in result.err


def test_retry_failed_brings_it_back_and_it_is_processed(isolated_home, tmp_path, monkeypatch):
    bin_dir, q, tid = _failed_task(isolated_home, tmp_path, monkeypatch)
    fake_claude.control(bin_dir, mode="ok", answer=fake_claude.DEFAULT_ANSWER)
    result = invoke("queue", "retry", "--failed")
    assert result.code == 0 and f"retry of {tid}" in result.out
    assert os.listdir(os.path.join(q, "failed")) == []
    [done] = wait_finished(q)
    task = queue.read_task(done)
    assert (task["outcome"], task["retry_of"], task["event"]) == ("processed", tid, "retry")


def test_purge_removes_only_old_finished_tasks(isolated_home, tmp_path, monkeypatch):
    q = paths.queue_dir()
    queue.ensure_layout(q)
    old = f"{int((time.time() - 40 * 86400) * 1e9)}-aaaaaaaa.task"
    new = f"{int(time.time() * 1e9)}-bbbbbbbb.task"
    for name in (old, new):
        open(os.path.join(q, "done", name), "w").close()
    result = invoke("queue", "purge", "--done", "--older-than", "30d")
    assert result.code == 0 and "removed 1" in result.out
    assert os.listdir(os.path.join(q, "done")) == [new]
    assert invoke("queue", "purge", "--done", "--older-than", "soon").code == 2


def test_a_skipped_task_is_listed_as_skipped_with_its_reason(isolated_home, tmp_path, monkeypatch):
    """Issue 26 item 11: skipped tasks were shown as ``done``."""
    enable_loop(isolated_home, retry_backoff_seconds=0, min_user_chars=100000)
    bin_dir = fake_claude.use(tmp_path, monkeypatch)
    project = tmp_path / "proj"
    project.mkdir()
    name = queue.enqueue(paths.queue_dir(), queue.task_fields(place(project), "SessionEnd", True))
    assert invoke("worker", "run", "--once").code == 0
    row = next(ln for ln in invoke("queue").out.split("\n") if queue.task_id(name) in ln)
    assert " skipped " in row and " done " not in row and "too short: user typed " in row
    shown = invoke("queue", "show", queue.task_id(name)).out
    assert "state: skipped (in done/)" in shown
    assert fake_claude.calls(bin_dir) == []
