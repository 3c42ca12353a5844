"""The ``worker:`` line of ``lh status``, ``lh doctor`` and ``lh hooks status`` for a worker that
lingers to retry a waiting task (it holds no queue lock while it sleeps), and for one killed mid-task.
They said "never ran" (doctor: "never ran, but tasks are waiting", or "no run finished yet") while the
lingering worker was alive, and after the kill."""

import os
import signal
import subprocess

import pytest

from lazy_harness import logfile, paths, queue
from lazy_harness.cli.hooks_worker import describe_worker, worker_state
from lazy_harness.worker import loop
from tests.cli.lhrun import invoke, lh_script
from tests.support import fake_claude
from tests.worker.spendrig import configure, queue_session


class _Woken(Exception):
    """Ends the lingering worker's sleep (and its run) once the commands were asked."""


def _worker_lines() -> dict[str, str]:
    status = invoke("status")
    doctor = invoke("doctor")
    hooks = invoke("hooks", "status")
    return {"status": next(ln for ln in status.out.splitlines() if ln.startswith("worker: ")),
            "doctor": next(ln for ln in doctor.out.splitlines() if ln.split()[1:2] == ["worker:"]),
            "hooks": next(ln for ln in hooks.out.splitlines() if ln.startswith("worker: "))}


def test_workerfx_a_lingering_worker_is_waiting_to_retry_in_every_command(isolated_home, tmp_path, monkeypatch):
    fake_claude.use(tmp_path, monkeypatch, mode="unreachable")
    configure(isolated_home, linger_minutes=5, wait_seconds=60)
    project = tmp_path / "a"
    project.mkdir()
    monkeypatch.chdir(project)
    queue_session(project)
    seen: dict[str, str] = {}

    def asleep(seconds: float) -> None:
        seen.update(_worker_lines())
        q = paths.queue_dir()
        [name] = queue.pending(q)
        seen["wake"] = logfile.stamp(float(queue.read_task(os.path.join(q, name))["not_before"]))
        raise _Woken

    with pytest.raises(_Woken):
        loop.run(dict(os.environ), sleep=asleep, linger=True)
    said = f"waiting to retry at {seen['wake']} (pid {os.getpid()})"
    assert seen["status"].startswith(f"worker: {said}; last successful distillation: never"), seen
    assert seen["hooks"] == f"worker: {said}", seen
    assert seen["doctor"].split() == ["ok", "worker:", *f"{said}; last successful distillation: never".split()], seen
    assert "waiting to retry" not in describe_worker(worker_state(), paths.queue_dir())[0]  # the sleep is over


def test_workerfx_a_worker_killed_mid_task_died_in_every_command(isolated_home, tmp_path, monkeypatch):
    bin_dir = fake_claude.use(tmp_path, monkeypatch, hold=[1])
    configure(isolated_home)
    project = tmp_path / "a"
    project.mkdir()
    monkeypatch.chdir(project)
    queue_session(project)
    worker = subprocess.Popen([*lh_script(), "worker", "run", "--once"], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        fake_claude.wait_calls(bin_dir, 1)
        took = os.stat(os.path.join(paths.queue_dir(), queue.STATE, "worker.owner")).st_mtime
        os.kill(worker.pid, signal.SIGKILL)
        worker.wait()
        lines = _worker_lines()
    finally:
        if worker.poll() is None:
            worker.kill()
            worker.wait()
        fake_claude.kill_running(bin_dir)
    said = f"last worker (pid {worker.pid}) died (it took the queue at {logfile.stamp(took)} and never released it)"
    assert lines["status"].startswith(f"worker: {said}; last successful distillation: never"), lines
    assert lines["hooks"] == f"worker: {said}", lines
    hint = "(hint: lh worker run --once)".split()
    assert lines["doctor"].split() == ["warn", "worker:", *said.split(), *hint], lines
