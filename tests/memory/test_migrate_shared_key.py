"""memory/migrate.py: taking over a memory folder other machines or projects still read copies it and
leaves it as it is (ADR 0035, amended). A remote key's folder is every machine's through sync: emptying
it on the machine whose origin changed emptied it on every other one. A folder still live elsewhere
(``lh memory adopt --force``) keeps its memory for its project. Entries copied twice are added once."""

import json
import os
import time

from lazy_harness import config, paths, sync
from lazy_harness.memory import aliases, entries, ids, last_key, migrate
from tests.cli.lhrun import invoke
from tests.memory.test_follows_project import write_as_session
from tests.memory.test_identity_review_fixes import DECIDED, sees, start, worked_in
from tests.memory.test_migrate_other_repository import repo
from tests.support.git_repos import git

NOW = time.time()
SHARED = ("decisions.jsonl", "failures.jsonl", "handoff.jsonl", "handoff.md")


class Machine:
    """A home of its own, syncing its data folder with ``remote`` (tests/test_sync.py's machines)."""

    def __init__(self, tmp_path, remote: str, name: str) -> None:
        home = tmp_path / name
        self.env = {**os.environ, "HOME": str(home), "XDG_DATA_HOME": str(home / "data"),
                    "XDG_CONFIG_HOME": str(home / "config"), "XDG_CACHE_HOME": str(home / "cache"),
                    "CLAUDE_CONFIG_DIR": str(home / "claude")}
        self.cfg = config.defaults()
        self.cfg["sync"]["remote"] = remote

    def decide(self, root: str, summary: str) -> str:
        """A decision written for the project at ``root`` as the worker does, its key kept."""
        mdir = paths.memory_dir(root, self.env)
        os.makedirs(mdir, exist_ok=True)
        rec = entries.record("decision", {"summary": summary}, {"project": "api", "session_id": "s", "task_id": "t"},
                             NOW)
        with open(os.path.join(mdir, "decisions.jsonl"), "a", encoding="utf-8") as fh:
            fh.write(json.dumps({"id": ids.entry_id("decision", summary), **rec}) + "\n")
        last_key.remember_key(root, mdir, self.env)
        return mdir

    def sync(self) -> None:
        sync.run(self.cfg, self.env)


def summaries(mdir: str) -> list[str]:
    try:
        with open(os.path.join(mdir, "decisions.jsonl"), encoding="utf-8") as fh:
            return [json.loads(ln)["summary"] for ln in fh if ln.strip()]
    except FileNotFoundError:
        return []


def folder_state(folder: str) -> dict[str, bytes]:
    out = {}
    for name in SHARED:
        path = os.path.join(folder, name)
        if os.path.exists(path):
            with open(path, "rb") as fh:
                out[name] = fh.read()
    return out


def two_machines(tmp_path) -> tuple[str, str, Machine, Machine]:
    """(A's clone, B's clone, machine A, machine B): one repository with origin team/api cloned on two
    machines that sync their memory through one bare remote."""
    remote = str(tmp_path / "memory.git")
    git("init", "-q", "--bare", remote, cwd=str(tmp_path))
    up = repo(str(tmp_path / "up"), "api")
    a_root, b_root = str(tmp_path / "a-api"), str(tmp_path / "b-api")
    for root in (a_root, b_root):
        git("clone", "-q", up, root, cwd=str(tmp_path))
        git("remote", "set-url", "origin", "git@github.com:team/api.git", cwd=root)
    return a_root, b_root, Machine(tmp_path, remote, "a"), Machine(tmp_path, remote, "b")


def test_an_origin_changed_on_one_machine_leaves_the_other_machines_memory_whole(tmp_path):
    a_root, b_root, a, b = two_machines(tmp_path)
    shared = a.decide(a_root, "Decided on A")
    a.sync()
    assert b.decide(b_root, "Decided on B").replace(b.env["HOME"], "") == shared.replace(a.env["HOME"], "")
    b.sync()
    a.sync()
    git("remote", "set-url", "origin", "git@github.com:team/api-core.git", cwd=a_root)  # renamed on A
    renamed = paths.memory_dir(a_root, a.env)
    migrate.migrate(renamed, paths.project_key(a_root), a_root, a.env, NOW)
    assert sorted(summaries(renamed)) == ["Decided on A", "Decided on B"]
    a.sync()
    b.sync()  # B still on the old URL
    assert sorted(summaries(paths.memory_dir(b_root, b.env))) == ["Decided on A", "Decided on B"]


