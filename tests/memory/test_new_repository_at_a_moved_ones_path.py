"""A repository made where a moved one was, at the same path, is another project. Without an origin it
keeps the path key, and with it that folder's memory (docs/how/project-key.md says so); given an origin
before its first session, it starts empty, and the moved project finds its memory under ``lh memory
path --old``."""

import os
import shutil
import subprocess

from lazy_harness import paths
from lazy_harness.memory import last_key
from tests.cli.lhrun import invoke
from tests.memory.test_follows_project import add_origin, start, write_as_session

OLD = "Checkout totals are rounded per line, not per order"


def _repo(root: str) -> None:
    os.makedirs(root)
    env = dict(os.environ, GIT_AUTHOR_NAME="a", GIT_AUTHOR_EMAIL="a@x", GIT_COMMITTER_NAME="a",
               GIT_COMMITTER_EMAIL="a@x")
    for args in (["init", "-q", "-b", "main"], ["commit", "-q", "--allow-empty", "-m", "first"]):
        subprocess.run(["git", *args], cwd=root, check=True, env=env, capture_output=True)


def test_a_new_repository_with_an_origin_at_a_moved_ones_path_starts_empty(tmp_path):
    app = str(tmp_path / "work" / "app")
    _repo(app)
    write_as_session(app, {"decisions": [{"summary": OLD}]})
    old_key = os.path.basename(paths.memory_dir(app))
    last_key.remember_key(app, paths.memory_dir(app))  # as the worker keeps it after the task
    assert OLD in start(app, sid="s-old")
    moved = str(tmp_path / "work" / "app-old")
    shutil.move(app, moved)
    _repo(app)  # another repository where the first one was
    add_origin(app, "git@github.com:team/shop.git")
    assert OLD not in start(app, sid="s-new")
    listed = invoke("memory", "path", "--old", "--project", moved)
    assert listed.code == 0, listed.err
    assert f"lh memory adopt -- {old_key}" in listed.out, listed.out
