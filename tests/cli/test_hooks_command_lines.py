"""A command of ours on more than one line, as sh reads it: a comment line or a blank line before it
(``# lazy-harness memory\\nlh-hook Stop``), or a line continued with a backslash (``lh-hook \\\\\\nStop``).
sh runs our hook and nothing else, but lh read the ``#`` as the program (or the line break as the end of
the command, or ``\\nStop`` as the event): the command was the person's, ``lh hooks install`` added a
second entry beside it (every event ran twice), uninstall left it, and doctor said nothing was
installed. And the part before the program install keeps (an ``LH_CONFIG=...``) never takes the comment
with it: kept, it would have made the whole new command a comment."""

import sys

import pytest

from lazy_harness import hook_command, settings
from lazy_harness.hooks import settings_commands
from tests.cli.lhrun import invoke
from tests.cli.test_doctor import checks
from tests.cli.test_doctor_hand_edited_commands import registered
from tests.cli.test_hooks_env_prefix import stop_commands, write

OURS = ["# lazy-harness memory\nlh-hook Stop || exit 0", "\nlh-hook Stop", "  # note\n\n  lh-hook Stop",
        "lh-hook \\\nStop || exit 0", "lh-hook Stop \\\n|| exit 0", "lh-hook Stop ||\\\n exit 0",
        "LH_CONFIG=/x/y.toml \\\nlh-hook Stop", "# a\n# b\nLH_CONFIG=/x/y.toml lh-hook Stop", "lh-hook St\\\nop",
        "lh-hook \"St\\\nop\"", "# a backslash ends no comment line \\\nlh-hook Stop"]
NOT_OURS = ["# lh-hook Stop", "lh-hook\nStop", "A=1\nlh-hook Stop", "# note\nlh-hook Stop\nbackup.sh",
            "lh-hook Stop || exit 0 # a backslash ends no comment \\\nbackup.sh"]


@pytest.mark.parametrize("command", OURS)
def test_a_command_of_ours_on_several_lines_is_ours(command):
    assert settings.is_ours({"command": command}) and settings_commands.our_command(command)
    assert hook_command.event_of(command) == "Stop" and hook_command.program(command) == "lh-hook"


@pytest.mark.parametrize("command", NOT_OURS)
def test_what_sh_runs_as_more_than_our_hook_is_not_ours(command):
    assert not settings.is_ours({"command": command})


def test_the_guard_continued_on_the_next_line_is_our_guard():
    assert hook_command.guarded("lh-hook Stop \\\n|| exit 0") and hook_command.guarded("lh-hook Stop ||\\\n exit 0")


@pytest.mark.parametrize("command,prefix", [("# note\nlh-hook Stop", ""),
                                            ("# note\nLH_CONFIG=/x/y.toml lh-hook Stop", "LH_CONFIG=/x/y.toml "),
                                            ("LH_CONFIG=/x/y.toml \\\nlh-hook Stop", "LH_CONFIG=/x/y.toml ")])
def test_what_install_keeps_before_the_program_is_no_comment(command, prefix):
    assert settings.command_prefix(command) == prefix


def test_install_replaces_a_command_of_ours_after_a_comment_line_and_uninstall_removes_it(isolated_home):
    target = write(isolated_home, ["# lazy-harness memory\nLH_CONFIG=/x/y.toml lh-hook Stop || exit 0",
                                   "notify-send done"])
    r = invoke("hooks", "install", "--write-settings")
    assert r.code == 0, r.out + r.err
    assert stop_commands(target) == ["LH_CONFIG=/x/y.toml " + settings.command_for("Stop"), "notify-send done"]
    assert invoke("hooks", "uninstall").code == 0
    assert stop_commands(target) == ["notify-send done"]


def test_doctor_reads_commands_of_ours_after_a_comment_line(isolated_home, tmp_path, monkeypatch):
    registered(isolated_home, tmp_path, monkeypatch, lambda e: f"# lazy-harness memory\nlh-hook {e} || exit 0")
    status, line = checks(invoke("doctor").out)["hooks"]
    assert status == "ok", line
    assert sys.executable  # the fake lh-hook on PATH names this interpreter


SH_PREFIXES = ["FOO='a\\\nb' ", 'FOO="a\\\nb" ', "FOO=a\\\nb ", "FOO=\\'x \\\nBAR='c\\\nd' ",
               "FOO=\"it's\\\n\" BAR='\\' ", "env FOO='x\\\\\\\ny' "]


@pytest.mark.parametrize("before", SH_PREFIXES)
def test_the_prefix_install_keeps_sets_what_sh_sets(before, tmp_path):
    """A backslash and a line break inside single quotes are the value's own characters in sh; lh dropped
    them from the prefix it keeps, so the hook ran with another value than the person wrote."""
    import subprocess

    kept = settings.command_prefix(before + "lh-hook Stop")

    def environment(prefix: str) -> list[str]:
        command = prefix + ("" if prefix.startswith("env ") else "env")
        out = subprocess.run(["sh", "-c", command], capture_output=True, text=True, env={"PATH": "/usr/bin:/bin"},
                             check=True).stdout
        return sorted(line for line in out.split("\n") if line.startswith(("FOO=", "BAR=")))

    assert environment(before) == environment(kept) and environment(kept)
