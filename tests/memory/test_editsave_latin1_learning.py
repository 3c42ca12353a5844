"""A learning an editor re-saved in Latin-1: a status change refuses it with one line naming the file
(hint: save it as UTF-8), and the person's bytes stay as they are."""

import os
import time

import pytest

from lazy_harness import paths
from lazy_harness.errors import LhError
from lazy_harness.memory import changes, ids, journal
from tests.cli.lhrun import run
from tests.support import memory_samples as ms


def latin1_learning(root: str, title: str) -> str:
    path = ms.write_learning(paths.learnings_dir(), title, "proj", time.time() - 60, scope="project",
                             project_folder=paths.project_key(root))
    text = open(path, encoding="utf-8").read().replace("explained.", "explained: café crème.")
    with open(path, "wb") as fh:
        fh.write(text.encode("latin-1"))
    return path


def test_forget_of_a_latin1_learning_is_one_line_and_leaves_it(tmp_path):
    root = ms.make_project(str(tmp_path), "proj")
    title = "Alpha latin learning about ovens"
    path = latin1_learning(root, title)
    before = open(path, "rb").read()
    r = run("memory", "forget", "--project", root, ids.learning_id("proj", title), "--reason", "old")
    assert r.returncode == 1
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("lh: "), r.stderr
    assert path in lines[0] and "UTF-8" in lines[0] and "Traceback" not in r.stderr
    assert open(path, "rb").read() == before


def test_a_latin1_learning_named_as_still_active_is_refused_too(tmp_path):
    """The learning a deprecation points at is read under the lock as well."""
    root = ms.make_project(str(tmp_path), "proj")
    other = latin1_learning(root, "Bravo latin learning")
    target = ms.write_learning(paths.learnings_dir(), "Charlie plain learning", "proj", time.time() - 60,
                               scope="project", project_folder=paths.project_key(root))
    before = (open(other, "rb").read(), open(target, "rb").read())
    j = journal.Journal(os.path.join(str(tmp_path), "mem"), "consolidate", "proj", time.time())
    with pytest.raises(LhError) as err:
        changes.set_learning_status(target, paths.learnings_dir(), "deprecated", "l-1", "dup", time.time(), j,
                                    only_from="active", others_active=(other,))
    assert other in str(err.value) and "UTF-8" in str(err.value)
    assert (open(other, "rb").read(), open(target, "rb").read()) == before
