"""A reset named by its time of day only, just passed when read after midnight ("resets 11:59pm" read
at 00:00:20), is yesterday's: the task waits the least, not a day."""

from datetime import datetime
from zoneinfo import ZoneInfo

from lazy_harness.worker import waiting
from tests.worker.test_limfx_codex_limit import OTHER, local_zone  # noqa: F401 (a fixture)

BERLIN = ZoneInfo("Europe/Berlin")


def test_a_claude_reset_just_before_midnight_read_just_after_waits_the_least():
    now = datetime(2026, 3, 11, 0, 0, 20, tzinfo=BERLIN).timestamp()
    got = waiting.limit_reset("You've hit your limit · resets 11:59pm (Europe/Berlin)", now)
    assert got is not None and now <= got <= now + 120


def test_a_codex_reset_just_before_midnight_read_just_after_waits_the_least(local_zone):  # noqa: F811
    zone = local_zone("Europe/Berlin")
    now = datetime(2026, 3, 11, 0, 0, 20, tzinfo=zone).timestamp()
    got = waiting.limit_reset(OTHER.format(at="11:59 PM"), now)
    assert got is not None and now <= got <= now + 120


def test_a_reset_later_tonight_is_still_tonight():
    now = datetime(2026, 3, 10, 22, 0, 0, tzinfo=BERLIN).timestamp()
    got = waiting.limit_reset("You've hit your limit · resets 11:59pm (Europe/Berlin)", now)
    assert got is not None and abs(got - datetime(2026, 3, 10, 23, 59, tzinfo=BERLIN).timestamp()) <= 120
