"""A learning written by hand with the project's folder in ``project_folder`` (``/home/ana/api``) where a
project key belongs: every reader compares the field with the project's keys, so no project showed it,
``lh memory unassigned`` did not list it and ``lh memory assign`` refused it, without a word why.
``lh memory check`` names it, with the key to write, and exits 1; ``lh doctor`` warns of it. Written
with the key, the project shows it."""

import os

from lazy_harness import paths
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms

TEXT = """---
title: SQLite WAL mode keeps readers unblocked
origin: proj
project_folder: {folder}
scope: project
created: 2026-12-01
---

Readers never block the writer in WAL mode.
"""


def _write(folder: str) -> str:
    month = os.path.join(paths.learnings_dir(), "2026-12")
    os.makedirs(month, exist_ok=True)
    path = os.path.join(month, "2026-12-01-wal-mode.md")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(TEXT.format(folder=folder))
    return path


def test_a_folder_path_is_named_with_the_key_to_write(tmp_path, isolated_home):
    root = ms.make_project(tmp_path, "proj")
    path = _write(root)
    assert "SQLite WAL" not in invoke("memory", "show", "--project", root).out  # shown in no project
    said = invoke("memory", "check", "--project", root)
    assert said.code == 1, said.out
    key = paths.project_key(root)
    assert f"{path}: project_folder: {root!r} is a path, not a project key" in said.out, said.out
    assert f"write project_folder: {key}, the key of that folder" in said.out, said.out
    assert "1 damaged learning(s)" in said.out
    assert "project_folder" in invoke("doctor").out
    _write(key)  # as check says
    assert "SQLite WAL" in invoke("memory", "show", "--project", root).out
    assert invoke("memory", "check", "--project", root).code == 0


def test_a_path_that_is_no_folder_here_gets_the_general_fix(tmp_path, isolated_home):
    root = ms.make_project(tmp_path, "proj")
    _write("~/gone/api")
    said = invoke("memory", "check", "--project", root)
    assert said.code == 1 and "'~/gone/api' is a path, not a project key" in said.out, said.out
    assert "the last part of what lh memory path prints in its folder" in said.out, said.out
