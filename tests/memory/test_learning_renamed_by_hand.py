"""A learning file the person renamed by hand to a name not derived from its title is still a text of its
title: the title inside the file is what counts, not the file's name (ADR 0063, 0071). A later session's
correction of the title replaces it, the same text restated finds it, and an approval or a start that
looks for this project's older learnings of a title finds it too."""

from __future__ import annotations

import os
import time

import pytest

from lazy_harness import paths
from lazy_harness.memory import files, frontmatter, learnings, store
from tests.support import memory_samples as ms

NOW = time.time()
DAY = 86400.0
TITLE = "Orders table precision"
OLD = "Amounts in the orders table are NUMERIC(14,4); that is enough for every currency we bill."
NEW = "Amounts in the orders table are NUMERIC(19,6); NUMERIC(14,4) overflowed on a yen invoice."


@pytest.fixture
def world(tmp_path):
    root = ms.make_project(tmp_path, "proj")
    mdir, ldir = paths.memory_dir(root), paths.learnings_dir()
    os.makedirs(mdir, exist_ok=True)

    def distil(session: str, text: str, at: float, title: str = TITLE) -> store.PersistReport:
        meta = {"project": "proj", "session_id": session, "task_id": f"task-{session}", "cwd": root,
                "project_folder": os.path.basename(mdir)}
        answer = {"learnings": [{"title": title, "learning": text, "scope": "project", "tags": ["db"]}]}
        return store.persist(answer, mdir, ldir, meta, at)

    return distil, ldir


def _renamed(ldir: str, name: str) -> str:
    [path] = files.recent_learning_files(ldir, 10)
    new = os.path.join(os.path.dirname(path), name)
    os.rename(path, new)
    return new


def _status(path: str) -> dict:
    return frontmatter.read_frontmatter_values(path, ("status", "deprecated_by"))


@pytest.mark.parametrize("name", ["2020-01-01-money-notes.md", "zebra-notes.md"])
def test_a_correction_replaces_a_text_whose_file_was_renamed(world, name):
    distil, ldir = world
    distil("s1", OLD, NOW)
    old = _renamed(ldir, name)
    old_id = learnings.id_of(old)
    report = distil("s2", NEW, NOW + DAY)
    assert report.rewritten == [old_id], report.summary()
    assert _status(old)["status"] == "deprecated"
    [new] = [p for p in files.recent_learning_files(ldir, 10) if p != old]
    assert _status(old)["deprecated_by"] == learnings.id_of(new)


def test_the_same_text_restated_finds_the_renamed_file(world):
    distil, ldir = world
    distil("s1", OLD, NOW)
    old = _renamed(ldir, "money-notes.md")
    report = distil("s2", OLD, NOW + DAY)
    assert not report.created and not report.rewritten, report.summary()
    assert files.recent_learning_files(ldir, 10) == [old]
