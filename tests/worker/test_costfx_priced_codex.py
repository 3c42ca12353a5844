"""A ledger line's cost has one of three sources (``cost_source``): reported by the CLI (claude's
``total_cost_usd``), priced from the call's reported tokens (a ``codex exec`` call) or estimated (a call
stopped or killed before it reported). ``lh cost`` names priced calls as priced, not as killed, and the
cap's estimate learns from them (docs/how/cost.md)."""

import json
import os
import time

import pytest

from lazy_harness.config import defaults
from lazy_harness.cost import budget, ledger
from lazy_harness.worker import calls, codex_distill
from tests.cli.lhrun import invoke
from tests.support import fake_codex
from tests.worker.spendrig import ledger_lines

KILLED_WORDS = "killed mid-call"
META = {"project": "api", "session_id": "s-1", "task_id": "t-1"}


@pytest.fixture
def cfg():
    values = defaults()
    values["worker"]["distiller"] = "codex"
    values["compound_loop"]["timeout_seconds"] = 20
    return values


def _codex_calls(cfg, n: int = 2) -> None:
    for i in range(n):
        calls.run_model(f"prompt number {i} " + "x" * 400, cfg, dict(os.environ), dict(META), sleep=lambda s: None)


def test_finished_codex_calls_are_named_priced_not_killed_costfx(isolated_home, tmp_path, monkeypatch, cfg):
    fake_codex.use(tmp_path, monkeypatch)
    _codex_calls(cfg)
    lines = ledger_lines()
    assert [(e["outcome"], e["cost_source"], e["cost_reported"]) for e in lines] == [("ok", "priced", False)] * 2
    assert all(e["usd_per_mtok"] == list(codex_distill.DEFAULT_PRICES) and e["total_cost_usd"] > 0 for e in lines)
    out = invoke("cost")
    assert out.code == 0, out.err
    assert KILLED_WORDS not in out.out and "at their estimate" not in out.out, out.out
    assert "2 call(s) priced from their token counts at the default Codex prices" in out.out, out.out
    total = json.loads(invoke("cost", "--json").out)["total"]
    assert (total["calls_priced"], total["calls_at_estimate"], total["calls_without_cost"]) == (2, 0, 0)


def test_configured_codex_prices_are_named_as_such_costfx(isolated_home, tmp_path, monkeypatch, cfg):
    fake_codex.use(tmp_path, monkeypatch)
    cfg["worker"]["codex_input_usd_per_mtok"] = 0.5
    cfg["worker"]["codex_output_usd_per_mtok"] = 4.0
    _codex_calls(cfg, 1)
    [line] = ledger_lines()
    assert (line["cost_source"], line["cost_reported"], line["usd_per_mtok"]) == ("priced", True, [0.5, 4.0])
    out = invoke("cost").out
    assert "1 call(s) priced from their token counts at the configured Codex prices" in out, out
    assert "default Codex prices" not in out and KILLED_WORDS not in out


def test_the_next_codex_call_at_the_same_prices_is_estimated_from_them_costfx(isolated_home, tmp_path,
                                                                             monkeypatch, cfg):
    fake_codex.use(tmp_path, monkeypatch)
    env = dict(os.environ)
    model, prices = calls.guessed_at(cfg, env)
    assert budget.guessed(env, time.time(), model, prices)
    _codex_calls(cfg)
    now = time.time()
    assert not budget.guessed(env, now, model, prices)
    lines = ledger_lines()
    per_char = sum(e["total_cost_usd"] for e in lines) / sum(e["prompt_chars"] for e in lines)
    assert budget.estimate(5000, env, now, model, prices) == pytest.approx(5000 * per_char)
    # the same model at other prices: those lines were not made at its price, so a guess
    cfg["worker"]["codex_input_usd_per_mtok"] = 0.5
    other = calls.guessed_at(cfg, env)
    assert other[0] == model and other[1] != prices
    assert budget.guessed(env, now, *other)


def test_a_killed_call_still_says_estimated_costfx(isolated_home):
    marker = {"call": "c-1", "started": time.time() - 60, "project": "api", "session": "s", "task": "t",
              "prompt_chars": 900, "kind": "distill"}
    line = ledger.record_killed(marker, 0.03)
    assert (line["cost_source"], line["cost_reported"]) == ("estimated", False)
    assert budget.guessed()  # an estimate is no history to price a call by
    out = invoke("cost").out
    assert "1 call(s) reported no cost and are counted at their estimate" in out and KILLED_WORDS in out, out
    assert "priced from their token counts" not in out


def test_a_codex_call_stopped_at_its_timeout_says_estimated_costfx(isolated_home, tmp_path, monkeypatch, cfg):
    fake_codex.use(tmp_path, monkeypatch, mode="hang")
    cfg["compound_loop"]["timeout_seconds"] = 1
    cfg["compound_loop"]["max_attempts"] = 1
    with pytest.raises(calls.Wait):
        calls.run_model("p" * 100, cfg, dict(os.environ), dict(META), sleep=lambda s: None)
    [line] = ledger_lines()
    assert (line["outcome"], line["cost_source"], line["cost_reported"]) == ("timeout", "estimated", False)
    assert line["total_cost_usd"] > 0 and "usd_per_mtok" not in line


def _old(cost: float, reported: bool, chars: int = 10_000) -> dict:
    """A line as lh wrote it before ``cost_source``."""
    now = time.time() - 3600
    return {"time": "2026-01-01T00:00:00", "ts": now, "project": "p", "session": "s", "task": "t",
            "kind": "distill", "model": "claude-haiku-4-5", "input_tokens": 10, "output_tokens": 5,
            "cache_creation_tokens": 0, "cache_read_tokens": 3, "total_cost_usd": cost,
            "cost_reported": reported, "duration_s": 1.0, "outcome": "ok", "prompt_chars": chars}


def test_an_old_line_without_the_field_reads_as_today_costfx(isolated_home):
    from lazy_harness import paths

    os.makedirs(os.path.dirname(paths.ledger_file()), exist_ok=True)
    with open(paths.ledger_file(), "w") as fh:
        for e in (_old(0.02, False), _old(0.0, False), _old(0.01, True)):
            fh.write(json.dumps(e) + "\n")
    assert [ledger.source(e) for e in ledger.read_since(0)] == ["estimated", "none", "reported"]
    total = json.loads(invoke("cost", "--json").out)["total"]
    assert (total["calls_at_estimate"], total["calls_without_cost"], total["calls_priced"]) == (1, 2, 0)
    assert total["input_tokens"] == 30  # claude's input never holds its cache reads
    out = invoke("cost").out
    assert "1 call(s) reported no cost (counted as $0)" in out and "1 call(s) reported no cost and are " \
        "counted at their estimate" in out, out
    # only the reported line prices the next call
    assert budget.estimate(20_000, model="claude-haiku-4-5") == pytest.approx(0.02)


def test_codex_cached_input_is_counted_once_costfx(isolated_home, tmp_path, monkeypatch, cfg):
    """Codex counts cached input inside its input tokens (1000 in, 100 of them cached): the totals
    show 900 under input and 100 under cache, as claude's lines read."""
    fake_codex.use(tmp_path, monkeypatch)
    _codex_calls(cfg, 1)
    [line] = ledger_lines()
    assert (line["input_tokens"], line["cache_read_tokens"]) == (1000, 100)  # as Codex reported them
    total = json.loads(invoke("cost", "--json").out)["total"]
    assert (total["input_tokens"], total["cache_read_tokens"]) == (900, 100)
