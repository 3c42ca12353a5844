"""The sync repository's ``.git`` is as private as every other folder of ours (ADR 0031): git runs what
its config names (``core.fsmonitor``, a credential helper), so a config another local user could
write would be their command run as the person. Made private whatever the umask, and refused when
another user could write it, with what to check and run."""

import os
import stat

import pytest

from lazy_harness.sync.repo import SyncError
from tests.test_sync import Machine, _git
from tests.support.as_person import me_and_my_group


@pytest.fixture
def two(tmp_path):
    remote = tmp_path / "remote.git"
    _git("init", "-q", "--bare", str(remote))
    return Machine(tmp_path, remote, "a"), Machine(tmp_path, remote, "b")


def _open_to_others(root) -> list[str]:
    found = []
    for where, dirs, names in os.walk(root):
        for name in dirs + names:
            path = os.path.join(where, name)
            if not os.path.islink(path) and os.lstat(path).st_mode & (stat.S_IWGRP | stat.S_IWOTH):
                found.append(path)
    return found


def test_with_umask_000_the_repository_and_what_it_checks_out_are_private(two):
    a, b = two
    a.add("decision", "Use the blue green deploy script for staging")
    old = os.umask(0)
    try:
        a.sync()
        b.sync()
    finally:
        os.umask(old)
    assert b.ids("decision"), "the decision reached b"
    for m in (a, b):
        assert _open_to_others(m.data / ".git") == []
        assert _open_to_others(m.data / "projects") == []


def test_a_git_config_others_could_write_is_refused_and_what_it_names_never_runs(two, tmp_path):
    a, _ = two
    a.add("decision", "Use the blue green deploy script for staging")
    a.sync()
    config = a.data / ".git" / "config"
    planted = tmp_path / "planted-command-ran"
    with open(config, "a", encoding="utf-8") as fh:
        fh.write(f'[core]\n\tfsmonitor = "touch {planted}; false"\n')
    os.chmod(config, 0o666)
    a.add("decision", "Keep the staging database on the small instance")
    with pytest.raises(SyncError) as err:
        a.sync()
    assert str(config) in str(err.value) and "open to group or others" in str(err.value)
    assert "chmod -R go-w" in err.value.hint and str(a.data / ".git") in err.value.hint
    assert not planted.exists()


def _synced_here(tmp_path) -> str:
    """This (isolated) home synced once with a bare remote, as ``lh sync`` leaves it; its ``.git``."""
    from lazy_harness import config, paths, sync

    remote = tmp_path / "remote.git"
    _git("init", "-q", "--bare", str(remote))
    cfg_file = paths.config_file(os.environ)
    os.makedirs(os.path.dirname(cfg_file), mode=0o700, exist_ok=True)
    with open(cfg_file, "w", encoding="utf-8") as fh:
        fh.write(f'[sync]\nremote = "{remote}"\n')
    sync.run(config.load(os.environ), os.environ)
    return os.path.join(paths.data_dir(os.environ), ".git")


def test_doctor_fails_on_a_sync_repository_others_could_write(tmp_path):
    from tests.cli.lhrun import invoke

    gitdir = _synced_here(tmp_path)
    assert "ok    sync" in invoke("doctor").out
    os.chmod(os.path.join(gitdir, "config"), 0o666)
    r = invoke("doctor")
    assert r.code == 1, r.out
    line = next(ln for ln in r.out.splitlines() if "sync" in ln and "open to group or others" in ln)
    assert line.startswith("FAIL") or line.startswith("fail"), line
    assert f"chmod -R go-w {gitdir}" in r.out



