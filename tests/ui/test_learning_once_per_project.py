"""One learning in two files is listed once (``learnings.once_each``), but only among the learnings
that belong to the project listed: another project's newer file of the same id and title (a file
copied by hand into another project's name) does not hide this project's own, on the page as in
``lh memory show``."""

import os

from lazy_harness import config, paths
from lazy_harness.ui import memory_lists, reading
from tests.cli.lhrun import invoke
from tests.cli.test_memory_same_id import project  # noqa: F401
from tests.support import memory_samples as ms
from tests.ui.conftest import DAY, NOW

LID = "l-fedcba9876543210"


def _learning(title: str, origin: str, when: float, body: str, folder: str) -> str:
    return ms.write_learning(paths.learnings_dir(), title, origin, when, slug="pin-lockfile", id=LID,
                             scope="project", learning=body, project_folder=folder)


def test_another_projects_newer_copy_does_not_hide_this_projects_learning(project, tmp_path):  # noqa: F811
    other = ms.make_project(tmp_path, "other", branch="main")
    mine = _learning("Pin the lockfile", "proj", NOW - 3 * DAY, "Pin it in proj.", paths.project_key(project))
    _learning("Pin the lockfile", "other", NOW - DAY, "Pin it in other.", paths.project_key(other))
    shown = invoke("memory", "show", "--project", project, "--section", "learnings")
    assert shown.code == 0 and os.path.basename(mine) in shown.out
    p = next(q for q in reading.projects(project, config.load(), os.environ) if q.name == "proj")
    own, general = memory_lists.learnings(p)
    assert [(m["id"], m["path"]) for m in own + general if m["id"] == LID] == [(LID, mine)]
