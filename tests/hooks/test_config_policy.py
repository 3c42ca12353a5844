"""One policy for an invalid config.toml (ADR 0016), in every process that reads it: distillation
pauses. The producer hooks queue nothing and start no worker but watch the session; SessionStart
starts no worker and tells the person the file and line; a worker started anyway leaves every task
pending and logs one line; once the file is fixed the sweep queues what was watched. An unknown key
is a warning only. Real hook subprocesses, a real worker subprocess, a fake ``claude`` on PATH."""

import json
import os
import subprocess
import sys
import time

import pytest

from lazy_harness import logfile, paths, queue
from tests.hooks.hookrun import enable_loop, hook_log, run_hook, spawned_workers_gone, worker_lock_held
from tests.support import fake_claude
from tests.support.sessions import place, wait_finished

SID = "3c9d2e1f-4a5b-4c6d-8e7f-9a0b1c2d3e4f"

# (the line written after [compound_loop], enabled and retry_backoff_seconds, what the person is told)
BROKEN = {
    "wrong value": ("model = 42\n", "compound_loop.model: expected a string, got 42"),
    "syntax error": ("model = \n", "TOML syntax error"),
}


@pytest.fixture
def project(tmp_path):
    p = tmp_path / "proj"
    p.mkdir()
    return p


def _config(home, extra: str) -> str:
    """enable_loop's file with ``extra`` as the [compound_loop] table's 4th line (before its [trust])."""
    path = enable_loop(home, retry_backoff_seconds=0)
    with open(path) as fh:
        loop, trust = fh.read().split("[trust]\n")
    with open(path, "w") as fh:
        fh.write(loop + extra + "[trust]\n" + trust)
    return path


def _broken(home, kind: str) -> tuple[str, str]:
    """Write a config.toml whose 4th line is broken; returns (its path, "<path>:4")."""
    path = _config(home, BROKEN[kind][0])
    return path, f"{path}:4"


def _tasks() -> list[str]:
    q = paths.queue_dir()
    claimed = os.path.join(q, "processing")
    return queue.pending(q) + (sorted(os.listdir(claimed)) if os.path.isdir(claimed) else [])


def _watched(sid: str) -> bool:
    return os.path.exists(os.path.join(paths.queue_dir(), "state", "open", sid))


def _worker_log() -> list[str]:
    try:
        with open(logfile.log_path(logfile.WORKER)) as fh:
            return fh.read().splitlines()
    except FileNotFoundError:
        return []


def _start(project, sid: str = "7e6d5c4b-3a29-4817-a6b5-c4d3e2f1a0b9") -> tuple[dict, str]:
    payload = {"session_id": sid, "transcript_path": os.path.join(str(project), "none.jsonl"),
               "cwd": str(project), "hook_event_name": "SessionStart", "source": "startup"}
    result = run_hook("SessionStart", payload)
    assert result.returncode == 0, result.stderr
    return (json.loads(result.stdout) if result.stdout.strip() else {}), hook_log(paths.claude_dir())[-1]


@pytest.mark.parametrize("kind", sorted(BROKEN))
@pytest.mark.parametrize("event", ["Stop", "SessionEnd"])
def test_a_producer_queues_nothing_starts_no_worker_and_watches_the_session(isolated_home, project, kind, event):
    path, where = _broken(isolated_home, kind)
    payload = {**place(project, session_id=SID), "hook_event_name": event}
    result = run_hook(event, payload)
    assert (result.returncode, result.stdout) == (0, b"")
    assert _tasks() == []
    assert _watched(SID)
    last = hook_log(paths.claude_dir())[-1]
    assert f"skipped: config invalid: lh config validate ({where}:" in last
    assert BROKEN[kind][1] in last and "distillation paused" in last and "worker pid" not in last


