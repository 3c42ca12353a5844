"""``lh cost`` shows the pause the worker's notice sends the person to: a cap the next call would pass
(``nearly reached``) pauses the queue before any cap is reached; once the cap is raised, no pause."""

import json

import pytest

from lazy_harness import notice
from tests.cli.lhrun import invoke
from tests.worker.spendrig import configure, nearly_reached

# why: spend written at the wall clock, "today" taken by the code's own clock: one local day for both
pytestmark = pytest.mark.usefixtures("one_local_day")


def _nearly_reached(isolated_home, tmp_path, monkeypatch) -> None:
    nearly_reached(isolated_home, tmp_path, monkeypatch)
    assert notice.read_raw()[2].endswith(notice.PAUSED_HINT)  # the notice sends the person to lh cost


def test_lh_cost_shows_the_pause_of_a_cap_nearly_reached(isolated_home, tmp_path, monkeypatch):
    _nearly_reached(isolated_home, tmp_path, monkeypatch)

    out = invoke("cost").out
    assert "paused: daily cap $1.00 nearly reached (next call ~$0.4" in out, out
    shown = json.loads(invoke("cost", "--json").out)
    assert shown["paused"] and shown["paused"].startswith("daily cap $1.00 nearly reached"), shown


def test_a_raised_cap_lifts_the_pause_lh_cost_shows(isolated_home, tmp_path, monkeypatch):
    _nearly_reached(isolated_home, tmp_path, monkeypatch)
    configure(isolated_home, budget={"daily_usd": 5.0, "monthly_usd": 50.0})  # the next call fits again

    out = invoke("cost").out
    assert "paused" not in out, out
    assert json.loads(invoke("cost", "--json").out)["paused"] is None
