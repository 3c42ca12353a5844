"""Model calls that buy nothing: a session part that failed its tries is not paid for again by its
SessionEnd (Claude Code's own records after a turn are no new conversation), and a second
``lh knowledge handoff-now`` with nothing said since the first makes no call unless asked (ADR 0075)."""

import json
import os

from lazy_harness import paths, queue
from lazy_harness.worker import pipeline
from tests.cli.lhrun import invoke
from tests.support import fake_claude
from tests.worker.spendrig import configure, queue_session, run_worker, tasks

SID = "55555555-5555-4555-8555-555555555555"


def _project(tmp_path):
    p = tmp_path / "proj"
    p.mkdir()
    return p


def _append(path: str, *records: dict) -> None:
    """Lines added to the transcript, its mtime moved on as a later write moves it."""
    with open(path, "a", encoding="utf-8") as fh:
        for record in records:
            fh.write(json.dumps(record) + "\n")
    later = os.stat(path).st_mtime + 5
    os.utime(path, (later, later))


def _after_the_turn(sid: str) -> list[dict]:
    """What Claude Code writes after a turn's answer, with nothing said: no conversation."""
    return [{"type": "system", "subtype": "stop_hook_summary", "sessionId": sid, "hookCount": 1},
            {"type": "system", "subtype": "turn_duration", "sessionId": sid, "durationMs": 9000},
            {"type": "last-prompt", "lastPrompt": "summarise", "sessionId": sid},
            {"type": "cost-state", "sessionId": sid, "totalCostUSD": 0.01}]


def _typed(sid: str, text: str) -> dict:
    return {"type": "user", "isSidechain": False, "sessionId": sid, "uuid": "9d0c1a55-0000-4000-8000-000000000001",
            "message": {"role": "user", "content": text}, "origin": {"kind": "human"}, "promptSource": "typed",
            "entrypoint": "cli", "timestamp": "2026-11-22T02:30:00.000Z"}


def _retry_failed(monkeypatch) -> None:
    """``lh queue retry --failed``, its worker left to the test (run_worker) rather than started detached."""
    from lazy_harness.queue import submit

    monkeypatch.setattr(submit, "spawn_worker", lambda env=None: 0)
    result = invoke("queue", "retry", "--failed")
    assert result.code == 0, result.err


def _distill_calls(fake) -> int:
    return len([c for c in fake_claude.calls(fake) if not fake_claude.is_check(c)])


def test_a_session_end_after_the_stop_task_failed_its_tries_pays_nothing_again(isolated_home, tmp_path, monkeypatch):
    fake = fake_claude.use(tmp_path, monkeypatch, mode="garbage")
    configure(isolated_home, max_attempts=3)
    payload = queue_session(_project(tmp_path), session_id=SID)
    assert run_worker().failed == 1 and _distill_calls(fake) == 3
    _append(payload["transcript_path"], *_after_the_turn(SID))  # Claude Code's records after the turn
    queue.enqueue(paths.queue_dir(), queue.task_fields(payload, "SessionEnd", True))
    assert run_worker().skipped == 1
    assert _distill_calls(fake) == 3  # was 6: three more paid calls on the same conversation
    [done] = tasks("done")
    assert "already failed" in done["reason"] and "lh queue retry" in done["reason"]
    # checked as the transcript is now: the idle sweep does not queue it again for those records
    assert queue.last_check(paths.queue_dir(), SID) == (os.stat(payload["transcript_path"]).st_mtime, queue.ERROR)
    fake_claude.control(fake, mode="ok", answer=fake_claude.DEFAULT_ANSWER)
    _retry_failed(monkeypatch)  # the person asks again: it pays, and writes all once
    assert run_worker().processed == 1 and _distill_calls(fake) == 4
    assert queue.last_check(paths.queue_dir(), SID)[1] == queue.DISTILLED
    with open(os.path.join(paths.memory_dir(str(tmp_path / "proj")), "decisions.jsonl"), encoding="utf-8") as fh:
        ids = [json.loads(line)["id"] for line in fh]
    assert ids and len(ids) == len(set(ids))


def test_new_conversation_after_the_failure_is_tried_again_and_a_retry_writes_it_once(
        isolated_home, tmp_path, monkeypatch):
    fake = fake_claude.use(tmp_path, monkeypatch, mode="garbage")
    configure(isolated_home, max_attempts=3)
    proj = _project(tmp_path)
    payload = queue_session(proj, session_id=SID)
    assert run_worker().failed == 1
    _append(payload["transcript_path"], *_after_the_turn(SID))
    queue.enqueue(paths.queue_dir(), queue.task_fields(payload, "SessionEnd", True))
    assert run_worker().skipped == 1 and _distill_calls(fake) == 3
    _append(payload["transcript_path"], _typed(SID, "One more thing: the retention of the job table is 30 days."))
    fake_claude.control(fake, mode="ok", answer=fake_claude.DEFAULT_ANSWER)
    queue.enqueue(paths.queue_dir(), queue.task_fields(payload, "SessionEnd", True))
    assert run_worker().processed == 1 and _distill_calls(fake) == 4
    decisions = os.path.join(paths.memory_dir(str(proj)), "decisions.jsonl")
    with open(decisions, encoding="utf-8") as fh:
        written = fh.read()
    _retry_failed(monkeypatch)  # the person asks for the failed part again
    run_worker()
    with open(decisions, encoding="utf-8") as fh:
        assert fh.read() == written  # nothing written twice


