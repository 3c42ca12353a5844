"""A [sync] remote on this machine (a path, relative or absolute, or a ``file://`` URL) that another
local user could write is refused before git talks to it: for such a remote git runs receive-pack
(on a push) and upload-pack (on a fetch) in that repository, with its config and its hooks, as the
person. A remote on another machine (``host:path``, ``https://``, ``ssh://``) is not looked at."""

import grp
import json
import os
from pathlib import Path
from urllib.parse import quote

import pytest

from lazy_harness import config, paths, sync
from lazy_harness.sync import repo
from lazy_harness.sync.repo import SyncError
from tests.test_sync import Machine, _git
from tests.support.as_person import me_and_my_group

REFUSED = "lh sync runs no git there"


def _bare(path: Path, *options: str) -> Path:
    _git("init", "-q", "--bare", *options, str(path))
    return path


def _plant(remote_gitdir: Path, marker: Path) -> Path:
    """A post-update hook in the remote that leaves ``marker`` when git runs it (on a push)."""
    hook = remote_gitdir / "hooks" / "post-update"
    hook.write_text(f"#!/bin/sh\ntouch {marker}\n")
    os.chmod(hook, 0o755)
    return hook


def _shared_group() -> int:
    """A group other than the person's own: others may be in it."""
    mine = os.getgid()
    if os.geteuid() == 0:
        return next(g.gr_gid for g in grp.getgrall() if g.gr_gid != mine)
    others = [g for g in os.getgroups() if g != mine]
    if not others:
        pytest.skip("this user is in no group but their own")
    return others[0]


def _pushed(remote: Path) -> str:
    return _git("--git-dir", str(remote), "for-each-ref", "refs/heads")


def _refused_round(tmp_path: Path, remote: Path, named: Path) -> SyncError:
    a = Machine(tmp_path, remote, "a")
    a.add("decision", "Use the blue green deploy script for staging")
    with pytest.raises(SyncError) as err:
        a.sync()
    said = str(err.value)
    assert str(remote) in said and str(named) in said and "open to group or others" in said, said
    assert REFUSED in said and "\n" not in said
    return err.value


def test_a_remote_any_user_can_write_is_refused_and_its_hook_never_runs(tmp_path):
    remote = _bare(tmp_path / "vmem.git", "--shared=0777")
    marker = tmp_path / "hook-ran"
    _plant(remote, marker)
    err = _refused_round(tmp_path, remote, remote)
    assert f"chmod -R go-w {remote}" in err.hint and str(remote / "hooks") in err.hint, err.hint
    assert not marker.exists()
    assert _pushed(remote) == ""


def test_a_remote_with_only_its_hooks_folder_open_is_refused(tmp_path):
    remote = _bare(tmp_path / "vmem.git")
    marker = tmp_path / "hook-ran"
    os.chmod(remote / "hooks", 0o777)
    _plant(remote, marker)
    _refused_round(tmp_path, remote, remote / "hooks")
    assert not marker.exists()


def test_a_hook_of_the_remote_writable_by_a_shared_group_is_refused(tmp_path):
    remote = _bare(tmp_path / "vmem.git")
    marker = tmp_path / "hook-ran"
    hook = _plant(remote, marker)
    os.chown(hook, -1, _shared_group())
    os.chmod(hook, 0o775)
    _refused_round(tmp_path, remote, hook)
    assert not marker.exists()


def test_a_config_of_the_remote_others_can_write_is_refused(tmp_path):
    remote = _bare(tmp_path / "vmem.git")
    marker = tmp_path / "hook-ran"
    hooks = tmp_path / "elsewhere"
    hooks.mkdir()
    _plant(remote, marker).rename(hooks / "post-update")
    os.chmod(remote / "config", 0o666)
    with open(remote / "config", "a", encoding="utf-8") as fh:
        fh.write(f"[core]\n\thooksPath = {hooks}\n")
    _refused_round(tmp_path, remote, remote / "config")
    assert not marker.exists()


def test_a_non_bare_remote_whose_git_folder_others_can_write_is_refused(tmp_path):
    remote = tmp_path / "checkout"
    _git("init", "-q", str(remote))
    os.chmod(remote / ".git", 0o777)
    _refused_round(tmp_path, remote, remote / ".git")


def test_the_workers_round_says_it_and_runs_no_hook(tmp_path):
    remote = _bare(tmp_path / "vmem.git", "--shared=0777")
    marker = tmp_path / "hook-ran"
    _plant(remote, marker)
    a = Machine(tmp_path, remote, "a")
    a.add("decision", "Use the blue green deploy script for staging")
    said = sync.auto_sync(a.cfg, a.env, at_once=True)
    assert said is not None and said.startswith("sync: ") and str(remote) in said and REFUSED in said, said
    assert not marker.exists()
    assert _pushed(remote) == ""


def _configured(remote: str) -> None:
    """This (isolated) home's config.toml with ``remote`` as its [sync] remote."""
    cfg_file = paths.config_file(os.environ)
    os.makedirs(os.path.dirname(cfg_file), mode=0o700, exist_ok=True)
    with open(cfg_file, "w", encoding="utf-8") as fh:
        fh.write(f"[sync]\nremote = {json.dumps(remote)}\n")


