"""A project without an origin shared by two machines through ``lh sync`` (the same path on each, so one
path-keyed folder) gains an origin on one of them only (docs/adr/0089). The machine that moves its
memory to the origin's folder copies the path-keyed files and leaves them for the other machine, which
still reads and writes them; it merges them again only when they changed. Once every machine that
wrote there has moved, the last one to move removes them.

Real git: two machine homes, one bare remote, and each machine's clone of the project put at the same
path in turn (one host cannot hold two folders at one path)."""

import contextlib
import json
import os
import subprocess
import sys
import time

import pytest

from lazy_harness import config, paths, sync
from lazy_harness.memory import migrate, provenance, store

NOW = time.time()
ORIGIN = "git@github.com:team/demo.git"


def _git(*args: str, cwd: str | None = None) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True)


class Box:
    """One machine: its home (data, state, config) and its clone of the project, kept aside until it
    acts (:meth:`at` puts it at the shared path and names the machine)."""

    def __init__(self, tmp, remote: str, name: str, shared: str) -> None:
        home = tmp / name
        home.mkdir()
        self.name, self.shared = name, shared
        self.env = {**os.environ, "HOME": str(home), "XDG_DATA_HOME": str(home / "data"),
                    "XDG_STATE_HOME": str(home / "state"), "XDG_CONFIG_HOME": str(home / "config"),
                    "XDG_CACHE_HOME": str(home / "cache"), "CLAUDE_CONFIG_DIR": str(home / "claude")}
        self.cfg = config.defaults()
        self.cfg["sync"]["remote"] = remote
        self.clone = str(tmp / f"{name}-clone" / "demo")
        os.makedirs(self.clone)
        _git("init", "-q", "-b", "main", cwd=self.clone)
        _git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", name,
             cwd=self.clone)

    @contextlib.contextmanager
    def at(self, monkeypatch):
        os.rename(self.clone, self.shared)
        monkeypatch.setattr(provenance, "here", lambda env=None: (self.name, "me"))
        try:
            yield self.shared
        finally:
            os.rename(self.shared, self.clone)

    def mdir(self) -> str:
        return paths.memory_dir(self.shared, self.env)

    def write(self, summary: str) -> None:
        mdir = self.mdir()
        meta = {"project": "demo", "project_folder": os.path.basename(mdir), "session_id": f"{self.name}-s",
                "task_id": "t", "cwd": self.shared}
        store.persist({"decisions": [{"summary": summary, "rationale": "r"}]}, mdir,
                      paths.learnings_dir(None, self.env), meta, NOW, self.env)

    def start(self) -> list[str]:
        """What a session start, a worker task or an ``lh memory`` command does first."""
        return migrate.migrate(self.mdir(), paths.project_key(self.shared), self.shared, self.env, NOW)

    def sync(self) -> None:
        sync.run(self.cfg, self.env)

    def add_origin(self, url: str = ORIGIN) -> None:
        _git("remote", "add", "origin", url, cwd=self.clone)

    def summaries(self, key: str) -> list[str]:
        path = os.path.join(paths.data_dir(self.env), "projects", key, "decisions.jsonl")
        if not os.path.exists(path):
            return []
        with open(path, encoding="utf-8") as fh:
            return [json.loads(line)["summary"] for line in fh if line.strip()]

    def show(self) -> str:
        r = subprocess.run([sys.executable, "-m", "lazy_harness", "memory", "show", "--project", self.shared],
                           env=self.env, capture_output=True, text=True)
        assert r.returncode == 0, r.stdout + r.stderr
        return r.stdout


@pytest.fixture
def two(tmp_path, monkeypatch):
    """A and B share the project's path-keyed memory (A1 and B1 on both), then A's clone gains the
    origin and A's next start moves the memory; A syncs, then B."""
    remote = str(tmp_path / "remote.git")
    _git("init", "-q", "--bare", "-b", "main", remote)
    shared = str(tmp_path / "work" / "demo")
    os.makedirs(os.path.dirname(shared))
    a, b = Box(tmp_path, remote, "machine-a", shared), Box(tmp_path, remote, "machine-b", shared)
    with a.at(monkeypatch):
        a.start()
        a.write("A1 use sqlite for the index")
        a.sync()
    with b.at(monkeypatch):
        b.sync()
        b.start()
        b.write("B1 ship the cli as a wheel")
        b.sync()
    a.add_origin()
    with a.at(monkeypatch):
        a.sync()
        a.start()
        a.sync()
    with b.at(monkeypatch):
        b.sync()
    return a, b


PATH_KEY_OF = paths.project_key