def _handoff_now(*extra: str):
    return invoke("knowledge", "handoff-now", "--session", SID, *extra)


def test_handoff_now_twice_with_nothing_new_makes_one_call_and_says_so(isolated_home, tmp_path, monkeypatch):
    fake = fake_claude.use(tmp_path, monkeypatch)
    configure(isolated_home)
    proj = _project(tmp_path)
    monkeypatch.chdir(proj)
    from tests.support.sessions import place

    place(proj, session_id=SID)
    first = _handoff_now("--wait")
    assert first.code == 0, first.err
    assert _distill_calls(fake) == 1
    _append(os.path.join(paths.projects_dir(), paths.project_key(str(proj)), f"{SID}.jsonl"), *_after_the_turn(SID))
    second = _handoff_now("--wait")
    assert second.code == 0, second.err
    assert _distill_calls(fake) == 1  # was 2: a full call on what memory already holds
    said = [line for line in second.out.splitlines() if pipeline.NOTHING_NEW in line]
    assert len(said) == 1 and "--again" in said[0], second.out
    again = _handoff_now("--again", "--wait")  # asked for explicitly: the whole session read again
    assert again.code == 0, again.err
    assert _distill_calls(fake) == 2


def test_a_handoff_now_task_queued_before_the_last_distillation_finished_makes_no_call(
        isolated_home, tmp_path, monkeypatch):
    """The command looked while a worker was distilling the session (its cursor still behind) and queued:
    the worker, under the session's lock, finds nothing said since and makes no call; asked with
    --again, it reads the whole session."""
    fake = fake_claude.use(tmp_path, monkeypatch)
    configure(isolated_home)
    payload = queue_session(_project(tmp_path), session_id=SID)
    assert run_worker().processed == 1 and _distill_calls(fake) == 1
    queue.enqueue(paths.queue_dir(), queue.task_fields(payload, pipeline.WHOLE_SESSION_EVENT, True))
    assert run_worker().skipped == 1 and _distill_calls(fake) == 1
    assert tasks("done")[-1]["reason"] == pipeline.NOTHING_NEW
    queue.enqueue(paths.queue_dir(), {**queue.task_fields(payload, pipeline.WHOLE_SESSION_EVENT, True),
                                      queue.AGAIN: "1"})
    queue.enqueue(paths.queue_dir(), queue.task_fields(payload, "SessionEnd", True))  # replaces it: keeps the ask
    assert run_worker().processed == 1 and _distill_calls(fake) == 2


def test_handoff_now_without_wait_says_at_once_that_nothing_is_new(isolated_home, tmp_path, monkeypatch):
    fake = fake_claude.use(tmp_path, monkeypatch)
    configure(isolated_home)
    queue_session(_project(tmp_path), session_id=SID)
    run_worker()
    result = _handoff_now()
    assert result.code == 0, result.err
    assert result.out.strip().splitlines() == [
        f"session {SID}: {pipeline.NOTHING_NEW}: no model call (lh knowledge handoff-now --again reads the whole "
        "session again); nothing queued"]
    assert queue.pending(paths.queue_dir()) == [] and _distill_calls(fake) == 1


def test_handoff_now_with_nothing_new_counts_the_showings_since_as_the_worker_would(isolated_home, tmp_path,
                                                                                      monkeypatch):
    """The session resumed and was shown memory, nothing said since: the command's skip makes no call
    and queues nothing, and counts that showing as the worker's own skip of the session does (ADR 0036)."""
    import time

    from lazy_harness.memory import usage, usage_log

    fake_claude.use(tmp_path, monkeypatch)
    configure(isolated_home)
    proj = _project(tmp_path)
    queue_session(proj, session_id=SID)
    run_worker()
    mdir = paths.memory_dir(str(proj))
    usage.note(None, SID, "resume", 240, [("d-0badcafe", 120)], time.time() - 5, mdir)
    result = _handoff_now()
    assert result.code == 0 and result.out.strip().endswith("nothing queued"), result.out
    shown = [rec for rec in usage_log.read(mdir) if rec.get("session") == SID and rec.get("id") == "d-0badcafe"]
    assert shown, usage_log.read(mdir)
