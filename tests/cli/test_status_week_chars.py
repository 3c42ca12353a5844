"""``lh status`` "usage in the last 7 days": a session first shown entries nine days ago and
resumed today counts, this week, the characters injected by today's showings (not 0, as when its
``session`` line was dated at its first showing), and the whole record still counts them all."""

import json
import os
import time

import pytest

from lazy_harness import paths
from lazy_harness.memory import entries, files, ids, usage, usage_log
from lazy_harness.worker import usage as accounting
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms

SID = "55555555-aaaa-4aaa-8aaa-aaaaaaaaaaab"
NOW = time.time()
OLD = NOW - 9 * 86400
OLD_ITEM = {"summary": "The deploy script ran twice", "prevention": "Take `pg_advisory_lock` first."}
NEW_ITEM = {"summary": "CI installed a different lockfile", "prevention": "Use `pnpm install --frozen-lockfile`."}


def _iso(t: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t)) + f".{int((t % 1) * 1000):03d}Z"


def _transcript(tmp_path, turns: list[tuple[float, str]]) -> str:
    """A typed prompt and the assistant's answer at each time."""
    path = str(tmp_path / f"{SID}.jsonl")
    with open(path, "w", encoding="utf-8") as fh:
        for when, said in turns:
            fh.write(json.dumps({"type": "user", "promptSource": "typed", "timestamp": _iso(when),
                                 "message": {"role": "user", "content": "look at it please"}}) + "\n")
            fh.write(json.dumps({"type": "assistant", "timestamp": _iso(when + 1), "isSidechain": False,
                                 "message": {"role": "assistant", "content": [{"type": "text", "text": said}]}}) + "\n")
    return path


@pytest.fixture
def resumed(tmp_path, monkeypatch):
    """(memory folder, the transcript's path, the two entry ids) of the project; the session's first
    showing (700 characters) noted nine days ago."""
    project = ms.make_project(str(tmp_path), "alpha")
    monkeypatch.chdir(project)
    mdir = paths.memory_dir(project)
    os.makedirs(mdir, exist_ok=True)
    meta = {"project": "alpha", "session_id": "earlier", "task_id": "t"}
    with open(os.path.join(mdir, files.FAILURES), "a") as fh:
        for item in (OLD_ITEM, NEW_ITEM):
            fh.write(entries.json_line(entries.record("failure", item, meta, OLD - 86400)) + "\n")
    old, new = ids.entry_id("failure", OLD_ITEM["summary"]), ids.entry_id("failure", NEW_ITEM["summary"])
    usage.note(None, SID, "startup", 700, [(old, 193)], OLD, mdir)
    path = _transcript(tmp_path, [(OLD + 5, "Looking at it."), (NOW - 100, "Ran pnpm install --frozen-lockfile.")])
    return mdir, path, old, new


def _week_line() -> str:
    r = invoke("status")
    assert r.code == 0, r.out + r.err
    return next(ln for ln in r.out.splitlines() if ln.startswith("usage in the last 7 days:"))


def test_the_week_counts_the_characters_of_the_showings_made_this_week(isolated_home, resumed):
    mdir, path, old, new = resumed
    usage.note(None, SID, "resume", 1449, [(old, 193), (new, 195)], NOW - 120, mdir)
    accounting.account(SID, path, {}, mdir, paths.learnings_dir(), None, NOW)
    assert _week_line().startswith(
        "usage in the last 7 days: 1 shown, 1 used, 1449 characters injected in 1 session(s)")
    assert usage_log.tally(usage_log.read(mdir)).totals()["injected_chars"] == 700 + 1449


def test_a_session_distilled_before_and_after_its_resume_counts_each_part_once(isolated_home, resumed):
    mdir, path, old, new = resumed
    accounting.account(SID, path, {}, mdir, paths.learnings_dir(), None, OLD + 60)
    usage.note(None, SID, "resume", 1449, [(old, 193), (new, 195)], NOW - 120, mdir)
    for _ in range(2):  # distilled again: nothing new is written
        accounting.account(SID, path, {}, mdir, paths.learnings_dir(), None, NOW)
    assert usage_log.this_week(mdir, NOW)["injected_chars"] == 1449
    assert usage_log.tally(usage_log.read(mdir)).totals()["injected_chars"] == 700 + 1449
    assert len([r for r in usage_log.read(mdir) if r["op"] == "session"]) == 2


def test_a_session_line_written_before_the_change_still_counts_once(isolated_home, resumed):
    """A record from before: one ``session`` line, the total then, dated at the first showing."""
    mdir, path, old, new = resumed
    usage_log.append(mdir, [usage_log.line("session", OLD, session=SID, chars=700),
                            usage_log.line("shown", OLD, session=SID, id=old, chars=193)])
    usage.note(None, SID, "resume", 1449, [(old, 193), (new, 195)], NOW - 120, mdir)
    accounting.account(SID, path, {}, mdir, paths.learnings_dir(), None, NOW)
    assert usage_log.this_week(mdir, NOW)["injected_chars"] == 1449
    assert usage_log.tally(usage_log.read(mdir)).totals()["injected_chars"] == 700 + 1449
