"""A memory file with a folder in its place is named the same way by every command: ``lh memory show``
says ``<file>: cannot be read: a folder, not a file`` with the hint to move it aside, as ``lh memory
search``, ``check`` and ``lh doctor`` do; a folder named as a learning file (``*.md``) is named by
``check`` and ``doctor`` as such a memory file is."""

import os
import time

from lazy_harness import paths
from lazy_harness.memory import files, handoff
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms

NOW = time.time()
FOLDER = "cannot be read: a folder, not a file"


def _project(tmp_path) -> tuple[str, str]:
    root = ms.make_project(tmp_path, "proj")
    mdir = paths.memory_dir(root)
    ms.write_jsonl(os.path.join(mdir, files.FAILURES), [ms.failure(NOW, "kafka consumer stalls")])
    return root, mdir


def test_show_names_a_decisions_file_that_is_a_folder_as_search_does(tmp_path):
    root, mdir = _project(tmp_path)
    gone = os.path.join(mdir, files.DECISIONS)
    os.makedirs(gone)
    r = invoke("memory", "show", "--project", root, "--section", "decisions", "--section", "failures")
    assert r.code == 0 and "kafka consumer stalls" in r.out, r.out + r.err
    said = [ln for ln in r.err.splitlines() if gone in ln]
    assert len(said) == 1, r.err
    assert f"{gone}: {FOLDER}" in said[0] and "move it aside" in said[0], said
    assert "Is a directory" not in r.err, r.err


def test_show_names_a_handoff_log_that_is_a_folder_as_check_does(tmp_path):
    root, mdir = _project(tmp_path)
    gone = os.path.join(mdir, handoff.STATE)
    os.makedirs(gone)
    r = invoke("memory", "show", "--project", root, "--section", "handoff")
    said = [ln for ln in r.err.splitlines() if gone in ln]
    assert len(said) == 1 and f"{gone}: {FOLDER}" in said[0] and "move it aside" in said[0], r.err
    assert "Is a directory" not in r.err, r.err


def test_a_folder_named_as_a_learning_file_is_named_by_check_and_doctor(tmp_path):
    _project(tmp_path)
    ldir = paths.learnings_dir()
    good = ms.write_learning(ldir, "A healthy learning", "proj", NOW)
    folder = os.path.join(os.path.dirname(good), os.path.basename(good)[:10] + "-a-folder.md")
    os.makedirs(folder)
    check = invoke("memory", "check", "--all-projects")
    assert check.code == 1, check.out + check.err
    assert f"{folder}: {FOLDER}" in check.out.splitlines(), check.out
    assert not any(good in ln for ln in check.out.splitlines()), check.out
    doctor = invoke("doctor")
    assert any(folder in ln and FOLDER in ln for ln in (doctor.out + doctor.err).splitlines()), doctor.out
