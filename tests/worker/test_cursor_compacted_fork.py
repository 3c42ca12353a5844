"""A fork's copied conversation is judged from its parent's own transcript: a copied record counts as
distilled only when it lies at or before the parent's cursor there, and the parent is told where to
start after a fork only when the fork holds the parent's conversation from its first record.

The compacted-then-forked transcripts (``compacted-fork-parent.jsonl``,
``compacted-fork.jsonl``) were recorded from Claude Code 2.1.332 against the loopback
stand-in: the parent typed two turns, ran ``/compact``, typed a third and exited; then
``claude --resume <parent> --fork-session`` typed one turn. After ``/compact`` the fork's copy starts at
the compaction boundary: the summary, the kept last reply of turn 2, then turn 3, none of turn 1.
"""

import json
import os
import signal
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from lazy_harness import paths, queue
from lazy_harness.memory import handoff
from lazy_harness.worker import cursor
from tests.support import fake_claude
from tests.support.crashpoint import ROOT
from tests.support.sessions import fixture_session_id, place
from tests.worker.spendrig import configure, queue_session, run_worker, tasks

PARENT_FX, FORK_FX = "compacted-fork-parent.jsonl", "compacted-fork.jsonl"
PARENT = fixture_session_id(PARENT_FX)
# the parent's three typed prompts (turn 3 after /compact) and the fork's own
TURNS = ("We chose Postgres over SQLite for the ledger because several writers commit at once.",
         "The nightly import failed because the CSV had a byte order mark; we strip it now.",
         "After the compaction: we also decided to shard invoices by tenant id.",
         "Forked: what would change with Redis?")
TURN1_LINES = 30  # the parent's lines up to its first turn's turn_duration record


def _tokens() -> list[str]:
    return [f"LHTOK-{uuid.uuid4().hex[:12]}" for _ in TURNS]


def _marked(payload: dict, tokens: list[str], lines: int | None = None) -> dict:
    """The placed transcript with each turn's text prefixed by its token (its first ``lines`` only)."""
    path = Path(payload["transcript_path"])
    text = "".join(path.read_text(encoding="utf-8").splitlines(True)[:lines])
    for said, token in zip(TURNS, tokens, strict=True):
        text = text.replace(said, f"{token} {said}")
    path.write_text(text, encoding="utf-8")
    return payload


def _distil(payload: dict, event: str = "SessionEnd") -> dict:
    queue.enqueue(paths.queue_dir(), queue.task_fields(payload, event, True))
    run_worker()
    return tasks("done")[-1]


def _conversations(bin_dir) -> list[str]:
    return [c["stdin"].split("(untrusted session data starts here)>>>", 1)[1] for c in fake_claude.calls(bin_dir)]


def _parent_distilled_after_turn_1(project, tokens: list[str], old_cursor: bool = False) -> dict:
    parent = _marked(place(project, PARENT_FX), tokens, TURN1_LINES)
    assert _distil(parent)["reason"] == "distilled"
    if old_cursor:  # a cursor written before it named its last record
        state = os.path.join(paths.state_dir(), f"{PARENT}.cursor")
        with open(state, encoding="utf-8") as fh:
            old = {k: v for k, v in json.load(fh).items() if k in ("offset", "check", "at")}
        with open(state, "w", encoding="utf-8") as fh:
            json.dump(old, fh)
    return _marked(place(project, PARENT_FX), tokens)  # then turn 2, /compact, turn 3, the end


@pytest.mark.parametrize("first", ["fork", "parent"])
@pytest.mark.parametrize("old_cursor", [False, True])
def test_turn_3_after_compact_reaches_one_prompt_whichever_runs_first_forkfx2(isolated_home, tmp_path, monkeypatch,
                                                                              project, first, old_cursor):
    bin_dir = fake_claude.use(tmp_path, monkeypatch)
    configure(isolated_home, min_messages=2, min_user_chars=10)
    tokens = _tokens()
    parent = _parent_distilled_after_turn_1(project, tokens, old_cursor)
    fork = _marked(place(project, FORK_FX), tokens)
    for payload in ((fork, parent) if first == "fork" else (parent, fork)):
        _distil(payload)
    seen = _conversations(bin_dir)
    assert [sum(t in s for s in seen) for t in tokens] == [1, 1, 1, 1], (first, seen)


