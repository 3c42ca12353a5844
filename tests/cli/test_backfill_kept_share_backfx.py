"""A backfill keeps its share for today's sessions in the worker too: live tasks go first, backfill
tasks wait once they would eat into the share, and the estimate without history is priced by the
configured model and called a guess (docs/how/cost.md, Backfill)."""

import json
import os
import re
import time

from lazy_harness import config, paths, queue
from lazy_harness.cost import budget
from lazy_harness.worker import loop, one_task
from tests.cli.lhrun import invoke
from tests.hooks.hookrun import worker_lock_held
from tests.support import fake_claude
from tests.support.sessions import place
from tests.worker.spendrig import configure, ledger_lines, run_worker, spent, tasks

GUESS = "(no cost history: a guess)"


def _sessions(tmp_path, n: int) -> list[dict]:
    """``n`` interactive sessions of the project ``old``, 10 days old, oldest first."""
    proj = tmp_path / "old"
    proj.mkdir(exist_ok=True)
    out = []
    for i in range(n):
        payload = place(proj, session_id=f"bbbb{i:04x}-0000-4000-8000-000000000000")
        when = time.time() - (10 - i * 0.01) * 86400
        os.utime(payload["transcript_path"], (when, when))
        out.append(payload)
    return out


def _backfill(*args: str):
    """``lh backfill`` with the worker lock held: the worker it starts leaves at once; returns once it is gone."""
    with worker_lock_held(paths.claude_dir()):
        out = invoke("backfill", *args)
        for pid in (int(p) for p in re.findall(r"worker pid (\d+)", out.out)):
            _gone(pid)
    assert out.code == 0, out
    return out


def _gone(pid: int) -> None:
    """Wait for the worker ``lh backfill`` started: in-process, it is this process's child."""
    os.waitpid(pid, 0)


def _estimates(text: str) -> list[float]:
    """The per-session estimates a backfill printed (``~$0.0253`` at the end of each line)."""
    return [float(m) for m in re.findall(r"~\$([0-9.]+)\s*$", text, re.M)]


def _today(tmp_path, sid: str = "dddddddd-0000-4000-8000-000000000000") -> dict:
    proj = tmp_path / "today"
    proj.mkdir(exist_ok=True)
    payload = place(proj, session_id=sid)
    queue.enqueue(paths.queue_dir(), queue.task_fields(payload, "SessionEnd", False))
    return payload


def test_a_backfill_priced_too_low_leaves_todays_session_its_share_backfx(isolated_home, tmp_path, monkeypatch):
    configure(isolated_home)
    bin_dir = fake_claude.use(tmp_path, monkeypatch)
    _sessions(tmp_path, 6)
    guess = max(_estimates(invoke("backfill", "--dry-run").out))
    real = 5 * guess  # what each call really costs: five times the guess made without history
    configure(isolated_home, budget={"daily_usd": round(4.8 * real, 4), "monthly_usd": 50.0})
    fake_claude.control(bin_dir, mode="ok", answer=fake_claude.DEFAULT_ANSWER, cost=real)
    out = _backfill()
    assert out.out.count("queued") == 6, out.out
    assert GUESS in out.out.splitlines()[0], out.out

    run_worker()  # the backfill drains as far as it may
    backfilled = [t for t in tasks("done") if t["event"] == "Backfill"]
    assert backfilled, tasks("")
    today = _today(tmp_path)
    run_worker()  # a session of today ends afterwards

    done = [t for t in tasks("done") if t["session_id"] == today["session_id"]]
    assert [t.get("check") for t in done] == [queue.DISTILLED], [t.get("wait_reason") for t in tasks("")]
    waiting = tasks("")
    assert waiting and {t["event"] for t in waiting} == {"Backfill"}
    assert all("kept for today's sessions" in t.get("wait_reason", "") for t in waiting), waiting
    assert tasks("failed") == []
    daily = budget.caps(config.load())[0]
    assert sum(line["total_cost_usd"] for line in ledger_lines()) <= daily + 1e-9
    listing = invoke("queue", "-n", "20").out
    rows = [line for line in listing.splitlines() if re.search(r"\spending\s+Backfill\s", line)]
    assert len(rows) == len(waiting) and all("kept for today's sessions" in r for r in rows), listing

    _a_day_later()  # the next day the backfill goes on, and again leaves the share for the day's sessions
    run_worker()
    assert len([t for t in tasks("done") if t["event"] == "Backfill"]) > len(backfilled)
    today_spend = sum(line["total_cost_usd"] for line in ledger_lines() if line["ts"] >= budget.day_start(time.time()))
    assert 0 < today_spend <= daily * (1 - budget.KEPT_SHARE) + 1e-9


