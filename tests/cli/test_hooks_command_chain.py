"""A command that runs our hook and more (``LH_CONFIG=/x/y.toml lh-hook Stop && notify-send done``, ``lh-hook
Stop; ~/bin/backup.sh``, a redirection of its output) was taken for ours whole: ``lh hooks install``
rewrote it to our form, dropping what the person ran after it, and ``lh hooks uninstall`` removed the
person's command with ours. Such a command is the person's (ADR 0070, amended): lh keeps it byte for
byte. Ours is the program and its words, then nothing or our ``|| exit 0``."""

import json

import pytest

from lazy_harness import settings
from lazy_harness.hooks import settings_commands
from tests.cli.lhrun import invoke
from tests.cli.test_hooks_env_prefix import stop_commands, write

CHAINED = ["LH_CONFIG=/x/y.toml lh-hook Stop && notify-send done", "lh-hook Stop; ~/bin/backup.sh",
           "LH_CONFIG=/x/y.toml lh-hook Stop 2>>/tmp/lh.err", "lh-hook Stop | tee -a /tmp/lh.log",
           "A=1 lh-hook Stop\nnotify-send done", "env A=1 lh-hook Stop & wait", "lh-hook Stop || notify-send failed"]
OURS = ["lh-hook Stop", "lh-hook Stop || exit 0", "A=1 lh-hook Stop  ||  exit 0 ", "lh-hook Stop\n",
        "lh-hook Stop --agent codex || exit 0", "'/opt/my tools/lh-hook' Stop"]


@pytest.mark.parametrize("command", CHAINED)
def test_a_command_that_runs_more_than_our_hook_is_the_persons(command):
    assert not settings.is_ours({"command": command})
    assert not settings_commands.our_command(command)


@pytest.mark.parametrize("command", OURS)
def test_our_program_alone_or_with_our_guard_is_ours(command):
    assert settings.is_ours({"command": command})
    assert settings_commands.our_command(command)


def test_install_and_uninstall_keep_a_chained_command_byte_for_byte(isolated_home):
    target = write(isolated_home, CHAINED)
    assert invoke("hooks", "install", "--write-settings").code == 0
    assert stop_commands(target) == [*CHAINED, settings.command_for("Stop")]
    once = target.read_bytes()
    assert invoke("hooks", "install", "--write-settings").code == 0
    assert target.read_bytes() == once
    assert invoke("hooks", "uninstall").code == 0
    assert stop_commands(target) == CHAINED
    assert json.loads(target.read_text())["hooks"]["Stop"][0]["hooks"][0]["command"] == CHAINED[0]


def test_install_says_which_command_of_the_persons_also_names_lh_hook(isolated_home):
    target = write(isolated_home, ["lh-hook Stop; ~/bin/backup.sh", "notify-send done"])
    said = invoke("hooks", "install", "--write-settings").out
    assert (f"warning: {target}: Stop: your command \"lh-hook Stop; ~/bin/backup.sh\" names lh-hook; kept as "
            "yours, beside ours: if it runs lh-hook, the event runs twice (leave lh-hook out of it)") in said, said
    assert said.count("names lh-hook") == 1


@pytest.mark.parametrize("ours_too", [True, False])
def test_uninstall_says_which_command_of_the_persons_still_runs_our_hook(isolated_home, ours_too):
    """The person's command that names lh-hook stays after uninstall: it runs our hook still, which
    "removed Stop" (or "holds no lazy-harness hooks") alone did not say."""
    target = write(isolated_home, ["lh-hook Stop; ~/bin/backup.sh", "notify-send done"])
    if ours_too:
        assert invoke("hooks", "install", "--write-settings").code == 0
    said = invoke("hooks", "uninstall").out
    assert (f"note: {target}: Stop: your command \"lh-hook Stop; ~/bin/backup.sh\" names lh-hook; left as yours: "
            "if it runs lh-hook, lazy-harness's hook runs there still (leave lh-hook out of it)") in said, said
    assert stop_commands(target) == ["lh-hook Stop; ~/bin/backup.sh", "notify-send done"]
