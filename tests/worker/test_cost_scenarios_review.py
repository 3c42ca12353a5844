"""The spend cap as a demanding user meets it (review c9): a claude that reports its cost elsewhere or
not at all, and a hand-edited ledger line."""

import json
import os
import stat
import sys
import time

import pytest

from lazy_harness import config, paths
from lazy_harness.cost import budget, ledger, markers
from lazy_harness.worker import calls
from tests.worker.spendrig import configure, ledger_lines

# why: spend written at the wall clock, "today" taken by the code's own clock: one local day for both
pytestmark = pytest.mark.usefixtures("one_local_day")

META = {"project": "shop", "session_id": "s1", "task_id": "t1"}


def _claude(tmp_path, monkeypatch, envelope: dict) -> None:
    """A fake ``claude`` on PATH that prints ``envelope`` (with an empty answer) and records its calls."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    exe = bin_dir / "claude"
    body = {"type": "result", "subtype": "success", "is_error": False, "result": "",
            "structured_output": {"decisions": [], "failures": [], "learnings": [], "handoff": []},
            **envelope}
    exe.write_text(f"#!{sys.executable}\nimport sys\nsys.stdin.read()\n"
                   f"open({str(bin_dir / 'calls')!r}, 'a').write('call\\n')\nprint({json.dumps(json.dumps(body))})\n")
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")


def _call(prompt: str = "x" * 40_000) -> None:
    cfg = config.load(dict(os.environ))
    calls.run_model(prompt, cfg, dict(os.environ), dict(META), sleep=lambda s: None)


def test_a_call_whose_cost_is_only_in_model_usage_is_counted_at_it(isolated_home, tmp_path, monkeypatch):
    configure(isolated_home)
    _claude(tmp_path, monkeypatch, {"usage": {"input_tokens": 9000, "output_tokens": 400},
                                    "modelUsage": {"claude-haiku-4-5-20251001": {"costUSD": 0.25},
                                                   "claude-3-5-haiku": {"costUSD": 0.05}}})
    _call()
    [line] = ledger_lines()
    assert line["outcome"] == "ok" and line["total_cost_usd"] == pytest.approx(0.30)
    assert (line["cost_source"], line["cost_reported"]) == ("reported", True)
    assert budget.spent(None, time.time())[0] == pytest.approx(0.30)


def test_an_answered_call_that_reports_no_cost_is_counted_at_its_estimate(isolated_home, tmp_path, monkeypatch):
    configure(isolated_home)
    _claude(tmp_path, monkeypatch, {"usage": {"input_tokens": 9000, "output_tokens": 400}})
    prompt = "x" * 40_000
    expected = budget.estimate(len(prompt), None, time.time())
    _call(prompt)
    [line] = ledger_lines()
    assert expected > 0 and line["total_cost_usd"] == pytest.approx(expected)
    assert (line["outcome"], line["cost_source"], line["cost_reported"]) == ("ok", "estimated", False)
    assert budget.spent(None, time.time())[0] == pytest.approx(expected)


def test_such_calls_stop_at_the_cap(isolated_home, tmp_path, monkeypatch):
    """Without a cost from the CLI, the calls still stop once their estimates reach the daily cap."""
    configure(isolated_home, budget={"daily_usd": 0.2, "monthly_usd": 50.0})
    _claude(tmp_path, monkeypatch, {})
    made = 0
    with pytest.raises(calls.Wait) as stopped:
        for _ in range(50):
            _call()
            made += 1
    assert stopped.value.paused and 1 <= made < 50
    assert (tmp_path / "bin" / "calls").read_text().count("call") == made


def _hand_edited_line(cost: float) -> None:
    os.makedirs(os.path.dirname(paths.ledger_file()), exist_ok=True)
    with open(paths.ledger_file(), "a") as fh:
        fh.write(json.dumps({"ts": time.time(), "total_cost_usd": cost, "call": ["edited", "by hand"]}) + "\n")


def test_a_hand_edited_call_field_neither_stops_the_cap_nor_hides_spend(isolated_home):
    configure(isolated_home, budget={"daily_usd": 1.0, "monthly_usd": 50.0})
    _hand_edited_line(0.4)
    cfg = config.load(dict(os.environ))
    v = budget.check(cfg, None, time.time(), 0.1)
    assert v.allowed and v.spent_today == pytest.approx(0.4)


def test_a_killed_call_is_settled_beside_a_hand_edited_call_field(isolated_home):
    configure(isolated_home, budget={"daily_usd": 1.0, "monthly_usd": 50.0})
    _hand_edited_line(0.4)
    cfg = config.load(dict(os.environ))
    _, killed = budget.open_call(cfg, None, time.time(), 0.1, META, 1000)
    assert killed is not None
    killed.close(remove=False)  # as a SIGKILL leaves it: the marker, unlocked
    v, opened = budget.open_call(cfg, None, time.time(), 0.1, META, 1000)
    assert opened is not None and v.spent_today == pytest.approx(0.5)
    opened.close()
    assert [e.get("outcome") for e in ledger.read_since(0)] == [None, "killed"] and not markers.open_calls()
