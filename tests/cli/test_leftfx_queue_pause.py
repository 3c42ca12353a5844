"""``lh queue`` says a spend cap holds a task only while it still does (``cost.paused.pause_hold``: the
worker's pause notice checked again against the cap now): a raised cap or a new day lifts the pause
it shows, for the task the cap paused and for one queued after the worker stopped."""

import time

import pytest

from lazy_harness.cost import budget
from tests.cli.lhrun import invoke
from tests.worker.spendrig import configure, nearly_reached, queue_session

# why: spend written at the wall clock, "today" taken by the code's own clock: one local day for both
pytestmark = pytest.mark.usefixtures("one_local_day")


def _pending_lines(out: str) -> list[str]:
    return [line for line in out.splitlines() if " pending " in line and "SessionEnd" in line]


def _nearly_reached(isolated_home, tmp_path, monkeypatch) -> None:
    """$0.80 spent of $1.00: the next call (~$0.41) would pass the cap, so the worker paused with one
    task left; then the session of another task ends (no worker has seen it)."""
    project = nearly_reached(isolated_home, tmp_path, monkeypatch)
    queue_session(project, session_id="aaaaaaaa-0000-4000-8000-000000000009")
    lines = _pending_lines(invoke("queue").out)
    assert len(lines) == 2 and all("daily cap $1.00 nearly reached" in line for line in lines), lines


def test_leftfx_a_raised_cap_lifts_the_pause_lh_queue_shows(isolated_home, tmp_path, monkeypatch):
    _nearly_reached(isolated_home, tmp_path, monkeypatch)
    configure(isolated_home, budget={"daily_usd": 5.0, "monthly_usd": 50.0})  # the next call fits again

    out = invoke("queue").out
    lines = _pending_lines(out)
    assert len(lines) == 2 and not any("cap $1.00" in line for line in lines), out
    assert "the spend cap that paused it no longer holds" in out, out


def test_leftfx_a_new_day_lifts_the_pause_lh_queue_shows(isolated_home, tmp_path, monkeypatch):
    _nearly_reached(isolated_home, tmp_path, monkeypatch)
    real = time.time
    shift = budget.next_day(real()) + 600 - real()  # 00:10 the next day, before any worker ran
    monkeypatch.setattr(time, "time", lambda: real() + shift)

    lines = _pending_lines(invoke("queue").out)
    assert len(lines) == 2 and not any("daily cap" in line for line in lines), lines


def test_leftfx_a_cap_reached_still_holds_what_lh_queue_shows(isolated_home, tmp_path, monkeypatch):
    _nearly_reached(isolated_home, tmp_path, monkeypatch)
    configure(isolated_home, budget={"daily_usd": 0.5, "monthly_usd": 50.0})  # lowered below what was spent

    paused, later = _pending_lines(invoke("queue").out)
    assert "waiting until " in paused and "daily cap $1.00 nearly reached" in paused  # its own, as lh status says
    assert "waiting until " in later and "daily cap $0.50 reached" in later  # the cap's now, not the notice's
