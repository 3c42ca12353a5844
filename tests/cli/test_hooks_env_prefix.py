"""A command of ours that a person wrote with an environment prefix (``LH_CONFIG=/x/y.toml lh-hook Stop``,
``env LH_CONFIG=... /path/lh-hook Stop``) runs our hook as sh reads it. It was not recognised as ours:
``lh hooks install`` added a second entry beside it (both ran: every Stop queued twice), uninstall left it,
doctor did not see it. Now it is ours: install rewrites it to the current form keeping the person's prefix,
uninstall removes it, doctor names it. A command that only names lh-hook as an argument of another program
stays the person's."""

import json
import os
import stat

import pytest

from lazy_harness import settings
from lazy_harness.hooks import settings_commands
from tests.cli.lhrun import invoke

PREFIXED = [
    ("LH_CONFIG=/x/y.toml lh-hook Stop || exit 0", "LH_CONFIG=/x/y.toml "),
    ("env LH_CONFIG=/x/y.toml /opt/lh/bin/lh-hook Stop", "env LH_CONFIG=/x/y.toml "),
    ("LH_CONFIG='/x/my dir/y.toml' A=1 lh-hook Stop", "LH_CONFIG='/x/my dir/y.toml' A=1 "),
    ("LH_CONFIG=$HOME/y.toml lh-hook Stop", "LH_CONFIG=$HOME/y.toml "),
    ("/usr/bin/env -i PATH=/usr/bin lh-hook Stop", "/usr/bin/env -i PATH=/usr/bin "),
    ("LH_CONFIG=/x/y.toml $HOME/.local/bin/lh-hook Stop", "LH_CONFIG=/x/y.toml "),
]
FOREIGN = ["echo lh-hook Stop", "bash -c 'lh-hook Stop'", "FOO=1 echo lh-hook Stop", "env echo lh-hook Stop",
           "timeout 5 lh-hook Stop", "LH=1 my-lh-hook Stop", "notify-send 'lh-hook Stop'", "env -S 'lh-hook Stop'"]


def user_file(home):
    return home / ".claude" / "settings.json"


def write(home, commands):
    target = user_file(home)
    target.parent.mkdir(parents=True, exist_ok=True)
    groups = [{"matcher": "", "hooks": [{"type": "command", "command": c}]} for c in commands]
    target.write_text(json.dumps({"hooks": {"Stop": groups}}, indent=2) + "\n")
    return target


def stop_commands(target):
    data = json.loads(target.read_text())
    return [h["command"] for g in data.get("hooks", {}).get("Stop", []) for h in g["hooks"]]


@pytest.mark.parametrize("command,prefix", PREFIXED)
def test_a_prefixed_command_is_ours_in_the_cli_and_in_the_hooks(command, prefix):
    assert settings.is_ours({"command": command})
    assert settings_commands.our_command(command)
    assert settings.command_prefix(command) == prefix


@pytest.mark.parametrize("command", FOREIGN)
def test_lh_hook_as_an_argument_of_another_program_is_not_ours(command):
    assert not settings.is_ours({"command": command})
    assert not settings_commands.our_command(command)


@pytest.mark.parametrize("command", ["A=$(cat /x) lh-hook Stop", "A=`cat /x` lh-hook Stop"])
def test_a_prefix_only_a_shell_could_read_is_not_taken_for_ours(command):
    """Where the program starts is not known without running the substitution: lh leaves it (ADR 0070)."""
    assert not settings.is_ours({"command": command})


@pytest.mark.parametrize("command,prefix", PREFIXED)
def test_install_rewrites_a_prefixed_command_keeping_its_prefix_and_adds_none(isolated_home, command, prefix):
    target = write(isolated_home, [command])
    r = invoke("hooks", "install", "--write-settings")
    assert r.code == 0, r.out + r.err
    assert stop_commands(target) == [prefix + settings.command_for("Stop")]
    again = invoke("hooks", "install", "--write-settings")
    assert "already installed" in again.out and stop_commands(target) == [prefix + settings.command_for("Stop")]


@pytest.mark.parametrize("command,_prefix", PREFIXED)
def test_uninstall_removes_a_prefixed_command(isolated_home, command, _prefix):
    target = write(isolated_home, [command, "notify-send done"])
    r = invoke("hooks", "uninstall")
    assert r.code == 0, r.out + r.err
    assert stop_commands(target) == ["notify-send done"]


def test_install_and_uninstall_leave_lh_hook_named_as_an_argument(isolated_home):
    target = write(isolated_home, FOREIGN)
    assert invoke("hooks", "install", "--write-settings").code == 0
    assert stop_commands(target) == [*FOREIGN, settings.command_for("Stop")]
    assert invoke("hooks", "uninstall").code == 0
    assert stop_commands(target) == FOREIGN


def test_doctor_sees_a_prefixed_command_and_checks_its_program(isolated_home, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    script = tmp_path / "bin" / "lh-hook"
    script.parent.mkdir()
    script.write_text("#!/bin/sh\nexit 0\n")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{script.parent}{os.pathsep}{os.environ['PATH']}")
    target = write(isolated_home, [])
    data = json.loads(target.read_text())
    data["hooks"] = {e: [{"matcher": "", "hooks": [{"type": "command", "command": f"LH_CONFIG=/x/y.toml lh-hook {e} "
                                                     "|| exit 0"}]}] for e in settings.EVENTS}
    target.write_text(json.dumps(data))
    said = invoke("doctor").out
    assert f"ok    hooks: {target}: {', '.join(settings.EVENTS)}" in said, said
    assert "no settings file holds lazy-harness hooks" not in said
    assert "command LH_CONFIG" not in said
