"""A Stop task waits until its turn is in the transcript (Claude Code may run Stop before writing it),
so the session is distilled once with the whole turn; a turn that never arrives costs a bounded wait."""

import json
import os
import threading

from lazy_harness import logfile, paths, queue
from lazy_harness.worker import cursor, turn
from tests.support import fake_claude
from tests.support.sessions import TRANSCRIPTS, place
from tests.worker.spendrig import configure, run_worker, tasks

LAST_TYPED = "Decision: we keep the queue in Postgres"


def _stop_payloads() -> list[dict]:
    out = []
    for line in (TRANSCRIPTS / "hook-payloads.jsonl").read_text(encoding="utf-8").splitlines():
        rec = json.loads(line)
        if (rec["session"], rec["event"]) == ("interactive", "Stop"):
            out.append(rec["payload"])
    return out


def _before_last_turn(payload: dict) -> list[str]:
    """Cut the placed transcript just before its last typed prompt (as Stop may find it under load);
    returns the cut lines, in order: that turn's records, then what Claude Code writes after it."""
    path = payload["transcript_path"]
    with open(path, encoding="utf-8") as fh:
        lines = fh.read().splitlines(keepends=True)
    cut = max(i for i, line in enumerate(lines) if LAST_TYPED in line and '"type":"user"' in line)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("".join(lines[:cut]))
    return lines[cut:]


def _append(path: str, lines: list[str]) -> None:
    with open(path, "a", encoding="utf-8") as fh:
        fh.write("".join(lines))


def _turn_records(rest: list[str]) -> int:
    """How many of ``rest`` make the turn: up to and with its assistant text."""
    return 1 + max(i for i, line in enumerate(rest) if '"type":"assistant"' in line)


def _stop_task(payload: dict) -> str:
    last = _stop_payloads()[-1]["last_assistant_message"]
    stop = {**payload, "hook_event_name": "Stop", "last_assistant_message": last}
    return queue.enqueue(paths.queue_dir(), queue.task_fields(stop, "Stop", False))


def _worker_log() -> str:
    with open(logfile.log_path(logfile.WORKER), encoding="utf-8") as fh:
        return fh.read()


def test_a_turn_written_after_its_stop_is_waited_for_and_distilled_once(isolated_home, fake, project,
                                                                        monkeypatch):
    configure(isolated_home)
    monkeypatch.setattr(turn, "WAIT_SECONDS", 60.0)  # why: the turn arrives well before; a loaded machine is slow
    payload = place(project)
    rest = _before_last_turn(payload)
    name = _stop_task(payload)
    looked = threading.Event()
    scan = turn._scan

    def first_look_then_signal(*args):
        found = scan(*args)
        looked.set()
        return found

    monkeypatch.setattr(turn, "_scan", first_look_then_signal)

    def claude_code_writes_the_turn():  # after the worker has looked once and not found it
        if looked.wait(timeout=60):
            _append(payload["transcript_path"], rest[:_turn_records(rest)])

    writer = threading.Thread(target=claude_code_writes_the_turn)
    writer.start()
    try:
        stats = run_worker()
    finally:
        looked.set()
        writer.join()
    assert stats.processed == 1
    [call] = fake_claude.calls(fake)
    assert LAST_TYPED in call["stdin"] and "stays in Postgres, and migrations get a 5 s" in call["stdin"]
    assert f"task {queue.task_id(name)}: waited " in _worker_log()
    # Claude Code finishes the turn's bookkeeping, the session ends: nothing was said after the cursor
    _append(payload["transcript_path"], rest[_turn_records(rest):])
    queue.enqueue(paths.queue_dir(), queue.task_fields(payload, "SessionEnd", True))
    assert run_worker().skipped == 1
    assert len(fake_claude.calls(fake)) == 1
    assert tasks("done")[-1]["reason"] == "nothing new since the last distillation"


def test_a_turn_that_never_arrives_costs_a_bounded_wait_and_nothing_is_lost(isolated_home, fake, project,
                                                                            monkeypatch):
    configure(isolated_home)
    monkeypatch.setattr(turn, "WAIT_SECONDS", 0.2)
    payload = place(project)
    rest = _before_last_turn(payload)
    name = _stop_task(payload)
    assert run_worker().processed == 1  # what is there is distilled, as before
    [first] = fake_claude.calls(fake)
    assert LAST_TYPED not in first["stdin"]
    assert (f"task {queue.task_id(name)}: the turn was not in the transcript after 0.2 s; "
            "reading what is there") in _worker_log()
    _append(payload["transcript_path"], rest)  # the turn shows up later; SessionEnd distills it
    queue.enqueue(paths.queue_dir(), queue.task_fields(payload, "SessionEnd", True))
    assert run_worker().processed == 1
    second = fake_claude.calls(fake)[-1]
    assert LAST_TYPED in second["stdin"] and second["stdin"].count(cursor.EARLIER.strip()) == 1


def test_a_task_without_a_turn_reads_at_once(isolated_home, fake, project, monkeypatch):
    configure(isolated_home)
    monkeypatch.setattr(turn, "WAIT_SECONDS", 60.0)  # a wait would show as a hang, not a pass
    payload = place(project)
    _before_last_turn(payload)
    queue.enqueue(paths.queue_dir(), queue.task_fields({**payload, "hook_event_name": "Stop"}, "Stop", False))
    assert "turn" not in tasks("")[0]
    assert run_worker().processed == 1
    assert "the turn" not in _worker_log()


# --- finding the text as a transcript line holds it ----------------------------------------------

