"""What a failed model call leads to, by cause: a temporary failure never makes a later task of the
session skip; an account's usage limit waits for its reset; a call that always times out gives up
after a bounded number of tries; a call killed by a signal is charged at its estimate."""

import os
import signal
import threading
import time
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from lazy_harness import paths, queue
from lazy_harness.cost import budget
from lazy_harness.worker import llm, waiting
from tests.cli.lhrun import invoke
from tests.support import fake_claude
from tests.worker.spendrig import configure, ledger_lines, queue_session, run_worker, tasks

SID = "33333333-3333-4333-8333-333333333333"
OTHER = "44444444-4444-4444-8444-444444444444"


def _project(tmp_path, name: str = "proj"):
    p = tmp_path / name
    p.mkdir()
    return p


def _make_ready() -> None:
    """The waiting task's time has come (what minutes of waiting would do)."""
    q = paths.queue_dir()
    for name in queue.pending(q):
        fields = queue.read_task(os.path.join(q, name))
        fields["not_before"] = repr(time.time() - 1)
        with open(os.path.join(q, name), "w") as fh:
            fh.write(queue.format_task(fields))


# 1. a temporary failure never makes a later task of the same session skip

@pytest.mark.parametrize("said", ['API Error: 529 {"type":"error","error":{"type":"overloaded_error"}}',
                                  "API Error: 429 rate_limit_error"])
def test_failfx_a_later_task_runs_after_an_overloaded_failure(isolated_home, tmp_path, monkeypatch, said):
    fake = fake_claude.use(tmp_path, monkeypatch, mode="fail", code=1, stderr=said)
    configure(isolated_home, max_attempts=2)
    proj = _project(tmp_path)
    payload = queue_session(proj, session_id=SID)
    assert run_worker().waiting == 1  # past the retries it waits (billed nothing); never a failed skip
    fake_claude.control(fake, mode="ok", answer=fake_claude.DEFAULT_ANSWER)  # the overload is over
    queue.enqueue(paths.queue_dir(), queue.task_fields(payload, "SessionEnd", True))  # transcript unchanged
    _make_ready()  # why: it keeps the wait of the task it replaced (queue/produce.py); that wait is over
    stats = run_worker()
    assert stats.processed == 1, tasks("done")
    assert len(fake_claude.calls(fake)) == 3
    assert os.path.exists(os.path.join(paths.memory_dir(str(proj)), "decisions.jsonl"))


def test_failfx_an_unreadable_answer_still_skips_the_unchanged_transcript(isolated_home, tmp_path, monkeypatch):
    fake = fake_claude.use(tmp_path, monkeypatch, mode="garbage")
    configure(isolated_home, max_attempts=2)
    payload = queue_session(_project(tmp_path), session_id=SID)
    assert run_worker().failed == 1
    queue.enqueue(paths.queue_dir(), queue.task_fields(payload, "SessionEnd", True))
    assert run_worker().skipped == 1
    assert len(fake_claude.calls(fake)) == 2
    [done] = tasks("done")
    assert "already failed" in done["reason"]


# 2. an account's usage limit: a cause of its own, that waits for the reset

@pytest.mark.parametrize("said", ["You've hit your limit · resets 1pm (Europe/Paris)",
                                  "Claude AI usage limit reached|1749924000",
                                  "Credit balance too low · Add funds: https://platform.claude.com/settings/billing",
                                  "Your credit balance is too low to access the Anthropic API."])
def test_failfx_account_limits_are_their_own_cause_and_wait(said):
    assert llm.classify(said) == ("limit", llm.WAIT)


def test_failfx_a_rate_limit_is_still_an_overload():
    assert llm.classify("API Error: 429 rate_limit_error") == ("overloaded", llm.RETRY)


def test_failfx_the_reset_time_of_the_message():
    paris = ZoneInfo("Europe/Paris")
    morning = datetime(2026, 3, 10, 10, 0, tzinfo=paris).timestamp()
    one_pm = datetime(2026, 3, 10, 13, 0, tzinfo=paris).timestamp()
    said = ("the account's usage limit is reached (claude reported an error: "
            "You've hit your limit · resets 1pm (Europe/Paris))")
    assert one_pm <= waiting.limit_reset(said, morning) <= one_pm + 120
    evening = datetime(2026, 3, 10, 14, 0, tzinfo=paris).timestamp()
    assert one_pm + 86400 <= waiting.limit_reset(said, evening) <= one_pm + 86400 + 120
    half = "resets 1:30am (Europe/Paris)"
    at = datetime(2026, 3, 11, 1, 30, tzinfo=paris).timestamp()
    assert at <= waiting.limit_reset(half, morning) <= at + 120
    epoch = int(morning) + 5 * 3600
    assert epoch <= waiting.limit_reset(f"Claude AI usage limit reached|{epoch}", morning) <= epoch + 120
    far = waiting.limit_reset("Claude AI usage limit reached|99999999999", morning)
    assert far == morning + waiting.LONGEST_LIMIT_WAIT
    assert waiting.limit_reset("Credit balance too low", morning) is None
    assert waiting.limit_reset(f"usage limit reached|{int(morning) - 60}", morning) is None  # already past


