"""A memory line nested past the interpreter's stack (``[[[[...`` 3,000 deep), as sync can bring it from
another machine: every reader and writer of the store skips it like a line that does not parse, and
keeps working with the lines around it (a RecursionError stopped ``lh memory show``, ``forget``,
``consolidate`` and every persist of the worker)."""

import json
import os
import time

import pytest

from lazy_harness import jsonload, paths
from lazy_harness.memory import entries, files, intent, store
from lazy_harness.worker import consolidate_gates
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms

NOW = time.time()
NESTED = "[" * 100_000 + "]" * 100_000  # why so deep: Python 3.13 parses 3,000 levels
DEEP = [
    '{"summary": 5, "x": ' + NESTED + "}",  # the reviewer's line: no id, a summary that is no string
    '{"summary": "a new decision", "session_id": "s-deep", "x": ' + NESTED + "}",  # a summary that clashes
    NESTED,
]


@pytest.fixture
def project(tmp_path):
    return ms.make_project(tmp_path, "proj", branch="main")


def _fill(project: str) -> str:
    mem = paths.memory_dir(project)
    os.makedirs(mem, exist_ok=True)
    good = ms.decision(NOW - 60, "keep prices in cents", "floats drift")
    with open(os.path.join(mem, files.DECISIONS), "w", encoding="utf-8") as fh:
        fh.write(DEEP[0] + "\n" + json.dumps(good) + "\n" + DEEP[1] + "\n" + DEEP[2] + "\n")
    return mem


@pytest.mark.parametrize("line", DEEP + ["{", "", "[1]", "{\"a\": 1} x"])
def test_one_line_that_is_no_object_reads_as_none(line):
    assert jsonload.line_object(line) is None
    assert jsonload.line_object(line.encode()) is None


def test_one_line_that_is_an_object_reads_as_it():
    assert jsonload.line_object('{"a": [1, {"b": null}]}\n') == {"a": [1, {"b": None}]}
    assert jsonload.line_object(b'\xef\xbb\xbf{"a": 1}') == {"a": 1}


def test_the_readers_skip_the_deep_lines(project):
    mem = _fill(project)
    path = os.path.join(mem, files.DECISIONS)
    assert [r["summary"] for r in files.read_entries(path)] == ["keep prices in cents"]
    taken = entries.taken_ids(path, "decision", ["a new decision", "keep prices in cents"])
    assert sorted(taken.values()) == ["keep prices in cents"]
    assert entries.recorded(path, {"a new decision", "keep prices in cents"}) == {"keep prices in cents"}
    assert consolidate_gates.sessions_since(mem, None) == 1
    side = os.path.join(mem, "intent.jsonl")
    with open(side, "w", encoding="utf-8") as fh:
        fh.write(DEEP[0] + '\n{"persist": "x"}\n')
    assert intent._records(side) == [{"persist": "x"}]


def test_a_persist_after_the_deep_lines_came_writes_its_entry(project):
    mem = _fill(project)
    result = store.persist({"decisions": [{"summary": "a new decision"}]}, mem, paths.learnings_dir(),
                           {"project": "proj", "session_id": "s9", "task_id": "t9"}, NOW)
    assert result is not None
    assert "a new decision" in [r["summary"] for r in files.read_entries(os.path.join(mem, files.DECISIONS))]


@pytest.mark.parametrize("args", [("memory", "show"), ("memory", "consolidate", "--dry-run"),
                                  ("memory", "forget", "d-00000000")])
def test_memory_commands_give_no_traceback(project, args):
    _fill(project)
    done = invoke(*args, "--project", project)
    assert "RecursionError" not in done.out + done.err
    assert done.code in (0, 1), done.err
    if args[1] == "show":
        assert done.code == 0 and "keep prices in cents" in done.out


def test_the_page_and_the_ledger_skip_the_deep_lines(project, tmp_path):
    """The page names a project by its newest line, and the ledger (synced too) is read line by line."""
    from lazy_harness.cost import ledger
    from lazy_harness.memory import folder_names

    mem = paths.memory_dir(project)
    os.makedirs(mem, exist_ok=True)
    # why 5,000 levels: the page reads the last 16 KiB, where 100,000 do not fit (3.11 raises at 3,000)
    near = "[" * 5000 + "]" * 5000
    with open(os.path.join(mem, files.DECISIONS), "w", encoding="utf-8") as fh:
        fh.write(json.dumps(ms.decision(NOW - 60, "keep prices in cents", "floats drift")) + "\n" + near + "\n")
    assert folder_names.name_in(mem) == "proj"
    assert ledger._parse(DEEP[2].encode()) is None and ledger._parse(DEEP[0].encode()) is None
