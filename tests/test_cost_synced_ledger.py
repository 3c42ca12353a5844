"""The synced ledger and the caps (ADR 0065): each machine caps its own spend. Another machine's
lines, and whatever a hostile or broken remote adds to ledger.jsonl, are shown by lh cost but never
pause this machine."""

import json
import os
import time

import pytest

from lazy_harness import config, paths
from lazy_harness.cost import budget, ledger, own
from lazy_harness.sync.drivers import merge_lines
from lazy_harness.worker.llm import Usage
from tests.cli.lhrun import invoke
from tests.worker.spendrig import configure

META = {"project": "p", "session_id": "s", "task_id": "t"}
NOW = time.mktime((2026, 3, 18, 15, 0, 0, 0, 0, -1))


def _spend(cost: float, ts: float, env=None, chars: int = 40000) -> dict:
    usage = Usage(model="claude-haiku-4-5", input_tokens=1000, output_tokens=100, cost_usd=cost, reported=True)
    return ledger.record(usage, META, "ok", chars, env, now=ts)


def _laptop(tmp_path) -> dict:
    """The other machine: its own state folder (its own key) and its own data folder."""
    return dict(os.environ, XDG_STATE_HOME=str(tmp_path / "laptop-state"),
                XDG_DATA_HOME=str(tmp_path / "laptop-data"))


def _merge_in(theirs: bytes) -> None:
    """What a round does to ledger.jsonl: this machine's lines in order, then the remote's it lacks."""
    path = paths.ledger_file()
    with open(path, "rb") as fh:
        ours = fh.read()
    with open(path, "wb") as fh:
        fh.write(merge_lines(b"", ours, theirs))


def _line(**fields) -> bytes:
    base = {"time": "2026-03-18T14:00:00", "ts": NOW - 3600, "project": "p", "kind": "distill",
            "model": "claude-haiku-4-5", "outcome": "ok", "prompt_chars": 40000}
    return json.dumps({**base, **fields}, separators=(",", ":")).encode() + b"\n"


def _verdict(cost: float = 0.3) -> budget.Verdict:
    return budget.check(config.load(), None, NOW, cost)


def test_two_honest_machines_near_their_caps_each_go_on(isolated_home, tmp_path):
    configure(isolated_home, budget={"daily_usd": 5.0, "monthly_usd": 50.0})
    for i in range(9):
        _spend(0.5, NOW - 3000 + i)  # $4.50 here
    laptop = _laptop(tmp_path)
    for i in range(9):
        _spend(0.5, NOW - 2000 + i, laptop)  # $4.50 on the laptop
    with open(paths.ledger_file(laptop), "rb") as fh:
        _merge_in(fh.read())
    v = _verdict(0.3)
    assert v.allowed and round(v.spent_today, 2) == 4.5
    assert not _verdict(0.6).allowed  # this machine's own cap still holds
    total = [ln for ln in invoke("cost", "--since", "2026-03-18").out.splitlines() if ln.startswith("total")]
    assert total and total[0].split()[1:3] == ["18", "$9.0000"]  # lh cost shows the laptop's calls


@pytest.mark.parametrize("amount", [999_999.0, 4.99, 1e9, float("nan"), -3.0, 1e308])
def test_a_remote_line_of_any_amount_pauses_nothing(isolated_home, amount):
    configure(isolated_home, budget={"daily_usd": 5.0, "monthly_usd": 50.0})
    _spend(1.0, NOW - 600)
    _merge_in(_line(total_cost_usd=amount, cost_reported=True))
    v = _verdict(0.3)
    assert v.allowed and round(v.spent_today, 2) == 1.0 and round(v.spent_month, 2) == 1.0


def test_a_hundred_thousand_remote_lines_pause_nothing(isolated_home):
    configure(isolated_home, budget={"daily_usd": 5.0, "monthly_usd": 50.0})
    _spend(1.0, NOW - 600)
    _merge_in(b"".join(_line(total_cost_usd=0.01, ts=NOW - 7200 + i / 100, task=f"t{i}") for i in range(100_000)))
    start = time.perf_counter()
    v = _verdict(0.3)
    took = time.perf_counter() - start
    assert v.allowed and round(v.spent_today, 2) == 1.0
    print(f"cap check over 100,000 remote lines: {took * 1000:.0f} ms")


def test_a_line_claiming_this_machine_counts_only_as_written(isolated_home):
    configure(isolated_home, budget={"daily_usd": 5.0, "monthly_usd": 50.0})
    mine = _spend(1.0, NOW - 600)
    assert mine["mac"]
    forged = json.loads(json.dumps(mine))
    forged["total_cost_usd"], forged["task"] = 4.5, "t2"  # this machine's MAC on another amount
    copied = json.dumps(mine, separators=(",", ":")).encode() + b"\n"
    _merge_in(json.dumps(forged, separators=(",", ":")).encode() + b"\n" + copied * 50 + b" " + copied)
    v = _verdict(0.3)
    assert v.allowed and round(v.spent_today, 2) == 1.0  # the copies of its own line count once


