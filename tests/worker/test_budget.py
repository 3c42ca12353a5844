"""The spend cap: tasks wait (never fail) once a cap is reached; every call gets --max-budget-usd."""

import time

import pytest

from lazy_harness import notice
from lazy_harness.cost import budget
from tests.support import fake_claude
from tests.worker.spendrig import configure, ledger_lines, queue_session, run_worker, spent, tasks

# why: spend written at the wall clock, "today" taken by the code's own clock: one local day for both
pytestmark = pytest.mark.usefixtures("one_local_day")


@pytest.fixture
def fake(tmp_path, monkeypatch):
    return fake_claude.use(tmp_path, monkeypatch, cost=0.4, usage={"input_tokens": 30000, "output_tokens": 900,
                                                                   "cache_creation_input_tokens": 5000,
                                                                   "cache_read_input_tokens": 12000})


@pytest.fixture
def project(tmp_path):
    p = tmp_path / "shop"
    p.mkdir()
    return p


def _budget_arg(call: dict) -> float:
    argv = call["argv"]
    return float(argv[argv.index("--max-budget-usd") + 1])


def test_every_call_is_in_the_ledger_with_what_claude_reported(isolated_home, fake, project):
    configure(isolated_home)
    payload = queue_session(project)
    stats = run_worker()
    assert stats.processed == 1
    [line] = ledger_lines()
    assert (line["project"], line["session"], line["kind"], line["outcome"]) == ("shop", payload["session_id"],
                                                                                "distill", "ok")
    assert line["task"] and line["model"] == "claude-haiku-4-5-20251001"
    assert (line["input_tokens"], line["output_tokens"], line["cache_creation_tokens"],
            line["cache_read_tokens"]) == (30000, 900, 5000, 12000)
    assert line["total_cost_usd"] == 0.4 and line["cost_reported"] is True
    assert line["duration_s"] > 0 and line["prompt_chars"] > 1000
    assert abs(line["ts"] - time.time()) < 600 and line["time"].startswith(time.strftime("%Y-%m-%dT"))


def test_each_call_gets_what_is_left_as_max_budget(isolated_home, fake, project):
    configure(isolated_home, budget={"daily_usd": 5.0, "monthly_usd": 100.0})
    spent(3.75)
    queue_session(project)
    run_worker()
    [call] = fake_claude.calls(fake)
    assert _budget_arg(call) == pytest.approx(1.25)
    assert call["retries"] == "1"  # CLAUDE_CODE_MAX_RETRIES: an unreachable API fails in about a second


def test_a_reached_cap_leaves_tasks_pending_and_the_worker_stops(isolated_home, fake, project):
    configure(isolated_home, budget={"daily_usd": 2.0})
    spent(2.0)
    queue_session(project)
    stats = run_worker()  # returns: the worker does not spin on a paused queue
    assert fake_claude.calls(fake) == []
    assert "daily cap $2.00 reached" in stats.paused
    assert len(tasks("")) == 1 and tasks("failed") == [] and tasks("done") == []
    told = notice.read(None, time.time())
    assert "paused" in told and "daily cap $2.00 reached" in told
    assert notice.read(None, budget.next_day(time.time())) is None  # it resets with the day


def test_spend_of_yesterday_and_last_month_does_not_count_today(isolated_home, fake, project):
    configure(isolated_home, budget={"daily_usd": 2.0, "monthly_usd": 10.0})
    now = time.time()
    spent(9.0, when=budget.month_start(now) - 3600)  # last month
    if budget.day_start(now) - 3600 >= budget.month_start(now):
        spent(1.5, when=budget.day_start(now) - 3600)  # yesterday, this month
    queue_session(project)
    assert run_worker().processed == 1


def test_raising_the_cap_lets_the_waiting_task_run(isolated_home, fake, project):
    configure(isolated_home, budget={"daily_usd": 1.0})
    spent(1.0)
    queue_session(project)
    assert run_worker().processed == 0
    configure(isolated_home, budget={"daily_usd": 3.0})
    stats = run_worker()
    assert stats.processed == 1 and not stats.paused
    assert notice.read(None, time.time()) is None


def test_monthly_cap_pauses_until_next_month(isolated_home, fake, project):
    configure(isolated_home, budget={"daily_usd": 50.0, "monthly_usd": 4.0})
    spent(4.0)
    queue_session(project)
    stats = run_worker()
    assert "monthly cap $4.00 reached" in stats.paused and "next month" in stats.paused
    assert fake_claude.calls(fake) == [] and len(tasks("")) == 1


def test_spend_passes_the_cap_by_one_call_at_most(isolated_home, fake, tmp_path):
    configure(isolated_home, budget={"daily_usd": 1.0})
    for i in range(5):
        p = tmp_path / f"p{i}"
        p.mkdir()
        queue_session(p, session_id=f"00000000-0000-4000-8000-00000000000{i}")
    stats = run_worker()
    total = sum(line["total_cost_usd"] for line in ledger_lines())
    assert total <= 1.0 + 0.4  # the cap plus one call
    assert stats.processed >= 2 and stats.paused
    assert len(tasks("")) == 5 - stats.processed and tasks("failed") == []


def test_the_budget_guard_stopping_a_call_pauses_and_keeps_its_cost(isolated_home, fake, project):
    configure(isolated_home, budget={"daily_usd": 5.0})
    fake_claude.control(fake, mode="over_budget", cost=0.7)
    queue_session(project)
    stats = run_worker()
    assert stats.waiting == 1 and stats.paused
    [line] = ledger_lines()
    assert (line["outcome"], line["total_cost_usd"]) == ("budget", 0.7)
    [task] = tasks("")
    assert "budget guard" in task["wait_reason"] and "not_before" not in task
    assert tasks("failed") == []