def test_a_never_distilled_parent_loses_no_turn_to_a_fork_made_after_compact_forkfx2(isolated_home, tmp_path,
                                                                                      monkeypatch, project):
    bin_dir = fake_claude.use(tmp_path, monkeypatch)
    configure(isolated_home, min_messages=2, min_user_chars=10)
    tokens = _tokens()
    parent = _marked(place(project, PARENT_FX), tokens)
    assert _distil(_marked(place(project, FORK_FX), tokens))["reason"] == "distilled"  # the fork first
    assert not os.path.exists(os.path.join(paths.state_dir(), f"{PARENT}{cursor.COVERED}"))
    assert _distil(parent)["reason"] == "distilled"
    seen = _conversations(bin_dir)
    # why at least once for turn 3: the fork held it and the parent, never distilled, had no cursor to
    # leave it to; the parent's file holds turns 1 and 2 the fork never had (sent twice over lost)
    assert all(any(t in s for s in seen) for t in tokens), seen
    assert sum(tokens[0] in s for s in seen) == 1


# --- a fork of a parent distilled before the fork point, by a cursor without "last" (no compaction) ---

FORKED_PARENT, FORKED = "forked-parent.jsonl", "forked.jsonl"
FORKED_TURNS = ("We need to decide how the billing service", "Last night's deploy failed",
                "Decision: we keep the queue in Postgres", "Forked to try the Redis variant")
PARENT_ENDS, FORK_ENDS, FORK_OWN = (36, 48, 59), (27, 33, 37), 37  # as in test_cursor_forkfx.py


def _cut(payload: dict, keep: list[int], tokens: list[str]) -> dict:
    path = Path(payload["transcript_path"])
    lines = path.read_text(encoding="utf-8").splitlines(True)
    text = "".join(lines[i] for i in keep)
    for said, token in zip(FORKED_TURNS, tokens, strict=True):
        text = text.replace(said, f"{token} {said}") if token else text
    path.write_text(text, encoding="utf-8")
    return payload


def test_an_old_parent_cursor_before_the_fork_point_does_not_cover_the_whole_copy_forkfx2(isolated_home, tmp_path,
                                                                                           monkeypatch, project):
    bin_dir = fake_claude.use(tmp_path, monkeypatch)
    configure(isolated_home, min_messages=2, min_user_chars=10)
    tokens = [f"LHTOK-{uuid.uuid4().hex[:12]}" for _ in FORKED_TURNS]
    parent = _cut(place(project, FORKED_PARENT), list(range(PARENT_ENDS[0])), tokens)
    assert _distil(parent)["reason"] == "distilled"  # turn 1, by a cursor of the older format
    state = os.path.join(paths.state_dir(), f"{fixture_session_id(FORKED_PARENT)}.cursor")
    with open(state, encoding="utf-8") as fh:
        old = {k: v for k, v in json.load(fh).items() if k in ("offset", "check", "at")}
    with open(state, "w", encoding="utf-8") as fh:
        json.dump(old, fh)
    _cut(place(project, FORKED_PARENT), list(range(PARENT_ENDS[1])), tokens)  # the fork is made after turn 2
    fork = place(project, FORKED)
    _cut(fork, list(range(FORK_ENDS[1])) + list(range(FORK_OWN, len(Path(fork["transcript_path"]).read_text(
        encoding="utf-8").splitlines()))), tokens)
    assert _distil(fork)["reason"] == "distilled"
    _cut(place(project, FORKED_PARENT), list(range(PARENT_ENDS[2])), tokens)  # the parent's turn 3, then its end
    assert _distil(parent)["reason"] == "distilled"
    seen = _conversations(bin_dir)
    assert [sum(t in s for s in seen) for t in tokens] == [1, 1, 1, 1], seen


