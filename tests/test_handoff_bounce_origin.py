"""A project gains an ``origin`` on machine A: its path-keyed memory folder is merged into the new
origin-keyed one (memory/migrate.py) and its handoff.jsonl leaves the path-keyed folder, on the
other machines too once they merge. A handoff item closed on A afterwards stays closed on both
machines, and the rounds stop touching the retired folder's files.

Two homes syncing through one bare remote with real git; B has no clone of the project (it only
syncs), A runs its hooks and commands as Claude Code and the person would."""

import json
import os
import subprocess
import sys
import time

import pytest

from lazy_harness import config, paths, sync
from lazy_harness.memory import handoff, handoff_answer
from tests.hooks.hookrun import run_hook

ORIGIN = "git@github.com:me/app.git"
ITEM = "write the runbook for deploys"


def _git(*args: str, cwd: str | None = None) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout


class Machine:
    def __init__(self, home: str, remote: str) -> None:
        self.home = home
        os.makedirs(home, exist_ok=True)
        self.env = {**os.environ, "HOME": home, "XDG_DATA_HOME": os.path.join(home, ".local", "share"),
                    "XDG_CONFIG_HOME": os.path.join(home, ".config"), "XDG_CACHE_HOME": os.path.join(home, ".cache"),
                    "XDG_STATE_HOME": os.path.join(home, ".local", "state"),
                    "CLAUDE_CONFIG_DIR": os.path.join(home, ".claude")}
        os.makedirs(os.path.dirname(paths.config_file(self.env)), exist_ok=True)
        with open(paths.config_file(self.env), "w", encoding="utf-8") as fh:
            fh.write(f'[sync]\nremote = "{remote}"\nauto = false\n')
        self.cfg = config.defaults()
        self.cfg["sync"]["remote"] = remote

    def folder(self, key: str) -> str:
        return os.path.join(paths.memory_root(None, self.env), key)

    def sync(self) -> None:
        sync.run(self.cfg, self.env)

    def start(self, root: str) -> str:
        r = run_hook("SessionStart", {"session_id": "5f0c2a8e-9d1b-4e7a-8c3f-2b6d1e0a9f47", "cwd": root,
                                      "hook_event_name": "SessionStart", "source": "startup"}, env=self.env)
        assert r.returncode == 0, r.stderr
        out = json.loads(r.stdout) if r.stdout else {}
        return (out.get("hookSpecificOutput") or {}).get("additionalContext", "")

    def lh(self, *args: str, cwd: str) -> str:
        r = subprocess.run([sys.executable, "-m", "lazy_harness", *args], cwd=cwd, env=self.env,
                           capture_output=True, text=True)
        assert r.returncode == 0, r.stdout + r.stderr
        return r.stdout


def _state_of(folder: str, hid: str) -> str | None:
    item = handoff.fold(handoff.read_records(folder) or []).get(hid)
    return None if item is None else ("open" if item.is_open else "closed")


def _commits_touching(remote: str, since: str, rel: str) -> list[str]:
    return _git("--git-dir", remote, "log", "--format=%H", f"{since}..main", "--", rel).split()


def two_machines(tmp_path, where: str, before_sync=None) -> tuple[Machine, Machine, str, str, str, str]:
    """Machines A and B on one bare remote, A with a git project at ``where`` (under its home) whose
    path-keyed memory holds one open item, merged by both: (a, b, the project, its memory folder,
    the remote, the item's id). ``before_sync(root, folder, env)`` runs before the first round."""
    remote = str(tmp_path / "remote.git")
    _git("init", "-q", "--bare", "-b", "main", remote)
    a, b = Machine(str(tmp_path / "a"), remote), Machine(str(tmp_path / "b"), remote)
    root = os.path.join(a.home, where)
    os.makedirs(root)
    _git("init", "-q", root)
    folder = paths.memory_dir(root, a.env)
    os.makedirs(folder)
    now = time.time()
    handoff_answer.apply_answer(folder, [ITEM], None, {"session_id": "s1", "task_id": "t1"}, now, now)
    if before_sync is not None:
        before_sync(root, folder, a.env)
    hid = handoff.id_for({}, ITEM)
    a.sync()
    b.sync()
    assert _state_of(b.folder(os.path.basename(folder)), hid) == "open"
    return a, b, root, folder, remote, hid


@pytest.fixture
def moved(tmp_path):
    """A and B after A's project ``app`` gained an origin and both merged the move: (a, b, root,
    path key, origin key, remote, the item's id)."""
    a, b, root, by_path, remote, hid = two_machines(tmp_path, os.path.join("src", "app"))
    _git("-C", root, "remote", "add", "origin", ORIGIN)
    by_origin = paths.memory_dir(root, a.env)
    assert by_origin != by_path
    assert ITEM in a.start(root)  # the migration moves the path-keyed folder's files
    a.sync()
    b.sync()
    a.sync()
    return a, b, root, os.path.basename(by_path), os.path.basename(by_origin), remote, hid


def test_an_item_closed_after_the_move_stays_closed_on_both_machines(moved):
    a, b, root, old, new, remote, hid = moved
    a.lh("memory", "close", hid, cwd=root)
    for _ in range(3):
        a.sync()
        a.start(root)
        b.sync()
    a.sync()
    assert hid not in a.start(root)
    assert _state_of(a.folder(new), hid) == "closed"
    assert _state_of(b.folder(new), hid) == "closed"
    opens = [r for r in handoff.read_records(a.folder(new)) or [] if r["id"] == hid and r["op"] == "open"]
    assert len(opens) == 1, opens
    assert hid not in a.lh("memory", "show", cwd=root)


def test_the_retired_folders_handoff_log_is_not_made_again(moved):
    a, b, root, old, new, remote, hid = moved
    settled = _git("--git-dir", remote, "rev-parse", "main").strip()
    a.lh("memory", "close", hid, cwd=root)
    for _ in range(3):
        a.sync()
        a.start(root)
        b.sync()
    assert _commits_touching(remote, settled, f"projects/{old}/handoff.jsonl") == []
    for m in (a, b):
        assert not os.path.exists(os.path.join(m.folder(old), "handoff.jsonl"))
        assert not os.path.exists(os.path.join(m.folder(old), "handoff.md"))
