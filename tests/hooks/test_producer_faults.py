"""Stop, SessionEnd and SessionStart under a full disk or a denied file, run through the hook entry in
this process (the fault is a monkeypatched ``os`` call: tests may run as root, where ``chmod`` denies
nothing): the hook exits 0, prints nothing Claude Code would misread, says in one hooks.log line which
file failed, and the next hook of the session does what this one could not, once."""

import io
import json
import os
import sys

import pytest

from lazy_harness import paths, queue
from lazy_harness.hooks import entry
from tests.hooks.hookrun import SID, enable_loop, hook_log, worker_lock_held
from tests.test_queue_faults import OTHER, fail_writes_into


def run_in_process(event: str, payload: dict, monkeypatch, capsys) -> tuple[int, str]:
    """``entry.main`` as ``lh-hook <event>`` runs it, the payload on stdin: (exit code, stdout)."""
    capsys.readouterr()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(json.dumps(payload).encode())))
    code = entry.main(["lh-hook", event], dict(os.environ))
    return code, capsys.readouterr().out


@pytest.mark.parametrize("call", ["write", "fsync"])
def test_a_full_disk_writing_the_task_is_logged_with_the_file_and_the_next_stop_queues_it_once(
        session, isolated_home, monkeypatch, capsys, call):
    enable_loop(isolated_home, debounce_seconds=0)
    with worker_lock_held(paths.claude_dir()) as q:
        with monkeypatch.context() as m:
            fail_writes_into(m, os.path.join(q, queue.TMP) + os.sep, call)
            assert run_in_process("Stop", session, monkeypatch, capsys) == (0, "")
        line = hook_log(paths.claude_dir())[-1]
        assert "No space left on device" in line and os.path.join(q, queue.TMP) in line, line
        assert queue.pending(q) == [] and os.listdir(os.path.join(q, queue.TMP)) == []
        assert run_in_process("Stop", session, monkeypatch, capsys) == (0, "")
        assert len(queue.pending(q)) == 1 and "queued" in hook_log(paths.claude_dir())[-1]


@pytest.mark.parametrize("event", ["Stop", "SessionEnd"])
def test_a_session_the_sweep_could_not_note_is_said_in_the_log_and_noted_by_the_next_hook(
        session, isolated_home, monkeypatch, capsys, event):
    enable_loop(isolated_home, debounce_seconds=0)
    payload = dict(session, hook_event_name=event, reason="prompt_input_exit")
    with worker_lock_held(paths.claude_dir()) as q:
        record = os.path.join(q, queue.OPEN, SID)
        with monkeypatch.context() as m:
            fail_writes_into(m, os.path.join(q, queue.OPEN) + os.sep, "write")
            assert run_in_process(event, payload, monkeypatch, capsys) == (0, "")
        line = hook_log(paths.claude_dir())[-1]
        # the task is queued all the same; the line says the sweep's net is missing, and where
        assert "queued" in line and "session not watched" in line and record in line, line
        assert len(queue.pending(q)) == 1 and not os.path.exists(record)
        assert not [n for n in os.listdir(os.path.join(q, queue.OPEN)) if n.endswith(".tmp")]
        assert run_in_process("Stop", session, monkeypatch, capsys) == (0, "")
        assert os.path.exists(record) and "not watched" not in hook_log(paths.claude_dir())[-1]


def test_session_start_sweeps_the_other_sessions_when_its_own_cannot_be_noted(
        session, isolated_home, monkeypatch, capsys, tmp_path):
    enable_loop(isolated_home, idle_minutes=1)
    with worker_lock_held(paths.claude_dir()) as q:
        idle = tmp_path / f"{OTHER}.jsonl"
        idle.write_text('{"type":"user"}\n')
        os.utime(idle, (1000.0, 1000.0))  # idle for long, never checked: the sweep's to queue
        from lazy_harness.queue import sweep

        sweep.watch(q, {"session_id": OTHER, "transcript_path": str(idle), "cwd": session["cwd"]})
        start = dict(session, hook_event_name="SessionStart", source="startup")
        with monkeypatch.context() as m:
            fail_writes_into(m, os.path.join(q, queue.OPEN, "." + SID), "write")  # its temp file
            code, out = run_in_process("SessionStart", start, monkeypatch, capsys)
        assert code == 0 and (out == "" or isinstance(json.loads(out), dict))
        line = hook_log(paths.claude_dir())[-1]
        assert "session not watched" in line and "sweep queued 1 idle session(s)" in line, line
        assert queue.pending_of(q, OTHER) is not None


def test_a_worker_log_that_cannot_be_opened_is_named_and_the_task_stays_queued(
        session, isolated_home, monkeypatch, capsys):
    from lazy_harness import logfile

    enable_loop(isolated_home, debounce_seconds=0)
    log = logfile.log_path(logfile.SPAWN)
    os.makedirs(log)  # why a folder: it cannot be opened as the worker's log by root either
    assert run_in_process("Stop", session, monkeypatch, capsys) == (0, "")
    line = hook_log(paths.claude_dir())[-1]
    assert "queued" in line and "worker not started" in line and log in line, line
    assert len(queue.pending(paths.queue_dir())) == 1  # the next hook's worker takes it
