"""Folders of ours (private.py, ADR 0031): created 0700; one found on disk is used only when it is a
real folder, the user's own, and not writable by group or others (strict: no bit for them at all)."""

import os

import pytest

from lazy_harness import paths, private
from tests.support.as_person import me_and_my_group

ME = os.geteuid()
OTHER = 65534 if ME == 0 else ME + 1  # as root a real other user; otherwise the owner required is injected


def test_a_missing_folder_is_made_private_with_its_parents(tmp_path):
    path = str(tmp_path / "a" / "b")
    assert private.make(path, strict=True) == path
    for p in (path, os.path.dirname(path)):
        assert os.stat(p).st_mode & 0o777 == 0o700


def test_a_folder_of_another_user_is_refused(tmp_path):
    path = str(tmp_path / "theirs")
    os.mkdir(path, 0o700)
    if ME == 0:
        os.chown(path, OTHER, OTHER)
        why = private.problem(path)
    else:  # not root: cannot give a folder away; the owner required is injected instead
        why = private.problem(path, uid=OTHER)
    assert why and "belongs to uid" in why and path in why
    with pytest.raises(private.UnsafeFolder):
        private.make(path, uid=None if ME == 0 else OTHER)


@pytest.mark.parametrize("mode", [0o777, 0o770, 0o702, 0o1777])
def test_a_folder_others_may_write_is_refused(tmp_path, mode):
    path = str(tmp_path / "open")
    os.mkdir(path)
    os.chmod(path, mode)
    why = private.problem(path)
    assert why and "open to group or others" in why


def test_strict_refuses_a_folder_others_may_read(tmp_path):
    path = str(tmp_path / "readable")
    os.mkdir(path)
    os.chmod(path, 0o755)
    assert private.problem(path) is None
    assert "open to group or others" in private.problem(path, strict=True)


def test_a_symbolic_link_is_not_followed(tmp_path):
    real = tmp_path / "real"
    real.mkdir(mode=0o700)
    link = str(tmp_path / "link")
    os.symlink(real, link)
    assert "symbolic link" in private.problem(link)
    assert "symbolic link" in private.file_problem(link)


def test_a_file_others_may_write_is_refused(tmp_path):
    f = tmp_path / "resident.pid"
    f.write_text("1\n")
    os.chmod(f, 0o666)
    assert "open to group or others" in private.file_problem(str(f))
    os.chmod(f, 0o600)
    assert private.file_problem(str(f)) is None


def test_every_folder_of_ours_is_looked_at_and_the_fix_named(tmp_path):
    os.makedirs(paths.logs_dir(), exist_ok=True)
    os.chmod(paths.logs_dir(), 0o777)
    found = private.unsafe()
    assert [(what, path) for what, path, _ in found] == [("logs", paths.logs_dir())]
    assert private.fix(found[0][1], found[0][2]) == f"chmod 700 {paths.logs_dir()}"
    assert "XDG_CACHE_HOME" in private.fix("/x", "/x belongs to uid 1, not to you (uid 0)")
    assert {what for what, _, _ in private.folders()} == {"data", "cache", "recall", "queue", "state", "logs",
                                                         "machine state", "config"}


def test_a_config_file_others_may_write_is_not_read(tmp_path, monkeypatch):
    path = paths.config_file()
    os.makedirs(os.path.dirname(path), mode=0o700)
    with open(path, "w") as fh:
        fh.write("[recall]\nenabled = true\n")
    os.chmod(path, 0o666)
    [(what, where, why)] = private.unsafe()
    assert (what, where) == ("config file", path) and "open to group or others" in why
    assert private.fix(path, why) == f"chmod go-w {path}"
    assert private.first_problem() == why
    os.chmod(path, 0o644)
    assert private.unsafe() == []
    # a config kept elsewhere (LH_CONFIG): its folder is the user's choice, the file is still checked
    elsewhere = tmp_path / "shared"
    elsewhere.mkdir(mode=0o777)
    os.chmod(elsewhere, 0o1777)
    (elsewhere / "c.toml").write_text("")
    monkeypatch.setenv("LH_CONFIG", str(elsewhere / "c.toml"))
    assert "config" not in {what for what, _, _ in private.folders()}
    assert private.unsafe() == []
    os.chmod(elsewhere / "c.toml", 0o646)
    assert [what for what, _, _ in private.unsafe()] == ["config file"]


def test_the_worker_does_not_start_on_a_queue_others_may_write(tmp_path):
    import subprocess
    import sys

    from lazy_harness import logfile

    os.makedirs(paths.queue_dir())
    os.chmod(paths.queue_dir(), 0o777)
    r = subprocess.run([sys.executable, "-m", "lazy_harness.worker"], capture_output=True, timeout=60)
    assert r.returncode == 0
    with open(logfile.log_path(logfile.WORKER)) as fh:
        last = fh.read().splitlines()[-1]
    assert f"not started: {paths.queue_dir()} is open to group or others" in last


def test_nothing_is_logged_into_a_logs_folder_others_may_write(tmp_path):
    from lazy_harness import logfile

    os.makedirs(paths.logs_dir())
    os.chmod(paths.logs_dir(), 0o777)
    logfile.write(logfile.HOOKS, "a line")
    assert os.listdir(paths.logs_dir()) == []
    os.chmod(paths.logs_dir(), 0o700)
    logfile.write(logfile.HOOKS, "a line")
    assert os.listdir(paths.logs_dir()) == [logfile.HOOKS]


def test_a_folder_others_may_rename_in_is_named_in_the_fix(tmp_path, monkeypatch):
    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, 0o777)
    monkeypatch.setenv("LH_CONFIG", str(shared / "config.toml"))
    (shared / "config.toml").write_text("")
    os.chmod(shared / "config.toml", 0o600)
    [(what, where, why)] = private.unsafe()
    assert what == "config file" and why.startswith(f"{shared} is open to group or others (mode 0777)")
    assert private.fix(where, why).startswith(f"chmod go-w {shared} (or chmod +t {shared})")


def test_a_group_of_one_is_no_group_another_user_has_as_primary(tmp_path, monkeypatch):
    """``useradd -g alice bob``: bob is in alice's group without being listed in it (gr_mem lists only
    supplementary members); a folder writable by that group is open to bob."""
    import pwd

    me, own = me_and_my_group()
    if own.gr_name != me.pw_name or own.gr_mem:
        pytest.skip("this user has no private group of their own")
    folder = tmp_path / "made-under-umask-002"
    folder.mkdir()
    os.chmod(folder, 0o775)
    why = private.problem(str(folder))
    assert why and private.group_of_one(str(folder), why)
    other = pwd.struct_passwd(("bob", "x", me.pw_uid + 4242, me.pw_gid, "", "/home/bob", "/bin/sh"))
    monkeypatch.setattr(pwd, "getpwall", lambda: [me, other])
    monkeypatch.setattr(private, "_ALONE", {}, raising=False)
    assert not private.group_of_one(str(folder), why)