@pytest.mark.parametrize("kind", sorted(BROKEN))
def test_session_start_tells_the_person_and_starts_no_worker_for_waiting_tasks(isolated_home, project, kind):
    path, where = _broken(isolated_home, kind)
    # a task queued before the file broke: a worker would be due for it
    queue.enqueue(paths.queue_dir(), queue.task_fields(place(project, session_id=SID), "Stop", False))
    assert queue.needs_worker(paths.queue_dir())
    out, last = _start(project)
    assert where in out["systemMessage"] and "lh config validate" in out["systemMessage"]
    assert BROKEN[kind][1] in out["systemMessage"]
    assert "started worker" not in last and "distillation paused" in last
    assert len(_tasks()) == 1  # waits for the fix
    assert _worker_log() == []  # no worker was spawned (a spawned one logs at least one line)


@pytest.mark.parametrize("kind", sorted(BROKEN))
def test_a_worker_started_anyway_leaves_tasks_pending_and_logs_one_line(isolated_home, project, kind, tmp_path,
                                                                        monkeypatch):
    fake = fake_claude.use(tmp_path, monkeypatch)
    path, where = _broken(isolated_home, kind)
    queue.enqueue(paths.queue_dir(), queue.task_fields(place(project, session_id=SID), "Stop", False))
    before = _tasks()
    done = subprocess.run([sys.executable, "-m", "lazy_harness.worker"], env=dict(os.environ), timeout=60,
                          capture_output=True, text=True)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    assert _tasks() == before and queue.pending(paths.queue_dir()) == before
    [line] = _worker_log()
    assert "paused, config.toml invalid: " in line and where in line and "lh config validate" in line
    assert fake_claude.calls(fake) == []
    assert os.listdir(os.path.join(paths.queue_dir(), "failed")) == []


def test_lh_worker_run_refuses_an_invalid_file_with_its_line(isolated_home, project):
    path, where = _broken(isolated_home, "wrong value")
    queue.enqueue(paths.queue_dir(), queue.task_fields(place(project, session_id=SID), "Stop", False))
    done = subprocess.run([sys.executable, "-m", "lazy_harness", "worker", "run", "--once"], env=dict(os.environ),
                          timeout=60, capture_output=True, text=True)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert f"{where}: compound_loop.model: expected a string, got 42" in done.stderr
    assert len(_tasks()) == 1


def test_once_fixed_the_watched_session_is_queued_and_distilled(isolated_home, project, tmp_path, monkeypatch):
    fake = fake_claude.use(tmp_path, monkeypatch)
    path, _ = _broken(isolated_home, "wrong value")
    payload = {**place(project, session_id=SID), "hook_event_name": "SessionEnd"}
    assert run_hook("SessionEnd", payload).returncode == 0
    assert _tasks() == [] and _watched(SID)
    old = time.time() - 3600  # the session went idle an hour ago
    os.utime(payload["transcript_path"], (old, old))
    _config(isolated_home, "")  # the person fixes the file: enabled = true, nothing else
    out, last = _start(project)
    assert "systemMessage" not in out
    assert "sweep queued 1 idle session(s)" in last and "started worker pid" in last
    [finished] = wait_finished(paths.queue_dir())
    spawned_workers_gone()
    record = queue.read_task(finished)
    assert (record["session_id"], record["event"], record["outcome"]) == (SID, "sweep", "processed"), record
    assert len(fake_claude.calls(fake)) == 1


def test_an_unknown_key_is_a_warning_only(isolated_home, project, tmp_path, monkeypatch):
    fake = fake_claude.use(tmp_path, monkeypatch)
    _config(isolated_home, "colour = \"blue\"\n")
    payload = {**place(project, session_id=SID), "hook_event_name": "SessionEnd"}
    with worker_lock_held(paths.claude_dir()):  # the spawned worker leaves: the task stays to be seen
        result = run_hook("SessionEnd", payload)
        assert result.returncode == 0
        [task] = queue.pending(paths.queue_dir())
    assert queue.read_task(os.path.join(paths.queue_dir(), task))["session_id"] == SID
    assert "queued" in hook_log(paths.claude_dir())[-1]
    out, last = _start(project)
    assert "systemMessage" not in out and "config invalid" not in last
    [finished] = wait_finished(paths.queue_dir())  # a worker (spawned or restarted by SessionStart) ran it
    spawned_workers_gone()
    assert queue.read_task(finished)["outcome"] == "processed" and len(fake_claude.calls(fake)) == 1
