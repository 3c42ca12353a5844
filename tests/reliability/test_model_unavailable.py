"""The model unavailable: ``claude`` missing, exiting non-zero, answering garbage (timing out and an
unreachable API wait instead of failing: tests/reliability/test_fail_fast.py).

Retries are counted, not timed: the suite runs with retry_backoff_seconds = 0 (the doubling
backoff itself is tests/worker/test_loop.py's and pipeline's business; here: how many calls, then
where the task ends and why).
"""

import json
import os

import pytest

from lazy_harness import paths, queue
from tests.cli.lhrun import run as lh
from tests.reliability import rig
from tests.support import fake_claude
from tests.support.sessions import wait_finished

ATTEMPTS = 3
# mode: (config keys, fake model control, text the .error must hold, calls the fake sees)
MODES = {
    # a missing claude fails at once: retrying cannot make it appear
    "missing": ({"claude_path": "/nonexistent/bin/claude"}, {"mode": "ok"},
                "claude not found: /nonexistent/bin/claude", 0),
    # (an overload past the retries waits instead: tests/worker/test_fail_fast.py)
    "exiting non-zero": ({}, {"mode": "fail", "code": 7, "stderr": "Error: the answer stream broke off"},
                         "model call failed (stderr: Error: the answer stream broke off; "
                         "`claude -p ...` exited 7)",
                         ATTEMPTS),
    "answering garbage": ({}, {"mode": "garbage"}, "claude printed no JSON result: 'I could not do that, sorry.'",
                          ATTEMPTS),
}


def _fail_one(home, model, proj, mode: str) -> tuple[dict, str]:
    keys, control, _, _ = MODES[mode]
    rig.configure(home, max_attempts=ATTEMPTS, **keys)
    fake_claude.control(model, template=rig.TEMPLATE, **control)
    payload = rig.session(proj, rig.new_token())
    finished = len(rig.tasks("done")) + len(rig.tasks("failed"))  # why: counted before the worker can finish
    rig.hook("SessionEnd", payload)
    wait_finished(paths.queue_dir(), timeout=rig.WAIT, count=finished + 1)
    rig.wait_workers_gone()
    fake_claude.kill_running(model)
    [name] = [n for n in rig.tasks("failed") if payload["session_id"][:8] in n]
    return payload, name


@pytest.mark.parametrize("mode", MODES)
def test_the_task_is_retried_then_fails_with_a_readable_reason(loop_on, model, tmp_path, mode):
    payload, name = _fail_one(loop_on, model, rig.project(tmp_path, "shop"), mode)
    _, _, expected, calls = MODES[mode]
    attempts = 1 if mode == "missing" else ATTEMPTS
    path = os.path.join(paths.queue_dir(), "failed", name)
    task = queue.read_task(path)
    assert task["attempts"] == str(attempts)
    assert task["reason"].startswith(f"model call failed {attempts} time(s): ") and expected in task["reason"]
    error = open(path + ".error").read()
    assert expected in error and error.endswith("\n")
    assert len(fake_claude.calls(model)) == calls
    log = rig.read(rig.log_file("worker.log"))
    assert [f"model call {i}/{ATTEMPTS} failed" in log for i in range(1, ATTEMPTS + 1)] == [
        i <= attempts for i in range(1, ATTEMPTS + 1)]
    assert rig.tasks("") == [] and rig.tasks("processing") == [] and rig.tasks("done") == []
    assert not os.path.exists(rig.memory(tmp_path / "shop"))


def _fix(home, model) -> None:
    rig.configure(home)
    fake_claude.control(model, mode="ok", template=rig.TEMPLATE, need_token=True)


def test_lh_queue_retry_id_brings_a_failed_task_back(loop_on, model, tmp_path):
    proj = rig.project(tmp_path, "shop")
    payload, name = _fail_one(loop_on, model, proj, "exiting non-zero")
    _fix(loop_on, model)
    out = lh("queue", "retry", queue.task_id(name)[:12])
    assert out.returncode == 0 and f"(retry of {queue.task_id(name)})" in out.stdout, out
    wait_finished(paths.queue_dir(), timeout=rig.WAIT)
    rig.wait_workers_gone()
    assert rig.tasks("failed") == []
    [done] = rig.tasks("done")
    task = queue.read_task(os.path.join(paths.queue_dir(), "done", done))
    assert (task["outcome"], task["event"], task["retry_of"]) == ("processed", "retry", queue.task_id(name))
    [rec] = rig.jsonl(os.path.join(rig.memory(proj), "decisions.jsonl"))
    assert rec["session_id"] == payload["session_id"]


def test_lh_queue_retry_failed_brings_every_failed_task_back(loop_on, model, tmp_path):
    proj = rig.project(tmp_path, "shop")
    first, _ = _fail_one(loop_on, model, proj, "answering garbage")
    second, _ = _fail_one(loop_on, model, proj, "missing")
    assert len(rig.tasks("failed")) == 2
    _fix(loop_on, model)
    out = lh("queue", "retry", "--failed")
    assert out.returncode == 0 and out.stdout.count("retry of") == 2, out
    wait_finished(paths.queue_dir(), timeout=rig.WAIT, count=2)
    rig.wait_workers_gone()
    assert rig.tasks("failed") == [] and len(rig.tasks("done")) == 2
    recs = rig.jsonl(os.path.join(rig.memory(proj), "decisions.jsonl"))
    assert sorted(r["session_id"] for r in recs) == sorted([first["session_id"], second["session_id"]])


def _session_start(proj) -> str:
    result = rig.hook_with_output("SessionStart", {"session_id": rig.new_sid(), "transcript_path": "",
                                                    "cwd": str(proj), "hook_event_name": "SessionStart",
                                                    "source": "startup"})
    if not result.stdout:
        return ""
    return json.loads(result.stdout)["hookSpecificOutput"]["additionalContext"]


def test_session_start_says_in_one_line_that_distillation_is_failing(loop_on, model, tmp_path):
    proj = rig.project(tmp_path, "shop")
    _fix(loop_on, model)
    rig.hook("SessionEnd", rig.session(proj, rig.new_token()))  # the project has memory
    wait_finished(paths.queue_dir(), timeout=rig.WAIT)
    rig.wait_workers_gone()
    healthy = _session_start(proj)
    assert "Decision LHTOK-" in healthy and "failing" not in healthy.lower()

    _fail_one(loop_on, model, proj, "exiting non-zero")
    context = _session_start(proj)
    lines = [ln for ln in context.split("\n") if "failing" in ln.lower()]
    assert len(lines) == 1, context
    assert "1 distillation task failed" in lines[0] and "lh queue" in lines[0]
    assert "Decision LHTOK-" in context  # the memory is still read back

    _fix(loop_on, model)
    assert lh("queue", "retry", "--failed").returncode == 0
    wait_finished(paths.queue_dir(), timeout=rig.WAIT, count=2)
    rig.wait_workers_gone()
    assert "failing" not in _session_start(proj).lower()
