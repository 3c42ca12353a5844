"""A decision a session says it replaces is marked superseded as the session is written (ADR 0060):
one reversible mark, left out of the read-back and of prompt recall at once, put back by undo."""

import json
import os
import time

import pytest

from lazy_harness import config, paths
from lazy_harness.memory import ids, journal, store
from lazy_harness.recall.readback import digest
from tests.cli.lhrun import invoke
from tests.hooks.hookrun import run_hook
from tests.support import memory_samples as ms

NOW = time.time()
DAY = 86400.0
OLD = "Store money amounts as integer cents in every table"
NEW = "Store money amounts in NUMERIC(14,4) columns, replacing integer cents"
OLD_ID, NEW_ID = ids.entry_id("decision", OLD), ids.entry_id("decision", NEW)
MONEY = "how should we store money amounts like prices in the database tables"


def _meta(root: str, session: str) -> dict:
    return {"project": "proj", "session_id": session, "task_id": f"t-{session}", "cwd": root}


@pytest.fixture
def proj(tmp_path) -> str:
    """A project whose memory holds the early decision (and one about something else)."""
    root = ms.make_project(tmp_path, "proj")
    store.persist({"decisions": [{"summary": OLD, "rationale": "floats lose cents", "tags": ["money", "cents"]},
                                 {"summary": "Keep the stylesheet in one file", "tags": ["css"]}]},
                  paths.memory_dir(root), paths.learnings_dir(), _meta(root, "s-1"), NOW - 3 * DAY)
    return root


def _answer(replaces) -> dict:
    return {"decisions": [{"summary": NEW, "rationale": "tax rates need four places", "tags": ["money", "numeric"],
                           "replaces": replaces}]}


def _plan(root: str, replaces, now: float = NOW) -> store.Plan:
    return store.plan(_answer(replaces), paths.memory_dir(root), paths.learnings_dir(), _meta(root, "s-2"), now)


def _marks(root: str) -> list[dict]:
    path = os.path.join(paths.memory_dir(root), "marks.jsonl")
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def _start(root: str) -> str:
    text, _ = digest.build_context(root, config.defaults(), os.environ, time.time(), "startup")
    return text or ""


def _recall(root: str, sid: str) -> str:
    ms.index_now()  # the worker brings the index up to date after it writes; the hook only reads it
    done = run_hook("UserPromptSubmit", {"session_id": sid, "cwd": root, "prompt": MONEY,
                                         "hook_event_name": "UserPromptSubmit", "transcript_path": "/x"})
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"] if done.stdout.strip() else ""


def test_the_plan_says_which_decision_is_replaced(proj):
    p = _plan(proj, [OLD_ID])
    rows = [str(r) for r in p.describe()]
    marks_path = os.path.join(paths.memory_dir(proj), "marks.jsonl")
    assert f"replace {marks_path}  {OLD_ID} by {NEW_ID}: {OLD}" in rows
    assert p.problems == []
    assert _marks(proj) == []  # a plan writes nothing


def test_a_replaced_decision_is_marked_once_and_left_out_of_read_back_and_recall_until_undone(proj):
    before_start, before_recall = _start(proj), _recall(proj, "a")
    assert OLD in before_start and OLD_ID in before_recall

    report = store.persist(_answer([OLD_ID]), paths.memory_dir(proj), paths.learnings_dir(), _meta(proj, "s-2"), NOW)
    assert report.count("decisions.jsonl") == 1
    [mark] = _marks(proj)
    assert (mark["op"], mark["id"], mark["by"]) == ("supersede", OLD_ID, NEW_ID)
    assert "s-2" in mark["reason"]
    start = _start(proj)
    assert OLD not in start and NEW in start and "Keep the stylesheet" in start
    recalled = _recall(proj, "b")
    assert OLD_ID not in recalled and OLD not in recalled

    assert invoke("memory", "undo", "--project", proj).code == 0
    assert _marks(proj) == []
    assert OLD in _start(proj) and NEW in _start(proj)
    assert OLD_ID in _recall(proj, "c")


def test_the_same_session_processed_again_writes_no_second_mark(proj):
    mdir = paths.memory_dir(proj)
    store.persist(_answer([OLD_ID]), mdir, paths.learnings_dir(), _meta(proj, "s-2"), NOW)
    runs = len(journal.runs(mdir))
    again = _plan(proj, [OLD_ID], NOW + 60)
    assert not [r for r in again.describe() if r[0] == "replace"] and again.problems == []
    assert f"{OLD_ID} already replaced by {NEW_ID}" in [r[2] for r in again.describe()]
    store.apply(again)
    assert len(_marks(proj)) == 1 and len(journal.runs(mdir)) == runs


def test_ids_that_name_no_live_decision_of_this_project_are_ignored_with_a_problem_line(proj, tmp_path):
    other = ms.make_project(tmp_path, "other")
    theirs = "Deploy the other project with blue-green switches"
    store.persist({"decisions": [{"summary": theirs}], "failures": [{"summary": "x", "root_cause": "y"}]},
                  paths.memory_dir(other), paths.learnings_dir(), _meta(other, "o-1"), NOW - DAY)
    failure = "The money migration timed out on the big table"
    store.persist({"failures": [{"summary": failure, "root_cause": "one transaction"}]}, paths.memory_dir(proj),
                  paths.learnings_dir(), _meta(proj, "s-1b"), NOW - 2 * DAY)
    unknown, foreign, fid = "d-00000000", ids.entry_id("decision", theirs), ids.entry_id("failure", failure)
    p = _plan(proj, [unknown, foreign, fid, NEW_ID])
    assert p.problems == [f"replaces: no live decision {unknown} in this project's memory; ignored",
                          f"replaces: no live decision {foreign} in this project's memory; ignored",
                          f"replaces: no live decision {fid} in this project's memory; ignored",
                          f"replaces: {NEW_ID} is the decision itself; ignored"]
    assert not [r for r in p.describe() if r[0] == "replace"]
    store.apply(p)
    assert _marks(proj) == [] and _marks(other) == []
    assert journal.runs(paths.memory_dir(proj)) == []


def test_a_forgotten_decision_is_not_replaced_and_a_forgotten_one_replaces_nothing(proj):
    mdir = paths.memory_dir(proj)
    sheet = ids.entry_id("decision", "Keep the stylesheet in one file")
    assert invoke("memory", "forget", OLD_ID, "--project", proj).code == 0
    assert _plan(proj, [OLD_ID]).problems == [f"replaces: no live decision {OLD_ID} in this project's memory; ignored"]
    again = store.plan({"decisions": [{"summary": OLD, "replaces": [sheet]}]}, mdir, paths.learnings_dir(),
                       _meta(proj, "s-3"), NOW)
    assert again.problems == [f"replaces: {OLD_ID} is not shown (forgotten), so {sheet} stays; ignored"]
    assert not [r for r in again.describe() if r[0] == "replace"]


def test_a_decision_restated_cannot_replace_one_written_after_it(proj):
    sheet = ids.entry_id("decision", "Keep the stylesheet in one file")
    restated = store.plan({"decisions": [{"summary": OLD, "replaces": [sheet]}]}, paths.memory_dir(proj),
                          paths.learnings_dir(), _meta(proj, "s-3"), NOW)
    assert restated.problems == [f"replaces: {sheet} was written after {OLD_ID}; ignored"]
    assert not [r for r in restated.describe() if r[0] == "replace"]
