"""``lh cost`` reads the spend ledger once (cost/snapshot.py): the period's lines, this machine's, the
spend the caps see and the lines nothing counts were four reads, each parsing or checking the MAC of
every line of the month again. The answers are the same, line for line, on a ledger holding what a
synced one holds: another machine's lines, a remote's copy of one of ours, damaged lines, one of ours
edited by hand, lines out of order, old months, and a run of old lines long enough to stop a backward
read."""

import json
import os
import time

import pytest

from lazy_harness import paths
from lazy_harness.cost import budget, ledger, own, snapshot
from tests.cli.lhrun import invoke

NOW = time.time()
DAY = 86400.0


def _entry(ts: float, n: int, **change) -> str:
    line = {"time": "2026-12-01T10:00:00+00:00", "ts": round(ts, 3), "project": f"app-{n % 3}", "session": f"s{n}",
            "task": f"t{n}", "kind": "distill", "model": ("claude-sonnet-4-5", "gpt-5")[n % 2], "input_tokens": 10 + n,
            "output_tokens": 5, "cache_creation_tokens": 0, "cache_read_tokens": 3, "total_cost_usd": 1e-05 * (n + 1),
            "cost_reported": True, "cost_source": "reported", "duration_s": 2.5, "outcome": "ok",
            "prompt_chars": 900, "call": f"c-{n}"}
    line.update(change)
    return json.dumps(line, separators=(",", ":"))


def _ledger() -> list[str]:
    """A synced machine's ledger, as text lines (without their newline)."""
    mine = own.ring(None, lambda since: [], make=True)
    theirs = own.Ring(b"k" * 32)
    month = budget.month_start(NOW)
    lines = [mine.sign(_entry(month - 40 * DAY + n * 600, n)) for n in range(30)]  # an old month
    lines += [mine.sign(_entry(month + n * (NOW - 120 - month) / 40, 100 + n)) for n in range(40)]
    lines += [theirs.sign(_entry(NOW - n * 3600, 200 + n)) for n in range(10)]
    lines += [lines[45], lines[50]]  # a remote repeats two of this machine's lines
    lines += ["{torn", _entry(-5, 300), _entry(NOW - 60, 301, total_cost_usd=-1), "", "   "]
    edited = mine.sign(_entry(NOW - 7200, 302)).replace('"outcome":"ok"', '"outcome":"error"')
    lines += [edited, "  " + mine.sign(_entry(NOW - 3000, 303)) + "  ", mine.sign(_entry(NOW - 500, 304)) + "\r"]
    lines += [mine.sign(_entry(NOW - 400, 305, project="caf\u00e9 \u001b[31m"))]  # escapes: parsed, not plain
    lines += [mine.sign(_entry(NOW - 300, 306, outcome=ledger.KILLED, cost_source="estimated"))]
    # dated only by a parse: a ts in another notation, a ts said twice (the last counts), a byte order mark
    lines += [mine.sign(_entry(NOW - 290, 307).replace(f'"ts":{round(NOW - 290, 3)}', f'"ts":{NOW - 290:.6e}'))]
    lines += [mine.sign(_entry(NOW - 280, 308).replace('"time":', f'"ts":{month - 50 * DAY},"time":', 1))]
    lines += ["\ufeff" + mine.sign(_entry(NOW - 270, 309)), _entry(NOW - 260, 310)]  # and one without a MAC
    lines += [mine.sign(_entry(month - 90 * DAY + n, 400 + n)) for n in range(20)]  # an old run after today's
    lines += [_entry(month - 80 * DAY + n, 450 + n) for n in range(5)]  # lines without a MAC in it
    lines += [mine.sign(_entry(NOW - 200, 500)), theirs.sign(_entry(NOW - 100, 501))]
    return lines


@pytest.fixture
def sample(isolated_home):
    path = paths.ledger_file()
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="") as fh:
        fh.write("\n".join(_ledger()) + "\n")
    return path


class FourReads:
    """``lh cost`` as it read the ledger before: a read for each question."""

    def __init__(self, sinces, env=None) -> None:
        self.env = env

    def since(self, since, mine=False, light=False):
        return ledger.read_since(since, self.env, mine=mine, light=light)

    def unread(self):
        return ledger.unread(self.env)


SINCES = (NOW - 7 * DAY, NOW - 60 * DAY, NOW - 200 * DAY, budget.day_start(NOW), budget.month_start(NOW), NOW - 250)


