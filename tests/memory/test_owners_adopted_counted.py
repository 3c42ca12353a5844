"""A memory folder whose only memory is a learning it adopted (one written before keys were recorded,
``origin: api``) still holds memory: when its project folder moves, ``lh memory path --old`` lists it
with that learning and the command that takes it over, so the learning is not left in no project."""

import json
import os
import shutil

from lazy_harness import config, paths
from lazy_harness.worker import housekeeping
from tests.cli.lhrun import invoke
from tests.memory.test_follows_project import start
from tests.memory.test_owners import OLD, legacy_learning
from tests.support import memory_samples as ms


def ran_here(root: str) -> None:
    """A session ran in ``root``: Claude Code's folder of its path holds a transcript naming it."""
    sessions = os.path.join(paths.projects_dir(), paths.project_key(root))
    os.makedirs(sessions)
    with open(os.path.join(sessions, "sess-a.jsonl"), "w") as fh:
        fh.write(json.dumps({"type": "user", "cwd": root, "sessionId": "sess-a"}) + "\n")


def test_a_moved_folder_whose_only_memory_is_an_adopted_learning_is_listed_and_adopted(tmp_path):
    root = ms.make_project(tmp_path / "work", "api")
    ran_here(root)
    legacy_learning()
    housekeeping.adopt_orphans(config.load(os.environ), os.environ)
    assert OLD in start(root)
    old_key = os.path.basename(paths.memory_dir(root))
    moved = str(tmp_path / "elsewhere" / "api")
    os.makedirs(os.path.dirname(moved))
    shutil.move(root, moved)
    listed = invoke("memory", "path", "--old", "--project", moved)
    assert listed.code == 0, listed.err
    assert f"  {old_key}  (" in listed.out and "1 learnings" in listed.out, listed.out
    assert f"lh memory adopt -- {old_key}" in listed.out, listed.out
    done = invoke("memory", "adopt", "--project", moved, "--", old_key)
    assert done.code == 0, done.out + done.err
    assert OLD in start(moved, sid="after")


def test_path_old_counts_adopted_learnings_beside_those_written_under_the_key(tmp_path):
    root = ms.make_project(tmp_path / "work", "api")
    ran_here(root)
    ms.write_learning(paths.learnings_dir(), "Deploys go through the blue green script", "api", 0,
                      scope="project", project_folder=os.path.basename(paths.memory_dir(root)))
    legacy_learning()
    housekeeping.adopt_orphans(config.load(os.environ), os.environ)
    moved = str(tmp_path / "work" / "api-v2")
    os.rename(root, moved)
    listed = invoke("memory", "path", "--old", "--project", moved)
    assert "2 learnings" in listed.out, listed.out
