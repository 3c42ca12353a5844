"""The page's "paused:" badge says what ``lh cost`` says (``cost.pause``): a cap the spend has reached,
else the worker's paused notice while it is current and the call it names still does not fit."""

import time

from lazy_harness import config, notice
from lazy_harness.cost import budget
from tests.cli.lhrun import invoke
from tests.ui.test_server import cookie, page, request
from tests.worker.spendrig import configure


def _spend_section(server) -> str:
    body = request(server, "GET", page(server), cookie(server))[2]
    return body.split('id="spend"', 1)[1].split("</section>", 1)[0]


def _paused_notice(until: float | None = None) -> str:
    """The notice the worker writes when its next call (~$0.28) would pass the $0.30 daily cap; the
    reason it names."""
    now = time.time()
    verdict = budget.check(config.load(), None, now, 0.28)
    assert not verdict.allowed and "nearly reached" in verdict.reason
    notice.write(notice.PAUSED, notice.PAUSED_SAID + verdict.reason + notice.PAUSED_HINT,
                 verdict.until if until is None else until)
    return verdict.reason


def test_a_current_paused_notice_whose_call_does_not_fit_shows_paused_as_lh_cost_does(isolated_home, server):
    configure(isolated_home, budget={"daily_usd": 0.3, "monthly_usd": 50.0})  # $0.05 spent today (seeded)
    reason = _paused_notice()

    assert f"paused: {reason}" in _spend_section(server)
    assert f"paused: {reason}" in invoke("cost").out


def test_a_stale_paused_notice_shows_no_pause_as_lh_cost_does(isolated_home, server):
    configure(isolated_home, budget={"daily_usd": 0.3, "monthly_usd": 50.0})
    _paused_notice(until=time.time() - 60)  # its cap has reset since

    assert "paused:" not in _spend_section(server)
    assert "paused:" not in invoke("cost").out
