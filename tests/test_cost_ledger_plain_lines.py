"""A ledger line as ``ledger.record`` writes it is judged without parsing it (``ledger._plain``): it
must count for every reader exactly as the parsed line does, and any other line is parsed as before.
Before, lh doctor parsed each of 250,000 lines twice and took 22 s (benchmarks/bench_ledger_doctor.py)."""

import json
import os
import time

import pytest

from lazy_harness import paths
from lazy_harness.cost import budget, ledger, own

NOW = time.time()


def _line(**change) -> dict:
    line = {"time": "2026-12-01T10:00:00+00:00", "ts": round(NOW - 60, 3), "project": "app", "session": "s1",
            "task": "t1", "kind": "distill", "model": "claude-sonnet-4-5", "input_tokens": 10, "output_tokens": 5,
            "cache_creation_tokens": 0, "cache_read_tokens": 3, "total_cost_usd": 1e-05, "cost_reported": True,
            "cost_source": "reported", "duration_s": 2.5, "outcome": "ok", "prompt_chars": 900, "call": "c-1"}
    line.update(change)
    return {k: v for k, v in line.items() if v is not ...}


def _text(line: dict) -> str:
    return json.dumps(line, separators=(",", ":"))


VARIANTS = [
    _text(_line()),
    _text(_line(call=...)),
    _text(_line(total_cost_usd=0)),
    _text(_line(total_cost_usd=2_000_000.0)),
    _text(_line(total_cost_usd=-0.5)),
    _text(_line(total_cost_usd=10**400)),
    _text(_line(ts=-5)),
    _text(_line(ts=40_000_000_000)),
    _text(_line(ts=10**30)),
    _text(_line(ts=1.5e9)),
    _text(_line(total_cost_usd=float("nan"))),
    _text(_line(total_cost_usd=float("inf"))),
    _text(_line(ts=True)),
    _text(_line(total_cost_usd="0.5")),
    _text(_line(project="caf\u00e9")),
    _text(_line(project='say "hi"')),
    _text(_line(model="\x1b[31m")),
    _text(_line(cost_source="priced", usd_per_mtok=[3.0, 15.0])),
    _text(_line(cost_source="priced", usd_per_mtok=[])),
    _text(_line(call=["c-1"])),
    _text(_line())[:-9],  # torn
    _text(_line()).replace('"ts":', '"ts":0', 1),  # 0 then digits: not JSON
    _text(_line()) + "x",
    " " + _text(_line()),
    "\ufeff" + _text(_line()),
    _text(_line()).replace("ok", "o\x01k"),
]


@pytest.mark.parametrize("text", VARIANTS)
@pytest.mark.parametrize("end", ["", "\n", "\r\n"])
def test_a_line_judged_without_parsing_counts_as_the_parsed_line(text, end):
    raw = (text + end).encode("utf-8")
    entry, why = ledger._judged(raw)
    plain = ledger._plain(raw)
    if plain is None:  # any other line: parsed, as before
        assert ledger._light(raw) == ledger._parse(raw)
        return
    light, said = plain
    assert said == why, text
    if not why:
        assert {k: entry.get(k) for k in light} == light
        assert ledger.call_of(light) == ledger.call_of(entry) and ledger._light(raw) == light


def test_signed_lines_of_this_machine_count_as_before_in_every_reader(isolated_home):
    keys = own.ring(None, lambda since: [], make=True)
    lines = [keys.sign(_text(_line(call=f"c-{i}", total_cost_usd=0.25 * (i % 3)))) for i in range(6)]
    lines[1] = lines[1].replace("0.25", "0.35")  # its MAC no longer fits: claimed, counts nothing
    lines += ["{torn", _text(_line(ts=-1)), keys.sign(_text(_line(project="caf\u00e9", call="c-9")))]
    os.makedirs(os.path.dirname(paths.ledger_file()), exist_ok=True)
    with open(paths.ledger_file(), "w", encoding="utf-8") as fh:
        fh.write("\n".join(lines) + "\n")
    damaged, claimed = ledger.unread()
    assert damaged == [(7, "not JSON: a torn or hand-edited line"), (8, "ts is not a time from 1970 to 3000")]
    assert claimed == [2]
    light = ledger.read_since(NOW - 3600, mine=True, light=True)
    whole = ledger.read_since(NOW - 3600, mine=True)
    assert [e["call"] for e in light] == [e["call"] for e in whole] == ["c-0", "c-2", "c-3", "c-4", "c-5", "c-9"]
    assert ledger.total(light) == ledger.total(whole) == pytest.approx(1.25001)
    assert budget.spend(None, NOW).today == pytest.approx(1.25001)
