"""``lh knowledge handoff-now`` finds Codex CLI sessions too: their rollouts under
``$CODEX_HOME/sessions``, the newest interactive session of either agent for the project, and a
Codex id (or its first characters) given with ``--session``."""

import os
import time
from pathlib import Path

from lazy_harness import paths, queue
from tests.cli.lhrun import invoke
from tests.hooks.hookrun import enable_loop, worker_lock_held
from tests.support.sessions import place, place_rollout


def _age(path: str, seconds: float) -> None:
    t = time.time() - seconds
    os.utime(path, (t, t))


def _project(tmp_path, monkeypatch) -> Path:
    project = tmp_path / "proj"
    project.mkdir()
    monkeypatch.chdir(project)
    return project


def _handoff_now(*args: str) -> dict:
    """Run the command with the worker kept away; the task it queued."""
    with worker_lock_held(paths.claude_dir()) as q:
        result = invoke("knowledge", "handoff-now", *args)
        assert result.code == 0, result.err
        [name] = queue.pending(q)
        return {**queue.read_task(os.path.join(q, name)), "out": result.out}


def test_a_newer_codex_session_is_queued_as_codex(isolated_home, tmp_path, monkeypatch):
    enable_loop(isolated_home)
    project = _project(tmp_path, monkeypatch)
    claude = place(project)
    _age(claude["transcript_path"], 3600)  # the Claude Code session ran an hour ago
    sid, rollout = place_rollout(project)
    task = _handoff_now()
    assert (task["session_id"], task["session_jsonl"]) == (sid, rollout)
    assert task["agent"] == "codex" and task["event"] == "handoff-now"
    assert task["transcripts"] == os.path.join(paths.codex_home(), "sessions")
    assert task["memory_dir"] == paths.memory_dir(str(project))
    assert f"for session {sid}" in task["out"]


def test_an_older_codex_session_leaves_the_claude_session_first(isolated_home, tmp_path, monkeypatch):
    enable_loop(isolated_home)
    project = _project(tmp_path, monkeypatch)
    claude = place(project)
    _, rollout = place_rollout(project)
    _age(rollout, 3600)
    task = _handoff_now()
    assert task["session_id"] == claude["session_id"] and "agent" not in task


def test_a_codex_exec_run_is_skipped_for_the_interactive_session(isolated_home, tmp_path, monkeypatch):
    enable_loop(isolated_home)
    project = _project(tmp_path, monkeypatch)
    sid, rollout = place_rollout(project)
    _age(rollout, 3600)
    _, headless = place_rollout(project, "exec.jsonl", day="2026/11/29")  # newer, but codex exec
    task = _handoff_now()
    assert task["session_jsonl"] == rollout and task["agent"] == "codex"
    assert f"skipped {os.path.basename(headless)}: headless session" in task["out"]


def test_a_codex_session_of_another_project_is_not_taken(isolated_home, tmp_path, monkeypatch):
    enable_loop(isolated_home)
    other = tmp_path / "other"
    other.mkdir()
    place_rollout(other)
    _project(tmp_path, monkeypatch)
    result = invoke("knowledge", "handoff-now")
    assert result.code == 1 and "no interactive Claude Code session found" in result.err and "nor a Codex" in result.err


def test_session_option_resolves_a_codex_prefix_and_full_id(isolated_home, tmp_path, monkeypatch):
    enable_loop(isolated_home)
    project = _project(tmp_path, monkeypatch)
    place(project)  # the newest session is Claude Code's: the id picks the Codex one
    sid, rollout = place_rollout(project)
    _age(rollout, 3600)
    for given in (sid[:8], sid):
        task = _handoff_now("--session", given)
        assert (task["session_id"], task["session_jsonl"], task["agent"]) == (sid, rollout, "codex")
        assert task["cwd"] == str(project)
        os.unlink(os.path.join(paths.queue_dir(), queue.pending(paths.queue_dir())[0]))


def test_session_option_from_another_folder_uses_the_rollouts_project(isolated_home, tmp_path, monkeypatch):
    enable_loop(isolated_home)
    project = tmp_path / "proj"
    project.mkdir()
    sid, _ = place_rollout(project)
    monkeypatch.chdir(tmp_path)
    task = _handoff_now("--session", sid[:13])
    assert task["cwd"] == str(project) and task["memory_dir"] == paths.memory_dir(str(project))


def test_a_prefix_shared_by_both_agents_is_ambiguous(isolated_home, tmp_path, monkeypatch):
    enable_loop(isolated_home)
    project = _project(tmp_path, monkeypatch)
    sid, _ = place_rollout(project)
    claude = place(project, session_id=sid[:8] + "-1111-2222-3333-444444444444")
    result = invoke("knowledge", "handoff-now", "--session", sid[:8])
    assert result.code == 1
    assert "2 sessions start with" in result.err and sid in result.err and claude["session_id"] in result.err


def test_a_newer_codex_rollout_with_nothing_typed_is_passed_over(isolated_home, tmp_path, monkeypatch):
    """A TUI opened for a ``!`` command and closed writes a rollout with no conversation: the worker
    skips it as empty, so handoff-now takes the session before it instead of queuing nothing."""
    import json

    enable_loop(isolated_home)
    project = _project(tmp_path, monkeypatch)
    sid, rollout = place_rollout(project)
    _age(rollout, 3600)
    _, newer = place_rollout(project, day="2026/11/29")
    with open(newer, encoding="utf-8") as fh:
        meta = json.loads(fh.readline())
    meta["payload"]["id"] = meta["payload"]["session_id"] = "01a22c3a-62ab-7e21-83ca-d650de17c1d7"
    empty = os.path.join(os.path.dirname(newer),
                         "rollout-2026-11-29T10-00-00-01a22c3a-62ab-7e21-83ca-d650de17c1d7.jsonl")
    with open(empty, "w", encoding="utf-8") as fh:
        fh.write(json.dumps(meta) + "\n")
    os.unlink(newer)
    task = _handoff_now()
    assert (task["session_id"], task["session_jsonl"]) == (sid, rollout)
    assert f"skipped {os.path.basename(empty)}: empty session" in task["out"]
