"""A model call cut short by SIGTERM (review r7, defect 2): claude's process group is stopped and the
call is in the ledger. A worker killed with SIGKILL mid-call, and two spenders at once, are limits
docs/how/cost.md states."""

import signal
import subprocess
import time

from tests.cli.lhrun import lh_script
from tests.support import fake_claude
from tests.worker.spendrig import configure, ledger_lines, queue_session, run_worker


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split()[2] != "Z"
    except OSError:
        return False


def _wait(pred, timeout: float = 20.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(0.05)
    return False


def _budget_given(call: dict) -> float:
    argv = call["argv"]
    return float(argv[argv.index("--max-budget-usd") + 1])


def _worker_in_flight(isolated_home, tmp_path, monkeypatch, daily: float = 5.0, cost: float = 0.40):
    configure(isolated_home, budget={"daily_usd": daily, "monthly_usd": 50.0})
    bin_dir = fake_claude.use(tmp_path, monkeypatch, cost=cost, hold=[1])
    project = tmp_path / "proj"
    project.mkdir()
    queue_session(project)
    proc = subprocess.Popen([*lh_script(), "worker", "run", "--once"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    [call] = fake_claude.wait_calls(bin_dir, 1)
    return proc, bin_dir, call, project


def test_sigterm_stops_claude_and_settles_the_call(isolated_home, tmp_path, monkeypatch):
    proc, bin_dir, call, _ = _worker_in_flight(isolated_home, tmp_path, monkeypatch)
    try:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=20)
        assert _wait(lambda: not _alive(call["pid"])), "claude still runs after the worker's SIGTERM"
    finally:
        fake_claude.kill_running(bin_dir)
    [line] = ledger_lines()
    assert line["outcome"] == "interrupted" and 0 < line["total_cost_usd"] <= _budget_given(call)



def test_the_worker_restores_the_sigterm_handler(isolated_home):
    before = signal.getsignal(signal.SIGTERM)
    run_worker()
    assert signal.getsignal(signal.SIGTERM) is before
