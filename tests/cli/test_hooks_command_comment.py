"""A comment the person put after a command of ours (``lh-hook Stop || exit 0  # lazy-harness``) is no
command sh runs, but lh read ``#`` and its words as more words of the command: the command was taken for
the person's, ``lh hooks install`` added a second entry beside it (Claude Code ran both: every event
twice) and uninstall left it. A comment runs to the end of its line, as in sh: what follows a line
break is still read."""

import pytest

from lazy_harness import hook_command, settings
from lazy_harness.hooks import settings_commands
from tests.cli.lhrun import invoke
from tests.cli.test_hooks_env_prefix import stop_commands, write

COMMENTED = ["lh-hook Stop || exit 0  # lazy-harness memory", "lh-hook Stop #memory", "lh-hook Stop\n# note",
             "A=1 lh-hook Stop || exit 0 # ; not run"]
NOT_OURS = ["lh-hook Stop # note\nbackup.sh", "lh-hook Stop || exit 0 # note\nnotify-send done", "lh-hook a#b; x"]


@pytest.mark.parametrize("command", COMMENTED)
def test_a_command_of_ours_with_a_comment_is_ours(command):
    assert settings.is_ours({"command": command}) and settings_commands.our_command(command)
    assert hook_command.event_of(command) == "Stop"


@pytest.mark.parametrize("command", NOT_OURS)
def test_a_comment_ends_at_its_line(command):
    assert not settings.is_ours({"command": command})


def test_our_guard_before_a_comment_is_our_guard():
    assert hook_command.guarded("lh-hook Stop || exit 0  # lazy-harness")
    assert not hook_command.guarded("lh-hook Stop # || exit 0")


def test_install_replaces_a_commented_command_of_ours_and_adds_none(isolated_home):
    target = write(isolated_home, [COMMENTED[0], "notify-send done"])
    r = invoke("hooks", "install", "--write-settings")
    assert r.code == 0, r.out + r.err
    assert stop_commands(target) == [settings.command_for("Stop"), "notify-send done"]
    assert "rewrote the command of Stop" in r.out and "# lazy-harness memory" in r.out, r.out
