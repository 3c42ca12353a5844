"""Two machines syncing at the same moment to one remote: b pushes between a's merge and a's push, so
a's push is rejected. a fetches again, merges b's push and pushes in the same round, and every line
of both machines ends on both exactly once. The moment is made by running b's whole round from inside
a's, right before a pushes (no timing: the order is forced). Real git, two machine homes, one bare
remote (``tests.test_sync.Machine``)."""

import json

import pytest

from lazy_harness import sync
from lazy_harness.sync import rounds
from tests.test_sync import KEY, Machine, _git


@pytest.fixture
def two(tmp_path):
    remote = tmp_path / "remote.git"
    _git("init", "-q", "--bare", "-b", "main", str(remote))
    a, b = Machine(tmp_path, remote, "a"), Machine(tmp_path, remote, "b")
    a.add("decision", "seed from a")
    a.sync()
    b.sync()
    return a, b


def _summaries(m: Machine) -> list[str]:
    return [json.loads(ln)["summary"] for ln in (m.mdir / "decisions.jsonl").read_text().splitlines() if ln.strip()]


def _b_pushes_first(monkeypatch, a: Machine, b: Machine, times: int) -> list[str]:
    """Before each of a's first ``times`` pushes, b writes a line and pushes it; returns b's lines."""
    real = rounds.outgoing_secrets
    pushed: list[str] = []

    def scan(data, *args, **kw):
        if data == str(a.data) and len(pushed) < times:
            summary = f"b won the race {len(pushed)}"
            pushed.append(summary)
            b.add("decision", summary)
            assert b.sync()["pushed"]  # b's round runs whole here: its own scan passes through
        return real(data, *args, **kw)

    monkeypatch.setattr(rounds, "outgoing_secrets", scan)
    return pushed


def _remote_summaries(a: Machine) -> list[str]:
    text = _git("--git-dir", a.cfg["sync"]["remote"], "show", f"main:projects/{KEY}/decisions.jsonl")
    return [json.loads(ln)["summary"] for ln in text.splitlines() if ln.strip()]


def test_a_push_rejected_because_the_other_machine_pushed_first_is_merged_and_pushed_again(two, monkeypatch):
    a, b = two
    a.add("decision", "a lost the race")
    won = _b_pushes_first(monkeypatch, a, b, times=1)
    got = a.sync()
    assert won == ["b won the race 0"]
    assert got["pushed"], got  # the same round merged b's push and pushed
    remote = _remote_summaries(a)
    for summary in ("seed from a", "a lost the race", "b won the race 0"):
        assert remote.count(summary) == 1, (summary, remote)
    assert sorted(_summaries(a)) == sorted(remote)
    b.sync()
    assert sorted(_summaries(b)) == sorted(remote)
    st = sync.status(a.cfg, a.env)
    assert (st["ahead"], st["behind"]) == (0, 0)


def test_a_round_that_loses_every_race_says_its_memory_was_not_pushed(two, monkeypatch):
    a, b = two
    a.add("decision", "a lost every race")
    won = _b_pushes_first(monkeypatch, a, b, times=sync.PUSH_TRIES)
    with pytest.raises(sync.SyncError) as exc:
        a.sync()
    assert len(won) == sync.PUSH_TRIES
    assert "push" in exc.value.message and "rejected" in exc.value.message, exc.value.message
    assert "push" in (sync.status(a.cfg, a.env)["last_error"] or "")
    assert "a lost every race" not in _remote_summaries(a)
    monkeypatch.undo()
    assert a.sync()["pushed"]  # the next round sends it
    b.sync()
    for m in (a, b):
        got = _summaries(m)
        for summary in ["seed from a", "a lost every race", *won]:
            assert got.count(summary) == 1, (m.home.name, summary, got)