def test_a_repository_made_under_umask_002_writable_only_by_the_persons_own_group_still_syncs(two):

    me, own = me_and_my_group()
    if own.gr_name != me.pw_name or own.gr_mem:
        pytest.skip("this user has no private group of their own")
    a, _ = two
    a.add("decision", "Use the blue green deploy script for staging")
    a.sync()
    for where, dirs, names in os.walk(a.data / ".git"):
        for name in dirs + names:
            path = os.path.join(where, name)
            os.chmod(path, os.lstat(path).st_mode | stat.S_IWGRP)
    os.chmod(a.data / ".git", 0o775)
    a.add("decision", "Keep the staging database on the small instance")
    a.sync()
    assert len(a.ids("decision")) == 2


def test_a_round_run_from_another_repositorys_git_hook_leaves_that_repository_alone(two, tmp_path):
    """git exports GIT_INDEX_FILE (and a GIT_DIR may be set) to the hooks of the person's project: a hook
    that starts a session runs SessionStart's pull with them. lh's git must use the data folder's own
    ``.git``, never write that index, and never read a config that GIT_DIR names."""
    a, _ = two
    other = tmp_path / "project"
    _git("init", "-q", str(other))
    (other / "app.py").write_text("print('hi')\n")
    _git("add", "app.py", cwd=other)
    index = other / ".git" / "index"
    before = index.read_bytes()
    planted = tmp_path / "planted-command-ran"
    _git("config", "core.fsmonitor", f"touch {planted}; false", cwd=other)
    a.env.update(GIT_INDEX_FILE=str(index), GIT_DIR=str(other / ".git"), GIT_WORK_TREE=str(other))
    a.add("decision", "Use the blue green deploy script for staging")
    a.sync()
    assert index.read_bytes() == before
    assert not planted.exists()  # why before the status below: git status there runs it, as it should
    assert _git("-c", "core.fsmonitor=false", "status", "--porcelain", cwd=other).strip() == "A  app.py"
    assert "decisions.jsonl" in _git("-C", str(a.data), "ls-tree", "-r", "--name-only", "HEAD")


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a file to another user needs root")
def test_an_entry_of_another_users_gets_the_hint_that_gives_it_back(two):
    a, _ = two
    a.add("decision", "Use the blue green deploy script for staging")
    a.sync()
    packed = a.data / ".git" / "packed-refs"
    packed.write_text("# pack-refs with: peeled fully-peeled sorted\n")
    os.chown(packed, 54321, 54321)
    with pytest.raises(SyncError) as err:
        a.sync()
    assert "belongs to uid 54321" in str(err.value)
    assert f"chown -R \"$(id -un)\" {a.data / '.git'}" in err.value.hint


def test_status_names_a_refused_repository_on_its_sync_line_and_shows_the_rest(tmp_path):
    from tests.cli.lhrun import invoke

    os.chmod(os.path.join(_synced_here(tmp_path), "config"), 0o666)
    r = invoke("status")
    assert r.code == 0, r.out + r.err
    line = next(ln for ln in r.out.splitlines() if ln.lstrip().startswith("sync:"))
    assert "open to group or others" in line and "chmod -R go-w" in line, line
    assert "usage in the last 7 days" in r.out.split(line, 1)[1]


def test_a_git_file_of_a_worktree_in_the_data_folder_is_refused_before_git_follows_it(two, tmp_path):
    a, _ = two
    main = tmp_path / "elsewhere"
    _git("init", "-q", str(main))
    _git("-C", str(main), "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "first")
    a.data.parent.mkdir(parents=True, exist_ok=True)
    _git("-C", str(main), "worktree", "add", "-q", str(a.data))
    config_before = (main / ".git" / "config").read_text()
    a.add("decision", "Use the blue green deploy script for staging")
    with pytest.raises(SyncError) as err:
        a.sync()
    assert "is not a folder" in str(err.value) and "move" in err.value.hint, (str(err.value), err.value.hint)
    assert "config" not in err.value.hint  # there is no .git/config to look in
    assert (main / ".git" / "config").read_text() == config_before
    from lazy_harness import sync

    with pytest.raises(SyncError) as said:  # lh sync --status and lh status say it before any round
        sync.status(a.cfg, a.env)
    assert "is not a folder" in str(said.value)
