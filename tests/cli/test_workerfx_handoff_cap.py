"""``lh knowledge handoff-now --wait`` while a spend cap is reached or set to 0: the worker pauses without
touching the task (no ``wait_reason`` is written), so the waiter asks the budget itself and returns at
once with the cap's reason, as for a cap only nearly reached, instead of sitting out its whole limit."""

import os
import re
import subprocess

import pytest

from lazy_harness import paths, queue as spool
from tests.cli.lhrun import lh_script
from tests.reliability import rig
from tests.support import fake_claude
from tests.support.sessions import place
from tests.worker.spendrig import configure, spent

# why: spend written at the wall clock, "today" taken by the code's own clock: one local day for both
pytestmark = pytest.mark.usefixtures("one_local_day")

# the waiter's own limit is timeout_seconds * max_attempts + 60 s (360 s here): one that returns
# within this bound did not wait it out
WAITER_BOUND = 40


def _workers() -> list[int]:
    try:
        with open(os.path.join(paths.logs_dir(), "worker.log"), encoding="utf-8") as fh:
            return sorted({int(p) for p in re.findall(r"worker (\d+)", fh.read())})
    except FileNotFoundError:
        return []


def _handoff_wait(tmp_path, monkeypatch) -> subprocess.CompletedProcess:
    bin_dir = fake_claude.use(tmp_path, monkeypatch)
    project = tmp_path / "proj"
    project.mkdir()
    session = place(project)
    try:
        result = subprocess.run([*lh_script(), "knowledge", "handoff-now", "--wait"], cwd=project,
                                capture_output=True, text=True, timeout=WAITER_BOUND)
    finally:
        rig.wait_dead(_workers())
    assert fake_claude.calls(bin_dir) == []
    q = paths.queue_dir()
    [name] = spool.pending(q)  # it stays queued
    assert spool.read_task(os.path.join(q, name))["session_id"] == session["session_id"]
    return result


def test_workerfx_handoff_now_wait_with_the_daily_cap_at_0_returns_at_once(isolated_home, tmp_path, monkeypatch):
    configure(isolated_home, budget={"daily_usd": 0.0}, timeout_seconds=300, max_attempts=1)
    result = _handoff_wait(tmp_path, monkeypatch)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "waits: daily cap is 0 ([budget] daily_usd = 0)" in result.stderr, result.stderr
    assert "it stays queued" in result.stderr and "did not finish" not in result.stderr


def test_workerfx_handoff_now_wait_with_the_daily_cap_reached_returns_at_once(isolated_home, tmp_path, monkeypatch):
    configure(isolated_home, budget={"daily_usd": 0.03}, timeout_seconds=300, max_attempts=1)
    spent(0.04)
    result = _handoff_wait(tmp_path, monkeypatch)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "waits: daily cap $0.03 reached: spent $0.04" in result.stderr, result.stderr
    assert "did not finish" not in result.stderr
