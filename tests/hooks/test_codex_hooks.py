"""The hooks as Codex CLI runs them (``<command> <Event> --agent codex``, JSON on stdin): Codex's
payloads queue the session with ``agent=codex``, the sweep keeps the agent, and the read-back stays
under Codex's preview limit."""

import json
import os
import subprocess
import sys
import time

import pytest

from lazy_harness import paths, queue
from lazy_harness.memory import files
from lazy_harness.queue import sweep
from tests.hooks.hookrun import enable_loop, hook_log, worker_lock_held
from tests.support import memory_samples as ms

SID = "019a2f3c-7d41-7b20-9c55-3e8f6a1d2b90"  # a thread id shaped like Codex's (UUID v7)
NOW = time.time()


def run_codex_hook(event: str, payload: dict, agent_args=("--agent", "codex"),
                   deadline: float = 20) -> subprocess.CompletedProcess:
    """The hook run as Codex runs it; ``subprocess.TimeoutExpired`` when it has not ended by ``deadline``."""
    return subprocess.run([sys.executable, "-m", "lazy_harness.hooks", event, *agent_args],
                          input=json.dumps(payload).encode(), capture_output=True, env=dict(os.environ),
                          timeout=deadline)


@pytest.fixture
def rollout(isolated_home, tmp_path):
    """A Codex session: its project and its rollout where Codex keeps it."""
    project = tmp_path / "api"
    project.mkdir()
    folder = paths.codex_home() + "/sessions/2026/11/28"
    os.makedirs(folder)
    path = os.path.join(folder, f"rollout-2026-11-28T23-10-00-{SID}.jsonl")
    with open(path, "w") as fh:
        fh.write(json.dumps({"type": "session_meta", "payload": {"id": SID, "originator": "codex-tui",
                                                                  "source": "cli", "cwd": str(project)}}) + "\n")
    return {"project": str(project), "path": path}


def stop_payload(rollout) -> dict:  # the fields Codex 0.171.0 sends with Stop
    return {"session_id": SID, "transcript_path": rollout["path"], "cwd": rollout["project"],
            "hook_event_name": "Stop", "model": "gpt-5.1-codex", "permission_mode": "default",
            "turn_id": "t-1", "stop_hook_active": False, "last_assistant_message": "The queue stays in Postgres."}


def end_payload(rollout) -> dict:  # SessionEnd carries only these
    return {"session_id": SID, "transcript_path": rollout["path"], "cwd": rollout["project"],
            "hook_event_name": "SessionEnd", "reason": "exit"}


def test_stop_under_codex_queues_the_session_with_agent_codex(rollout, isolated_home):
    enable_loop(isolated_home)
    with worker_lock_held(paths.claude_dir()) as q:
        r = run_codex_hook("Stop", stop_payload(rollout))
        assert (r.returncode, r.stdout) == (0, b"")
        [name] = queue.pending(q)
        task = queue.read_task(os.path.join(q, name))
    assert task["agent"] == "codex"
    assert task["session_jsonl"] == rollout["path"] and task["session_id"] == SID
    assert (task["event"], task["forced"]) == ("Stop", "0")
    assert task["memory_dir"] == paths.memory_dir(rollout["project"])  # one memory whichever the agent
    assert task[queue.TURN] == queue.turn_digest("The queue stays in Postgres.")
    line = hook_log(paths.claude_dir())[-1]
    assert f"Stop session={SID} agent=codex queued" in line


def test_the_same_payload_without_the_flag_is_claude_codes_and_names_no_agent(rollout, isolated_home):
    enable_loop(isolated_home)
    with worker_lock_held(paths.claude_dir()) as q:
        assert run_codex_hook("Stop", stop_payload(rollout), agent_args=()).returncode == 0
        [name] = queue.pending(q)
        assert "agent" not in queue.read_task(os.path.join(q, name))
    assert "agent=" not in hook_log(paths.claude_dir())[-1]


def test_session_end_under_codex_forces_the_task_and_keeps_the_agent(rollout, isolated_home):
    enable_loop(isolated_home)
    with worker_lock_held(paths.claude_dir()) as q:
        # Codex kills a SessionEnd hook at 3 s: it must end by then, the worker's lock held meanwhile
        r = run_codex_hook("SessionEnd", end_payload(rollout), deadline=3.0)
        assert (r.returncode, r.stdout) == (0, b"")
        [name] = queue.pending(q)
        task = queue.read_task(os.path.join(q, name))
    assert (task["agent"], task["forced"], task["event"]) == ("codex", "1", "SessionEnd")
    assert "reason=exit" in hook_log(paths.claude_dir())[-1]


