"""A session's memory is its project's: the folder Claude Code started it in (``CLAUDE_PROJECT_DIR``),
not the payload's ``cwd``, which follows the agent's ``cd`` into a nested repository or into a folder
``claude --add-dir`` gave. Before, the session was queued, read back and recalled for whichever
project the agent had last ``cd``'d into."""

import json
import os
import time

from lazy_harness import paths, queue
from lazy_harness.memory import files
from tests.hooks.hookrun import enable_loop, run_hook, worker_lock_held
from tests.hooks.test_codex_hooks import run_codex_hook
from tests.support import memory_samples as ms

NOW = time.time()
SID = "4f1c2a9e-7b3d-4e8a-9c21-0d5e6f7a8b90"


def _projects(tmp_path) -> tuple[str, str, str]:
    alpha = ms.make_project(tmp_path / "work", "alpha")
    beta = ms.make_project(tmp_path / "work", "beta")
    nested = ms.make_project(os.path.join(alpha, "libs"), "vendored")  # a repository inside alpha's
    for root, what in ((alpha, "alpha renders invoices with WeasyPrint"), (beta, "beta renders docs with Sphinx"),
                       (nested, "the vendored library pins its own pdf fonts")):
        ms.write_jsonl(os.path.join(paths.memory_dir(root), files.DECISIONS), [ms.decision(NOW - 3600, what)])
    return alpha, beta, nested


def _queued(event: str, payload: dict, env: dict, codex: bool = False) -> dict:
    with worker_lock_held(paths.claude_dir()) as q:
        r = run_codex_hook(event, payload) if codex else run_hook(event, payload, env=env)
        assert r.returncode == 0 and r.stdout == b"", r.stderr
        [name] = queue.pending(q)
        return queue.read_task(os.path.join(q, name))


def _payload(cwd: str, event: str, **more) -> dict:
    return {"session_id": SID, "transcript_path": str(cwd) + "/t.jsonl", "cwd": str(cwd),
            "hook_event_name": event, **more}


def test_a_session_of_alpha_whose_agent_went_into_beta_or_a_nested_repository_stays_alpha(isolated_home, tmp_path):
    enable_loop(isolated_home)
    alpha, beta, nested = _projects(tmp_path)
    env = dict(os.environ, CLAUDE_PROJECT_DIR=alpha)
    for went in (beta, nested):
        task = _queued("SessionEnd", _payload(went, "SessionEnd", reason="other"), env)
        assert task["memory_dir"] == paths.memory_dir(alpha) and task["cwd"] == alpha, (went, task)
        r = run_hook("SessionStart", _payload(went, "SessionStart", source="resume"), env=env)
        assert r.returncode == 0, r.stderr
        context = json.loads(r.stdout)["hookSpecificOutput"]["additionalContext"]
        assert "WeasyPrint" in context and "Sphinx" not in context and "pdf fonts" not in context, context


def test_without_the_variable_or_with_a_folder_gone_the_payloads_cwd_is_the_project(isolated_home, tmp_path):
    enable_loop(isolated_home)
    alpha, beta, _ = _projects(tmp_path)
    env = {k: v for k, v in os.environ.items() if k != "CLAUDE_PROJECT_DIR"}
    assert _queued("SessionEnd", _payload(beta, "SessionEnd"), env)["memory_dir"] == paths.memory_dir(beta)
    gone = dict(env, CLAUDE_PROJECT_DIR=str(tmp_path / "deleted"))
    assert _queued("SessionEnd", _payload(beta, "SessionEnd"), gone)["memory_dir"] == paths.memory_dir(beta)


def test_a_codex_session_keeps_its_payloads_cwd_even_under_a_claude_code_shell(isolated_home, tmp_path, monkeypatch):
    """Codex sets no ``CLAUDE_PROJECT_DIR``; one inherited from a Claude Code session's shell that
    started codex names that session's project, not Codex's."""
    enable_loop(isolated_home)
    alpha, beta, _ = _projects(tmp_path)
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", alpha)
    task = _queued("SessionEnd", _payload(beta, "SessionEnd"), dict(os.environ), codex=True)
    assert task["memory_dir"] == paths.memory_dir(beta)
