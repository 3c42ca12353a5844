"""Forgetting the decision that replaced another (ADR 0060): the old one is shown again at once, in the
same journalled forget run, and undoing the forget puts both back as they were. A merge is not
given back (its text lives in the survivor), and what the person forgot stays forgotten."""

import json
import os
import time

import pytest

from lazy_harness import config, paths
from lazy_harness.memory import changes, ids, journal, store
from lazy_harness.recall.readback import digest
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms

NOW = time.time()
DAY = 86400.0
OLD = "Store money amounts as integer cents in every table"
NEW = "Store money amounts in NUMERIC(14,4) columns, replacing integer cents"
OLD_ID, NEW_ID = ids.entry_id("decision", OLD), ids.entry_id("decision", NEW)


def _meta(root: str, session: str) -> dict:
    return {"project": "proj", "session_id": session, "task_id": f"t-{session}", "cwd": root}


@pytest.fixture
def proj(tmp_path) -> str:
    """A project whose session replaced its early decision about money (the store's `replace` run)."""
    root = ms.make_project(tmp_path, "proj")
    mdir, ldir = paths.memory_dir(root), paths.learnings_dir()
    store.persist({"decisions": [{"summary": OLD, "rationale": "floats lose cents", "tags": ["money"]},
                                 {"summary": "Keep the stylesheet in one file", "tags": ["css"]}]},
                  mdir, ldir, _meta(root, "s-1"), NOW - 3 * DAY)
    store.persist({"decisions": [{"summary": NEW, "rationale": "tax rates need four places", "tags": ["money"],
                                  "replaces": [OLD_ID]}]}, mdir, ldir, _meta(root, "s-2"), NOW - DAY)
    return root


def _marks(root: str) -> list[tuple]:
    path = os.path.join(paths.memory_dir(root), "marks.jsonl")
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as fh:
        return [(m["op"], m["id"], m.get("by")) for m in map(json.loads, filter(str.strip, fh))]


def _start(root: str) -> str:
    text, _ = digest.build_context(root, config.defaults(), os.environ, time.time(), "startup")
    return text or ""


def _listed(root: str, eid: str) -> str:
    """The line ``lh memory show`` lists ``eid`` on: every entry is listed, one left out with its label."""
    r = invoke("memory", "show", "--project", root)
    assert r.code == 0, r.err
    [line] = [line for line in r.out.splitlines() if line.strip().startswith(eid + " ")]
    return line


def _newest_run(root: str) -> str:
    return str(journal.runs(paths.memory_dir(root))[0]["run"])


def test_forgetting_the_replacement_shows_the_old_decision_again_until_the_forget_is_undone(proj):
    assert OLD not in _start(proj) and NEW in _start(proj)
    assert _listed(proj, OLD_ID).endswith(f"[superseded by {NEW_ID}]")

    r = invoke("memory", "forget", NEW_ID, "--project", proj)
    assert r.code == 0, r.err
    run = _newest_run(proj)
    assert r.out.strip() == (f"forgot {NEW_ID} (undo: lh memory undo {run}); "
                             f"shown again: {OLD_ID} (it was replaced by {NEW_ID})")
    start = _start(proj)
    assert OLD in start and NEW not in start and "Keep the stylesheet" in start
    assert not _listed(proj, OLD_ID).endswith("]") and _listed(proj, NEW_ID).endswith("[forgotten]")
    assert _marks(proj) == [("forget", NEW_ID, None)]  # one run: the forget, the replace mark taken out

    assert invoke("memory", "undo", run, "--project", proj).code == 0
    assert _marks(proj) == [("supersede", OLD_ID, NEW_ID)]
    start = _start(proj)
    assert OLD not in start and NEW in start
    assert _listed(proj, OLD_ID).endswith(f"[superseded by {NEW_ID}]") and not _listed(proj, NEW_ID).endswith("]")


def test_forgetting_it_twice_writes_nothing_the_second_time(proj):
    assert invoke("memory", "forget", NEW_ID, "--project", proj).code == 0
    runs, marks_after = len(journal.runs(paths.memory_dir(proj))), _marks(proj)
    again = invoke("memory", "forget", NEW_ID, "--project", proj)
    assert again.code == 0 and again.out.strip() == f"{NEW_ID} is already forgotten"
    assert len(journal.runs(paths.memory_dir(proj))) == runs and _marks(proj) == marks_after
    assert OLD in _start(proj)


