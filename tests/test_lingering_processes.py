"""The conftest's clean-up after each test ends the workers and answerers the test's hooks left in
its HOME, and nothing started under another HOME."""

import os
import subprocess
import sys

from lazy_harness import paths
from lazy_harness.recall.resident import client
from tests import conftest


def _sleeper(home, name: str) -> subprocess.Popen:
    """A process whose command line names ``name`` (as a worker's or an answerer's does), started
    with ``HOME=home``."""
    return subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)", name],
                            env=dict(os.environ, HOME=str(home)))


def test_workers_and_answerers_of_the_tests_home_are_ended_and_others_are_not(isolated_home, tmp_path):
    os.makedirs(paths.queue_dir(), exist_ok=True)  # a queue and an index: both kinds are looked for
    os.makedirs(client.folder(), exist_ok=True)
    other = tmp_path / "other-home"
    procs = [_sleeper(isolated_home, "lazy_harness.worker"),
             _sleeper(isolated_home, "lazy_harness.recall.resident.answerer"),
             _sleeper(isolated_home, "something.else"), _sleeper(other, "lazy_harness.recall.resident.answerer")]
    try:
        conftest._end_lingering_workers(isolated_home)
        for p in procs[:2]:
            assert p.wait(timeout=20) == -15  # SIGTERM
        assert procs[2].poll() is None and procs[3].poll() is None
    finally:
        for p in procs:
            p.kill()
            p.wait()
