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
        if "config" not in argv:  # the question whether the person set core.sshCommand
            seen.append(dict(kw.get("env") or {}))
        return real(argv, **kw)

    monkeypatch.setattr(proc, "run", spy)
    m.add("decision", "Use SQLite for the index")
    try:
        m.sync()
    except Exception:  # the stand-in host does not exist: the round fails, as it should
        pass
    commands = {e.get("GIT_SSH_COMMAND") for e in seen if "GIT_TERMINAL_PROMPT" in e}
    assert commands and all(c and "BatchMode=yes" in c and "ConnectTimeout" in c for c in commands), commands
