"""``lh memory adopt`` and ``lh memory assign`` keep the key the project is written under now, as the
worker does after a task (``last_key.remember_key``): an origin change before the project's next
distilled session then takes over what they gave it, instead of leaving it under the old key."""

import os
import shutil

import pytest

from lazy_harness import paths
from lazy_harness.memory import aliases, last_key
from tests.cli.lhrun import invoke
from tests.memory.test_follows_project import project_with_three, shown, start, write_as_session
from tests.memory.test_aliases_unassigned_agree import sessions_in
from tests.memory.test_owners import OLD, legacy_learning, project
from tests.support import memory_samples as ms


def set_origin(root: str, url: str) -> None:
    """The repository's only origin is ``url`` now (added, or changed)."""
    with open(os.path.join(root, ".git", "config"), "w", encoding="utf-8") as fh:
        fh.write(f'[remote "origin"]\n\turl = {url}\n')


def test_an_origin_change_after_a_move_and_adopt_keeps_the_adopted_memory(tmp_path):
    root = project_with_three(tmp_path)  # no origin: keyed by its path
    old_key = os.path.basename(paths.memory_dir(root))
    moved = str(tmp_path / "new" / "api")
    os.makedirs(os.path.dirname(moved))
    shutil.move(root, moved)
    set_origin(moved, "git@github.com:team/api.git")  # moved and gained an origin: a new key, old memory left
    done = invoke("memory", "adopt", "--project", moved, "--", old_key)
    assert done.code == 0, done.out + done.err
    adopted_into = paths.memory_dir(moved)
    assert last_key.recorded_roots() == [(os.path.basename(adopted_into), moved)]
    set_origin(moved, "git@github.com:team/api-renamed.git")  # then the origin changes: no session in between
    assert paths.memory_dir(moved) != adopted_into
    text = start(moved)
    assert shown(text) == 3 and "blue green" in text, text
    assert {old_key, os.path.basename(adopted_into)} <= aliases.owned(paths.memory_dir(moved)).keys


@pytest.mark.parametrize("by", ["folder", "key"])
def test_assign_keeps_the_projects_key_and_the_assigned_learning_follows_an_origin_change(tmp_path, by):
    work = ms.make_project(tmp_path / "work", "api")
    set_origin(work, "git@github.com:team/api.git")
    write_as_session(work, {"decisions": [{"summary": "Deploy work with the blue green script"}]})
    sessions_in(work)  # Claude Code knows where it is (lh memory unassigned lists it by its key)
    project(tmp_path / "clients", session="sess-c")
    legacy_learning()
    listed = invoke("memory", "unassigned")
    lid = listed.out.split("lh memory assign ", 1)[1].split()[0]
    key = os.path.basename(paths.memory_dir(work))
    assert invoke("memory", "assign", lid, "--project", work if by == "folder" else key).code == 0
    assert (key, work) in last_key.recorded_roots()
    set_origin(work, "git@github.com:team/api-renamed.git")  # before the project's next distilled session
    assert OLD in start(work)
    assert lid in aliases.owned(paths.memory_dir(work)).adopted