def _key(state: str) -> None:
    """The spend key as ``state`` says: made (the sample's), gone after it was made (every line of
    the period is adopted), never made (the lines without a MAC count), or one that may not be used
    (open to others: every line counts)."""
    if state in ("gone", "never"):
        os.remove(own.key_file())
    if state == "never":
        os.remove(own.adopted_file())
    if state == "open":
        os.chmod(own.key_file(), 0o644)


def _same_answers(old_run: int = 0) -> tuple[list, list]:
    read = snapshot.Snapshot(SINCES)
    before = FourReads(SINCES)
    for since in SINCES:
        for mine in (False, True):
            for light in (False, True):
                assert read.since(since, mine, light) == before.since(since, mine, light), (since, mine, light)
    assert read.unread() == before.unread()
    return read.unread()


@pytest.mark.parametrize("old_run", [ledger.OLD_RUN_BYTES, 2000])
def test_one_read_answers_as_the_reads_it_replaces(sample, monkeypatch, old_run):
    monkeypatch.setattr(ledger, "OLD_RUN_BYTES", old_run)  # 2000: the old run after today's stops each read
    damaged, claimed = _same_answers()
    assert len(damaged) == 3 and len(claimed) == 1  # the sample holds what it means to
    calls = [e["call"] for e in snapshot.Snapshot(SINCES).since(SINCES[0], light=True)]
    # with the whole run read: each of the lines dated only by a parse is counted
    assert old_run == 2000 or calls[-8:-2] == [f"c-{n}" for n in range(305, 311)], calls


@pytest.mark.parametrize("state", ["gone", "never", "open"])
@pytest.mark.parametrize("old_run", [ledger.OLD_RUN_BYTES, 2000])
def test_one_read_answers_as_the_reads_it_replaces_whatever_the_key(sample, monkeypatch, old_run, state):
    monkeypatch.setattr(ledger, "OLD_RUN_BYTES", old_run)
    _key(state)
    assert own.ring(None, lambda since: [], make=False) is None if state == "open" else not own.ring(
        None, lambda since: [], make=False).id
    damaged, claimed = _same_answers()
    assert len(damaged) == 3 and not claimed  # no key: no id to claim a line by


def test_one_read_of_no_ledger_answers_as_the_reads_it_replaces(isolated_home):
    assert _same_answers() == ([], [])


def _outputs() -> list[str]:
    runs = [invoke("cost"), invoke("cost", "--json"), invoke("cost", "--by", "project"),
            invoke("cost", "--by", "model", "--since", "200d"), invoke("cost", "--since", "1h")]
    assert all(r.code == 0 for r in runs), [r.err for r in runs]
    return [r.out + r.err for r in runs]


def test_lh_cost_says_what_it_said_with_four_reads(sample, monkeypatch):
    monkeypatch.setattr(time, "time", lambda: NOW)  # why: both runs print the same start and today
    now = _outputs()
    monkeypatch.setattr(snapshot, "Snapshot", FourReads)
    assert now == _outputs()
    assert "this machine:" in now[0] and "damaged ledger line" in now[0]


def test_lh_cost_opens_the_ledger_once(sample, monkeypatch):
    opened = []
    real = os.open

    def counted(path, *args, **kwargs):
        if os.fspath(path) == sample:
            opened.append(path)
        return real(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", counted)
    assert invoke("cost").code == 0
    assert len(opened) == 1, opened


def _doctor_lines() -> list[str]:
    out = invoke("doctor").out
    return [ln for ln in out.splitlines() if ln.split(":")[0].split(None, 1)[1:] in (["spend"], ["ledger lines"])]


def test_lh_doctor_says_what_it_said_with_two_reads_and_opens_the_ledger_once(sample, monkeypatch):
    monkeypatch.setattr(time, "time", lambda: NOW)
    opened = []
    real = os.open
    monkeypatch.setattr(os, "open", lambda path, *a, **k: (opened.append(path) if os.fspath(path) == sample
                                                          else None, real(path, *a, **k))[1])
    now = _doctor_lines()
    assert len(opened) == 1, opened
    monkeypatch.setattr(snapshot, "Snapshot", FourReads)
    assert now == _doctor_lines()
    assert any("damaged line" in ln for ln in now) and any(ln.split()[1] == "spend:" for ln in now), now