def test_the_sweep_queues_a_quiet_codex_session_as_codex(rollout, isolated_home):
    enable_loop(isolated_home)
    prompt = {"session_id": SID, "transcript_path": rollout["path"], "cwd": rollout["project"],
              "hook_event_name": "UserPromptSubmit", "turn_id": "t-1", "prompt": "ok"}
    assert run_codex_hook("UserPromptSubmit", prompt).returncode == 0  # watched from its first prompt
    q = paths.queue_dir()
    [record] = os.listdir(os.path.join(q, queue.OPEN))
    assert queue.read_task(os.path.join(q, queue.OPEN, record))["agent"] == "codex"
    [name] = sweep.sweep(q, os.stat(rollout["path"]).st_mtime + 3600, idle_seconds=600)
    task = queue.read_task(os.path.join(q, name))
    assert (task["agent"], task["event"], task["session_jsonl"]) == ("codex", "sweep", rollout["path"])


def _large_memory(project: str) -> None:
    mem = paths.memory_dir(project)
    ms.write_jsonl(os.path.join(mem, files.DECISIONS),
                   [ms.decision(NOW - 500 + i, f"decision {i} about the queue " + "words " * 40, "because " * 30,
                                via="session", session_id=f"s{i:07d}-aaaa") for i in range(40)])
    ms.write_jsonl(os.path.join(mem, files.FAILURES),
                   [ms.failure(NOW - 900 + i, f"failure {i} of the build " + "words " * 40, "check " * 30,
                               via="session", session_id=f"f{i:07d}-bbbb") for i in range(40)])


def _context(result) -> str:
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)["hookSpecificOutput"]["additionalContext"]


def test_session_start_under_codex_stays_under_its_preview_limit(rollout, isolated_home):
    _large_memory(rollout["project"])
    cfg = paths.config_file()
    os.makedirs(os.path.dirname(cfg))
    with open(cfg, "w") as fh:
        fh.write("[context]\nmax_chars = 9500\ndecisions = 40\nfailures = 40\n")
    start = {"session_id": SID, "transcript_path": rollout["path"], "cwd": rollout["project"],
             "hook_event_name": "SessionStart", "model": "gpt-5.1-codex", "permission_mode": "default",
             "source": "startup"}
    codex = _context(run_codex_hook("SessionStart", start))
    claude = _context(run_codex_hook("SessionStart", start, agent_args=()))
    assert len(codex.encode("utf-8")) <= 6000 < len(claude)  # well under Codex's ~10 KB preview
    assert "decision 39 about the queue" in codex  # still the memory, newest first
    assert codex.split("\n")[-1].startswith("Left out for space:")


def test_codex_entries_show_their_agent_with_the_origin_and_claudes_do_not(rollout, isolated_home):
    mem = paths.memory_dir(rollout["project"])
    ms.write_jsonl(os.path.join(mem, files.DECISIONS), [
        ms.decision(NOW - 60, "use the queue for retries", "fewer moving parts", via="session",
                    session_id="c0dec0de-1111", agent="codex"),
        ms.decision(NOW - 30, "keep the worker detached", "never block a hook", via="session",
                    session_id="c1a0de00-2222")])
    start = {"session_id": SID, "transcript_path": rollout["path"], "cwd": rollout["project"],
             "hook_event_name": "SessionStart", "source": "startup"}
    text = _context(run_codex_hook("SessionStart", start))
    codex_line = next(line for line in text.splitlines() if "use the queue for retries" in line)
    claude_line = next(line for line in text.splitlines() if "keep the worker detached" in line)
    assert "Codex session c0dec0de" in codex_line
    assert "session c1a0de00" in claude_line and "Codex" not in claude_line


@pytest.mark.parametrize("argv, agent", [
    (["x", "Stop", "--agent", "codex"], "codex"), (["x", "Stop", "--agent=codex"], "codex"),
    (["x", "Stop"], "claude"), (["x", "Stop", "--agent", "claude"], "claude"), (["x", "Stop", "--agent"], "claude"),
    (["x", "Stop", "--agent", "other"], "claude"), (["x", "--agent", "codex"], "claude")])
def test_the_agent_is_read_from_the_command_after_the_event(argv, agent):
    from lazy_harness.hooks.entry import agent_of_argv

    assert agent_of_argv(argv) == agent
