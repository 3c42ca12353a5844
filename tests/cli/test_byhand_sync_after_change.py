"""A change made by hand (``lh memory forget | close | approve | undo``, and the page's actions, which
call the same functions) starts the sync the worker starts once it wrote memory
(``detach.spawn_sync``: ``python -m lazy_harness.sync after-write --now``), on a machine that syncs: the
other machines get a forget without waiting for the next distillation. A change that wrote nothing
starts none, a machine that does not sync starts none, and a sync that cannot be started never fails
the command."""

import contextlib
import os
import time

import pytest

from lazy_harness import config, detach, paths, sync
from lazy_harness.errors import LhError
from lazy_harness.memory import by_hand, files, ids, marks
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms
from tests.support.child_events import gone
from tests.support.processes import started_with_home
from tests.test_sync import _git

NOW = time.time()


def _after_writes(home) -> list[int]:
    """The pids of the ``lazy_harness.sync after-write`` processes started with ``HOME=home``."""
    out = []
    for pid in started_with_home(home):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                argv = fh.read().split(b"\0")
        except OSError:
            continue
        if b"lazy_harness.sync" in argv and b"after-write" in argv:
            out.append(pid)
    return out


def _project(tmp_path) -> tuple[str, str, list[str]]:
    """A project with two decisions: (its folder, its memory folder, their ids)."""
    root = ms.make_project(tmp_path, "proj")
    mdir = paths.memory_dir(root)
    recs = [ms.decision(NOW - 60, "Use ruff for linting", "fast"), ms.decision(NOW - 50, "Ship wheels", "simple")]
    ms.write_jsonl(os.path.join(mdir, files.DECISIONS), recs)
    return root, mdir, [ids.of_record(rec, "decision") for rec in recs]


@pytest.fixture
def synced(tmp_path, isolated_home):
    """A project with two decisions, on a machine whose config names a bare remote, synced once."""
    remote = tmp_path / "remote.git"
    _git("init", "-q", "--bare", str(remote))
    cfg_file = paths.config_file()
    os.makedirs(os.path.dirname(cfg_file), exist_ok=True)
    with open(cfg_file, "w", encoding="utf-8") as fh:
        fh.write(f'[sync]\nremote = "{remote}"\n')
    root, mdir, eids = _project(tmp_path)
    sync.run(config.load(os.environ), os.environ)
    return remote, root, mdir, eids


def test_a_forget_reaches_the_remote_by_itself(synced, isolated_home):
    remote, root, mdir, (did, _) = synced
    done = invoke("memory", "forget", did, "--project", root)
    assert done.code == 0, done.err
    for pid in _after_writes(isolated_home):  # none listed: it ended already
        assert gone(pid, timeout=60), f"the sync {pid} did not end"
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)  # our own child when lh ran in this process: reaped, not left a zombie
    rel = os.path.relpath(marks.path_of(mdir), paths.data_dir())
    on_remote = _git("--git-dir", str(remote), "show", f"main:{rel}")
    assert did in on_remote and '"forget"' in on_remote


def test_a_forget_right_after_an_automatic_sync_reaches_the_remote_too(synced, isolated_home):
    # why: the worker's syncs wait interval_minutes (5) after the last; a forget does not wait for it
    remote, root, mdir, (did, _) = synced
    with open(os.path.join(paths.data_dir(), ".sync-push"), "w"):
        pass  # an automatic sync just ran
    done = invoke("memory", "forget", did, "--project", root)
    assert done.code == 0, done.err
    for pid in _after_writes(isolated_home):
        assert gone(pid, timeout=60), f"the sync {pid} did not end"
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)
    rel = os.path.relpath(marks.path_of(mdir), paths.data_dir())
    assert did in _git("--git-dir", str(remote), "show", f"main:{rel}")


def test_a_forget_made_while_another_round_runs_is_sent_once_it_ends(synced, isolated_home):
    # why: SessionStart's pull or the worker's round may hold the sync lock; the change's round waits
    # for it instead of being refused (nothing would send the forget before the worker's next round)
    import fcntl

    from lazy_harness.sync import rounds

    remote, root, mdir, (did, _) = synced
    fd = os.open(os.path.join(paths.data_dir(), rounds.LOCK), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # another round under way
        assert invoke("memory", "forget", did, "--project", root).code == 0
        waiting = _after_writes(isolated_home)
        assert waiting, "the change started no sync"
        # the event: the sync is either waiting on the lock or ended (refused, the defect)
        assert _waits_on_lock_or_ends(waiting[0], os.fstat(fd).st_ino)
    finally:
        os.close(fd)  # that round ends
    for pid in waiting:
        assert gone(pid, timeout=60), f"the sync {pid} did not end"
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)
    rel = os.path.relpath(marks.path_of(mdir), paths.data_dir())
    assert did in _git("--git-dir", str(remote), "show", f"main:{rel}")


def _waits_on_lock_or_ends(pid: int, inode: int) -> bool:
    """Whether ``pid`` ended (refused) rather than waiting on the lock of ``inode``: True once it is
    blocked on it (a ``->`` line of /proc/locks names it), False once it is gone."""
    import threading

    pause = threading.Event()
    for _ in range(3000):  # about 60 s at most; each turn looks at the kernel's own record
        with open("/proc/locks", encoding="ascii") as fh:
            blocked = [ln for ln in fh if "->" in ln and f" {pid} " in ln and f":{inode} " in ln]
        if blocked:
            return True
        if not os.path.exists(f"/proc/{pid}") or _zombie(pid):
            return False
        pause.wait(0.02)
    return False


def _zombie(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


@pytest.fixture
def started(monkeypatch):
    """Each sync a change starts, recorded instead of run."""
    calls: list = []
    monkeypatch.setattr(detach, "spawn_sync", lambda env=None, at_once=False: calls.append(at_once) or 4242)
    return calls


def _syncing_machine() -> None:
    os.makedirs(os.path.join(paths.data_dir(), ".git"), exist_ok=True)


def test_each_change_by_hand_starts_one_sync_and_a_change_of_nothing_none(tmp_path, started):
    _syncing_machine()
    root, mdir, (did, _) = _project(tmp_path)
    ldir = paths.learnings_dir()
    run = by_hand.forget(mdir, ldir, "proj", did, "stale", NOW)
    assert run and len(started) == 1
    assert by_hand.forget(mdir, ldir, "proj", did, "again", NOW) is None  # already forgotten: nothing written
    assert len(started) == 1
    by_hand.undo(mdir, ldir, run, 7.0, NOW + 1)
    assert len(started) == 2
    with pytest.raises(LhError):
        by_hand.forget(mdir, ldir, "proj", "d-00000000", "no such entry", NOW)
    assert len(started) == 2
    ms.write_handoff(mdir, ["Run the migration on staging"], "s-2", NOW - 10)
    assert invoke("memory", "close", "Run the migration on staging", "--project", root).code == 0
    assert started == [True, True, True]  # each at once, not after interval_minutes


def test_a_machine_that_does_not_sync_starts_no_sync(tmp_path, started):
    _, mdir, (did, _) = _project(tmp_path)
    assert by_hand.forget(mdir, paths.learnings_dir(), "proj", did, "stale", NOW)
    assert started == []


def test_a_sync_that_cannot_start_fails_no_change(tmp_path, monkeypatch):
    _syncing_machine()

    def refused(env=None, at_once=False):
        raise OSError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(detach, "spawn_sync", refused)
    root, mdir, (did, _) = _project(tmp_path)
    done = invoke("memory", "forget", did, "--project", root)
    assert done.code == 0, done.err
    assert did in marks.hidden(mdir)
