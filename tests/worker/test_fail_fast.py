"""Fail fast: an unreachable API or a refused login costs one attempt, then the task waits while other
tasks go on; a missing claude fails at once with the hint; errors name the real cause."""

import os
import time

import pytest

from lazy_harness import notice, paths, queue
from lazy_harness.worker import waiting
from tests.support import fake_claude
from tests.worker.spendrig import configure, ledger_lines, queue_session, run_worker, tasks

FIRST, SECOND = "11111111-1111-4111-8111-111111111111", "22222222-2222-4222-8222-222222222222"


@pytest.fixture
def two(tmp_path):
    out = []
    for name, sid in (("a", FIRST), ("b", SECOND)):
        p = tmp_path / name
        p.mkdir()
        out.append((p, sid))
    return out


def _queue_both(two) -> None:
    for p, sid in two:
        queue_session(p, session_id=sid)


@pytest.mark.parametrize("mode,cause", [("unreachable", "the API is unreachable"),
                                        ("auth", "authentication was refused")])
def test_one_attempt_then_the_task_waits_while_others_go_on(isolated_home, tmp_path, monkeypatch, two, mode, cause):
    fake = fake_claude.use(tmp_path, monkeypatch, fail_times=1, fail_as=mode)
    configure(isolated_home, max_attempts=3)
    _queue_both(two)
    before = time.time()
    stats = run_worker()
    assert len(fake_claude.calls(fake)) == 2  # one attempt for the first, then the second ran
    assert (stats.processed, stats.waiting, stats.failed) == (1, 1, 0)
    [waiter] = tasks("")
    assert waiter["session_id"] == FIRST and waiter["waits"] == "1"
    assert cause in waiter["wait_reason"] and "timed out" not in waiter["wait_reason"]
    assert before + waiting.FIRST_WAIT <= float(waiter["not_before"]) <= time.time() + waiting.FIRST_WAIT
    assert [line["outcome"] for line in ledger_lines()] == [mode, "ok"]
    assert run_worker().finished == 0  # not retried before its time, and the worker does not spin
    assert len(fake_claude.calls(fake)) == 2


def test_a_waiting_task_runs_once_its_time_has_come(isolated_home, tmp_path, monkeypatch, two):
    fake = fake_claude.use(tmp_path, monkeypatch, fail_times=1, fail_as="unreachable")
    configure(isolated_home)
    queue_session(two[0][0], session_id=FIRST)
    run_worker()
    assert "distillation failing" in notice.read(None, time.time())
    q = paths.queue_dir()
    [name] = queue.pending(q)
    fields = queue.read_task(os.path.join(q, name))
    fields["not_before"] = repr(time.time() - 1)  # minutes later
    with open(os.path.join(q, name), "w") as fh:
        fh.write(queue.format_task(fields))
    stats = run_worker()
    assert stats.processed == 1 and len(fake_claude.calls(fake)) == 2
    assert notice.read(None, time.time()) is None  # a success clears what the person was told


def test_waits_double_up_to_an_hour(isolated_home):
    q = paths.queue_dir()
    queue.ensure_layout(q)
    delays = []
    fields = {"session_id": FIRST, "cwd": "/x"}
    for _ in range(8):
        name = f"{time.time_ns()}-11111111.task"
        open(os.path.join(q, queue.PROCESSING, name), "w").close()
        assert waiting.requeue(q, name, fields, "the API is unreachable", 1000.0, paused=False) == "waiting"
        fields = queue.read_task(os.path.join(q, name))
        delays.append(float(fields["not_before"]) - 1000.0)
        os.unlink(os.path.join(q, name))
    assert delays == [60, 120, 240, 480, 960, 1920, 3600, 3600]  # compound_loop.wait_seconds = 60


def test_missing_claude_fails_at_once_with_the_hint(isolated_home, two):
    configure(isolated_home, claude_path="/nonexistent/claude", max_attempts=3)
    queue_session(two[0][0], session_id=FIRST)
    stats = run_worker()
    assert stats.failed == 1
    [task] = tasks("failed")
    assert task["attempts"] == "1"
    assert "claude not found: /nonexistent/claude" in task["reason"]
    assert "npm install -g @anthropic-ai/claude-code" in task["reason"]
    assert "claude not found" in notice.read(None, time.time())
    assert ledger_lines() == []  # nothing ran, nothing was spent


def test_no_answer_in_time_names_the_limit_and_waits(isolated_home, tmp_path, monkeypatch, two):
    fake = fake_claude.use(tmp_path, monkeypatch, sleep=30)
    configure(isolated_home, timeout_seconds=1, max_attempts=3)
    queue_session(two[0][0], session_id=FIRST)
    stats = run_worker()
    assert len(fake_claude.calls(fake)) == 1 and stats.waiting == 1
    [task] = tasks("")
    assert "no answer within 1 s (compound_loop.timeout_seconds)" in task["wait_reason"]


def test_an_overloaded_api_is_still_retried_now(isolated_home, tmp_path, monkeypatch, two):
    fake = fake_claude.use(tmp_path, monkeypatch, fail_times=2, stderr="API Error: 529 overloaded_error")
    configure(isolated_home, max_attempts=3)
    queue_session(two[0][0], session_id=FIRST)
    assert run_worker().processed == 1
    assert len(fake_claude.calls(fake)) == 3
    assert [line["outcome"] for line in ledger_lines()] == ["overloaded", "overloaded", "ok"]


@pytest.mark.parametrize("said", ["API Error: 529 overloaded_error", "API Error: 429 rate_limit_error"])
def test_an_overload_outlasting_the_retries_waits_instead_of_failing(isolated_home, tmp_path, monkeypatch, two,
                                                                      said):
    """An overload or rate limit that lasts past the quick retries (an incident of an hour) is billed
    nothing: the task goes back to the queue like an unreachable API's, and runs once it is over. A
    session that ended then is not left in failed/ for the person to find."""
    fake = fake_claude.use(tmp_path, monkeypatch, fail_times=3, stderr=said)
    configure(isolated_home, max_attempts=3)
    _queue_both(two)
    stats = run_worker()
    assert (stats.processed, stats.waiting, stats.failed) == (1, 1, 0)
    assert tasks("failed") == []
    [waiter] = tasks("")
    assert waiter["session_id"] == FIRST and "overloaded or rate-limited" in waiter["wait_reason"]
    assert float(waiter["not_before"]) > time.time()  # not before its time: minutes later
    q = paths.queue_dir()
    [name] = queue.pending(q)
    fields = queue.read_task(os.path.join(q, name))
    fields["not_before"] = repr(time.time() - 1)  # the wait is over, and so is the overload
    with open(os.path.join(q, name), "w") as fh:
        fh.write(queue.format_task(fields))
    assert run_worker().processed == 1
    assert [line["outcome"] for line in ledger_lines()] == ["overloaded"] * 3 + ["ok", "ok"]
    assert len(fake_claude.calls(fake)) == 5


def test_an_overload_outlasting_the_retries_tells_the_person(isolated_home, tmp_path, monkeypatch, two):
    fake_claude.use(tmp_path, monkeypatch, mode="fail", code=1, stderr="API Error: 529 overloaded_error")
    configure(isolated_home, max_attempts=2)
    queue_session(two[0][0], session_id=FIRST)
    assert run_worker().waiting == 1
    said = notice.read(None, time.time())
    assert "distillation failing, the API is overloaded or rate-limited" in said and "lh doctor" in said
