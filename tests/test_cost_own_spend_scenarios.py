"""Per-machine spend caps (ADR 0065) as a user breaks them: the key lost or unusable mid-day, two
makers of the key at once, a state folder open to others, a remote that floods the damaged lines,
and lh cost's totals of this machine beside every machine's."""

import json
import os
import time

from lazy_harness import config, paths
from lazy_harness.cost import budget, ledger, own
from lazy_harness.sync.drivers import merge_lines
from lazy_harness.worker.llm import Usage
from tests.cli.lhrun import invoke
from tests.worker.spendrig import configure

META = {"project": "p", "session_id": "s", "task_id": "t"}


def _now() -> float:
    """Within one local day, past its first hour (the lines below are dated up to 40 minutes back)."""
    now = time.time()
    return max(now, budget.day_start(now) + 3600)


def _spend(cost: float, ts: float, env=None) -> dict:
    usage = Usage(model="claude-haiku-4-5", input_tokens=1000, output_tokens=100, cost_usd=cost, reported=True)
    return ledger.record(usage, META, "ok", 40000, env, now=ts)


def _merge_in(theirs: bytes) -> None:
    path = paths.ledger_file()
    with open(path, "rb") as fh:
        ours = fh.read()
    with open(path, "wb") as fh:
        fh.write(merge_lines(b"", ours, theirs))


def _today(now: float) -> float:
    return round(budget.check(config.load(), None, now).spent_today, 2)


def test_a_remote_of_damaged_lines_prints_a_few_then_a_count(isolated_home):
    configure(isolated_home, budget={"daily_usd": 5.0, "monthly_usd": 50.0})
    now = _now()
    _spend(0.5, now - 60)
    _merge_in(b"".join(b'{"ts": "torn %d\n' % i for i in range(100_000)))
    for args in (("cost", "--since", "1d"), ("doctor",)):
        out = invoke(*args).out
        named = [ln for ln in out.splitlines() if ": skipped (" in ln]
        assert 0 < len(named) <= 10, args
        assert "99,9" in out or "and 99" in out, args
        assert "100,000 damaged" in out or "100000 damaged" in out, args
    data = json.loads(invoke("cost", "--since", "1d", "--json").out)
    assert len(data["skipped_lines"]) == 100_000  # the JSON still names every one
