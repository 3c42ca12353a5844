"""The idle sweep keeps the folder the watching hook's agent keeps its transcripts in: a Codex session
run with its own ``CODEX_HOME``, killed without SessionEnd and swept up by a Claude Code hook (which
has no ``CODEX_HOME``), is distilled, not refused as untrusted. Real hook and worker subprocesses, a
fake ``claude`` on PATH."""

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from lazy_harness import paths, queue
from lazy_harness.queue import sweep
from tests.hooks.hookrun import enable_loop, run_hook, spawned_workers_gone, worker_lock_held
from tests.support import fake_claude
from tests.support.sessions import place, place_rollout, wait_finished

CLAUDE_SID = "bbbbbbbb-1111-4222-8333-444444444444"


def _own_codex_home(isolated_home) -> Path:
    """A CODEX_HOME of its own, closed to others as Codex makes it."""
    custom = Path(isolated_home) / "work-codex"
    (custom / "sessions").mkdir(parents=True, mode=0o700)
    os.chmod(custom, 0o700)
    return custom


def _age(path: str, seconds: float) -> None:
    t = time.time() - seconds
    os.utime(path, (t, t))


def _record(sid: str) -> dict:
    return queue.read_task(os.path.join(paths.queue_dir(), queue.OPEN, paths.safe_session_id(sid)))


def test_a_codex_session_with_its_own_codex_home_swept_by_a_claude_hook_is_distilled(
        isolated_home, tmp_path, monkeypatch):
    enable_loop(isolated_home, retry_backoff_seconds=0, min_user_chars=10, idle_minutes=1)
    fake_claude.use(tmp_path, monkeypatch)
    project = tmp_path / "proj"
    project.mkdir()
    custom = _own_codex_home(isolated_home)
    sid, rollout = place_rollout(project, codex_home=custom)
    codex_env = {**os.environ, "CODEX_HOME": str(custom)}  # what codex and its hooks run with
    start = {"session_id": sid, "transcript_path": rollout, "cwd": str(project),
             "hook_event_name": "SessionStart", "source": "startup"}
    with worker_lock_held(paths.claude_dir()):
        r = subprocess.run([sys.executable, "-m", "lazy_harness.hooks", "SessionStart", "--agent", "codex"],
                           input=json.dumps(start).encode(), capture_output=True, env=codex_env, timeout=20)
        assert r.returncode == 0, r.stderr
    assert _record(sid)[queue.task.TRANSCRIPTS] == str(custom / "sessions")
    # killed without SessionEnd; 11 minutes later a Claude Code session starts in the project
    _age(rollout, 660)
    stamp = os.path.join(paths.queue_dir(), "state", ".sweep")
    if os.path.exists(stamp):
        _age(stamp, 660)
    claude = place(project, session_id=CLAUDE_SID)
    assert "CODEX_HOME" not in os.environ
    r = run_hook("SessionStart", {**claude, "hook_event_name": "SessionStart", "source": "startup"})
    assert r.returncode == 0, r.stderr
    [finished] = wait_finished(paths.queue_dir(), timeout=60)
    spawned_workers_gone()
    task = queue.read_task(finished)
    assert os.path.basename(os.path.dirname(finished)) == "done", task.get("reason")
    assert (task["event"], task["agent"], task["session_id"]) == ("sweep", "codex", sid)
    assert task["outcome"] == "processed" and task["reason"].startswith("distilled")


def test_the_swept_task_keeps_the_folder_the_watching_hook_named(isolated_home, tmp_path):
    enable_loop(isolated_home)
    project = tmp_path / "proj"
    project.mkdir()
    custom = _own_codex_home(isolated_home)
    sid, rollout = place_rollout(project, codex_home=custom)
    q = paths.queue_dir()
    payload = {"session_id": sid, "transcript_path": rollout, "cwd": str(project), "lh_agent": "codex"}
    assert sweep.watch(q, payload, {**os.environ, "CODEX_HOME": str(custom)})
    [name] = sweep.sweep(q, os.stat(rollout).st_mtime + 3600, idle_seconds=600, env=dict(os.environ))
    task = queue.read_task(os.path.join(q, name))
    assert (task["agent"], task[queue.task.TRANSCRIPTS]) == ("codex", str(custom / "sessions"))


def test_a_claude_sessions_record_names_its_projects_folder(isolated_home, tmp_path):
    enable_loop(isolated_home)
    project = tmp_path / "proj"
    project.mkdir()
    claude = place(project, session_id=CLAUDE_SID)
    q = paths.queue_dir()
    assert sweep.watch(q, claude)
    assert _record(CLAUDE_SID)[queue.task.TRANSCRIPTS] == paths.projects_dir()
    assert "agent" not in _record(CLAUDE_SID)


def test_a_record_from_an_older_version_takes_the_sweeping_hooks_folder(isolated_home, tmp_path):
    """A record written before the folder was kept: the task is built as it always was."""
    enable_loop(isolated_home)
    project = tmp_path / "proj"
    project.mkdir()
    sid, rollout = place_rollout(project)
    q = paths.queue_dir()
    queue.ensure_layout(q)
    with open(os.path.join(q, queue.OPEN, sid), "w") as fh:
        fh.write(queue.format_task({"session_id": sid, "transcript": rollout, "cwd": str(project), "agent": "codex"}))
    [name] = sweep.sweep(q, os.stat(rollout).st_mtime + 3600, idle_seconds=600)
    task = queue.read_task(os.path.join(q, name))
    assert task[queue.task.TRANSCRIPTS] == os.path.join(paths.codex_home(), "sessions")
    assert (task["agent"], task["session_jsonl"]) == ("codex", rollout)


def test_the_record_names_the_folder_a_task_of_the_same_hook_names(isolated_home, tmp_path):
    """The sweep's record and the hook's own task agree on the folder, for either agent and env."""
    project = tmp_path / "proj"
    project.mkdir()
    custom = _own_codex_home(isolated_home)
    q = paths.queue_dir()
    for n, (agent, env) in enumerate([(None, {**os.environ, "CODEX_HOME": str(custom)}),
                                      ("codex", {**os.environ, "CODEX_HOME": str(custom)}),
                                      ("codex", dict(os.environ)),
                                      (None, {**os.environ, "CLAUDE_CONFIG_DIR": str(tmp_path / "profile")})]):
        sid = f"{n:08d}-1111-4222-8333-444444444444"
        payload = {"session_id": sid, "transcript_path": str(tmp_path / f"{sid}.jsonl"), "cwd": str(project),
                   **({"lh_agent": agent} if agent else {})}
        assert sweep.watch(q, payload, env)
        assert _record(sid)[queue.task.TRANSCRIPTS] == queue.task_fields(payload, "Stop", False, env, "")[
            queue.task.TRANSCRIPTS]