def test_a_remote_run_of_old_lines_after_today_hides_no_spend(isolated_home):
    """The backward read stops after OLD_RUN_BYTES of old lines in a row: a remote's old lines merged
    after this machine's lines of today must not hide them from the cap."""
    configure(isolated_home, budget={"daily_usd": 5.0, "monthly_usd": 50.0})
    for i in range(5):
        _spend(1.0, NOW - 600 + i)  # the cap reached here
    old = _line(total_cost_usd=0.01, ts=NOW - 90 * 86400, pad="x" * 4000)
    _merge_in(b"".join(old.replace(b'"pad"', f'"n{i}"'.encode()) for i in range(ledger.OLD_RUN_BYTES // len(old) + 10)))
    v = _verdict(0.3)
    assert not v.allowed and round(v.spent_today, 2) == 5.0


def test_a_remote_line_does_not_price_this_machines_calls(isolated_home):
    configure(isolated_home, budget={"daily_usd": 5.0, "monthly_usd": 50.0})
    for i in range(3):
        _spend(0.02, NOW - 3000 + i)
    before = budget.estimate(40000, now=NOW, model="claude-haiku-4-5")
    _merge_in(b"".join(_line(total_cost_usd=900.0, prompt_chars=1, cost_source="reported", task=f"x{i}")
                       for i in range(20)))
    assert budget.estimate(40000, now=NOW, model="claude-haiku-4-5") == pytest.approx(before)


def test_lines_from_before_the_key_still_count_and_later_unsigned_ones_do_not(isolated_home):
    configure(isolated_home, budget={"daily_usd": 5.0, "monthly_usd": 50.0})
    now = time.time()  # why the clock's: the key adopts the lines of the last days as it is made
    ts = max(budget.day_start(now), now - 60)
    os.makedirs(os.path.dirname(paths.ledger_file()), exist_ok=True)
    with open(paths.ledger_file(), "wb") as fh:  # written by the version before: no MAC
        fh.write(b"".join(_line(total_cost_usd=1.0, ts=ts, task=f"old{i}") for i in range(4)))
    assert not os.path.exists(own.key_file())
    assert round(budget.check(config.load(), None, now).spent_today, 2) == 4.0  # the upgrade: still counted
    assert not os.path.exists(own.key_file())  # a read makes no key (lh doctor is read-only)
    v, call = budget.open_call(config.load(), None, now, 0.1, META, 1000)  # the first spender makes it
    assert call is not None and round(v.spent_today, 2) == 4.0 and os.path.exists(own.key_file())
    call.close()
    _merge_in(_line(total_cost_usd=1.0, ts=ts, task="after"))  # a remote's unsigned line, after the upgrade
    _spend(0.5, ts)
    v = budget.check(config.load(), None, now, 0.3)
    assert v.allowed and round(v.spent_today, 2) == 4.5


def test_a_key_that_may_not_be_used_counts_every_line(isolated_home):
    configure(isolated_home, budget={"daily_usd": 5.0, "monthly_usd": 50.0})
    _spend(1.0, NOW - 600)
    os.chmod(own.key_file(), 0o644)
    _merge_in(_line(total_cost_usd=3.0))
    assert round(_verdict().spent_today, 2) == 4.0  # fails closed: as before, every line


def test_a_remote_lines_text_reaches_no_terminal_as_escapes(isolated_home):
    """lh cost prints a line's project and kind (the table, a killed call's line): a remote chooses them."""
    configure(isolated_home, budget={"daily_usd": 5.0, "monthly_usd": 50.0})
    now = time.time()
    _spend(0.5, now - 60)
    evil = "shop\x1b]0;owned\x07\x1b[2J\u202e"
    _merge_in(_line(ts=now - 30, total_cost_usd=0.2, project=evil, kind=evil, outcome="killed"))
    for args in (("cost", "--since", "1d", "--by", "project"), ("cost", "--since", "1d")):
        out = invoke(*args).out
        assert "shop\\u001b]0;owned" in out
        assert not any(c in out for c in "\x1b\x07\u202e")


def test_a_remotes_model_check_lines_do_not_price_a_backfills_checks(isolated_home):
    """``lh backfill`` prices the model check after each distillation from the ledger's recent check
    calls: another machine's (or a hostile remote's) $0 lines made it price them at nothing and queue
    more sessions than the caps hold; only this machine's calls price them."""
    from lazy_harness.cli import backfill
    from lazy_harness.worker import model_check

    configure(isolated_home, budget={"daily_usd": 5.0, "monthly_usd": 50.0}, model_check=True)
    now = time.time()
    usage = Usage(model="claude-haiku-4-5", input_tokens=1000, output_tokens=100, cost_usd=0.04, reported=True)
    ledger.record(usage, META, "ok", 4000, None, now=now - 600, kind=model_check.KIND)
    mine = backfill._check_estimate(config.load(), None)
    assert mine == pytest.approx(0.04)
    _merge_in(b"".join(_line(kind=model_check.KIND, total_cost_usd=0.0, ts=now - 300 + i, task=f"r{i}",
                             cost_source="reported") for i in range(50)))
    assert backfill._check_estimate(config.load(), None) == pytest.approx(mine)
