"""The cost ledger is a record of what was spent, and the caps read it (docs/how/cost.md). A line
removed on the remote (anyone who can push can rewrite ledger.jsonl there, and the merge takes a
removal made on one side) took this machine's own spend of the day out of its ledger at the next
round, whether that round fast-forwarded or merged: the caps then let it spend the day's cap again.
A round keeps every line this machine's ledger held. Real git, two machine homes, one bare remote."""

import time

import pytest

from lazy_harness import config, paths
from lazy_harness.cost import budget, ledger
from lazy_harness.worker.llm import Usage
from tests.test_sync import Machine, _git

META = {"project": "p", "session_id": "s", "task_id": "t"}


def _spend(m: Machine, cost: float, now: float) -> None:
    usage = Usage(model="claude-haiku-4-5", input_tokens=1000, output_tokens=100, cost_usd=cost, reported=True)
    ledger.record(usage, META, "ok", 40000, m.env, now=now)


def _cfg() -> dict:
    cfg = config.defaults()
    cfg["budget"]["daily_usd"], cfg["budget"]["monthly_usd"] = 5.0, 50.0
    return cfg


@pytest.mark.parametrize("spends_meanwhile", [False, True], ids=["fast-forward", "merge"])
def test_lines_removed_on_the_remote_stay_in_this_machines_ledger(tmp_path, spends_meanwhile):
    remote = tmp_path / "remote.git"
    _git("init", "-q", "--bare", "-b", "main", str(remote))
    a, b = Machine(tmp_path, remote, "a"), Machine(tmp_path, remote, "b")
    now = time.time()
    at = max(budget.day_start(now), now - 600)
    for i in range(5):
        _spend(a, 1.0, at + i)  # the daily cap reached on a
    a.sync()
    b.sync()
    (b.data / "ledger.jsonl").write_text("")  # the remote's copy emptied, and pushed
    b.sync()
    if spends_meanwhile:
        _spend(a, 0.01, at + 10)
    a.sync()
    spent = budget.check(_cfg(), a.env, now, 0.1)
    assert not spent.allowed and spent.spent_today >= 5.0
    assert len((a.data / "ledger.jsonl").read_text().splitlines()) == 5 + spends_meanwhile
    b.sync()  # and the lines go back out
    assert len((b.data / "ledger.jsonl").read_text().splitlines()) == 5 + spends_meanwhile
    assert paths.ledger_file(a.env) == str(a.data / "ledger.jsonl")


@pytest.mark.parametrize("spends_meanwhile", [False, True], ids=["fast-forward", "merge"])
def test_this_machines_lines_padded_with_spaces_on_the_remote_still_count(tmp_path, spends_meanwhile):
    """The remote's copy of this machine's lines gains a space at either end (a hand edit, an editor, a
    hostile push): the round takes the padded lines, which the kept lines' test took for the same ones;
    their MAC must still be this machine's, or the caps let it spend the day's cap again."""
    remote = tmp_path / "remote.git"
    _git("init", "-q", "--bare", "-b", "main", str(remote))
    a, b = Machine(tmp_path, remote, "a"), Machine(tmp_path, remote, "b")
    now = time.time()
    at = max(budget.day_start(now), now - 600)
    for i in range(5):
        _spend(a, 1.0, at + i)  # the daily cap reached on a
    a.sync()
    b.sync()
    held = (b.data / "ledger.jsonl").read_text().splitlines()
    (b.data / "ledger.jsonl").write_text("".join((" " if i % 2 else "") + ln + "  \n" for i, ln in enumerate(held)))
    b.sync()
    if spends_meanwhile:
        _spend(a, 0.01, at + 10)
    a.sync()
    spent = budget.check(_cfg(), a.env, now, 0.1)
    assert not spent.allowed and spent.spent_today >= 5.0


@pytest.mark.parametrize("pad", ["\x1f", "\u3000", "\x85"], ids=["unit-separator", "ideographic-space", "nel"])
def test_this_machines_lines_padded_with_what_python_calls_space_are_kept(tmp_path, pad):
    """str.strip() takes more than JSON's whitespace (a unit separator, an ideographic space): the kept
    lines' test took a remote's copy padded so for this machine's own line, which then counted nothing."""
    remote = tmp_path / "remote.git"
    _git("init", "-q", "--bare", "-b", "main", str(remote))
    a, b = Machine(tmp_path, remote, "a"), Machine(tmp_path, remote, "b")
    now = time.time()
    at = max(budget.day_start(now), now - 600)
    for i in range(5):
        _spend(a, 1.0, at + i)
    a.sync()
    b.sync()
    held = (b.data / "ledger.jsonl").read_text().splitlines()
    (b.data / "ledger.jsonl").write_text("".join(ln + pad + "\n" for ln in held))
    b.sync()
    a.sync()
    spent = budget.check(_cfg(), a.env, now, 0.1)
    assert not spent.allowed and spent.spent_today >= 5.0
