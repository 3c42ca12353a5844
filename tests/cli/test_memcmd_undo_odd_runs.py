"""``lh memory undo`` given an empty run (a script's unset variable) or a journal whose file records are
hand-edited or damaged (a synced one): one clear line and exit 1, never another run undone or a traceback."""

import json
import os
import time

import pytest

from lazy_harness import paths
from lazy_harness.memory import files, journal, marks
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms

NOW = time.time()


@pytest.fixture
def forgotten(tmp_path):
    """A project with two decisions, each forgotten by its own run: (project, memory folder, the runs, oldest first)."""
    project = ms.make_project(tmp_path, "proj", branch="main")
    mdir = paths.memory_dir(project)
    ms.write_jsonl(os.path.join(mdir, files.DECISIONS),
                   [ms.decision(NOW - 2 * ms.DAY, "use sqlite for the index", "one file"),
                    ms.decision(NOW - ms.DAY, "keep marks append-only", "merges as a union")])
    runs = []
    for eid in sorted(marks_ids(mdir)):
        out = invoke("memory", "forget", eid, "--project", project)
        assert out.code == 0, out.err
        runs.append(out.out.rsplit("lh memory undo ", 1)[1].rstrip(")\n"))
    return project, mdir, runs


def marks_ids(mdir: str) -> list[str]:
    from lazy_harness.memory import ids

    return [ids.of_record(rec, "decision") for rec in files.read_entries(os.path.join(mdir, files.DECISIONS))]


@pytest.mark.parametrize("given", ["", "  "])
def test_an_empty_run_is_refused_not_taken_for_the_newest(forgotten, given):
    project, mdir, runs = forgotten
    before = open(marks.path_of(mdir), "rb").read()
    out = invoke("memory", "undo", given, "--project", project)
    assert out.code != 0
    assert "run" in out.err and "Traceback" not in out.err
    assert open(marks.path_of(mdir), "rb").read() == before  # nothing undone
    assert not any(r.get("undone") for r in journal.runs(mdir))


def test_a_run_pasted_with_spaces_around_it_is_undone(forgotten):
    project, mdir, runs = forgotten
    out = invoke("memory", "undo", f" {runs[0]} ", "--project", project)
    assert out.code == 0, out.err
    assert [r["run"] for r in journal.runs(mdir) if r.get("undone")] == [runs[0]]


@pytest.mark.parametrize("damage", [
    {"before": "%%%x"},  # not base64
    {"appended": 5, "after_sha": "0"},  # not a list of lines
    {"removed": [1, 2], "after_sha": "0"},
    {"before_size": "eleven", "after_sha": "0"},
    {"restored": 5},  # was: marked undone, 0 files restored, the forget kept
])
def test_a_damaged_journal_is_named_not_a_traceback(forgotten, damage):
    project, mdir, runs = forgotten
    path = os.path.join(journal.folder(mdir), f"{runs[1]}.json")
    with open(path, encoding="utf-8") as fh:
        data = json.load(fh)
    data["files"][0].update(damage)
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(data, fh)
    before = open(marks.path_of(mdir), "rb").read()
    out = invoke("memory", "undo", runs[1], "--project", project)
    assert out.code == 1
    assert path in out.err  # the journal named, by its path
    assert open(marks.path_of(mdir), "rb").read() == before
    listed = invoke("memory", "history", "--project", project)
    assert listed.code == 0 and path in listed.err and runs[0] in listed.out


def test_a_prefix_of_several_runs_lists_them_to_pick_one(forgotten, monkeypatch):
    project, mdir, runs = forgotten
    prefix = os.path.commonprefix(runs)
    assert prefix and prefix not in runs
    out = invoke("memory", "undo", prefix, "--project", project)
    assert out.code == 1 and f"{prefix!r} names 2 journals" in out.err, out.err
    assert all(run in out.err for run in runs), out.err
    monkeypatch.setattr(journal, "RUNS_NAMED", 1)  # more than are named: the rest counted
    out = invoke("memory", "undo", prefix, "--project", project)
    assert sum(run in out.err for run in runs) == 1 and "and 1 more" in out.err, out.err
    assert not any(r.get("undone") for r in journal.runs(mdir))
