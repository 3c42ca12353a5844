"""The cap's estimate of a call learns only from the ledger's calls made at the call's own price: a
person who ran haiku and then set an opus model is not let past a small cap by haiku's rate, and a
codex call is not priced by claude's calls (docs/how/cost.md, The cap)."""

import os
import time

import pytest

from lazy_harness import config
from lazy_harness.config import defaults
from lazy_harness.cost import budget, ledger
from lazy_harness.worker import backfill_share, calls, llm
from tests.cli.lhrun import invoke
from tests.support import fake_claude, fake_codex
from tests.support.sessions import place
from tests.worker.spendrig import configure, ledger_lines, queue_session, run_worker, tasks

GUESS = "(no cost history: a guess)"


def _call(model: str, cost: float, chars: int, days_ago: float = 2.0, kind: str = "distill") -> None:
    """A successful call of ``model`` in the ledger, ``days_ago`` days ago."""
    usage = llm.Usage(model=model, input_tokens=1000, output_tokens=100, cost_usd=cost, reported=True)
    ledger.record(usage, {"project": "earlier", "session_id": "s", "task_id": "t"}, "ok", chars,
                  now=time.time() - days_ago * 86400, kind=kind)


def _haiku_week() -> None:
    for i in range(5):  # a week of haiku distillations: $0.03 for 30,000 prompt characters each
        _call("claude-haiku-4-5", 0.03, 30_000, days_ago=i + 2)


def test_an_opus_call_after_haiku_history_waits_for_a_small_cap_pricefx(isolated_home, tmp_path, monkeypatch):
    _haiku_week()
    assert budget.guess(30_000, "claude-opus-4-1") > 0.10 > budget.estimate(30_000, model="claude-haiku-4-5")
    fake = fake_claude.use(tmp_path, monkeypatch)
    configure(isolated_home, budget={"daily_usd": 0.10, "monthly_usd": 10.0}, model="claude-opus-4-1")
    project = tmp_path / "p"
    project.mkdir()
    queue_session(project)
    stats = run_worker()
    assert len(fake_claude.calls(fake)) == 0 and stats.processed == 0
    [waiter] = tasks("")
    assert "cap" in waiter["wait_reason"]
    assert len(ledger_lines()) == 5  # no line of a call that was not made


def test_the_same_models_history_is_still_used_pricefx(isolated_home):
    _haiku_week()
    _call("claude-opus-4-1-20250805", 0.60, 20_000)  # the name claude's envelope gives the model
    now = time.time()
    assert budget.estimate(40_000, None, now, "claude-haiku-4-5") == pytest.approx(40_000 * 0.15 / 150_000)
    assert budget.estimate(40_000, None, now) == pytest.approx(40_000 * 0.15 / 150_000)  # the default model
    # the same row of the price table: the alias and the dated name of the same price
    for model in ("claude-opus-4-1", "opus"):
        assert budget.estimate(40_000, None, now, model) == pytest.approx(1.20)
        assert not budget.guessed(None, now, model)
    # another row (opus 4.5 is priced apart) and a name not in the table have no history: a guess
    for model in ("claude-opus-4-5", "claude-sonnet-4-5", "some-new-model"):
        assert budget.estimate(40_000, None, now, model) == pytest.approx(budget.guess(40_000, model))
        assert budget.guessed(None, now, model)


def test_a_model_not_in_the_table_learns_from_its_own_calls_pricefx(isolated_home):
    _haiku_week()
    _call("some-new-model", 0.20, 10_000)
    assert budget.estimate(30_000, model="some-new-model") == pytest.approx(0.60)


def test_a_codex_call_is_priced_by_codex_calls_only_pricefx(isolated_home, tmp_path, monkeypatch):
    """Claude's cheap history does not let a codex call past a cap its own price does not fit."""
    _haiku_week()
    cfg = defaults()
    cfg["worker"]["distiller"] = "codex"
    cfg["compound_loop"]["timeout_seconds"] = 20
    cfg["budget"]["daily_usd"] = 0.04  # under a guess at the default codex prices
    env = dict(os.environ)
    model, prices = calls.guessed_at(cfg, env)
    assert budget.estimate(1000, env, time.time(), model, prices) == pytest.approx(budget.guess(1000, prices=prices))
    fake = fake_codex.use(tmp_path, monkeypatch)
    with pytest.raises(calls.Wait) as wait:
        calls.run_model("prompt", cfg, env, {"project": "api", "session_id": "s-1", "task_id": "t-1"},
                        sleep=lambda s: None)
    assert "daily cap" in wait.value.message and fake_codex.calls(fake) == []

    # with codex calls in the ledger (named as their lines name them), their own rate
    _call(model, 0.01, 100_000)
    assert budget.estimate(1000, env, time.time(), model, prices) == pytest.approx(1000 * 0.01 / 100_000)
    cfg["worker"]["codex_model"] = "gpt-5-codex"  # another model: its own history, none yet
    other = calls.guessed_at(cfg, env)
    assert other[0] != model
    assert budget.estimate(1000, env, time.time(), *other) == pytest.approx(budget.guess(1000, prices=prices))


