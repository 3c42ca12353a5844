"""Entries a person moved by hand: a failure line copied into decisions.jsonl keeps its ``f-`` id, a
learning saved outside a month folder, a ``created`` date no calendar has. Each is read as what it is
where it is, or named by ``lh memory check``; none is shown under a name no command can reach."""

import json
import os

import pytest

from lazy_harness import paths
from lazy_harness.memory import ids, store
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms

NOW = 1_760_000_000.0
FAILURE = "Redis test flaked under parallel runs"
MOVED = "Pin the Redis image in CI"


def _session_start_part(root: str) -> str:
    """What ``lh memory show`` says SessionStart reads back (the listing of everything follows it)."""
    shown = invoke("memory", "show", "--project", root)
    assert shown.code == 0, shown.err
    return shown.out.split("==== everything", 1)[0]


def _lines(path: str) -> list[dict]:
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


@pytest.fixture
def moved(isolated_home, tmp_path) -> tuple[str, str, str]:
    """A project whose decisions.jsonl holds a line copied from failures.jsonl and reworded, still
    carrying the failure's ``id`` and ``type``; the failure stays where it was."""
    root = ms.make_project(tmp_path, "proj")
    mdir, ldir = paths.memory_dir(root), paths.learnings_dir()
    store.persist({"decisions": [{"summary": "Keep the queue on disk", "rationale": "fewer parts"}],
                   "failures": [{"summary": FAILURE, "root_cause": "shared port",
                                 "prevention": "one port per worker"}]},
                  mdir, ldir, {"project": "proj", "session_id": "s-1", "cwd": root}, NOW)
    [failure] = _lines(os.path.join(mdir, "failures.jsonl"))
    fid = ids.of_record(failure, "failure")
    copy = dict(failure, id=fid, summary=MOVED)
    with open(os.path.join(mdir, "decisions.jsonl"), "a", encoding="utf-8") as fh:
        fh.write(json.dumps(copy) + "\n")
    return root, mdir, fid


def test_a_decision_line_with_a_failures_id_is_a_decision_by_its_own_id(moved):
    root, _, fid = moved
    shown = invoke("memory", "show", "--project", root)
    assert shown.code == 0, shown.err
    row = next(ln for ln in shown.out.splitlines() if MOVED in ln)
    assert fid not in row
    did = ids.entry_id("decision", MOVED)
    assert did in row, shown.out


def test_forget_reaches_each_entry_by_the_id_it_is_shown_with(moved):
    root, _, fid = moved
    did = ids.entry_id("decision", MOVED)
    gone = invoke("memory", "forget", did, "--project", root)
    assert gone.code == 0, gone.out + gone.err
    shown = _session_start_part(root)
    assert MOVED not in shown and FAILURE in shown, shown
    gone = invoke("memory", "forget", fid, "--project", root)
    assert gone.code == 0, gone.out + gone.err
    shown = _session_start_part(root)
    assert FAILURE not in shown and "Keep the queue on disk" in shown, shown


def test_forgetting_the_failure_leaves_the_moved_decision_shown(moved):
    root, _, fid = moved
    gone = invoke("memory", "forget", fid, "--project", root)
    assert gone.code == 0, gone.out + gone.err
    shown = _session_start_part(root)
    assert FAILURE not in shown and MOVED in shown, shown


def test_check_names_the_line_that_carries_another_kinds_id(moved):
    root, mdir, fid = moved
    check = invoke("memory", "check", "--project", root)
    path = os.path.join(mdir, "decisions.jsonl")
    [named] = [ln for ln in check.out.splitlines() if ln.startswith(f"{path}:2:")]
    assert fid in named and ids.entry_id("decision", MOVED) in named, check.out


@pytest.mark.parametrize("where", ["", "archive", "2026-04/old"])
def test_check_names_a_learning_outside_a_month_folder(isolated_home, tmp_path, where):
    root = ms.make_project(tmp_path, "proj")
    ldir = paths.learnings_dir()
    folder = os.path.join(ldir, where) if where else ldir
    os.makedirs(folder, exist_ok=True)
    os.makedirs(os.path.join(ldir, "2026-04"), exist_ok=True)
    path = os.path.join(folder, "2026-04-13-use-backoff.md")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("---\ntitle: Use backoff\norigin: proj\nscope: general\nstatus: active\ncreated: 2026-04-13\n"
                 "---\nEvery retry loop needs backoff.\n")
    check = invoke("memory", "check", "--project", root)
    assert check.code == 1, check.out
    [named] = [ln for ln in check.out.splitlines() if ln.startswith(path)]
    assert os.path.join(ldir, "2026-04") in named, named


def test_a_learning_in_its_month_folder_is_not_named(isolated_home, tmp_path):
    root = ms.make_project(tmp_path, "proj")
    folder = os.path.join(paths.learnings_dir(), "2026-04")
    os.makedirs(folder)
    with open(os.path.join(folder, "2026-04-13-use-backoff.md"), "w", encoding="utf-8") as fh:
        fh.write("---\ntitle: Use backoff\norigin: proj\nscope: general\nstatus: active\ncreated: 2026-04-13\n"
                 "---\nEvery retry loop needs backoff.\n")
    check = invoke("memory", "check", "--project", root)
    assert check.code == 0, check.out


@pytest.mark.parametrize("day", ["2026-02-30", "2026-04-31", "2025-02-29"])
def test_a_day_no_month_has_is_not_a_date(isolated_home, tmp_path, day):
    from lazy_harness.memory import files

    assert files.iso_epoch(day) is None
    assert files.iso_epoch(f"{day}T10:00:00Z") is None
    root = ms.make_project(tmp_path, "proj")
    folder = os.path.join(paths.learnings_dir(), "2026-04")
    os.makedirs(folder)
    path = os.path.join(folder, "2026-04-13-use-backoff.md")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(f"---\ntitle: Use backoff\norigin: proj\nscope: general\nstatus: active\ncreated: {day}\n"
                 "---\nEvery retry loop needs backoff.\n")
    check = invoke("memory", "check", "--project", root)
    assert f"created: not a date ({day})" in check.out, check.out


def test_a_leap_day_is_a_date():
    from lazy_harness.memory import files

    assert files.iso_epoch("2028-02-29T00:00:00Z") == files.iso_epoch("2028-03-01T00:00:00Z") - 86400
