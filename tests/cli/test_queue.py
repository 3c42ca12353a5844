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


def _failed_after_waiting(isolated_home, tmp_path, monkeypatch):
    """A task that waited once (the API unreachable), then failed: as the worker leaves it in failed/."""
    enable_loop(isolated_home, retry_backoff_seconds=0, max_attempts=1, wait_seconds=1)
    bin_dir = fake_claude.use(tmp_path, monkeypatch, mode="unreachable")
    project = tmp_path / "proj"
    project.mkdir()
    q = paths.queue_dir()
    name = queue.enqueue(q, queue.task_fields(place(project), "SessionEnd", True))
    assert invoke("worker", "run", "--once").code == 0
    waited = queue.read_task(os.path.join(q, name))
    assert waited["waits"] == "1" and "unreachable" in waited["wait_reason"]
    waited["not_before"] = repr(time.time() - 1)  # why: its wait is over, with no sleep in the test
    with open(os.path.join(q, name), "w") as fh:
        fh.write(queue.format_task(waited))
    fake_claude.control(bin_dir, mode="fail", code=3, stderr="boom")
    assert invoke("worker", "run", "--once").code == 0
    failed = os.path.join(q, "failed", name)
    old = queue.read_task(failed)
    assert old["outcome"] == "failed" and old["waits"] == "1" and old.get("not_before")
    old["timestamp"] = "2020-01-01T00:00:00+00:00"  # why: queued long before the retry, not in its second
    with open(failed, "w") as fh:
        fh.write(queue.format_task(old))
    return project, q, old


def test_a_retried_task_that_had_waited_is_a_fresh_task_ready_now(isolated_home, tmp_path, monkeypatch):
    """A retry copied the old run's wait: ``lh queue`` and ``lh status`` said it waited for the API,
    and its kept ``waits`` doubled its next backoff."""
    project, q, old = _failed_after_waiting(isolated_home, tmp_path, monkeypatch)
    monkeypatch.setattr("lazy_harness.queue.submit.spawn_worker", lambda env=None: 0)  # look before it runs
    result = invoke("queue", "retry", old["task_id"])
    assert result.code == 0, result.out + result.err
    [name] = [n for n in os.listdir(q) if n.endswith(queue.SUFFIX)]
    tid = queue.task_id(name)
    assert tid != old["task_id"]
    row = next(ln for ln in invoke("queue").out.splitlines() if tid in ln)
    assert " pending " in row and "waiting" not in row and "unreachable" not in row
    shown = invoke("queue", "show", tid).out
    fields = dict(ln.split(": ", 1) for ln in shown.splitlines() if ": " in ln)
    for gone in ("waits", "wait_reason", "not_before", "task_id", "transcript_mtime", "check", "replaces",
                 "outcome", "reason", "finished", "attempts"):
        assert gone not in fields, shown
    assert fields["timestamp"] == queue.iso_now(int(tid.split("-")[0]) / 1e9)  # the retry's own time
    assert (fields["event"], fields["retry_of"], fields["forced"]) == ("retry", old["task_id"], "1")
    for kept in ("session_id", "session_jsonl", "cwd", "memory_dir", "transcripts"):
        assert fields[kept] == old[kept]
    monkeypatch.chdir(project)
    status = invoke("status").out
    assert "waiting: queued by retry, not distilled yet" in status and "unreachable" not in status


def _claim(isolated_home, tmp_path) -> str:
    """A task in processing/, as a worker leaves its claim (whether it still runs or was killed)."""
    project = tmp_path / "proj"
    project.mkdir()
    q = paths.queue_dir()
    name = queue.enqueue(q, queue.task_fields(place(project), "SessionEnd", True))
    assert queue.claim(q, name)
    return queue.task_id(name)


def test_the_claim_of_a_dead_worker_is_shown_interrupted(isolated_home, tmp_path):
    """A worker killed mid-task (out of memory, a closed laptop) left its claim: it was shown as
    being processed until some later session started a worker."""
    tid = _claim(isolated_home, tmp_path)
    out = invoke("queue").out
    assert "processing  1  (interrupted: resumes when the next session starts a worker, or run lh worker run " \
           "--once)" in out
    row = next(ln for ln in out.splitlines() if tid in ln)
    assert " interrupted " in row and " processing " not in row
    assert "state: interrupted (in processing/)" in invoke("queue", "show", tid).out


def test_the_claim_of_a_running_worker_is_shown_processing(isolated_home, tmp_path):
    tid = _claim(isolated_home, tmp_path)
    fd = queue.acquire_worker_lock(paths.queue_dir())  # a worker at work holds it
    assert fd is not None
    try:
        out = invoke("queue").out
        shown = invoke("queue", "show", tid).out
    finally:
        queue.release_worker_lock(fd)
    assert "interrupted" not in out and "processing  1\n" in out
    row = next(ln for ln in out.splitlines() if tid in ln)
    assert " processing " in row
    assert "state: processing\n" in shown
