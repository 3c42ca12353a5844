import os

from lazy_harness import paths
from tests.cli.lhrun import invoke
from tests.hooks.hookrun import enable_loop
from tests.support import fake_claude
from tests.support.sessions import place


def test_handoff_now_picks_the_newest_interactive_session_and_waits(isolated_home, tmp_path, monkeypatch):
    enable_loop(isolated_home, retry_backoff_seconds=0)
    bin_dir = fake_claude.use(tmp_path, monkeypatch)
    project = tmp_path / "proj"
    project.mkdir()
    interactive = place(project)
    headless = place(project, "headless.jsonl")
    os.utime(headless["transcript_path"], (2e9, 2e9))  # the headless run is newer
    monkeypatch.chdir(project)
    result = invoke("knowledge", "handoff-now", "--wait")
    assert result.code == 0, result.err
    assert f"skipped {os.path.basename(headless['transcript_path'])}: headless session" in result.out
    assert f"for session {interactive['session_id']}" in result.out
    assert "done: distilled" in result.out and "handoff written" in result.out
    handoff = open(os.path.join(paths.memory_dir(str(project)), "handoff.md")).read()
    assert interactive["session_id"] in handoff


def test_handoff_now_without_sessions_says_so(isolated_home, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = invoke("knowledge", "handoff-now")
    assert result.code == 1 and "no interactive Claude Code session found" in result.err
