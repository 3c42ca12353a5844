"""Undoing a project's first ``lh memory forget`` leaves its memory folder as it was before the forget:
the marks.jsonl the forget made is removed, not left behind empty. Only the run's journal (history lists
the run, undone) and the lock files (never deleted: house style section 4) remain of it.

Where the data folder is synced (a git repository), the file is emptied instead: the other machine may
have appended a mark to it since, and git merges an emptied file line by line with that append, while a
removal against it kept the whole file, the undone mark with it (ADR 0051)."""

import os
import subprocess
import time

from lazy_harness import paths
from lazy_harness.memory import files, ids, journal, marks
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms

NOW = time.time()
SQLITE, REDIS = "Use SQLite for the index", "Cache sessions in Redis"


def _folder(mdir: str) -> dict[str, bytes]:
    """Every file of the memory folder and its bytes, less the journals and the lock files."""
    out = {}
    for top, dirs, names in os.walk(mdir):
        dirs[:] = [d for d in dirs if os.path.join(top, d) != journal.folder(mdir)]
        for name in names:
            if not (name.startswith(".") and name.endswith(".lock")):
                path = os.path.join(top, name)
                with open(path, "rb") as fh:
                    out[os.path.relpath(path, mdir)] = fh.read()
    return out


def _project(tmp_path) -> tuple[str, str]:
    root = ms.make_project(tmp_path, "proj")
    mdir = paths.memory_dir(root)
    ms.write_jsonl(os.path.join(mdir, files.DECISIONS), [ms.decision(NOW - 90, SQLITE), ms.decision(NOW - 80, REDIS)])
    return root, mdir


def _forget_then_undo(root: str, summary: str = SQLITE) -> None:
    r = invoke("memory", "forget", ids.entry_id("decision", summary), "--project", root)
    assert r.code == 0, r.out + r.err
    assert os.path.isfile(marks.path_of(paths.memory_dir(root)))
    r = invoke("memory", "undo", "--project", root)
    assert r.code == 0 and "1 file(s) restored" in r.out, r.out + r.err


def test_undoing_the_first_forget_leaves_the_folder_as_before(tmp_path):
    root, mdir = _project(tmp_path)
    before = _folder(mdir)
    assert files.DECISIONS in before and marks.MARKS not in before
    _forget_then_undo(root)
    assert _folder(mdir) == before
    assert not os.path.exists(marks.path_of(mdir))
    [run] = journal.runs(mdir)
    assert run["kind"] == "forget" and run["undone"]  # the history still says what was done and undone
    assert marks.hidden(mdir) == {}


def test_a_forget_after_the_undo_makes_the_file_again(tmp_path):
    root, mdir = _project(tmp_path)
    _forget_then_undo(root)
    did = ids.entry_id("decision", REDIS)
    assert invoke("memory", "forget", did, "--project", root).code == 0
    assert set(marks.hidden(mdir)) == {did}


def test_a_mark_appended_by_another_run_since_keeps_the_file(tmp_path):
    root, mdir = _project(tmp_path)
    sqlite, redis = ids.entry_id("decision", SQLITE), ids.entry_id("decision", REDIS)
    assert invoke("memory", "forget", sqlite, "--project", root).code == 0
    assert invoke("memory", "forget", redis, "--project", root).code == 0
    first = journal.runs(mdir)[-1]["run"]
    assert invoke("memory", "undo", first, "--project", root).code == 0
    assert set(marks.hidden(mdir)) == {redis}  # the other run's mark stays, and its file with it


def test_in_a_synced_data_folder_the_file_is_emptied_not_removed(tmp_path):
    root, mdir = _project(tmp_path)
    data = paths.data_dir()
    subprocess.run(["git", "init", "-q", data], check=True, capture_output=True)
    _forget_then_undo(root)
    with open(marks.path_of(mdir), "rb") as fh:
        assert fh.read() == b""
    assert marks.hidden(mdir) == {}