def test_the_backfill_share_prices_a_task_at_the_configured_models_rate_pricefx(isolated_home):
    _haiku_week()
    fields = {"backfill_chars": "30000", "backfill_check_usd": "0"}
    configure(isolated_home, budget={"daily_usd": 0.8}, model="claude-haiku-4-5")
    assert backfill_share.waits(config.load(dict(os.environ)), dict(os.environ), fields) == ""
    # 30,000 characters at opus's guess: more than what is left less the share kept for today
    configure(isolated_home, budget={"daily_usd": 0.8}, model="claude-opus-4-1")
    reason = backfill_share.waits(config.load(dict(os.environ)), dict(os.environ), fields)
    assert reason and reason.startswith("backfill waits")


def test_lh_backfill_says_guess_for_a_model_without_history_pricefx(isolated_home, tmp_path):
    _haiku_week()
    project = tmp_path / "old"
    project.mkdir()
    payload = place(project, session_id="bbbb0000-0000-4000-8000-000000000000")
    when = time.time() - 10 * 86400
    os.utime(payload["transcript_path"], (when, when))
    firsts = {}
    for model in ("claude-haiku-4-5", "claude-opus-4-1"):
        configure(isolated_home, model=model)
        firsts[model] = invoke("backfill", "--dry-run").out.splitlines()[0]
    assert GUESS not in firsts["claude-haiku-4-5"], firsts
    assert GUESS in firsts["claude-opus-4-1"], firsts


def test_backfills_check_share_counts_only_checks_at_the_check_models_price(isolated_home):
    """After a switch from haiku to opus, the haiku model checks in the ledger no longer price the
    check share of a backfilled session: its bound is used until an opus check is in the ledger."""
    from lazy_harness import config
    from lazy_harness.cli import backfill
    from lazy_harness.cost import ledger
    from lazy_harness.worker import model_check
    from lazy_harness.worker.llm import Usage

    for _ in range(3):
        ledger.record(Usage(cost_usd=0.004, reported=True, model="claude-haiku-4-5"),
                      {"project": "p", "session_id": "s", "task_id": "t"}, "ok", 2000, None, time.time(),
                      model_check.KIND)
    cfg = config.defaults()
    assert backfill._check_estimate(cfg, None) == pytest.approx(0.004)
    cfg["compound_loop"]["model"] = "claude-opus-4-1"
    assert backfill._check_estimate(cfg, None) == model_check.MAX_USD
    cfg["trust"]["model_check_model"] = "claude-haiku-4-5"  # the check keeps its own model
    assert backfill._check_estimate(cfg, None) == pytest.approx(0.004)


def test_backfills_check_share_leaves_out_checks_whose_cost_is_only_estimated(isolated_home):
    """A model check killed mid-call is counted at its estimate (its bound), and one that reported
    nothing at $0: neither says what a check costs, so neither prices the share."""
    from lazy_harness import config
    from lazy_harness.cli import backfill
    from lazy_harness.cost import ledger
    from lazy_harness.worker import model_check
    from lazy_harness.worker.llm import Usage

    meta = {"project": "p", "session_id": "s", "task_id": "t"}
    for _ in range(2):
        ledger.record(Usage(cost_usd=0.004, reported=True, model="claude-haiku-4-5"), meta, "ok", 2000, None,
                      time.time(), model_check.KIND)
    ledger.record(Usage(cost_usd=0.0, reported=False, model="claude-haiku-4-5"), meta, "timeout", 2000, None,
                  time.time(), model_check.KIND)
    ledger.record_killed({"project": "p", "session": "s", "task": "t", "prompt_chars": 2000, "kind": model_check.KIND,
                          "started": time.time(), "call": "c1", "model": "claude-haiku-4-5"}, model_check.MAX_USD)
    assert backfill._check_estimate(config.defaults(), None) == pytest.approx(0.004)
