"""Fixes of the spend review (r7): lines out of order, damaged lines named, a repeated midnight,
the hints of a cap of 0."""

import json
import os
import time

import pytest

from lazy_harness import config, logfile, paths
from lazy_harness.cost import budget, ledger
from lazy_harness.sync.drivers import merge_lines
from lazy_harness.worker.llm import Usage
from tests.cli.lhrun import invoke
from tests.support import fake_claude
from tests.support.sessions import place
from tests.worker.spendrig import configure

# why: spend written at the wall clock or seconds before it, "today" taken by the code's own clock: a
# test run in a day's first seconds put "today's" spend in yesterday. One local day for both
pytestmark = pytest.mark.usefixtures("one_local_day")

META = {"project": "p", "session_id": "s", "task_id": "t"}


def _line(ts: float, cost: float) -> bytes:
    usage = Usage(model="claude-haiku-4-5", input_tokens=1000, output_tokens=100, cost_usd=cost, reported=True)
    line = ledger.record(usage, META, "ok", 40000, now=ts)
    os.unlink(paths.ledger_file())  # why: only the line's shape is wanted here
    return json.dumps(line, separators=(",", ":")).encode() + b"\n"


def _write(data: bytes) -> None:
    os.makedirs(os.path.dirname(paths.ledger_file()), exist_ok=True)
    with open(paths.ledger_file(), "wb") as fh:
        fh.write(data)


# 1. lines out of order


def test_a_synced_ledger_with_older_lines_after_today_still_caps(isolated_home):
    configure(isolated_home, budget={"daily_usd": 5.0, "monthly_usd": 50.0})
    now = time.time()
    ours = b"".join(_line(now - 10 + i, 1.0) for i in range(5))  # $5 today, this machine
    theirs = b"".join(_line(now - 40 * 86400 + i, 0.01) for i in range(10))  # the laptop, 40 days ago
    _write(merge_lines(b"", ours, theirs))
    verdict = budget.check(config.load(), None, now, 0.1)
    assert round(verdict.spent_today, 2) == 5.0 and not verdict.allowed
    out = invoke("cost")
    assert "no model calls" not in out.out and "today $5.00 of $5.00" in out.out


def test_a_clock_stepped_back_hides_no_spend(isolated_home):
    configure(isolated_home, budget={"daily_usd": 5.0, "monthly_usd": 50.0})
    now = time.mktime((2026, 3, 4, 12, 0, 0, 0, 0, -1))
    data = b"".join(_line(now - 600 + i, 0.40) for i in range(10))
    data += b"".join(_line(now - 40 * 86400 + i, 0.01) for i in range(8))  # written while 40 days behind
    _write(data)
    verdict = budget.check(config.load(), None, now + 60, 1.5)
    assert round(verdict.spent_today, 2) == 4.0 and not verdict.allowed and round(verdict.remaining, 2) == 1.0


def test_a_long_run_of_old_lines_after_today_hides_no_spend(isolated_home):
    """Thousands of another machine's lines merged after today's (a first sync of a year's history)."""
    now = time.time()
    old = _line(now - 300 * 86400, 0.01)
    data = _line(now - 5, 2.5) + old * 5000
    _write(data)
    today = ledger.read_since(budget.day_start(now))
    assert [e["total_cost_usd"] for e in today] == [2.5]


# 4. damaged lines are named


def _damaged_ledger(now: float) -> None:
    good = json.loads(_line(now - 5, 1.0))
    rows = [json.dumps(good), '{"ts": 17', json.dumps(dict(good, total_cost_usd="2.50")),
            json.dumps(dict(good, total_cost_usd=2.0)), json.dumps(dict(good, ts="yesterday")),
            "[1, 2]", json.dumps(dict(good, total_cost_usd=4.0))[:-1]]
    _write("\n".join(rows).encode())  # the last one torn, without its newline


def test_lh_cost_names_each_damaged_line_and_counts_them(isolated_home):
    _damaged_ledger(time.time())
    out = invoke("cost")
    assert out.code == 0, out
    text = out.out + out.err
    where = paths.ledger_file()
    for n, why in ((2, "not JSON"), (3, "total_cost_usd is not a number"), (5, "ts is not a time"),
                   (6, "not a JSON object"), (7, "not JSON")):
        assert f"{where}:{n}: skipped ({why}" in text, text
    assert "5 damaged ledger line(s) skipped" in text
    js = json.loads(invoke("cost", "--json").out)
    assert [s["line"] for s in js["skipped_lines"]] == [2, 3, 5, 6, 7]
    assert len(open(where).read().splitlines()) == 7  # nothing lost


