"""No session left behind: the sweep run by SessionStart (and the worker) queues a session that grew
since its last check and went idle, e.g. one killed before its SessionEnd. Real hook subprocesses,
a real worker subprocess, a fake ``claude`` on PATH."""

import os
import subprocess
import sys
import time


from lazy_harness import paths, queue
from tests.hooks.hookrun import enable_loop, hook_log, run_hook, spawned_workers_gone, worker_lock_held
from tests.support import fake_claude
from tests.support.sessions import place, wait_finished

SID = "0b7e4c1d-2f3a-4b5c-8d9e-0f1a2b3c4d5e"
OTHER = "9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d"


def _write_short(project) -> dict:
    """The first turn of a session: a few typed characters, far below min_user_chars."""
    payload = place(project, session_id=SID)
    head = [line for line in open(payload["transcript_path"]).read().splitlines(keepends=True)
            if '"promptSource":"typed"' in line or '"permission-mode"' in line][:2]
    with open(payload["transcript_path"], "w") as fh:
        fh.writelines(head)
    return {**payload, "hook_event_name": "Stop"}


def _age(path, seconds_ago: float) -> None:
    t = time.time() - seconds_ago
    os.utime(path, (t, t))


def _stamp() -> str:
    return os.path.join(paths.queue_dir(), "state", ".sweep")


def _fresh_stamp() -> None:
    """A sweep just ran: the next ones within a minute are throttled."""
    os.makedirs(os.path.dirname(_stamp()), exist_ok=True)
    with open(_stamp(), "w") as fh:
        fh.write("\n")


def _drain(count: int) -> list[str]:
    """Run the worker in the foreground (it leaves if a spawned one holds the lock) and wait."""
    subprocess.run([sys.executable, "-m", "lazy_harness.worker"], env=dict(os.environ), timeout=60)
    finished = wait_finished(paths.queue_dir(), count=count)
    spawned_workers_gone()
    return finished


def _pending() -> list[dict]:
    q = paths.queue_dir()
    return [queue.read_task(os.path.join(q, n)) for n in queue.pending(q)]


def _session_start(project) -> subprocess.CompletedProcess:
    transcript = os.path.join(paths.projects_dir(), paths.project_key(str(project)), f"{OTHER}.jsonl")
    payload = {"session_id": OTHER, "transcript_path": transcript, "cwd": str(project),
               "hook_event_name": "SessionStart", "source": "startup"}
    with worker_lock_held(paths.claude_dir()):  # keep what the hook queued in the queue
        result = run_hook("SessionStart", payload)
        pending = _pending()
    assert result.returncode == 0, result.stderr
    return pending


def _short_then_killed(isolated_home, project) -> dict:
    """A short first turn is queued and skipped; the session then grows and is killed: no Stop
    after the growth, no SessionEnd. Half an hour passes."""
    enable_loop(isolated_home, retry_backoff_seconds=0)
    payload = _write_short(project)
    _age(payload["transcript_path"], 3600)
    _fresh_stamp()  # no worker sweeps before the session has grown
    with worker_lock_held(paths.claude_dir()):
        assert run_hook("Stop", payload).returncode == 0
    [first] = _drain(1)
    # issue 26 item 11: a running session's short first turn is no verdict on the session
    assert queue.read_task(first)["reason"].startswith("not yet: "), queue.read_task(first)["reason"]
    assert "the session is still running and is checked again" in queue.read_task(first)["reason"]
    place(project, session_id=SID)  # the rest of the session reaches the file, then kill -9
    _age(payload["transcript_path"], 1800)
    return payload


def test_a_short_then_grown_then_killed_session_is_queued_by_the_next_session_start(isolated_home, fake, project):
    payload = _short_then_killed(isolated_home, project)
    _age(_stamp(), 120)
    [task] = _session_start(project)
    assert (task["session_id"], task["event"], task["session_jsonl"]) == (SID, "sweep", payload["transcript_path"])
    assert task["memory_dir"] == paths.memory_dir(str(project))
    assert any("sweep queued 1 idle session(s)" in line for line in hook_log(paths.claude_dir()))
    finished = _drain(2)
    last = queue.read_task(finished[-1])
    assert (last["outcome"], last["event"]) == ("processed", "sweep"), last
    [call] = fake_claude.calls(fake)
    assert "queue" in call["stdin"].lower()  # the grown conversation reached the model
    assert os.path.exists(os.path.join(paths.memory_dir(str(project)), "decisions.jsonl"))


