"""``lh queue`` and ``lh logs`` on bad input: garbage and stray entries, unit letters, ``-n``."""

import os
import time

from lazy_harness import logfile, paths, queue
from lazy_harness.cli.cost import parse_since
from lazy_harness.cli.queue import _age_seconds
from tests.cli.lhrun import invoke
from tests.hooks.hookrun import enable_loop
from tests.support import fake_claude
from tests.support.sessions import place, wait_finished

GARBAGE = "1000000000000000000-garbage0.task"  # sorts before any task queued today


def _ns_ago(seconds: float) -> int:
    return int((time.time() - seconds) * 1e9)


def test_retry_failed_skips_a_task_that_cannot_be_retried_and_retries_the_rest(isolated_home, tmp_path,
                                                                               monkeypatch):
    enable_loop(isolated_home, retry_backoff_seconds=0, max_attempts=1)
    bin_dir = fake_claude.use(tmp_path, monkeypatch, mode="fail", code=3, stderr="boom")
    project = tmp_path / "proj"
    project.mkdir()
    q = paths.queue_dir()
    real = queue.task_id(queue.enqueue(q, queue.task_fields(place(project), "SessionEnd", True)))
    with open(os.path.join(q, GARBAGE), "w") as fh:
        fh.write("this is not a task\n")
    assert invoke("worker", "run", "--once").code == 0
    assert sorted(n for n in os.listdir(os.path.join(q, "failed")) if n.endswith(".task")) == [
        GARBAGE, f"{real}.task"]
    fake_claude.control(bin_dir, mode="ok", answer=fake_claude.DEFAULT_ANSWER)

    result = invoke("queue", "retry", "--failed")

    assert result.code == 1
    assert f"retry of {real}" in result.out
    [notice] = [line for line in result.err.splitlines() if GARBAGE in line]
    assert "session_id" in notice
    assert "1 of 2" in result.err and "Traceback" not in result.err
    # the worker was started for the retried task; the garbage one stays in failed/ to be looked at
    finished = wait_finished(q, count=2)
    [done] = [p for p in finished if os.sep + "done" + os.sep in p]
    assert (queue.read_task(done)["outcome"], queue.read_task(done)["retry_of"]) == ("processed", real)
    assert os.path.exists(os.path.join(q, "failed", GARBAGE))


def test_retry_by_id_of_a_garbage_task_is_one_line(isolated_home):
    q = paths.queue_dir()
    queue.ensure_layout(q)
    with open(os.path.join(q, "failed", GARBAGE), "w") as fh:
        fh.write("this is not a task\n")
    result = invoke("queue", "retry", "garbage0")
    assert result.code == 1 and result.err.count("\n") == 1 and GARBAGE in result.err
    assert os.listdir(os.path.join(q, "failed")) == [GARBAGE]


def test_retry_failed_together_with_an_id_is_a_usage_error(isolated_home):
    q = paths.queue_dir()
    queue.ensure_layout(q)
    open(os.path.join(q, "failed", "1000000000000000000-abcdefgh.task"), "w").close()
    result = invoke("queue", "retry", "--failed", "abc")
    assert result.code == 2 and "not both" in result.err
    assert os.listdir(os.path.join(q, "failed")) == ["1000000000000000000-abcdefgh.task"]


def test_a_stray_directory_in_done_is_skipped_by_show_and_purge(isolated_home):
    q = paths.queue_dir()
    queue.ensure_layout(q)
    os.mkdir(os.path.join(q, "done", "125-dir.task"))
    for name in ("100-aaaaaaaa.task", "130-bbbbbbbb.task", "140-cccccccc.task"):
        open(os.path.join(q, "done", name), "w").close()
    for name in ("110-dddddddd.task", "110-dddddddd.task.error"):
        open(os.path.join(q, "failed", name), "w").close()

    shown = invoke("queue", "show", "125-dir")
    assert shown.code == 1 and "Traceback" not in shown.err
    assert [line for line in shown.err.splitlines() if "125-dir.task" in line and "skipped" in line]
    assert invoke("queue").code == 0

    purged = invoke("queue", "purge", "--done", "--failed", "--older-than", "1s")
    assert purged.code == 0, purged.err
    assert "done: removed 3 task(s)" in purged.out and "failed: removed 1 task(s)" in purged.out
    assert os.listdir(os.path.join(q, "done")) == ["125-dir.task"]
    assert os.listdir(os.path.join(q, "failed")) == []
    assert len([line for line in purged.err.splitlines() if "125-dir.task" in line]) == 1


def test_purge_reads_m_as_a_month_like_cost_and_backfill(isolated_home):
    q = paths.queue_dir()
    queue.ensure_layout(q)
    recent, old = f"{_ns_ago(7200)}-aaaaaaaa.task", f"{_ns_ago(40 * 86400)}-bbbbbbbb.task"
    for name in (recent, old):
        open(os.path.join(q, "done", name), "w").close()
    sid = "aaaaaaaa-1111-2222-3333-444444444444"
    queue.mark_done(q, sid, 1.0, time.time() - 7200)
    mark = queue.state_file(q, sid, "done")
    os.utime(mark, (time.time() - 7200,) * 2)

    result = invoke("queue", "purge", "--done", "--older-than", "1m")

    assert result.code == 0
    assert os.listdir(os.path.join(q, "done")) == [recent]
    assert "forgot 0 session(s)" in result.out and os.path.exists(mark)
    # minutes have their own, unambiguous spelling
    assert invoke("queue", "purge", "--done", "--older-than", "90min").code == 0
    assert os.listdir(os.path.join(q, "done")) == [] and not os.path.exists(mark)


def test_purge_age_units_match_cost_since():
    now = time.time()
    for text in ("12h", "7d", "2w", "1m", "3"):
        assert _age_seconds(text) == now - parse_since(text, now), text
    assert _age_seconds("30s") == 30 and _age_seconds("5min") == 300


def test_purge_rejects_ambiguous_ages_and_help_names_the_units(isolated_home):
    for text in ("1M", "1mo", "1mi", "2 minutes", "-1d", "soon"):
        result = invoke("queue", "purge", "--done", "--older-than", text)
        assert result.code == 2, text
        assert "min" in result.err and "month" in result.err, result.err
    helped = invoke("queue", "purge", "--help").out
    assert "min" in helped and "month" in helped


def test_logs_n_must_be_positive_like_queue_and_memory_search(isolated_home):
    logfile.write(logfile.HOOKS, "Stop session=a queued x", now=1000.0)
    for n in ("0", "-1"):
        result = invoke("logs", "-n", n)
        assert result.code == 2 and "-n" in result.err, n


def test_logs_hooks_and_worker_together_shows_both_by_time(isolated_home):
    logfile.write(logfile.HOOKS, "Stop session=a queued x", now=1000.0)
    logfile.write(logfile.WORKER, "task x: processed", now=1001.0)
    logfile.write(logfile.HOOKS, "SessionEnd session=a queued y", now=1002.0)
    result = invoke("logs", "--hooks", "--worker")
    assert result.code == 0
    assert [ln.split(" ", 1)[1] for ln in result.out.splitlines()] == [
        "Stop session=a queued x", "task x: processed", "SessionEnd session=a queued y"]
