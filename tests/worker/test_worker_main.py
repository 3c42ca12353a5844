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