# --- lh knowledge handoff-now in a fork ---

ITEM = "Fix the deploy migration lock timeout"


def _answer(opened: list[str], closed: list[str] | None = None) -> dict:
    return {"decisions": [], "failures": [], "learnings": [], "handoff": opened, "handoff_closed": closed or []}


def test_handoff_now_in_a_fork_leaves_closed_an_item_its_parent_raised_and_another_closed_forkfx2(
        isolated_home, fake, project):
    configure(isolated_home)
    fake_claude.control(fake, mode="ok", answer=_answer([ITEM]))
    parent = queue_session(project, name=FORKED_PARENT)
    assert run_worker().processed == 1
    mdir = paths.memory_dir(str(project))
    (item,) = handoff.open_items(handoff.load(mdir)[0])
    assert item["opened_by"] == parent["session_id"]
    t0 = os.stat(parent["transcript_path"]).st_mtime
    other = queue_session(project, session_id="0c0ffee0-0000-4000-8000-000000000002")  # another session closes it
    os.utime(other["transcript_path"], (t0 + 10, t0 + 10))
    fake_claude.control(fake, mode="ok", answer=_answer([], [item["id"]]))
    assert run_worker().processed == 1
    assert handoff.load(mdir)[0][item["id"]]["closed_by"] == other["session_id"]
    fork = place(project, FORKED)  # forked from the parent; its whole re-read holds the parent's turns
    os.utime(fork["transcript_path"], (t0 + 20, t0 + 20))
    fake_claude.control(fake, mode="ok", answer=_answer([ITEM]))
    assert _distil(fork, "handoff-now")["reason"] == "distilled"
    assert FORKED_TURNS[1] in _conversations(fake)[-1]
    state = handoff.load(mdir)[0]
    assert not state[item["id"]].is_open
    with open(os.path.join(mdir, handoff.STATE), encoding="utf-8") as fh:
        assert [json.loads(ln)["op"] for ln in fh if ln.strip()] == ["open", "close"]


# --- killed between the fork's cursor write and its record of the parent's covered part ---

CHILD = r'''
import os, signal, sys
from lazy_harness.worker import cursor
real = cursor.atomic_write

def write(path, text, *args, **kwargs):
    real(path, text, *args, **kwargs)
    if os.path.basename(path) == sys.argv[1] + ".cursor":
        os.kill(os.getpid(), signal.SIGKILL)  # the worker dies right after the fork's cursor is written

cursor.atomic_write = write
from lazy_harness.worker import loop
loop.run(dict(os.environ))
sys.exit(3)  # not reached when the cursor was written
'''


def _last_copied_of(path: str, parent: str) -> str:
    last = ""
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            rec = json.loads(line)
            makers = (rec.get("session_id"), rec.get("requestSessionId"))
            if rec.get("type") in ("user", "assistant") and parent in makers:
                last = rec["uuid"]
    return last


