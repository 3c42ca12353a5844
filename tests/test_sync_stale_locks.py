"""A round killed hard (a power cut, the OOM killer) can leave any lock file git takes in the data
repository: the merge's own index lock (``.git/lh-merge.index.lock``, sync.write_merged ``_staged``), the
config's (``ensure_repo``'s ``git config``), ``packed-refs.lock``. The next round removes each one
while it holds the sync lock, before anything takes it (docs/how/sync.md, "What a round does", step 1),
except the ref locks a ``git gc`` that still runs in the background may hold. Real git, two machine
homes, one bare remote (``tests.test_sync.Machine``)."""

import os
import subprocess
import sys

import pytest

from lazy_harness.sync import leftovers
from tests.test_sync import Machine, _git


@pytest.fixture
def two(tmp_path):
    remote = tmp_path / "remote.git"
    _git("init", "-q", "--bare", str(remote))
    return Machine(tmp_path, remote, "a"), Machine(tmp_path, remote, "b")


def _synced(a: Machine, b: Machine) -> None:
    a.add("decision", "Use SQLite for the index")
    a.sync()
    b.sync()
    a.sync()


def test_a_stale_lock_of_the_merges_own_index_is_removed(two):
    a, b = two
    _synced(a, b)
    (b.data / ".git" / "lh-merge.index.lock").write_text("")  # killed inside the side index's read-tree
    one = a.add("decision", "Ship the CLI as a wheel")
    a.sync()
    got = b.sync()
    assert "removed a stale lh-merge.index.lock" in got["repaired"]
    assert one in b.ids("decision") and not (b.data / ".git" / "lh-merge.index.lock").exists()


def test_a_stale_config_lock_is_removed_before_the_config_is_written(two):
    a, b = two
    _synced(a, b)
    (a.data / ".git" / "lh-setup").unlink()  # as after an upgrade that changed a driver's command
    (a.data / ".git" / "config.lock").write_text("")  # killed inside ensure_repo's git config
    one = a.add("decision", "Ship the CLI as a wheel")
    got = a.sync()
    assert got["pushed"] and "removed a stale config.lock" in got["repaired"]
    assert (a.data / ".git" / "lh-setup").exists()
    b.sync()
    assert one in b.ids("decision")


def test_a_first_round_killed_inside_git_config_is_repaired(two):
    a, _ = two
    a.add("decision", "Use SQLite for the index")
    _git("init", "-q", str(a.data))  # the killed first round made the repository, then the lock
    (a.data / ".git" / "config.lock").write_text("")
    got = a.sync()
    assert got["pushed"] and "removed a stale config.lock" in got["repaired"]
    assert _git("-C", str(a.data), "remote", "get-url", "origin").strip() == a.cfg["sync"]["remote"]


@pytest.mark.parametrize("name", ["packed-refs.lock", "ORIG_HEAD.lock", "refs/remotes/origin/main.lock"])
def test_other_stale_git_locks_are_removed(two, name):
    a, b = two
    _synced(a, b)
    (a.data / ".git" / name).write_text("")
    got = a.sync()
    assert f"removed a stale {name}" in got["repaired"] and not (a.data / ".git" / name).exists()


def _gc_pid(data, pid: int) -> None:
    (data / ".git" / "gc.pid").write_text(f"{pid} {os.uname().nodename}")  # what git gc writes


def test_ref_locks_stay_while_a_git_gc_runs_here(tmp_path):
    data = tmp_path / "data"
    _git("init", "-q", str(data))
    gitdir = data / ".git"
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        _gc_pid(data, sleeper.pid)  # a gc that a commit of ours started in the background
        for name in ("index.lock", "lh-merge.index.lock", "config.lock", "packed-refs.lock", "HEAD.lock",
                     "refs/heads/main.lock"):
            (gitdir / name).parent.mkdir(parents=True, exist_ok=True)
            (gitdir / name).write_text("")
        done = leftovers.repair(str(data))
        # why: a gc takes no index's lock and not the config's; the ref locks may be its own
        assert sorted(done) == ["removed a stale config.lock", "removed a stale index.lock",
                                "removed a stale lh-merge.index.lock"]
        assert all((gitdir / n).exists() for n in ("packed-refs.lock", "HEAD.lock", "refs/heads/main.lock"))
    finally:
        sleeper.kill()
        sleeper.wait()
    done = leftovers.repair(str(data))  # the gc is over (its gc.pid names no live process): they go too
    assert sorted(done) == ["removed a stale HEAD.lock", "removed a stale packed-refs.lock",
                            "removed a stale refs/heads/main.lock"]


def test_a_gc_pid_is_read_as_git_reads_it(tmp_path):
    data = tmp_path / "data"
    _git("init", "-q", str(data))
    gc_pid, lock = data / ".git" / "gc.pid", data / ".git" / "packed-refs.lock"
    gc_pid.write_text("4242 another-host")  # another host's gc cannot be checked: git takes it as running
    lock.write_text("")
    assert leftovers.repair(str(data)) == [] and lock.exists()
    os.utime(gc_pid, (0, 0))  # git takes a gc.pid older than 12 hours for a gc that died
    assert leftovers.repair(str(data)) == ["removed a stale packed-refs.lock"]
    gc_pid.write_text(f"{os.getpid()} {os.uname().nodename}")
    lock.write_text("")
    assert leftovers.repair(str(data), now=os.stat(gc_pid).st_mtime + leftovers.GC_STALE + 1) == [
        "removed a stale packed-refs.lock"]


def test_repair_before_the_repository_exists_does_nothing(tmp_path):
    assert leftovers.repair(str(tmp_path / "data")) == []
