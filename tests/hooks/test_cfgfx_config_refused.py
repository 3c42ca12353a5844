"""A config.toml the hooks refuse to read (ADR 0031: open to group or others, as an editor under
umask 002 leaves it; not a regular file; in a folder others may write in) is told to the person at
SessionStart, and Stop and SessionEnd still note the session for the sweep, as for an invalid one.
Before, every hook skipped with a hooks.log line only: the person saw nothing, and the sessions of
those days were never distilled. The refused file is still never read."""

import json
import os
import time

import pytest

from lazy_harness import paths, queue
from tests.hooks.hookrun import hook_log, run_hook, worker_lock_held
from tests.support.sessions import place

SID = "6d1f0b2a-3c4e-4f5a-8b6c-7d8e9f0a1b2c"
OTHER = "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d"


def _config(mode: int = 0o600, folder_mode: int = 0o700) -> str:
    path = paths.config_file()
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as fh:
        fh.write("[compound_loop]\nenabled = true\n")
    os.chmod(path, mode)
    os.chmod(os.path.dirname(path), folder_mode)
    return path


def _open_file(sid: str) -> str:
    return os.path.join(paths.queue_dir(), "state", "open", sid)


def _start(project, sid: str = SID) -> dict:
    payload = {"session_id": sid, "transcript_path": os.path.join(paths.projects_dir(), paths.project_key(
        str(project)), f"{sid}.jsonl"), "cwd": str(project), "hook_event_name": "SessionStart", "source": "startup"}
    r = run_hook("SessionStart", payload)
    assert r.returncode == 0 and r.stderr == b"", r.stderr
    return json.loads(r.stdout) if r.stdout else {}


def test_session_start_tells_the_person_of_a_config_open_to_the_group(tmp_path):
    path = _config(mode=0o664)
    out = _start(tmp_path)
    message = out.get("systemMessage") or ""
    assert f"{path} is open to group or others (mode 0664)" in message, out
    assert f"chmod go-w {path}" in message  # what lh doctor says to run
    assert "hookSpecificOutput" not in out  # nothing read back: the memory folder may be the file's
    line = hook_log(paths.claude_dir())[-1]
    assert f"skipped: {path} is open to group or others (mode 0664); see lh doctor" in line and "told" in line
    assert not os.path.exists(os.path.join(paths.state_dir(), "config.json"))  # the file was not read


def test_session_start_tells_the_person_of_a_config_in_a_folder_open_to_the_group(tmp_path):
    path = _config(folder_mode=0o775)
    message = _start(tmp_path).get("systemMessage") or ""
    assert f"{os.path.dirname(path)} is open to group or others (mode 0775)" in message, message


def test_session_start_tells_the_person_of_a_config_that_is_a_folder(tmp_path, monkeypatch):
    folder = tmp_path / "cfgdir"
    folder.mkdir(mode=0o700)
    monkeypatch.setenv("LH_CONFIG", str(folder))
    message = _start(tmp_path).get("systemMessage") or ""
    assert f"{folder} is not a regular file" in message, message


@pytest.mark.parametrize("event", ["Stop", "SessionEnd"])
def test_stop_and_session_end_note_the_session_for_the_sweep(event, tmp_path):
    path = _config(mode=0o664)
    payload = {**place(tmp_path, session_id=SID), "hook_event_name": event}
    r = run_hook(event, payload)
    assert (r.returncode, r.stdout, r.stderr) == (0, b"", b"")
    assert os.path.exists(_open_file(SID))
    assert queue.pending(paths.queue_dir()) == []  # nothing queued with the defaults of a file not read
    line = hook_log(paths.claude_dir())[-1]
    assert f"skipped: {path} is open to group or others (mode 0664); see lh doctor" in line
    assert "session watched" in line


def test_the_watched_session_is_queued_by_a_start_once_the_mode_is_fixed(tmp_path):
    path = _config(mode=0o664)
    payload = {**place(tmp_path, session_id=SID), "hook_event_name": "SessionEnd"}
    assert run_hook("SessionEnd", payload).returncode == 0
    past = time.time() - 3600
    os.utime(payload["transcript_path"], (past, past))  # an hour idle
    os.chmod(path, 0o600)
    with worker_lock_held(paths.claude_dir()):  # keep what the hook queued in the queue
        _start(tmp_path, OTHER)
        q = paths.queue_dir()
        tasks = [queue.read_task(os.path.join(q, n)) for n in queue.pending(q)]
    assert [(t["session_id"], t["event"]) for t in tasks] == [(SID, "sweep")]


def test_a_folder_of_ours_open_to_others_still_skips_without_watching(tmp_path):
    """Only the config refused: the queue is safe to write in. With the queue itself open to others,
    nothing is written there (ADR 0031)."""
    _config(mode=0o664)
    q = paths.queue_dir()
    os.makedirs(q)
    os.chmod(q, 0o777)
    payload = {**place(tmp_path, session_id=SID), "hook_event_name": "Stop"}
    r = run_hook("Stop", payload)
    assert (r.returncode, r.stdout) == (0, b"")
    assert os.listdir(q) == []
    assert f"skipped: {q} is open to group or others (mode 0777); see lh doctor" in hook_log(paths.claude_dir())[-1]
