import os

from lazy_harness import paths, queue as spool
from tests.cli.lhrun import invoke
from tests.hooks.hookrun import enable_loop
from tests.support import fake_claude
from tests.support.sessions import place, wait_finished


def test_handoff_now_picks_the_newest_interactive_session_and_waits(isolated_home, tmp_path, monkeypatch):
    enable_loop(isolated_home, retry_backoff_seconds=0)
    fake_claude.use(tmp_path, monkeypatch)
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


def _worker_pids() -> list[int]:
    import re

    try:
        with open(os.path.join(paths.logs_dir(), "worker.log"), encoding="utf-8") as fh:
            return sorted({int(p) for p in re.findall(r"worker (\d+)", fh.read())})
    except FileNotFoundError:
        return []


def test_handoff_now_wait_with_the_api_unreachable_names_the_cause_and_the_task_runs_when_it_answers(
        isolated_home, tmp_path, monkeypatch):
    """Item 9 of issue 26: it printed nothing for 420 s, then "did not finish", and nothing retried the
    task until a hook fired. Now it returns as soon as the worker puts the task back to wait, exits
    non-zero naming the cause, and the worker itself runs the task once the API answers."""
    import subprocess

    from tests.cli.lhrun import lh_script
    from tests.reliability import rig

    enable_loop(isolated_home, retry_backoff_seconds=0, wait_seconds=1, linger_minutes=5)
    bin_dir = fake_claude.use(tmp_path, monkeypatch, mode="unreachable")  # exit 1, is_error, Connection refused
    project = tmp_path / "proj"
    project.mkdir()
    session = place(project)
    try:
        result = subprocess.run([*lh_script(), "knowledge", "handoff-now", "--wait"], cwd=project,
                                capture_output=True, text=True, timeout=30)
        assert result.returncode == 1
        assert "waits: the API is unreachable (" in result.stderr and "Connection refused" in result.stderr
        assert "it stays queued and runs by itself" in result.stderr and "hint: lh queue" in result.stderr
        q = paths.queue_dir()
        [name] = spool.pending(q)
        assert spool.read_task(os.path.join(q, name))["session_id"] == session["session_id"]
        fake_claude.control(bin_dir, mode="ok", answer=fake_claude.DEFAULT_ANSWER)  # the API answers again
        [done] = wait_finished(q, timeout=60)  # no hook fires: the lingering worker retries by itself
        assert spool.read_task(done)["outcome"] == "processed"
        assert len(fake_claude.calls(bin_dir)) >= 2
    finally:
        rig.wait_dead(_worker_pids())