def _a_day_later() -> None:
    """Every ledger line moved back one day: to the caps, today is a new day."""
    lines = ledger_lines()
    for line in lines:
        line["ts"] -= 86400
    with open(paths.ledger_file(), "w") as fh:
        fh.write("".join(json.dumps(line) + "\n" for line in lines))


def test_a_live_session_is_taken_before_the_backfill_queued_earlier_backfx(isolated_home, tmp_path, monkeypatch):
    configure(isolated_home)
    fake_claude.use(tmp_path, monkeypatch, cost=0.01)
    _sessions(tmp_path, 2)
    _backfill()
    today = _today(tmp_path)
    stats = loop.run(dict(os.environ), limit=1)
    assert stats.processed == 1
    assert [t["session_id"] for t in tasks("done")] == [today["session_id"]]
    assert len(tasks("")) == 2


def test_a_session_ending_while_a_backfill_drains_goes_next_backfx(isolated_home, tmp_path, monkeypatch):
    configure(isolated_home)
    fake_claude.use(tmp_path, monkeypatch, cost=0.01)
    _sessions(tmp_path, 3)
    _backfill()
    real = one_task.process_one
    order: list[str] = []

    def process_one(q, name, *args, **kwargs):
        status = real(q, name, *args, **kwargs)
        order.append(next(t["event"] for t in tasks("done") if t["task_id"] == queue.task_id(name)))
        if len(order) == 1:
            _today(tmp_path)  # ends while the first backfilled session is being distilled
        return status

    monkeypatch.setattr(one_task, "process_one", process_one)
    run_worker()
    assert order == ["Backfill", "SessionEnd", "Backfill", "Backfill"]


def test_without_history_the_estimate_is_priced_by_the_configured_model_backfx(isolated_home, tmp_path):
    chars = 50_000
    haiku, sonnet, opus = (budget.estimate(chars, model=m)
                           for m in ("claude-haiku-4-5", "claude-sonnet-4-5", "claude-opus-4-1"))
    assert haiku < sonnet < opus
    assert budget.estimate(chars, model="some-new-model") >= opus  # unknown: priced high, so a cap stops early

    _sessions(tmp_path, 2)
    costs = {}
    for model in ("claude-haiku-4-5", "claude-opus-4-1"):
        configure(isolated_home, model=model)
        first = invoke("backfill", "--dry-run").out.splitlines()[0]
        assert GUESS in first, first
        costs[model] = float(re.search(r"estimated cost \$([0-9.]+)", first).group(1))
    assert costs["claude-opus-4-1"] > 5 * costs["claude-haiku-4-5"]

    spent(0.5, prompt_chars=100_000)  # history at haiku's price: the configured opus still guesses
    assert GUESS in invoke("backfill", "--dry-run").out.splitlines()[0]
    configure(isolated_home, model="claude-haiku-4-5")  # haiku: the ledger's own price, no guess
    first = invoke("backfill", "--dry-run").out.splitlines()[0]
    assert GUESS not in first and "estimated cost $" in first
    assert budget.estimate(chars, model="claude-haiku-4-5") == chars * (0.5 / 100_000)
    assert budget.estimate(chars, model="claude-opus-4-1") == budget.guess(chars, "claude-opus-4-1")
