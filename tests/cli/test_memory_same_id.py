"""One learning written on two days (two files ``<day1>-<slug>.md`` and ``<day2>-<slug>.md``, one id:
two machines' workers, brought together by ``lh sync``) is one learning in ``lh memory show``, as in
the SessionStart digest: the newest file stands for it, and a note names the other."""

import os
import time

import pytest

from lazy_harness import paths
from lazy_harness.memory import learnings
from tests.cli.lhrun import invoke
from tests.cli.test_memory import hook_context
from tests.support import memory_samples as ms

NOW = time.time()
DAY = ms.DAY
TITLE = "Queue workers need a heartbeat"


@pytest.fixture
def project(tmp_path):
    return ms.make_project(tmp_path, "proj", branch="main")


def written_twice(project: str) -> tuple[str, str]:
    """The learning as the worker writes it, on two days, each time in its own words: (older, newer)."""
    meta = {"project": "proj", "session_id": "s1", "task_id": "t1", "project_folder": paths.project_key(project)}
    out = []
    for when, text in ((NOW - 3 * DAY, "A worker without a heartbeat looks dead."),
                       (NOW - DAY, "Beat every 10 s so the sweep can tell a live queue worker.")):
        path, written = learnings.write_learning(paths.learnings_dir(), {"title": TITLE, "learning": text,
                                                                          "context": "c", "scope": "project"},
                                                 meta, when)
        assert written
        out.append(path)
    older, newer = out
    assert learnings.id_of(older) == learnings.id_of(newer) and older != newer
    return older, newer


def shown(path: str) -> str:
    """A learning file as ``lh memory show`` names it: relative to the learnings folder's parent."""
    return os.path.relpath(path, os.path.dirname(paths.learnings_dir()))


def test_show_lists_a_learning_written_on_two_days_once_naming_its_second_file(project):
    older, newer = written_twice(project)
    assert hook_context(project).count(TITLE) == 1  # SessionStart: once
    out = invoke("memory", "show", "--project", project, "--section", "learnings")
    assert out.code == 0, out.err
    lines = out.out.splitlines()
    [at] = [i for i, ln in enumerate(lines) if TITLE in ln]
    assert shown(newer) in lines[at] and learnings.id_of(newer) in lines[at]  # the file SessionStart shows
    assert "Learnings from proj (1," in out.out
    assert lines[at + 1].strip().startswith(f"a second file of it: {shown(older)} (merge")
    assert sum(shown(older) in ln for ln in lines) == 1