def _line(text: str, ensure_ascii: bool) -> str:
    record = {"type": "assistant", "message": {"role": "assistant", "content": [{"type": "text", "text": text}]}}
    return json.dumps(record, ensure_ascii=ensure_ascii, separators=(",", ":")) + "\n"


def test_non_ascii_and_escaped_characters_are_found_either_way(tmp_path):
    text = 'Naïve — café "quoted"\n\tthen a backslash \\ and 🚀'
    fp = queue.turn_fingerprint({"last_assistant_message": "  " + text + "\n"})
    assert fp == text
    for ensure_ascii in (False, True):
        path = tmp_path / f"t-{ensure_ascii}.jsonl"
        path.write_text('{"type":"user"}\n' + _line(text + " and more", ensure_ascii), encoding="utf-8")
        assert turn.wait(str(path), fp, timeout=0) == 0.0, ensure_ascii


def test_a_long_message_is_found_by_its_first_characters(tmp_path):
    text = "naïve — café. " * 40
    fp = queue.turn_fingerprint({"last_assistant_message": text})
    assert len(fp) == queue.TURN_CHARS
    path = tmp_path / "t.jsonl"
    path.write_text(_line(text, False), encoding="utf-8")
    assert turn.wait(str(path), fp, timeout=0) == 0.0


def test_growth_is_read_past_the_tail_and_only_when_the_size_changes(tmp_path, monkeypatch):
    monkeypatch.setattr(turn, "TAIL_BYTES", 64)
    path = tmp_path / "t.jsonl"
    path.write_text('{"type":"user","pad":"' + "x" * 500 + '"}\n', encoding="utf-8")
    size = path.stat().st_size
    scans, sleeps = [], []
    scan = turn._scan
    monkeypatch.setattr(turn, "_scan", lambda *a: scans.append(a[2]) or scan(*a))
    late = {"type": "assistant", "message": {"content": [{"type": "text", "text": "naïve — café"}]},
            "pad": "y" * 300}

    def sleep(_seconds):  # stands in for time passing while Claude Code writes
        sleeps.append(_seconds)
        if len(sleeps) == 2:  # a record whose text lies far before the file's new tail
            with open(path, "a", encoding="utf-8") as fh:
                fh.write(json.dumps(late, ensure_ascii=False) + "\n")

    waited = turn.wait(str(path), "naïve — café", timeout=60, sleep=sleep)
    assert waited is not None and waited > 0
    assert len(sleeps) == 2 and len(scans) == 2  # no look while the size stayed the same
    assert scans[0] == size - 64  # the first look reads the tail
    assert size - 64 < scans[1] < size  # the next one what was appended (and a needle's length before)


def test_a_missing_transcript_or_a_fifo_is_not_waited_for(tmp_path):
    assert turn.wait(str(tmp_path / "gone.jsonl"), "anything", timeout=60) == 0.0
    os.mkfifo(tmp_path / "fifo.jsonl")
    assert turn.wait(str(tmp_path / "fifo.jsonl"), "anything", timeout=60) == 0.0


def test_the_fingerprint_is_only_taken_from_a_non_empty_string():
    for value in (None, "", "   \n", ["text"], 42):
        assert queue.turn_fingerprint({"last_assistant_message": value}) == ""
    assert queue.turn_fingerprint({}) == ""
    assert queue.turn_fingerprint({"last_assistant_message": "ok \ud83d rest"}) == "ok "  # a lone surrogate


def test_a_codex_turn_is_found_in_its_rollout_and_a_user_message_is_not(tmp_path):
    from pathlib import Path

    rollout = Path(TRANSCRIPTS).parent / "codex" / "interactive.jsonl"
    lines = rollout.read_text(encoding="utf-8").splitlines(keepends=True)
    answer = "Let me look at the files first."
    digest = queue.turn_digest(queue.turn_fingerprint({"last_assistant_message": answer}))
    typed = queue.turn_digest(queue.turn_fingerprint({"last_assistant_message": "Now list the files in the project"}))
    cut = next(i for i, line in enumerate(lines) if answer in line and '"response_item"' in line)
    path = tmp_path / "rollout.jsonl"
    path.write_text("".join(lines[:cut]), encoding="utf-8")

    assert turn.wait(str(path), digest, timeout=0) is None  # not written yet
    path.write_text("".join(lines), encoding="utf-8")
    assert turn.wait(str(path), digest, timeout=0) == 0.0
    assert turn.wait(str(path), typed, timeout=0) is None  # what the person typed is no turn


def test_a_task_taken_late_whose_session_went_on_past_the_tail_reads_at_once(tmp_path, monkeypatch):
    """The turn lies before the tail the first look reads (the session went on by more than it before the
    worker took the task): the file was written to well after the task was queued, so the turn is in it;
    no wait. A file not written since the task still waits for its turn."""
    monkeypatch.setattr(turn, "TAIL_BYTES", 64)
    path = tmp_path / "t.jsonl"
    path.write_text(_line("naïve — café", False) + '{"type":"user","pad":"' + "x" * 500 + '"}\n', encoding="utf-8")
    written = path.stat().st_mtime
    sleeps = []

    def sleep(seconds):
        sleeps.append(seconds)
        if len(sleeps) > 3:
            raise TimeoutError  # a wait: what the late task must not do

    fp = queue.turn_digest("naïve — café")
    assert turn.wait(str(path), fp, timeout=60, sleep=sleep, queued_at=written - 60) == 0.0 and not sleeps
    try:
        turn.wait(str(path), fp, timeout=60, sleep=sleep, queued_at=written - 1)
    except TimeoutError:
        pass
    assert len(sleeps) == 4  # written just after its task: the turn may still come, so it waited