def test_a_taken_over_remote_folder_is_left_as_it_was_and_merged_again_adds_nothing_twice(tmp_path):
    root = repo(str(tmp_path / "work" / "api"), "api", origin="git@gitlab.com:team/api.git")
    first = worked_in(root)
    write_as_session(root, {"handoff": ["Finish the rollback script"]}, session="sess-h")
    before = folder_state(first)
    assert "decisions.jsonl" in before and "failures.jsonl" in before
    git("remote", "set-url", "origin", "git@github.com:team/api.git", cwd=root)
    now = paths.memory_dir(root)
    assert sees(start(root)) == (True, True, True)
    assert folder_state(first) == before  # every other machine still reads it
    with open(os.path.join(first, "decisions.jsonl"), "a", encoding="utf-8") as fh:  # synced in from one
        fh.write(json.dumps({"id": "d-0badc0de", "type": "decision", "summary": "Decided later elsewhere"}) + "\n")
    assert migrate.take_over(first, now, NOW)
    assert sorted(summaries(now)) == sorted([DECIDED, "Decided later elsewhere"])


def test_adopt_force_of_a_folder_still_live_elsewhere_leaves_that_project_its_memory(tmp_path):
    x = repo(str(tmp_path / "work" / "billing"), "billing")
    y = repo(str(tmp_path / "work" / "api"), "api")
    worked_in(x)
    key = paths.project_key(x)
    forced = invoke("memory", "adopt", "--force", "--project", y, "--", key)
    assert forced.code == 0, forced.err
    assert sees(start(x)) == (True, True, True)  # billing still has its memory
    assert DECIDED in start(y, sid="y")
    assert summaries(paths.memory_dir(x)) == [DECIDED]


def test_adopting_the_path_keyed_folder_of_a_moved_project_still_moves_it(tmp_path):
    old = repo(str(tmp_path / "work" / "api-old"), "api")
    earlier = worked_in(old)
    new = str(tmp_path / "work" / "api")
    os.rename(old, new)
    done = invoke("memory", "adopt", "--project", new, "--", os.path.basename(earlier))
    assert done.code == 0, done.out + done.err
    assert DECIDED in start(new)
    assert summaries(earlier) == []  # no other project reads it: nothing left behind


def test_what_the_other_machine_wrote_under_the_old_origin_after_the_copy_comes_along_when_it_moves_too(tmp_path):
    """A renamed the origin first (the old folder copied into the new one, aliased, synced); B, still
    on the old URL, decided more there; then B renamed it too: its first migration merges the old
    folder once more, though the new one already names it as an alias, and adds nothing twice."""
    a_root, b_root, a, b = two_machines(tmp_path)
    a.decide(a_root, "Decided on A")
    a.sync()
    b.sync()
    git("remote", "set-url", "origin", "git@github.com:team/api-core.git", cwd=a_root)
    renamed_a = paths.memory_dir(a_root, a.env)
    migrate.migrate(renamed_a, paths.project_key(a_root), a_root, a.env, NOW)
    a.sync()
    b.sync()
    old_b = b.decide(b_root, "Decided on B after A moved")  # B still on the old URL
    git("remote", "set-url", "origin", "git@github.com:team/api-core.git", cwd=b_root)
    renamed_b = paths.memory_dir(b_root, b.env)
    assert os.path.basename(old_b) == migrate.earlier_key(b_root, renamed_b, b.env)
    migrate.migrate(renamed_b, paths.project_key(b_root), b_root, b.env, NOW)
    assert sorted(summaries(renamed_b)) == ["Decided on A", "Decided on B after A moved"]
    assert migrate.earlier_key(b_root, renamed_b, b.env) is None  # once: the new key is B's now
    migrate.migrate(renamed_b, paths.project_key(b_root), b_root, b.env, NOW)
    assert sorted(summaries(renamed_b)) == ["Decided on A", "Decided on B after A moved"]


def test_an_aliased_old_origin_another_clone_here_still_uses_is_not_asked_at_every_start(tmp_path):
    """Two clones on one machine share the old origin's memory; the new origin's folder already names
    it as an alias (another machine moved first). One clone moving is no earlier key for it: the
    other clone's own move merges it, and nothing is said at every start."""
    up = repo(str(tmp_path / "up"), "api")
    x, y = str(tmp_path / "x-api"), str(tmp_path / "y-api")
    for root in (x, y):
        git("clone", "-q", up, root, cwd=str(tmp_path))
        git("remote", "set-url", "origin", "git@github.com:team/api.git", cwd=root)
    write_as_session(x, {"decisions": [{"summary": "Decided in api"}]})
    old = paths.memory_dir(x)
    for root in (x, y):
        last_key.remember_key(root, paths.memory_dir(root))
    git("remote", "set-url", "origin", "git@github.com:team/api-core.git", cwd=x)
    new = paths.memory_dir(x)
    os.makedirs(new, exist_ok=True)
    aliases.record(new, aliases.ALIAS, os.path.basename(old), "the project's origin changed", NOW, project="x-api")
    assert migrate.earlier_key(x, new) is None
    assert migrate.migrate(new, paths.project_key(x), x, None, NOW) == []