def test_an_old_decision_the_person_forgot_stays_forgotten_when_its_replacement_is_forgotten(proj):
    """The person forgets the replaced decision too (it is wrong whatever replaced it): their word
    outlasts the replacement, so forgetting the replacement later brings back nothing."""
    r = invoke("memory", "forget", OLD_ID, "--project", proj)
    assert r.code == 0, r.err
    assert r.out.strip().startswith(f"forgot {OLD_ID} (undo:") and "shown again" not in r.out
    assert NEW in _start(proj)  # nothing else changed
    r = invoke("memory", "forget", NEW_ID, "--project", proj)
    assert r.code == 0, r.err
    assert "shown again" not in r.out
    start = _start(proj)
    assert OLD not in start and NEW not in start
    assert _listed(proj, OLD_ID).endswith("[forgotten]")


def test_an_old_decision_another_decision_still_replaces_stays_out(proj):
    """Two decisions said they replace it (marks brought together by sync): one forgotten, the other
    still stands, so the old one is not shown and the output does not say it is."""
    mdir = paths.memory_dir(proj)
    third = "Store money amounts with the money type of the database"
    store.persist({"decisions": [{"summary": third}]}, mdir, paths.learnings_dir(), _meta(proj, "s-3"), NOW)
    tid = ids.entry_id("decision", third)
    j = journal.Journal(mdir, "consolidate", "proj", NOW)
    changes.add_mark(mdir, j, "supersede", OLD_ID, tid, "the money type replaces it", NOW)
    j.save()
    r = invoke("memory", "forget", NEW_ID, "--project", proj)
    assert r.code == 0 and "shown again" not in r.out, r.out + r.err
    assert ("supersede", OLD_ID, tid) in _marks(proj) and ("supersede", OLD_ID, NEW_ID) not in _marks(proj)
    assert OLD not in _start(proj)


def test_a_failure_merged_into_the_forgotten_one_is_not_given_back(tmp_path):
    root = ms.make_project(tmp_path, "proj")
    mdir = paths.memory_dir(root)
    dup, keep = "The deploy timed out on the big migration", "Deploys time out on long migrations"
    store.persist({"failures": [{"summary": dup, "root_cause": "one transaction"},
                                {"summary": keep, "root_cause": "one transaction for all"}]},
                  mdir, paths.learnings_dir(), _meta(root, "s-1"), NOW - DAY)
    dup_id, keep_id = ids.entry_id("failure", dup), ids.entry_id("failure", keep)
    j = journal.Journal(mdir, "consolidate", "proj", NOW - 60)
    changes.add_mark(mdir, j, "merge", dup_id, keep_id, "the same failure", NOW - 60)
    j.save()
    r = invoke("memory", "forget", keep_id, "--project", root)
    assert r.code == 0 and "shown again" not in r.out, r.out + r.err
    assert _marks(root) == [("merge", dup_id, keep_id), ("forget", keep_id, None)]
    assert _listed(root, dup_id).endswith(f"[merged into {keep_id}]")


NEWEST = "Store money amounts in NUMERIC(19,6) columns, replacing NUMERIC(14,4)"
NEWEST_ID = ids.entry_id("decision", NEWEST)


def test_a_replacement_replaced_in_turn_gives_back_nothing_when_forgotten(proj):
    """integer cents -> NUMERIC(14,4) -> NUMERIC(19,6): forgetting the middle one leaves the first out,
    the newest stands for both (bringing integer cents back would contradict it)."""
    mdir, ldir = paths.memory_dir(proj), paths.learnings_dir()
    store.persist({"decisions": [{"summary": NEWEST, "rationale": "crypto prices need six places", "tags": ["money"],
                                  "replaces": [NEW_ID]}]}, mdir, ldir, _meta(proj, "s-3"), NOW - 3600)
    assert NEW not in _start(proj) and NEWEST in _start(proj)

    r = invoke("memory", "forget", NEW_ID, "--project", proj)
    assert r.code == 0, r.err
    assert r.out.strip() == f"forgot {NEW_ID} (undo: lh memory undo {_newest_run(proj)})"
    start = _start(proj)
    assert NEWEST in start and NEW not in start and OLD not in start
    assert _listed(proj, OLD_ID).endswith(f"[superseded by {NEW_ID}]")
