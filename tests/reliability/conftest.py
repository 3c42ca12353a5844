"""Fixtures of the reliability suite: a fake model on PATH and a loop switched on with fast retries.

After each test, calls of the fake left running by a killed worker are killed, and every worker
the hooks spawned must have exited: no process outlives its test.
"""

import os

import pytest

from lazy_harness import paths
from tests.reliability import rig
from tests.support import fake_claude


@pytest.fixture
def model(tmp_path, monkeypatch):
    """The fake ``claude`` (first on PATH); answers every session from rig.TEMPLATE by default."""
    bin_dir = tmp_path / "bin"
    lock = os.path.join(paths.queue_dir(), ".worker.lock")
    fake_claude.install(bin_dir, mode="ok", template=rig.TEMPLATE, lock_path=lock)
    fake_claude.on_path(monkeypatch, bin_dir)
    yield bin_dir
    fake_claude.kill_running(bin_dir)
    rig.wait_workers_gone()


@pytest.fixture
def loop_on(isolated_home, model):
    rig.configure(isolated_home)
    return isolated_home
