"""``lh status`` says why a task waits only while that still holds: a spend cap's reason while the caps
still refuse, "another model call holds what is left" while that call is still under way."""

import os
import time

import pytest

from lazy_harness import config
from lazy_harness.cost import budget
from tests.cli.lhrun import invoke
from tests.support import fake_claude
from tests.worker.spendrig import configure, nearly_reached, queue_session, run_worker, tasks

# why: spend written at the wall clock, "today" taken by the code's own clock: one local day for both
pytestmark = pytest.mark.usefixtures("one_local_day")


def _waiting_lines(out: str) -> list[str]:
    return [line for line in out.splitlines() if line.startswith("  ") and "  waiting" in line]


def test_after_midnight_a_cap_of_yesterday_is_not_shown_as_why_a_task_waits(isolated_home, tmp_path, monkeypatch):
    project = nearly_reached(isolated_home, tmp_path, monkeypatch)
    monkeypatch.chdir(project)
    [line] = _waiting_lines(invoke("status").out)
    assert "daily cap $1.00 nearly reached" in line  # today it is why

    real = time.time
    shift = budget.next_day(real()) + 600 - real()  # 00:10 the next day, before any worker ran
    monkeypatch.setattr(time, "time", lambda: real() + shift)
    out = invoke("status").out
    [line] = _waiting_lines(out)
    assert "daily cap" not in line and "resumes tomorrow" not in line, out
    assert "the spend cap that paused it no longer holds" in line, out
    assert "spend: today $0.00 of $1.00" in out, out


def test_a_task_that_waited_for_another_call_no_longer_names_it_once_it_ended(isolated_home, tmp_path, monkeypatch):
    fake_claude.use(tmp_path, monkeypatch, cost=0.1)
    project = tmp_path / "shop"
    project.mkdir()
    configure(isolated_home, budget={"daily_usd": 1.0, "monthly_usd": 50.0})
    _, other = budget.open_call(config.load(), None, time.time(), 0.05, {"task_id": "x"}, 10)  # lh distill's call
    assert other is not None
    queue_session(project, session_id="aaaaaaaa-0000-4000-8000-000000000000")
    run_worker()
    assert len(tasks("")) == 1 and fake_claude.calls(tmp_path / "bin") == []  # it waits for that call
    monkeypatch.chdir(project)
    [line] = _waiting_lines(invoke("status").out)
    assert f"another model call (pid {os.getpid()}" in line  # while it is under way

    other.close()  # that call ended (its line is in the ledger, its marker gone)
    out = invoke("status").out
    [line] = _waiting_lines(out)
    assert "another model call" not in line and "holds what is left" not in line, out
    assert "the model call it waited for has ended" in line, out