def test_check_names_the_cap_and_when_it_resets():
    cfg = {"budget": {"daily_usd": 1.0, "monthly_usd": 20.0}}
    now = time.time()
    ok = budget.check(cfg, None, now, 0.3)
    assert ok.allowed and ok.remaining == pytest.approx(1.0)
    spent(0.8)
    near = budget.check(cfg, None, now, 0.3)
    assert not near.allowed and "nearly reached" in near.reason and near.until == budget.next_day(now)
    assert budget.check(cfg, None, now, 0.1).allowed


def test_estimate_follows_the_ledger():
    assert budget.estimate(100_000) == pytest.approx(budget.FALLBACK_FIXED + 100_000 * budget.FALLBACK_PER_CHAR)
    spent(0.05, prompt_chars=10_000)
    assert budget.estimate(20_000) == pytest.approx(0.1)


def test_period_boundaries_are_local_midnights():
    now = time.mktime((2026, 1, 31, 15, 30, 0, 0, 0, -1))
    assert time.localtime(budget.next_day(now))[:4] == (2026, 2, 1, 0)
    assert time.localtime(budget.month_start(now))[:3] == (2026, 1, 1)
    assert time.localtime(budget.next_month(time.mktime((2026, 12, 5, 1, 0, 0, 0, 0, -1))))[:3] == (2027, 1, 1)


def test_lh_queue_says_why_a_task_waits(isolated_home, fake, project):
    from lazy_harness.cli.queue import REASON_CHARS
    from tests.cli.lhrun import invoke

    configure(isolated_home, budget={"daily_usd": 5.0})
    fake_claude.control(fake, mode="over_budget", cost=0.7)
    queue_session(project)
    assert run_worker().waiting == 1
    out = invoke("queue").out
    line = [ln for ln in out.splitlines() if "SessionEnd" in ln]
    assert len(line) == 1 and " pending " in line[0], out
    # the reason whole up to REASON_CHARS, or cut there at a word with the command that shows it whole
    reason = line[0].split(" waiting: ", 1)[1]
    assert reason.startswith("the budget guard stopped the call"), out
    assert len(reason) <= REASON_CHARS or (len(reason) < REASON_CHARS + 40 and reason.endswith(")")), out


def test_a_call_stopped_at_its_timeout_counts_its_estimate_against_the_cap(isolated_home, monkeypatch):
    """The CLI said nothing of its cost (killed at timeout_seconds): the call is counted at what it was
    estimated to cost, unreported; at $0 a task that always timed out spent without limit."""
    import os

    from lazy_harness import config
    from lazy_harness.worker import calls, llm

    configure(isolated_home, budget={"daily_usd": 1.0})
    cfg = config.load(dict(os.environ))

    def times_out(prompt, cfg, env, workdir, max_budget_usd=None, schema=None):
        raise llm.CallError("claude -p stopped after 1 s", "timeout", llm.WAIT, llm.Usage(model="m"))

    monkeypatch.setattr(llm, "call", times_out)
    prompt = "x" * 120_000
    expected = budget.estimate(len(prompt), dict(os.environ), time.time())
    assert 0 < expected < 1.0
    with pytest.raises(calls.Wait):
        calls.run_model(prompt, cfg, dict(os.environ), {"project": "p", "session_id": "s", "task_id": "t"})
    [line] = ledger_lines()
    assert line["outcome"] == "timeout" and line["cost_reported"] is False
    assert line["total_cost_usd"] == pytest.approx(expected)
    assert budget.spent(dict(os.environ), time.time())[0] == pytest.approx(expected)


def test_a_call_that_can_never_fit_in_the_cap_says_so_instead_of_waiting_for_tomorrow(isolated_home):
    import os

    from lazy_harness import config

    configure(isolated_home, budget={"daily_usd": 0.05})
    cfg = config.load(dict(os.environ))
    now = time.time()
    cost = budget.estimate(120_000, dict(os.environ), now)
    assert cost > 0.05
    verdict = budget.check(cfg, dict(os.environ), now, cost)
    assert not verdict.allowed and "never fits" in verdict.reason and "tomorrow" not in verdict.reason
    assert "daily_usd" in verdict.reason and "prompt_max_chars" in verdict.reason
    assert budget.check(cfg, dict(os.environ), now, 0.01).allowed  # a smaller call still runs


@pytest.mark.parametrize("change", [{"budget": {"daily_usd": 0}}, {"enabled": False}])
def test_a_cap_set_to_0_or_the_loop_switched_off_while_the_worker_drains_stops_its_next_calls(
        isolated_home, fake, tmp_path, monkeypatch, change):
    """The person sees spend climbing over a backlog and sets the cap to 0 (or switches the loop off)
    while the worker runs: the calls not made yet are not made; the tasks stay pending."""
    from lazy_harness.worker import one_task

    configure(isolated_home)
    for i in range(4):
        p = tmp_path / f"p{i}"
        p.mkdir()
        queue_session(p, session_id=f"00000000-0000-4000-8000-00000000000{i}")
    real = one_task.process_one

    def then_edit(*args, **kwargs):
        status = real(*args, **kwargs)
        if len(fake_claude.calls(fake)) == 1:  # the person edits config.toml after the first call
            configure(isolated_home, budget=change.get("budget"))
            if "enabled" in change:
                path = isolated_home / ".config" / "lazy-harness" / "config.toml"
                path.write_text(path.read_text().replace("enabled = true", "enabled = false"))
        return status

    monkeypatch.setattr(one_task, "process_one", then_edit)
    stats = run_worker()
    assert len(fake_claude.calls(fake)) == 1 and stats.processed == 1
    assert ("switched off" if "enabled" in change else "cap") in stats.paused and "invalid" not in stats.paused
    assert len(tasks("")) == 3 and tasks("failed") == []