def test_the_sweep_respects_its_throttle(isolated_home, fake, project):
    _short_then_killed(isolated_home, project)
    _fresh_stamp()
    assert _session_start(project) == []  # a sweep ran less than a minute ago
    _age(_stamp(), 120)
    [task] = _session_start(project)
    assert task["session_id"] == SID


def _distilled_then_forgotten(isolated_home, project) -> tuple[dict, str]:
    """A session distilled at its Stop, then idle: the next sweep forgets it. Returns its Stop payload
    and its open file (gone by then)."""
    enable_loop(isolated_home, retry_backoff_seconds=0)
    payload = {**place(project, session_id=SID), "hook_event_name": "Stop"}
    _age(payload["transcript_path"], 3600)
    _fresh_stamp()
    with worker_lock_held(paths.claude_dir()):
        assert run_hook("Stop", payload).returncode == 0
    [done] = _drain(1)
    assert queue.read_task(done)["outcome"] == "processed"
    open_file = os.path.join(paths.queue_dir(), "state", "open", SID)
    assert os.path.exists(open_file)
    _age(_stamp(), 120)
    assert _session_start(project) == []
    assert not os.path.exists(open_file)  # checked as it is: the sweep forgets it
    return payload, open_file


def test_a_distilled_idle_session_is_not_queued_again(isolated_home, fake, project):
    _distilled_then_forgotten(isolated_home, project)
    assert len(fake_claude.calls(fake)) == 1


def test_a_stop_after_a_skip_queues_the_grown_session(isolated_home, fake, project):
    """A skip never blocks: the next Stop on a grown transcript queues it at once."""
    enable_loop(isolated_home, retry_backoff_seconds=0)
    payload = _write_short(project)
    _age(payload["transcript_path"], 3600)
    _fresh_stamp()
    with worker_lock_held(paths.claude_dir()):
        run_hook("Stop", payload)
    _drain(1)
    place(project, session_id=SID)
    _age(payload["transcript_path"], 3600 - 30)  # grew for 30 s: less than the 120 s growth window
    with worker_lock_held(paths.claude_dir()):
        run_hook("Stop", payload)
        [task] = _pending()
    assert (task["session_id"], task["event"]) == (SID, "Stop")
    assert "skipped: not queued" not in hook_log(paths.claude_dir())[-1]


def test_a_session_forgotten_while_idle_is_watched_again_from_its_next_prompt(isolated_home, fake, project):
    """Distilled, then idle: the sweep forgets it. The user comes back and types a prompt, the turn
    reaches the transcript and the session is killed before its Stop (no SessionEnd either)."""
    payload, open_file = _distilled_then_forgotten(isolated_home, project)
    typed = {"session_id": SID, "transcript_path": payload["transcript_path"], "cwd": str(project),
             "hook_event_name": "UserPromptSubmit", "permission_mode": "default",
             "prompt": "now make the retry count of the export job configurable"}
    assert run_hook("UserPromptSubmit", typed).returncode == 0
    assert os.path.exists(open_file)
    place(project, session_id=SID)  # the turn is written, then kill -9
    _age(payload["transcript_path"], 1800)
    _age(_stamp(), 120)
    [task] = _session_start(project)
    assert (task["session_id"], task["event"]) == (SID, "sweep")


def test_a_prompt_whose_search_fails_still_watches_its_session(isolated_home, fake, project):
    payload, open_file = _distilled_then_forgotten(isolated_home, project)
    from lazy_harness.recall.index import store

    store.remove(paths.recall_index_file())
    os.makedirs(paths.recall_index_file())  # a folder where the index file goes: every search fails
    typed = {"session_id": SID, "transcript_path": payload["transcript_path"], "cwd": str(project),
             "hook_event_name": "UserPromptSubmit", "permission_mode": "default",
             "prompt": "now make the retry count of the export job configurable"}
    result = run_hook("UserPromptSubmit", typed)
    assert (result.returncode, result.stdout) == (0, b"")
    assert " error " in hook_log(paths.claude_dir())[-1]
    assert os.path.exists(open_file)
