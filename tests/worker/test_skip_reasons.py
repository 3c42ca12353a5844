"""What the worker says about a session it skips (issue 26 item 11): words a user understands."""

from lazy_harness import paths
from tests.support import fake_claude
from tests.worker.spendrig import configure, run_worker, tasks

ANSWER = {"decisions": [{"summary": "a decision"}]}


def test_a_running_sessions_short_turn_is_not_yet_and_an_ended_one_too_short(isolated_home, tmp_path, monkeypatch):
    """Issue 26 item 11: every Stop queues a task, so each session's first turn showed "too short"."""
    from lazy_harness import queue
    from tests.support.sessions import place

    fake = fake_claude.use(tmp_path, monkeypatch, answer=ANSWER)
    configure(isolated_home, min_user_chars=100000)
    proj = tmp_path / "p"
    proj.mkdir()
    for sid, event in (("11111111-1111-4111-8111-111111111111", "Stop"),
                       ("22222222-2222-4222-8222-222222222222", "SessionEnd")):
        queue.enqueue(paths.queue_dir(), queue.task_fields(place(proj, session_id=sid), event, True))
    run_worker()
    reasons = {t["event"]: t["reason"] for t in tasks("done")}
    assert reasons["Stop"].startswith("not yet: typed ") and reasons["Stop"].endswith(
        " of the 100000 characters needed so far; the session is still running and is checked again")
    assert reasons["SessionEnd"].startswith("too short: user typed ")
    assert reasons["SessionEnd"].endswith(" < 100000 chars")
    assert fake_claude.calls(fake) == []