def test_lh_sync_its_status_and_doctor_say_it(tmp_path):
    from tests.cli.lhrun import invoke

    remote = _bare(tmp_path / "vmem.git")
    _configured(str(remote))
    sync.run(config.load(os.environ), os.environ)  # a private remote syncs
    assert "ok    sync" in invoke("doctor").out
    marker = tmp_path / "hook-ran"
    _plant(remote, marker)
    os.chmod(remote / "hooks", 0o777)
    for args in (("sync",), ("sync", "--status")):
        r = invoke(*args)
        assert r.code == 1 and str(remote / "hooks") in r.out + r.err and REFUSED in r.out + r.err, (args, r)
    r = invoke("doctor")
    assert r.code == 1, r.out
    line = next(ln for ln in r.out.splitlines() if "sync" in ln and str(remote / "hooks") in ln)
    assert line.lower().startswith("fail"), line
    assert f"chmod -R go-w {remote}" in r.out
    assert not marker.exists()


def test_sessionstart_pull_tells_the_person(tmp_path, isolated_home):
    """Told whole, though the line names the remote's path twice (a long one here)."""
    from tests.hooks.hookrun import run_hook

    deep = tmp_path / ("d" * 120) / ("e" * 120)
    deep.mkdir(parents=True)
    remote = _bare(deep / "vmem.git", "--shared=0777")
    marker = tmp_path / "hook-ran"
    _plant(remote, marker)
    path = isolated_home / ".config" / "lazy-harness" / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"[sync]\nremote = {json.dumps(str(remote))}\npull_budget_ms = 8000\n")
    proj = tmp_path / "work" / "demo"
    proj.mkdir(parents=True)
    _git("init", "-q", str(proj))
    env = {**os.environ, "HOME": str(isolated_home)}
    done = run_hook("SessionStart", {"session_id": "s2", "cwd": str(proj), "source": "startup",
                                     "transcript_path": "/nonexistent"}, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    told = json.loads(done.stdout)["systemMessage"]
    assert str(remote) in told and "open to group or others" in told and "lh doctor" in told, told
    assert not marker.exists()


def test_which_remotes_are_looked_at(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    env = {**os.environ, "HOME": str(tmp_path)}
    scp_like = _bare(data / "host:open.git", "--shared=0777")  # a folder git would never take for a path
    open_one = _bare(tmp_path / "open.git", "--shared=0777")
    private = _bare(tmp_path / "private.git")

    def refused(url: str) -> str | None:
        got = repo.remote_refusal(url, str(data), env)
        return got.message if got else None

    for elsewhere in ("host:open.git", "git@github.com:you/memory.git", "https://example.com/open.git",
                      f"ssh://localhost{open_one}", "ext::sh -c true", "FILE://" + str(open_one)):
        assert refused(elsewhere) is None, elsewhere
    assert str(scp_like) in (refused("./host:open.git") or "")  # a slash before the colon: a path
    for here in (str(open_one), str(tmp_path / "open"), "../open.git", "~/open.git", f"file://{open_one}",
                 f"file://somehost{open_one}", "file://" + quote(str(open_one)), str(open_one) + "/"):
        assert str(open_one) in (refused(here) or ""), here
    assert refused(str(private)) is None and refused(f"file://{private}") is None
    assert refused(str(tmp_path / "missing.git")) is None  # git says it is not there


def test_the_skipped_name_git_tries_first_is_looked_at_too(tmp_path):
    """git takes ``<path>/.git``, ``<path>``, ``<path>.git/.git``, ``<path>.git``: the first that is a
    repository. One before it that another user can write could be made one after the look."""
    _bare(tmp_path / "vmem.git")
    early = tmp_path / "vmem"
    early.mkdir()
    os.chmod(early, 0o777)
    got = repo.remote_refusal(str(early), str(tmp_path), os.environ)
    assert got is not None and str(early) in got.message


def test_a_remote_writable_only_by_the_persons_own_group_still_syncs(tmp_path):
    me, own = me_and_my_group()
    if own.gr_name != me.pw_name or own.gr_mem:
        pytest.skip("this user has no private group of their own")
    remote = _bare(tmp_path / "vmem.git")
    for where, dirs, names in os.walk(remote):
        for name in dirs + names:
            full = os.path.join(where, name)
            os.chmod(full, os.lstat(full).st_mode | 0o020)
    os.chmod(remote, 0o775)
    a = Machine(tmp_path, remote, "a")
    a.add("decision", "Use the blue green deploy script for staging")
    assert a.sync()["pushed"]


def test_docs_quote_the_refusal(tmp_path):
    remote = _bare(tmp_path / "mem.git", "--shared=0777")
    got = repo.remote_refusal(str(remote), str(tmp_path), os.environ)
    assert got is not None
    doc = " ".join((Path(__file__).resolve().parent.parent / "docs" / "how" / "sync.md").read_text().split())
    assert f"`{got.message.replace(str(remote), '/tmp/mem.git')}`" in doc
