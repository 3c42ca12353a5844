"""How ``lh sync`` reaches an ssh remote: by the person's own ssh command when they set one
(``core.sshCommand`` in their git config, or ``GIT_SSH``/``GIT_SSH_COMMAND``), else by ``ssh`` in batch
mode with a connect timeout, so that a remote that asks for a password or does not answer fails the
round instead of holding it. Real git; the ssh remote is a stand-in script that runs git's command
locally and notes that it ran (``tests.test_sync.Machine``)."""

import os
import stat
import subprocess

import pytest

from lazy_harness import proc
from tests.test_sync import Machine, _git


def _fake_ssh(tmp_path, name="person-ssh"):
    """An ssh stand-in: notes its arguments, then runs git's remote command here."""
    marker = tmp_path / f"{name}.ran"
    script = tmp_path / name
    script.write_text(f'#!/bin/sh\necho "$@" >> "{marker}"\nshift\nexec sh -c "$*"\n')
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script, marker


@pytest.fixture
def remote(tmp_path):
    bare = tmp_path / "remote.git"
    _git("init", "-q", "--bare", str(bare))
    return bare


def _machine(tmp_path, remote) -> Machine:
    m = Machine(tmp_path, remote, "a")
    m.cfg["sync"]["remote"] = f"ssh://stand-in.invalid{remote}"
    for var in ("GIT_SSH", "GIT_SSH_COMMAND", "GIT_SSH_VARIANT"):
        m.env.pop(var, None)
    return m


def test_the_persons_core_ssh_command_reaches_the_remote(tmp_path, remote):
    m = _machine(tmp_path, remote)
    script, marker = _fake_ssh(tmp_path)
    for key, value in (("core.sshCommand", str(script)), ("ssh.variant", "simple")):
        subprocess.run(["git", "config", "--global", key, value], env=m.env, check=True)
    one = m.add("decision", "Use SQLite for the index")
    got = m.sync()
    assert got["pushed"], got
    assert marker.exists() and "stand-in.invalid" in marker.read_text()
    assert one in _git("--git-dir", str(remote), "show", "main:" + os.path.relpath(m.mdir / "decisions.jsonl", m.data))


def test_git_ssh_in_the_environment_reaches_the_remote(tmp_path, remote):
    m = _machine(tmp_path, remote)
    script, marker = _fake_ssh(tmp_path, "old-style-ssh")
    m.env["GIT_SSH"] = str(script)
    m.env["GIT_SSH_VARIANT"] = "simple"
    m.add("decision", "Use SQLite for the index")
    got = m.sync()
    assert got["pushed"], got
    assert marker.exists()


def test_without_an_ssh_command_of_the_persons_ssh_runs_in_batch_mode(tmp_path, remote, monkeypatch):
    m = _machine(tmp_path, remote)
    seen: list[dict] = []
    real = proc.run

    def spy(argv, **kw):
        if "fetch" in argv or "push" in argv:  # what reaches the remote
            seen.append(dict(kw.get("env") or {}))
        return real(argv, **kw)

    monkeypatch.setattr(proc, "run", spy)
    m.add("decision", "Use SQLite for the index")
    try:
        m.sync()
    except Exception:  # the stand-in host does not exist: the round fails, as it should
        pass
    commands = {e.get("GIT_SSH_COMMAND") for e in seen}
    assert commands and all(c and "BatchMode=yes" in c and "ConnectTimeout" in c for c in commands), commands


def test_an_ssh_command_chosen_by_the_remotes_url_counts_at_the_first_round(tmp_path, remote):
    """git's ``includeIf "hasconfig:remote.*.url:..."`` gives a config only once the repository has
    that remote: the first round makes both, and its fetch and push must already see the command."""
    m = _machine(tmp_path, remote)
    script, marker = _fake_ssh(tmp_path)
    chosen = tmp_path / "stand-in.gitconfig"
    chosen.write_text(f"[core]\n\tsshCommand = {script}\n[ssh]\n\tvariant = simple\n")
    subprocess.run(["git", "config", "--global", "includeIf.hasconfig:remote.*.url:ssh://stand-in.invalid/**.path",
                    str(chosen)], env=m.env, check=True)
    m.add("decision", "Use SQLite for the index")
    got = m.sync()
    assert got["pushed"], got
    assert marker.exists()


def test_an_empty_ssh_variable_does_not_hide_the_persons_config(tmp_path, remote):
    m = _machine(tmp_path, remote)
    script, marker = _fake_ssh(tmp_path)
    for key, value in (("core.sshCommand", str(script)), ("ssh.variant", "simple")):
        subprocess.run(["git", "config", "--global", key, value], env=m.env, check=True)
    m.env["GIT_SSH_COMMAND"] = ""  # "export GIT_SSH_COMMAND=" in a shell profile
    m.add("decision", "Use SQLite for the index")
    assert m.sync()["pushed"] and marker.exists()
