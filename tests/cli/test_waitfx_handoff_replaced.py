"""``lh knowledge handoff-now --wait`` whose task another enqueue of the same session replaced (a second
handoff-now, or the session's SessionEnd): the waiter follows the task that replaced it (its
``replaces=`` field) and reports that task's outcome, instead of waiting out its whole limit and
exiting 1 "did not finish" although the session was distilled.

The worker lock is held while the tasks are queued, so the replacement happens for sure before any
worker claims a task; then a foreground worker drains the queue. The waiters return on their own."""

import os
import subprocess

from lazy_harness import paths, queue as spool
from tests.cli.lhrun import lh_script
from tests.hooks.hookrun import enable_loop, run_hook, worker_lock_held
from tests.support import fake_claude
from tests.support.sessions import place, wait_finished

# the waiters' limit is timeout_seconds * max_attempts + 60 s (65 s here): a waiter that lost its task
# runs past this bound, one that follows it returns once the worker is done
WAITER_BOUND = 40


def _waiter(project, session_id: str) -> tuple[subprocess.Popen, str]:
    """Start ``handoff-now --wait`` and return it with its task id once it says it queued the task."""
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen([*lh_script(), "knowledge", "handoff-now", "--session", session_id, "--wait"],
                            cwd=project, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    first = _first_line(proc)  # blocks until the task is in the queue
    assert first.startswith("queued "), first + (proc.stderr.read() if proc.stderr else "")
    return proc, first.split()[1]


def _first_line(proc: subprocess.Popen) -> str:
    """The first line of its output, read byte by byte from the pipe: a buffered readline could take
    later lines with it, which ``communicate`` then never sees."""
    assert proc.stdout is not None
    line = b""
    while not line.endswith(b"\n"):
        byte = os.read(proc.stdout.fileno(), 1)
        if not byte:
            break
        line += byte
    return line.decode()


def _finish(proc: subprocess.Popen) -> tuple[int, str, str]:
    try:
        out, err = proc.communicate(timeout=WAITER_BOUND)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        raise AssertionError(f"--wait still waiting after {WAITER_BOUND} s: {out!r} {err!r}") from None
    return proc.returncode, out, err


def _drain(q: str) -> None:
    """Run a worker and wait until the queue is drained (a worker the producers spawned may have
    taken the lock once it was released: then that one drains it)."""
    result = subprocess.run([*lh_script(), "worker", "run", "--once"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    wait_finished(q, timeout=60)


def _record(q: str, which: str, task: str) -> dict:
    return spool.read_task(os.path.join(spool.folder(q, which), task + spool.SUFFIX))


def _setup(isolated_home, tmp_path, monkeypatch, mode: str = "ok"):
    enable_loop(isolated_home, timeout_seconds=5, max_attempts=1, retry_backoff_seconds=0)
    bin_dir = fake_claude.use(tmp_path, monkeypatch, mode=mode, stderr="fake claude: the model fell over", code=2)
    project = tmp_path / "proj"
    project.mkdir()
    return bin_dir, project, place(project)


def test_waitfx_two_handoff_now_waits_at_once_both_report_the_one_distillation(isolated_home, tmp_path, monkeypatch):
    bin_dir, project, session = _setup(isolated_home, tmp_path, monkeypatch)
    waiters = []
    try:
        with worker_lock_held(paths.claude_dir()) as q:
            waiters.append(_waiter(project, session["session_id"]))
            waiters.append(_waiter(project, session["session_id"]))
            (first, first_id), (second, second_id) = waiters
            assert spool.pending(q) == [second_id + spool.SUFFIX]
            assert _record(q, spool.PENDING, second_id)["replaces"] == first_id
        _drain(q)
        done = _record(q, spool.DONE, second_id)
        assert done["outcome"] == "processed"
        code, out, err = _finish(first)
        assert code == 0, out + err
        assert f"task {first_id} was replaced by {second_id}" in out
        assert f"done: {done['reason']}" in out
        code, out, err = _finish(second)
        assert code == 0 and f"done: {done['reason']}" in out and "replaced" not in out, out + err
        assert len(fake_claude.calls(bin_dir)) == 1  # one distillation for both
    finally:
        for proc, _ in waiters:
            if proc.poll() is None:
                proc.kill()
                proc.communicate()


def test_waitfx_handoff_now_wait_then_session_end_twice_follows_the_chain(isolated_home, tmp_path, monkeypatch):
    """The SessionEnd task replaces the handoff-now one; a second SessionEnd replaces that one before
    any worker saw it: the waiter follows both links."""
    bin_dir, project, session = _setup(isolated_home, tmp_path, monkeypatch)
    waiter = None
    try:
        with worker_lock_held(paths.claude_dir()) as q:
            waiter, asked = _waiter(project, session["session_id"])
            assert run_hook("SessionEnd", session).returncode == 0
            [middle] = spool.pending(q)
            assert run_hook("SessionEnd", session).returncode == 0
            [last] = spool.pending(q)
            assert _record(q, spool.PENDING, spool.task_id(last))["replaces"] == spool.task_id(middle)
        _drain(q)
        done = _record(q, spool.DONE, spool.task_id(last))
        code, out, err = _finish(waiter)
        assert code == 0, out + err
        assert f"task {asked} was replaced by {spool.task_id(last)}" in out
        assert f"done: {done['reason']}" in out
        assert len(fake_claude.calls(bin_dir)) == 1
    finally:
        if waiter is not None and waiter.poll() is None:
            waiter.kill()
            waiter.communicate()


def test_waitfx_a_replacing_task_that_fails_fails_the_wait(isolated_home, tmp_path, monkeypatch):
    _, project, session = _setup(isolated_home, tmp_path, monkeypatch, mode="fail")
    waiter = None
    try:
        with worker_lock_held(paths.claude_dir()) as q:
            waiter, asked = _waiter(project, session["session_id"])
            assert run_hook("SessionEnd", session).returncode == 0
            [name] = spool.pending(q)
        _drain(q)
        failed = _record(q, spool.FAILED, spool.task_id(name))
        assert failed["outcome"] == "failed"
        code, out, err = _finish(waiter)
        assert code == 1, out + err
        assert f"task {asked} was replaced by {spool.task_id(name)}" in out
        assert f"failed: {failed['reason']}" in out
    finally:
        if waiter is not None and waiter.poll() is None:
            waiter.kill()
            waiter.communicate()
