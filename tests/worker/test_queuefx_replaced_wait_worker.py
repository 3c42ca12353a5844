"""The worker and a session whose task waits when its next turn or its end replaces that task: a call
that always times out still fails after ``compound_loop.max_attempts`` calls, and no call is made
before a usage limit's reset (docs/how/cost.md)."""

import os
import time

from lazy_harness import paths, queue
from tests.support import fake_claude
from tests.worker.spendrig import configure, queue_session, run_worker, tasks
from tests.worker.test_failfx_causes import _make_ready

SID = "77777777-8888-4999-aaaa-bbbbbbbbbbbb"


def _next_turn(payload: dict, event: str) -> None:
    queue.enqueue(paths.queue_dir(), queue.task_fields(payload, event, event != "Stop"))


def test_queuefx_a_call_that_always_times_out_fails_though_later_turns_replace_its_task(
        isolated_home, tmp_path, monkeypatch):
    fake = fake_claude.use(tmp_path, monkeypatch, sleep=60)
    configure(isolated_home, timeout_seconds=1, max_attempts=2)
    (tmp_path / "proj").mkdir()
    payload = queue_session(tmp_path / "proj", session_id=SID)
    assert run_worker().waiting == 1
    _next_turn(payload, "Stop")
    assert run_worker().finished == 0 and len(fake_claude.calls(fake)) == 1  # it waits as the one it replaced
    _make_ready()
    stats = run_worker()
    assert (stats.waiting, stats.failed) == (0, 1)
    [task] = tasks("failed")
    assert task["attempts"] == "2" and "no answer within 1 s" in task["reason"]
    assert len(fake_claude.calls(fake)) == 2


def test_queuefx_no_call_before_the_reset_when_the_session_end_replaces_the_waiting_task(
        isolated_home, tmp_path, monkeypatch):
    reset = int(time.time()) + 3 * 3600
    fake = fake_claude.use(tmp_path, monkeypatch, mode="fail", code=1, stderr=f"Claude AI usage limit reached|{reset}")
    configure(isolated_home, max_attempts=3)
    (tmp_path / "proj").mkdir()
    payload = queue_session(tmp_path / "proj", session_id=SID)
    assert run_worker().waiting == 1
    _next_turn(payload, "SessionEnd")
    assert run_worker().finished == 0 and len(fake_claude.calls(fake)) == 1
    [task] = tasks("")
    assert task["event"] == "SessionEnd" and reset <= float(task["not_before"]) <= reset + 120
    assert task["wait_reason"].startswith("the account's usage limit is reached")


def test_queuefx_a_task_replacing_an_overloaded_one_waits_it_out_then_runs(isolated_home, tmp_path, monkeypatch):
    """The session's end, queued while its task waits after an overload, waits the rest of that wait
    (no call at once into the overload), then runs: a temporary failure never makes it skip."""
    fake = fake_claude.use(tmp_path, monkeypatch, mode="fail", code=1,
                           stderr='API Error: 529 {"type":"error","error":{"type":"overloaded_error"}}')
    configure(isolated_home, max_attempts=2)
    (tmp_path / "proj").mkdir()
    payload = queue_session(tmp_path / "proj", session_id=SID)
    assert run_worker().waiting == 1 and len(fake_claude.calls(fake)) == 2
    fake_claude.control(fake, mode="ok", answer=fake_claude.DEFAULT_ANSWER)  # the overload is over
    _next_turn(payload, "SessionEnd")  # transcript unchanged
    assert run_worker().finished == 0 and len(fake_claude.calls(fake)) == 2
    _make_ready()
    assert run_worker().processed == 1, tasks("done")
    assert os.path.exists(os.path.join(paths.memory_dir(str(tmp_path / "proj")), "decisions.jsonl"))