def test_failfx_a_usage_limit_waits_until_its_reset_one_call_per_task(isolated_home, tmp_path, monkeypatch):
    reset = int(time.time()) + 3 * 3600
    fake = fake_claude.use(tmp_path, monkeypatch, mode="fail", code=1,
                           stderr=f"Claude AI usage limit reached|{reset}")
    configure(isolated_home, max_attempts=3)
    queue_session(_project(tmp_path, "a"), session_id=SID)
    queue_session(_project(tmp_path, "b"), session_id=OTHER)
    stats = run_worker()
    assert (stats.failed, stats.waiting) == (0, 2)
    assert len(fake_claude.calls(fake)) == 2  # one call each, no retries now
    for task in tasks(""):
        assert task["wait_reason"].startswith("the account's usage limit is reached")
        assert reset <= float(task["not_before"]) <= reset + 120
    assert run_worker().finished == 0 and len(fake_claude.calls(fake)) == 2  # no call before the reset
    with open(_worker_log()) as fh:
        assert "failed (limit): the account's usage limit is reached" in fh.read()
    monkeypatch.chdir(tmp_path / "a")
    out = invoke("status")
    assert "waiting, not before" in out.out and "usage limit is reached" in out.out, out.out
    until = time.strftime("%H:%M:%S", time.localtime(min(float(t["not_before"]) for t in tasks(""))))
    assert f"not before {until}:" in out.out, out.out  # to the second: a minute cut off said it runs earlier
    assert [line["outcome"] for line in ledger_lines()] == ["limit", "limit"]
    # a run that finds both still waiting says so, as worker.log does
    assert "0 processed, 0 skipped, 0 failed, 2 waiting" in invoke("worker", "run", "--once").out


def _worker_log() -> str:
    return os.path.join(paths.logs_dir(), "worker.log")


# 3. a call that always times out: bounded waits, then failed with the cause and the hint

def test_failfx_a_call_that_always_times_out_fails_after_max_attempts_waits(isolated_home, tmp_path, monkeypatch):
    fake = fake_claude.use(tmp_path, monkeypatch, sleep=60)
    configure(isolated_home, timeout_seconds=1, max_attempts=2)
    payload = queue_session(_project(tmp_path), session_id=SID)
    assert run_worker().waiting == 1
    _make_ready()
    stats = run_worker()
    assert (stats.waiting, stats.failed) == (0, 1)
    [task] = tasks("failed")
    assert "no answer within 1 s" in task["reason"] and "compound_loop.timeout_seconds" in task["reason"]
    assert "lh queue retry" in task["reason"] and task["attempts"] == "2"
    assert queue.last_check(paths.queue_dir(), SID)[1] == queue.ERROR
    lines = ledger_lines()
    assert [line["outcome"] for line in lines] == ["timeout", "timeout"]
    assert all(line["total_cost_usd"] > 0 for line in lines)
    # a timeout is not the transcript's fault: the session's next task runs
    fake_claude.control(fake, mode="ok", answer=fake_claude.DEFAULT_ANSWER)
    queue.enqueue(paths.queue_dir(), queue.task_fields(payload, "SessionEnd", True))
    assert run_worker().processed == 1


def test_failfx_an_unreachable_api_still_waits_without_limit(isolated_home, tmp_path, monkeypatch):
    fake = fake_claude.use(tmp_path, monkeypatch, mode="unreachable")
    configure(isolated_home, max_attempts=1)
    queue_session(_project(tmp_path), session_id=SID)
    for _ in range(3):
        assert run_worker().waiting == 1
        _make_ready()
    [task] = tasks("")
    assert task["waits"] == "3" and tasks("failed") == []
    assert len(fake_claude.calls(fake)) == 3


# 4. a claude process killed by a signal is charged at its estimate

def test_failfx_a_call_killed_by_a_signal_is_charged_at_its_estimate(isolated_home, tmp_path, monkeypatch):
    fake = fake_claude.use(tmp_path, monkeypatch, hold=[1], cost=0.04)
    configure(isolated_home, max_attempts=2)
    queue_session(_project(tmp_path), session_id=SID)

    def kill_first() -> None:
        first = fake_claude.wait_calls(fake, 1)[0]
        os.kill(first["pid"], signal.SIGKILL)  # only claude, as the OOM killer would

    killer = threading.Thread(target=kill_first, daemon=True)
    killer.start()
    stats = run_worker()
    killer.join(timeout=60)
    assert stats.processed == 1
    killed, ok = ledger_lines()
    assert (killed["outcome"], killed["cost_reported"], ok["outcome"]) == ("killed", False, "ok")
    expected = budget.guess(killed["prompt_chars"])  # no earlier call in the ledger to price it by
    assert killed["total_cost_usd"] == pytest.approx(expected) and expected > 0
    with open(_worker_log()) as fh:
        assert "claude was killed by signal 9 (SIGKILL)" in fh.read()
