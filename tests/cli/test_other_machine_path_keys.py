"""A path-keyed memory folder (a project without an origin) stays on its machine by its key, but every
memory folder syncs: on the other machine it is a folder no project there ever wrote or ran. ``lh
memory path --old`` lists it apart, as another machine's, without an adopt command; ``lh memory adopt``
of it needs ``--force`` and then copies it, so the machine whose project it is keeps its memory
(docs/how/project-key.md). Two machines, one bare remote, real git."""

import json
import os
import subprocess
import time

from lazy_harness import config, paths, sync
from lazy_harness.memory import last_key, store
from lazy_harness.project_identity import project_name
from tests.cli.lhrun import lh_script
from tests.memory.test_follows_project import start
from tests.memory.test_migrate_shared_key import summaries
from tests.support import memory_samples as ms
from tests.support.git_repos import git

LIB = "lib keeps a stable C ABI"
APP = "app keeps its jobs in Redis"
TOOL = "tool ships as one static binary"


class Machine:
    """A home syncing its data folder with ``remote``; ``env`` None: this process's (the test's home)."""

    def __init__(self, remote: str, env: dict | None = None) -> None:
        self.env = dict(os.environ) if env is None else env
        self.cfg = config.defaults()
        self.cfg["sync"]["remote"] = remote

    def worked_in(self, root: str, summary: str, session: str) -> str:
        """What a session of ``root`` leaves on this machine: Claude Code's transcript, the worker's
        entry and the key it keeps."""
        folder = os.path.join(paths.projects_dir(self.env), paths.project_key(root))
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, session + ".jsonl"), "w", encoding="utf-8") as fh:
            fh.write(json.dumps({"type": "user", "cwd": root, "sessionId": session}) + "\n")
        mdir = paths.memory_dir(root, self.env)
        meta = {"project": project_name(root), "project_folder": os.path.basename(mdir), "session_id": session,
                "task_id": "t-1", "cwd": root}
        store.persist({"decisions": [{"summary": summary}]}, mdir, paths.learnings_dir(None, self.env), meta,
                      time.time() - 60, self.env)
        last_key.remember_key(root, mdir, self.env)
        return mdir

    def lh(self, *args: str, cwd: str) -> subprocess.CompletedProcess:
        return subprocess.run([*lh_script(), *args], capture_output=True, text=True, timeout=120, env=self.env,
                              cwd=cwd)

    def sync(self) -> None:
        sync.run(self.cfg, self.env)


def two_machines(tmp_path, isolated_home):
    """A (this process's home) works on lib, a path-keyed project, and tool, a project with an origin;
    B (a home of its own) on app, path-keyed. Both synced: each holds the other's memory folders."""
    remote = str(tmp_path / "memory.git")
    git("init", "-q", "--bare", remote, cwd=str(tmp_path))
    b_home = tmp_path / "b"
    a, b = Machine(remote), Machine(remote, {**os.environ, "HOME": str(b_home)})
    lib = ms.make_project(isolated_home / "src", "lib")
    tool = ms.make_project(isolated_home / "src", "tool")
    with open(os.path.join(tool, ".git", "config"), "w", encoding="utf-8") as fh:
        fh.write('[remote "origin"]\n\turl = git@github.com:team/tool.git\n')
    app = ms.make_project(b_home / "work", "app")
    lib_dir = a.worked_in(lib, LIB, "sess-lib")
    a.worked_in(tool, TOOL, "sess-tool")
    app_dir = b.worked_in(app, APP, "sess-app")
    a.sync()
    b.sync()
    a.sync()
    return a, b, lib, app, os.path.basename(lib_dir), os.path.basename(app_dir)


def test_path_old_lists_the_other_machines_path_keyed_projects_apart_and_offers_none(tmp_path, isolated_home):
    a, b, lib, app, lib_key, app_key = two_machines(tmp_path, isolated_home)
    tool_key = os.path.basename(paths.memory_dir(os.path.join(str(isolated_home), "src", "tool")))
    on_b = b.lh("memory", "path", "--old", cwd=app)
    assert on_b.returncode == 0, on_b.stderr
    assert f"lh memory adopt -- {lib_key}" not in on_b.stdout, on_b.stdout
    mine, _, theirs = on_b.stdout.partition("another machine's")
    assert lib_key in theirs and lib_key not in mine and "project lib" in theirs, on_b.stdout
    # an origin-keyed folder is the same project on every machine: offered as before
    assert f"lh memory adopt -- {tool_key}" in mine, on_b.stdout
    on_a = a.lh("memory", "path", "--old", cwd=lib)
    assert on_a.returncode == 0, on_a.stderr
    assert f"lh memory adopt -- {app_key}" not in on_a.stdout and app_key in on_a.stdout, on_a.stdout


def test_adopt_of_the_other_machines_project_needs_force_and_copies_so_that_machine_keeps_its_memory(
        tmp_path, isolated_home):
    a, b, lib, app, lib_key, app_key = two_machines(tmp_path, isolated_home)
    b_lib = os.path.join(paths.memory_root(None, b.env), lib_key)
    b_app = os.path.join(paths.memory_root(None, b.env), app_key)
    refused = b.lh("memory", "adopt", "--", lib_key, cwd=app)
    assert refused.returncode == 1, refused.stdout + refused.stderr
    assert "another machine" in refused.stderr and "--force" in refused.stderr, refused.stderr
    assert summaries(b_lib) == [LIB] and LIB not in summaries(b_app)
    forced = b.lh("memory", "adopt", "--force", "--", lib_key, cwd=app)
    assert forced.returncode == 0, forced.stdout + forced.stderr
    assert "copied" in forced.stdout, forced.stdout
    assert summaries(b_lib) == [LIB]  # left as it was: lib's machine still reads it
    assert sorted(summaries(b_app)) == sorted([APP, LIB])
    listed = b.lh("memory", "path", "--old", cwd=app)
    assert f"{lib_key}  (project lib" in listed.stdout and "already this project's" in listed.stdout, listed.stdout
    b.sync()
    a.sync()
    assert LIB in start(lib, sid="after-adopt")
    b.sync()
    a.sync()
    assert LIB in start(lib, sid="after-a-round")
    assert summaries(paths.memory_dir(lib)) == [LIB]
    assert sorted(summaries(b_app)) == sorted([APP, LIB])