def test_the_machine_without_the_origin_still_sees_and_writes_the_projects_memory(two, monkeypatch):
    a, b = two
    key = PATH_KEY_OF(a.shared)
    git_key = os.path.basename(paths.remote_key("github.com/team/demo"))
    assert sorted(a.summaries(git_key)) == ["A1 use sqlite for the index", "B1 ship the cli as a wheel"]
    with b.at(monkeypatch):
        assert os.path.basename(b.mdir()) == key
        assert sorted(b.summaries(key)) == ["A1 use sqlite for the index", "B1 ship the cli as a wheel"]
        shown = b.show()
        assert "A1 use sqlite" in shown and "B1 ship the cli" in shown, shown
        b.write("B2 keep the changelog per release")
        b.sync()
    with a.at(monkeypatch):
        a.sync()
        assert a.start() != []  # the path-keyed files changed: merged again
        assert a.start() == []
    assert sorted(a.summaries(git_key)) == ["A1 use sqlite for the index", "B1 ship the cli as a wheel",
                                            "B2 keep the changelog per release"]


def test_the_kept_folder_is_not_merged_again_at_every_start(two, monkeypatch):
    a, _ = two
    with a.at(monkeypatch):
        kept = os.path.join(paths.data_dir(a.env), "projects", PATH_KEY_OF(a.shared), "decisions.jsonl")
        assert os.path.exists(kept)  # left for machine-b
        assert a.start() == []
        assert migrate.pending(PATH_KEY_OF(a.shared), a.shared, a.env, a.mdir()) == []


def test_the_other_machine_gaining_the_same_origin_ends_with_one_folder_nothing_twice(two, monkeypatch):
    a, b = two
    key = PATH_KEY_OF(a.shared)
    with a.at(monkeypatch):
        a.write("A2 pin the ci image")
        a.sync()
    with b.at(monkeypatch):
        b.write("B2 keep the changelog per release")
        b.sync()
    b.add_origin("https://github.com/team/demo")
    with b.at(monkeypatch):
        b.sync()
        b.start()
        b.sync()
        git_key = os.path.basename(b.mdir())
        assert git_key.startswith("git-")
    with a.at(monkeypatch):
        a.sync()
        a.start()
    want = ["A1 use sqlite for the index", "A2 pin the ci image", "B1 ship the cli as a wheel",
            "B2 keep the changelog per release"]
    for m in (a, b):
        assert sorted(m.summaries(git_key)) == want
        assert m.summaries(key) == []
        assert not os.path.exists(os.path.join(paths.data_dir(m.env), "projects", key, "decisions.jsonl"))


def test_another_repository_at_that_path_on_the_other_machine_does_not_take_what_a_wrote_since(two, monkeypatch):
    a, b = two
    with a.at(monkeypatch):
        a.write("A2 pin the ci image")
        a.sync()
        git_a = os.path.basename(a.mdir())
    b.add_origin("git@github.com:someone/else.git")
    with b.at(monkeypatch):
        b.sync()
        b.start()
        own = os.path.basename(b.mdir())
        assert own != git_a
        assert "A2 pin the ci image" not in b.summaries(own)
        assert sorted(b.summaries(git_a)) == ["A1 use sqlite for the index", "A2 pin the ci image",
                                              "B1 ship the cli as a wheel"]


def test_a_start_cut_before_the_merge_is_recorded_adds_nothing_twice(two, monkeypatch):
    a, b = two
    with b.at(monkeypatch):
        b.write("B2 keep the changelog per release")
        b.sync()
    with a.at(monkeypatch):
        a.sync()

        def cut(*args, **kw):
            raise KeyboardInterrupt  # killed after the merge, before its record was written

        real = migrate.remember_copy
        monkeypatch.setattr(migrate, "remember_copy", cut)
        with pytest.raises(KeyboardInterrupt):
            a.start()
        monkeypatch.setattr(migrate, "remember_copy", real)
        a.start()
        assert a.start() == []
        got = a.summaries(os.path.basename(a.mdir()))
    assert sorted(got) == ["A1 use sqlite for the index", "B1 ship the cli as a wheel",
                           "B2 keep the changelog per release"]


def test_two_starts_at_once_merge_the_other_machines_new_entry_once(two, monkeypatch):
    import threading

    a, b = two
    with b.at(monkeypatch):
        b.write("B2 keep the changelog per release")
        b.sync()
    with a.at(monkeypatch):
        a.sync()
        errors: list[BaseException] = []

        def start() -> None:
            try:
                a.start()
            except BaseException as exc:  # noqa: BLE001 - reported below
                errors.append(exc)

        runs = [threading.Thread(target=start) for _ in range(2)]
        for t in runs:
            t.start()
        for t in runs:
            t.join()
        assert not errors
        got = a.summaries(os.path.basename(a.mdir()))
    assert sorted(got) == ["A1 use sqlite for the index", "B1 ship the cli as a wheel",
                           "B2 keep the changelog per release"]
