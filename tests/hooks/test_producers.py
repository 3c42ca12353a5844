"""Stop and SessionEnd hooks run as Claude Code runs them (subprocess, JSON on stdin)."""

import os
import time

import pytest

from lazy_harness import paths, queue
from tests.hooks.hookrun import SID, enable_loop, hook_log, run_hook, worker_lock_held



def test_disabled_loop_queues_nothing_and_logs_why(session):
    result = run_hook("Stop", session)
    assert (result.returncode, result.stdout) == (0, b"")
    assert queue.pending(paths.queue_dir()) == []
    assert "skipped: compound loop disabled" in hook_log(paths.claude_dir())[-1]


def test_stop_queues_a_task_from_the_payload_and_spawns_the_worker(session, isolated_home):
    enable_loop(isolated_home)
    with worker_lock_held(paths.claude_dir()) as q:
        result = run_hook("Stop", session)
        assert (result.returncode, result.stdout) == (0, b"")
        [name] = queue.pending(q)
        task = queue.read_task(os.path.join(q, name))
        assert task["session_id"] == SID
        assert task["session_jsonl"] == session["transcript_path"]
        assert task["cwd"] == session["cwd"]
        assert task["memory_dir"] == paths.memory_dir(session["cwd"])
        assert (task["event"], task["forced"]) == ("Stop", "0")
        assert f"session={SID}" in hook_log(paths.claude_dir())[-1]
        assert "queued" in hook_log(paths.claude_dir())[-1]
        worker_log = os.path.join(paths.logs_dir(), "worker.log")
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and not os.path.exists(worker_log):
            time.sleep(0.05)
        assert "another worker holds the lock" in open(worker_log).read()  # it was spawned, and left


def test_stop_puts_the_start_of_its_turn_in_the_task(session, isolated_home):
    enable_loop(isolated_home)
    said = "\n  Naïve — café: the queue stays in Postgres.\n" + "More detail. " * 30
    with worker_lock_held(paths.claude_dir()) as q:
        assert run_hook("Stop", dict(session, last_assistant_message=said)).returncode == 0
        [name] = queue.pending(q)
        turn = queue.read_task(os.path.join(q, name))[queue.TURN]
        assert turn == queue.turn_digest(said.strip()[:queue.TURN_CHARS]) and "Naïve" not in turn
        end = dict(session, hook_event_name="SessionEnd", reason="prompt_input_exit")
        del end["last_assistant_message"]
        assert run_hook("SessionEnd", end).returncode == 0
        [name] = queue.pending(q)
        # SessionEnd carries no turn of its own; replacing the pending Stop task, it keeps the one
        # Stop saw, which may still be on its way to the transcript
        assert queue.read_task(os.path.join(q, name))[queue.TURN] == turn


def test_second_stop_is_debounced(session, isolated_home):
    enable_loop(isolated_home)
    with worker_lock_held(paths.claude_dir()) as q:
        run_hook("Stop", session)
        run_hook("Stop", session)
        assert len(queue.pending(q)) == 1
        assert "skipped: debounced" in hook_log(paths.claude_dir())[-1]


def test_no_growth_skips_stop_but_session_end_is_forced(session, isolated_home):
    enable_loop(isolated_home, debounce_seconds=0)
    with worker_lock_held(paths.claude_dir()) as q:
        queue.mark_done(q, SID, os.stat(session["transcript_path"]).st_mtime, time.time())
        run_hook("Stop", session)
        assert queue.pending(q) == []
        last = hook_log(paths.claude_dir())[-1]
        assert "skipped: not queued: the transcript has not changed since its last check" in last
        end = dict(session, hook_event_name="SessionEnd", reason="prompt_input_exit")
        result = run_hook("SessionEnd", end)
        assert (result.returncode, result.stdout) == (0, b"")
        [name] = queue.pending(q)
        task = queue.read_task(os.path.join(q, name))
        assert (task["event"], task["forced"]) == ("SessionEnd", "1")


def test_session_end_replaces_the_pending_stop_task(session, isolated_home):
    enable_loop(isolated_home)
    with worker_lock_held(paths.claude_dir()) as q:
        run_hook("Stop", session)
        [first] = queue.pending(q)
        run_hook("SessionEnd", dict(session, reason="other"))
        [second] = queue.pending(q)
        assert second != first
        assert queue.read_task(os.path.join(q, second))["replaces"] == queue.task_id(first)


def test_the_workers_own_call_is_ignored(session, isolated_home):
    enable_loop(isolated_home)
    env = dict(os.environ, LH_WORKER_CALL="1")
    result = run_hook("SessionEnd", session, env=env)
    assert (result.returncode, result.stdout) == (0, b"")
    assert queue.pending(paths.queue_dir()) == []
    assert "worker's own model call" in hook_log(paths.claude_dir())[-1]


@pytest.mark.parametrize("stdin", [b"not json", b"[1, 2]", b"", b"\xff\xfe"])
def test_bad_payload_never_breaks_the_session(stdin, isolated_home):
    enable_loop(isolated_home)
    result = run_hook("Stop", stdin)
    assert (result.returncode, result.stdout) == (0, b"")
    assert len(hook_log(paths.claude_dir())) == 1


def test_unwritable_claude_dir_still_exits_zero(session, isolated_home, tmp_path):
    enable_loop(isolated_home)
    blocker = tmp_path / "file-not-dir"
    blocker.write_text("x")
    env = dict(os.environ, CLAUDE_CONFIG_DIR=str(blocker))
    result = run_hook("SessionEnd", session, env=env)
    assert (result.returncode, result.stdout) == (0, b"")
