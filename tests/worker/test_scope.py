"""A learning's scope is one of the two values the prompt asks for: anything else the model gives
(``universal``) is stored as ``project`` and the worker log names the learning and the scope it had."""

import os
import subprocess
import sys

from lazy_harness import logfile, paths, queue
from lazy_harness.memory import files, frontmatter
from lazy_harness.worker import answer as a
from tests.hooks.hookrun import enable_loop
from tests.support import fake_claude
from tests.support.sessions import place, wait_finished


def test_an_unknown_scope_is_read_as_project_and_noted_with_the_title():
    out, problems = a.validate({"learnings": [
        {"title": "Retry the flaky upload twice", "learning": "x", "scope": "universal"},
        {"title": "Ruff runs in CI", "learning": "y", "scope": "General"},
        {"title": "No scope given", "learning": "z"}]})
    assert [i["scope"] for i in out["learnings"]] == ["project", "general", "project"]
    assert any("'Retry the flaky upload twice'" in p and "'universal'" in p and "project" in p for p in problems)
    assert not any("Ruff runs in CI" in p or "No scope given" in p for p in problems)


def test_an_empty_or_null_scope_is_noted_too():
    for given in ("", None, "   ", [], "-"):
        out, problems = a.validate({"learnings": [{"title": "Pin the base image", "learning": "x", "scope": given}]})
        assert out["learnings"][0]["scope"] == "project"
        assert [p for p in problems if "'Pin the base image'" in p and "stored as project" in p], (given, problems)


def test_a_universal_learning_from_claude_is_stored_as_project_and_logged(isolated_home, tmp_path, monkeypatch):
    said = {"decisions": [], "failures": [], "handoff": [],
            "learnings": [{"title": "Staging needs the VPN", "learning": "Connect the VPN before deploying.",
                           "context": "deploy", "scope": "universal", "tags": ["vpn"]}]}
    fake_claude.use(tmp_path, monkeypatch, answer=said)
    enable_loop(isolated_home, retry_backoff_seconds=0)
    project = tmp_path / "proj"
    project.mkdir()
    payload = place(project)
    queue.enqueue(paths.queue_dir(), queue.task_fields(payload, "SessionEnd", True))
    done = subprocess.run([sys.executable, "-m", "lazy_harness.worker"], env=dict(os.environ), timeout=60)
    assert done.returncode == 0
    wait_finished(paths.queue_dir())
    [path] = files.recent_learning_files(paths.learnings_dir(), 10)
    assert frontmatter.read_frontmatter_values(path, ("scope",))["scope"] == "project"
    with open(logfile.log_path(logfile.WORKER)) as fh:
        log = fh.read()
    assert "'Staging needs the VPN'" in log and "'universal'" in log, log
