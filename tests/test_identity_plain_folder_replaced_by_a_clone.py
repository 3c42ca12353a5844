"""A folder that was no repository (keyed by its path) is another project than a repository cloned at
its path after it was deleted or moved away: the clone's sessions (and, since its key is its origin's,
every machine's and every clone's) must not get the folder's memory. The same folder made a repository
in place (``git init``, then an origin) is the same project, and its memory still follows it
(docs/how/project-key.md)."""

import os
import shutil
import subprocess

from lazy_harness import paths
from lazy_harness.memory import last_key
from tests.cli.lhrun import invoke
from tests.memory.test_follows_project import start, write_as_session

OLD = "Invoices are numbered per tenant, never globally"
GIT_ENV = dict(GIT_AUTHOR_NAME="a", GIT_AUTHOR_EMAIL="a@x", GIT_COMMITTER_NAME="a", GIT_COMMITTER_EMAIL="a@x")


def _git(*args: str, cwd: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, env={**os.environ, **GIT_ENV}, capture_output=True)


def _text(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.read()
    except FileNotFoundError:
        return ""


def _plain_folder_with_memory(tmp_path) -> tuple[str, str]:
    """``work/app``, no repository, whose memory holds OLD as the worker wrote it: (the folder, its key)."""
    app = str(tmp_path / "work" / "app")
    os.makedirs(app)
    write_as_session(app, {"decisions": [{"summary": OLD}]})
    last_key.remember_key(app, paths.memory_dir(app))  # as the worker keeps it after the task
    assert OLD in start(app, sid="s-old")
    return app, os.path.basename(paths.memory_dir(app))


def test_a_repository_cloned_where_a_plain_folder_was_does_not_get_its_memory(tmp_path):
    app, old_key = _plain_folder_with_memory(tmp_path)
    shutil.move(app, str(tmp_path / "work" / "app-old"))
    upstream = str(tmp_path / "upstream" / "shop")
    os.makedirs(upstream)
    _git("init", "-q", "-b", "main", cwd=upstream)
    _git("commit", "-q", "--allow-empty", "-m", "first", cwd=upstream)
    _git("clone", "-q", upstream, app, cwd=str(tmp_path))
    _git("remote", "set-url", "origin", "git@github.com:team/shop.git", cwd=app)

    assert OLD not in start(app, sid="s-new")
    assert OLD not in invoke("memory", "show", "--project", app).out
    new_dir = paths.memory_dir(app)
    assert OLD not in _text(os.path.join(new_dir, "decisions.jsonl"))  # nothing in the clone's shared folder
    assert old_key not in _text(os.path.join(new_dir, "aliases.jsonl"))
    listed = invoke("memory", "path", "--old", "--project", app)
    assert f"lh memory adopt -- {old_key}" in listed.out, listed.out  # the person can still take it over


def test_the_same_folder_made_a_repository_with_an_origin_keeps_its_memory(tmp_path):
    app, _ = _plain_folder_with_memory(tmp_path)
    _git("init", "-q", "-b", "main", cwd=app)
    _git("remote", "add", "origin", "git@github.com:team/shop.git", cwd=app)
    assert OLD in start(app, sid="s-new")
    _git("commit", "-q", "--allow-empty", "-m", "first", cwd=app)
    assert OLD in start(app, sid="s-later")
    assert OLD in invoke("memory", "show", "--project", app).out
