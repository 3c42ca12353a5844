"""The ledger file: one line per call, read backwards for recent totals, damage skipped."""

import json
import os
import time

from lazy_harness import logfile, paths
from lazy_harness.cost import ledger
from lazy_harness.worker.llm import Usage, usage_of


def _record(ts: float, cost: float, project: str = "p", model: str = "m") -> None:
    ledger.record(Usage(model=model, cost_usd=cost, reported=True), {"project": project}, "ok", 100, now=ts)


def test_read_since_crosses_block_boundaries_and_stops_early(isolated_home):
    base = 1_700_000_000.0
    first = ledger.record(Usage(model="m", cost_usd=0.001, reported=True), {"project": "p"}, "ok", 100, now=base)
    # why: the other 2,999 lines (well over one 64 KiB block) in one write, shaped as record() shapes
    # them; appending each under the lock with its fsync took seconds
    with open(paths.ledger_file(), "a", encoding="utf-8") as fh:
        fh.writelines(json.dumps(dict(first, ts=round(base + i, 3), time=logfile.stamp(base + i)),
                                 separators=(",", ":")) + "\n" for i in range(1, 3000))
    entries = ledger.read_since(base + 2500)
    assert [e["ts"] for e in entries] == [base + i for i in range(2500, 3000)]
    assert len(ledger.read_since(0)) == 3000
    assert ledger.read_since(base + 5000) == []


def test_damaged_lines_and_wrong_types_are_skipped(isolated_home):
    _record(100.0, 0.5)
    with open(paths.ledger_file(), "a") as fh:
        fh.write('{"ts": "yesterday", "total_cost_usd": 1}\n{"ts": 150, "total_cost_usd": -3}\n[1, 2]\n{torn')
        fh.write("\n")
    _record(200.0, 0.25)
    assert [e["total_cost_usd"] for e in ledger.read_since(0)] == [0.5, 0.25]


def test_a_ts_mistyped_by_hand_hides_no_spend_of_the_period(isolated_home):
    """A hand edit drops a digit of the last line's ``ts`` (a time in 1975): the backward read passes
    over one line out of order instead of stopping there, so today's spend still counts."""
    now = 1_795_975_578.0
    for i in range(3):
        _record(now - 300 + i, 0.27)
    lines = open(paths.ledger_file()).read().splitlines()
    last = json.loads(lines[-1])
    lines[-1] = json.dumps(dict(last, ts=179597557.0))
    with open(paths.ledger_file(), "w") as fh:
        fh.write("\n".join(lines) + "\n")
    assert [e["total_cost_usd"] for e in ledger.read_since(now - 3600)] == [0.27, 0.27]


def test_a_last_line_saved_without_its_newline_loses_no_call(isolated_home):
    _record(1000.0, 0.5)
    text = open(paths.ledger_file()).read()
    with open(paths.ledger_file(), "w") as fh:
        fh.write(text.rstrip("\n"))  # an editor saved it without the final newline
    _record(1001.0, 0.25)
    assert [e["total_cost_usd"] for e in ledger.read_since(0)] == [0.5, 0.25]


def test_a_missing_ledger_is_empty(isolated_home):
    assert ledger.read_since(0) == [] and not os.path.exists(paths.ledger_file())


def test_group_by_day_uses_the_local_date(isolated_home):
    noon = time.mktime((2026, 3, 4, 12, 0, 0, 0, 0, -1))
    _record(noon, 1.0)
    _record(noon + 86400, 2.0)
    _record(noon + 86400 + 60, 0.5, project="q")
    groups = ledger.group(ledger.read_since(0), "day")
    assert {k: round(v.cost_usd, 2) for k, v in groups.items()} == {"2026-03-04": 1.0, "2026-03-05": 2.5}
    assert list(ledger.group(ledger.read_since(0), "project")) == ["p", "q"]


def test_the_line_holds_every_field(isolated_home):
    line = ledger.record(Usage(model="claude-haiku-4-5", input_tokens=5, output_tokens=6, cache_creation_tokens=7,
                               cache_read_tokens=8, cost_usd=0.01, reported=True, duration_s=1.5),
                         {"project": "shop", "session_id": "s1", "task_id": "t1"}, "ok", 1234, now=1000.0)
    [written] = [json.loads(x) for x in open(paths.ledger_file())]
    assert written == line
    assert {k: line[k] for k in ("project", "session", "task", "kind", "model", "input_tokens", "output_tokens",
                                 "cache_creation_tokens", "cache_read_tokens", "total_cost_usd", "duration_s",
                                 "outcome", "prompt_chars")} == {
        "project": "shop", "session": "s1", "task": "t1", "kind": "distill", "model": "claude-haiku-4-5",
        "input_tokens": 5, "output_tokens": 6, "cache_creation_tokens": 7, "cache_read_tokens": 8,
        "total_cost_usd": 0.01, "duration_s": 1.5, "outcome": "ok", "prompt_chars": 1234}


def test_usage_from_the_envelope():
    envelope = {"type": "result", "total_cost_usd": 0.21, "usage": {"input_tokens": 200000, "output_tokens": 2000,
                                                                    "cache_read_input_tokens": True},
                "modelUsage": {"claude-haiku-4-5-20251001": {"costUSD": 0.2}, "claude-3-5-haiku": {"costUSD": 0.01}}}
    u = usage_of("a warning line\n" + json.dumps(envelope), "fallback")
    assert (u.cost_usd, u.reported, u.input_tokens, u.output_tokens, u.cache_read_tokens) == (
        0.21, True, 200000, 2000, 0)
    assert u.model == "claude-haiku-4-5-20251001"
    none = usage_of("not json", "claude-haiku-4-5")
    assert (none.cost_usd, none.reported, none.model) == (0.0, False, "claude-haiku-4-5")
