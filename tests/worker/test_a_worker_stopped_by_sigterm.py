"""``kill <pid>`` of a worker (what docs/how/debugging.md tells, what a shutdown sends) while a task
runs: the worker says so in worker.log, records that it ran (``lh status`` said "worker: never ran"),
and the next worker returns the task to the queue without counting an interruption; five stops made a
poison task of it before, as five crashes do. A crash (SIGKILL) still counts."""

import signal
import subprocess

from lazy_harness import logfile, paths, queue
from lazy_harness.worker import loop
from tests.cli.lhrun import lh_script
from tests.support import fake_claude
from tests.worker.spendrig import configure, queue_session, tasks


def _stopped_in_flight(isolated_home, tmp_path, monkeypatch, sig: int) -> str:
    """A worker holding its model call, stopped by ``sig``; the task's name."""
    configure(isolated_home)
    bin_dir = fake_claude.use(tmp_path, monkeypatch, hold=[1])
    project = tmp_path / "proj"
    project.mkdir()
    queue_session(project)
    [name] = queue.pending(paths.queue_dir())
    proc = subprocess.Popen([*lh_script(), "worker", "run", "--once"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        fake_claude.wait_calls(bin_dir, 1)
        proc.send_signal(sig)
        proc.wait(timeout=30)
    finally:
        fake_claude.kill_running(bin_dir)
    return name


def _worker_log() -> str:
    try:
        with open(logfile.log_path(logfile.WORKER), encoding="utf-8") as fh:
            return fh.read()
    except FileNotFoundError:
        return ""


def test_a_task_stopped_by_sigterm_goes_back_uncounted_and_the_run_is_recorded(isolated_home, tmp_path, monkeypatch):
    name = _stopped_in_flight(isolated_home, tmp_path, monkeypatch, signal.SIGTERM)
    assert f"task {queue.task_id(name)}: worker " in _worker_log()
    assert "stopped by SIGTERM while it ran; it goes back to the queue" in _worker_log()
    assert loop.read_state().get("pid"), "the stopped worker left no record that it ran"
    assert queue.recover(paths.queue_dir()) == [(name, "requeued (its worker was stopped by SIGTERM)")]
    [task] = tasks(queue.PENDING)
    assert "interruptions" not in task and queue.STOPPED not in task


def test_a_worker_killed_outright_still_counts_the_interruption(isolated_home, tmp_path, monkeypatch):
    name = _stopped_in_flight(isolated_home, tmp_path, monkeypatch, signal.SIGKILL)
    assert queue.recover(paths.queue_dir()) == [(name, "requeued")]
    [task] = tasks(queue.PENDING)
    assert task["interruptions"] == "1"