def test_a_kill_after_the_forks_cursor_write_still_records_the_parent_covered_forkfx2(isolated_home, tmp_path,
                                                                                       monkeypatch, project):
    bin_dir = fake_claude.use(tmp_path, monkeypatch)
    configure(isolated_home)  # the default gates: the parent's single turn is too short
    parent_sid = fixture_session_id(FORKED_PARENT)
    parent = place(project, FORKED_PARENT)
    _cut(parent, list(range(PARENT_ENDS[0])), ["", "", "", ""])
    assert "too short" in _distil(parent)["reason"]
    fork = place(project, FORKED)
    _cut(fork, list(range(FORK_ENDS[0])) + list(range(FORK_OWN, len(Path(fork["transcript_path"]).read_text(
        encoding="utf-8").splitlines()))), ["", "", "", ""])
    queue.enqueue(paths.queue_dir(), queue.task_fields(fork, "SessionEnd", True))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (ROOT, os.environ.get("PYTHONPATH")) if p))
    child = subprocess.run([sys.executable, "-c", CHILD, fork["session_id"]], env=env, timeout=120)
    assert child.returncode == -signal.SIGKILL
    assert len(fake_claude.calls(bin_dir)) == 1
    run_worker()  # the next worker keeps the killed one's promise (settle_owed)
    covered = os.path.join(paths.state_dir(), f"{parent_sid}{cursor.COVERED}")
    with open(covered, encoding="utf-8") as fh:
        assert fh.read().split() == [_last_copied_of(fork["transcript_path"], parent_sid)]
    assert cursor.start(None, parent_sid, parent["transcript_path"]) > 0
    assert len(fake_claude.calls(bin_dir)) == 1


def _as_the_previous_version(parent: dict) -> None:
    """The parent's cursor as the previous version wrote it (no ``last``), at the time of the last record
    it read (the recording's times are in the past: a real cursor is written just after them)."""
    from datetime import datetime

    state = os.path.join(paths.state_dir(), f"{fixture_session_id(FORKED_PARENT)}.cursor")
    with open(state, encoding="utf-8") as fh:
        cur = json.load(fh)
    with open(parent["transcript_path"], "rb") as fh:
        read = fh.read(int(cur["offset"])).decode("utf-8").splitlines()
    stamps = [json.loads(line).get("timestamp") for line in read if line.strip()]
    at = max(datetime.fromisoformat(t).timestamp() for t in stamps if isinstance(t, str))
    with open(state, "w", encoding="utf-8") as fh:
        json.dump({"offset": cur["offset"], "check": cur["check"], "at": at + 0.5}, fh)


@pytest.mark.parametrize("old_format", [True, False])
@pytest.mark.parametrize("distilled_turns", [1, 2])
def test_a_parent_whose_transcript_is_gone_covers_what_its_cursor_read(isolated_home, tmp_path, monkeypatch, project,
                                                                        old_format, distilled_turns):
    """The parent was distilled (by the previous version's cursor, without ``last``, or by this one's)
    through turn 1 or 2, said turn 2, and was forked; its transcript is gone when the fork is distilled
    (Claude Code's ``cleanupPeriodDays``, the fork's task waited behind a cap): each of its turns
    reaches exactly one prompt, none is sent again and none is lost."""
    bin_dir = fake_claude.use(tmp_path, monkeypatch)
    configure(isolated_home, min_messages=2, min_user_chars=10)
    tokens = [f"LHTOK-{uuid.uuid4().hex[:12]}" for _ in FORKED_TURNS]
    parent = _cut(place(project, FORKED_PARENT), list(range(PARENT_ENDS[distilled_turns - 1])), tokens)
    assert _distil(parent)["reason"] == "distilled"
    if old_format:
        _as_the_previous_version(parent)
    _cut(place(project, FORKED_PARENT), list(range(PARENT_ENDS[1])), tokens)  # the parent says turn 2, is forked
    fork = place(project, FORKED)
    lines = len(Path(fork["transcript_path"]).read_text(encoding="utf-8").splitlines())
    _cut(fork, list(range(FORK_ENDS[1])) + list(range(FORK_OWN, lines)), tokens)
    os.unlink(parent["transcript_path"])
    kept = os.path.join(paths.queue_dir(), "kept")
    for name in os.listdir(kept) if os.path.isdir(kept) else []:
        os.unlink(os.path.join(kept, name))
    assert _distil(fork)["reason"] == "distilled"
    seen = _conversations(bin_dir)
    assert [sum(t in s for s in seen) for t in tokens] == [1, 1, 0, 1], seen