def test_lh_doctor_names_each_damaged_ledger_line(isolated_home):
    _damaged_ledger(time.time())
    out = invoke("doctor")
    text = out.out + out.err
    assert "5 damaged line(s) skipped" in text
    assert f"{paths.ledger_file()}:3: skipped (total_cost_usd is not a number" in text


def test_lh_doctor_says_a_sound_ledger_is_sound(isolated_home):
    _write(_line(time.time() - 5, 1.0))
    text = invoke("doctor").out
    assert "no damaged line" in [ln for ln in text.splitlines() if "ledger" in ln][0]


# 5. a midnight that happens twice

ZONES = ("America/Havana", "Asia/Amman", "Asia/Gaza", "America/Scoresbysund", "America/New_York",
         "Australia/Lord_Howe", "America/Santiago", "Pacific/Apia", "Asia/Beirut", "Africa/Cairo")


@pytest.fixture
def zone():
    before = os.environ.get("TZ")

    def use(name: str) -> None:
        os.environ["TZ"] = name
        time.tzset()

    yield use
    if before is None:
        os.environ.pop("TZ", None)
    else:
        os.environ["TZ"] = before
    time.tzset()


def _transitions(year0: int, year1: int) -> list[float]:
    """Around every change of the UTC offset from ``year0`` to ``year1``: a time a day before it."""
    t = time.mktime((year0, 1, 1, 12, 0, 0, 0, 0, -1))
    end = time.mktime((year1, 12, 31, 12, 0, 0, 0, 0, -1))
    out = []
    while t < end:
        if time.localtime(t).tm_gmtoff != time.localtime(t + 86400).tm_gmtoff:
            out.append(t)
        t += 86400
    return out


@pytest.mark.parametrize("name", ZONES)
def test_every_time_falls_in_its_own_day(zone, name):
    zone(name)
    bad = []
    for around in _transitions(2016, 2026):
        budget.next_month(around)  # why: mktime's answer at a repeated midnight hung on its earlier calls
        for step in range(0, 3 * 86400, 900):
            t = around + step
            if not budget.day_start(t) <= t < budget.next_day(t):
                bad.append(time.strftime("%Y-%m-%d %H:%M %Z", time.localtime(t)))
            if not budget.month_start(t) <= t < budget.next_month(t):
                bad.append("month " + time.strftime("%Y-%m-%d %H:%M %Z", time.localtime(t)))
    assert bad == []


def test_havana_2025_11_02_repeated_midnight(zone):
    zone("America/Havana")
    start = time.mktime((2025, 11, 1, 23, 0, 0, 0, 0, -1))
    budget.next_month(time.mktime((2025, 11, 1, 12, 0, 0, 0, 0, -1)))
    for i in range(0, 4 * 3600, 900):
        t = start + i
        assert budget.day_start(t) <= t < budget.next_day(t), logfile.stamp(t)


# 6. the hints name the cap that stopped it


def test_backfill_with_monthly_cap_zero_names_the_monthly_cap(isolated_home, tmp_path):
    configure(isolated_home, budget={"daily_usd": 5.0, "monthly_usd": 0})
    proj = tmp_path / "shop"
    proj.mkdir()
    place(proj)
    out = invoke("backfill")
    text = out.out + out.err
    assert "tomorrow" not in text and "daily_usd" not in text, text
    assert "monthly_usd" in text and "switched off" in text, text


def test_backfill_stopped_by_the_monthly_cap_says_next_month(isolated_home, tmp_path):
    configure(isolated_home, budget={"daily_usd": 5.0, "monthly_usd": 1.0})
    _write(_line(time.time() - 5, 1.0))
    proj = tmp_path / "shop"
    proj.mkdir()
    place(proj)
    text = invoke("backfill").out
    assert "tomorrow" not in text and "next month" in text and "monthly_usd" in text, text


@pytest.mark.parametrize("key", ["daily_usd", "monthly_usd"])
def test_distill_with_a_cap_of_zero_says_it_is_switched_off(isolated_home, tmp_path, monkeypatch, key):
    caps = {"daily_usd": 5.0, "monthly_usd": 50.0, key: 0}
    configure(isolated_home, budget=caps)
    bin_dir = fake_claude.use(tmp_path, monkeypatch)
    proj = tmp_path / "proj"
    proj.mkdir()
    out = invoke("distill", place(proj)["transcript_path"])
    text = out.out + out.err
    assert "prompt_max_chars" not in text, text
    assert f"[budget] {key} = 0" in text and "switched off" in text, text
    assert fake_claude.calls(bin_dir) == []
