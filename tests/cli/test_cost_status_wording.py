"""What ``lh cost`` and ``lh status`` say, read as the person reads them: a count of failed calls in the
grammar of its number, out of how many; the period the table adds up (its first day's row holds only
the calls after the start); "this week" that was the last seven days."""

import time

import pytest

from tests.cli.lhrun import invoke
from tests.worker.spendrig import spent

pytestmark = pytest.mark.usefixtures("one_local_day")


def test_one_failed_call_is_said_out_of_how_many_in_the_singular(isolated_home):
    spent(0.25)
    spent(0.5)
    spent(1.0, outcome="unreachable")
    out = invoke("cost")
    assert out.code == 0, out
    assert "1 of the 3 calls failed (its cost is counted)" in out.out.splitlines(), out.out
    spent(1.0, outcome="unreachable")
    assert "2 of the 4 calls failed (their cost is counted)" in invoke("cost").out.splitlines()


def test_the_table_says_from_when_it_adds_up(isolated_home):
    spent(0.25)
    before = time.time()
    out = invoke("cost", "--since", "2d")
    start = time.strftime("%Y-%m-%d %H:%M", time.localtime(before - 2 * 86400))
    assert out.out.splitlines()[0] == f"model calls since {start} (--since 2d)", out.out


def test_status_names_the_last_seven_days_not_this_week(isolated_home, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = invoke("status")
    assert out.code == 0, out
    [line] = [ln for ln in out.out.splitlines() if ln.startswith("usage ")]
    assert line.startswith("usage in the last 7 days: "), line


def test_status_reads_the_months_spend_once(isolated_home, tmp_path, monkeypatch):
    """``lh status`` read the ledger's month twice (its sessions' pause, then its spend line): 2.4 s more
    with 250,000 lines this month (benchmarks/bench_ledger_doctor.py). Once, with the same figures."""
    from lazy_harness.cost import ledger

    spent(0.25)
    reads = []
    real = ledger.read_since
    monkeypatch.setattr(ledger, "read_since", lambda *a, **k: reads.append(a) or real(*a, **k))
    monkeypatch.chdir(tmp_path)
    out = invoke("status")
    assert out.code == 0, out
    assert "spend: today $0.25 of $5.00" in out.out, out.out
    assert len(reads) == 1, reads
