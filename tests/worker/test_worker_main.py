"""The detached worker's entry (``python -m lazy_harness.worker``): a worker that leaves at once says
why in worker.log, naming the cause a person can act on."""

import os
import subprocess
import sys

from lazy_harness import logfile, paths, queue
from tests.worker.spendrig import queue_session


def _spawn() -> str:
    before = _log()
    subprocess.run([sys.executable, "-P", "-m", "lazy_harness.worker"], check=True, timeout=60,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return _log()[len(before):]


def _log() -> str:
    try:
        with open(logfile.log_path(logfile.WORKER), encoding="utf-8") as fh:
            return fh.read()
    except OSError:
        return ""


def test_a_worker_spawned_while_another_holds_the_lock_says_so(isolated_home, tmp_path):
    project = tmp_path / "proj"
    project.mkdir()
    queue_session(project)
    fd = queue.acquire_worker_lock(paths.queue_dir())
    assert fd is not None
    try:
        said = _spawn()
    finally:
        os.close(fd)
    assert "another worker holds the lock" in said and "nothing waiting" not in said, said


def test_a_worker_spawned_with_nothing_to_do_says_nothing_waits(isolated_home):
    said = _spawn()
    assert "nothing waiting" in said and "lock" not in said, said



def test_a_worker_whose_task_waits_on_a_spend_cap_leaves_its_line(isolated_home, tmp_path, monkeypatch):
    """claude's budget guard stops the call: the task goes back to wait and the worker pauses; its
    own line says so (it wrote none when it finished no task)."""
    from tests.support import fake_claude
    from tests.worker.spendrig import configure

    configure(isolated_home, budget={"daily_usd": 5.0})
    fake_claude.control(fake_claude.use(tmp_path, monkeypatch), mode="over_budget", cost=0.7)
    project = tmp_path / "proj"
    project.mkdir()
    queue_session(project)
    said = _spawn()
    assert "waiting" in said and "0 processed, 0 skipped, 0 failed, 1 waiting" in said, said
