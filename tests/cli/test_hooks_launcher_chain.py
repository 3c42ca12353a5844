"""Our launcher's text and ``-m lazy_harness.hooks`` were found anywhere in a command: a launcher command
the person followed with ``; notify-send done`` (or ``&&``, a pipe, a redirection) was taken for ours
whole, so ``lh hooks install`` rewrote it and dropped the person's part, and ``lh hooks uninstall``
removed it. The rule of ADR 0070 for ``lh-hook`` now holds for every form: the launcher or the module is
ours when it is the program's own words, followed by nothing or our ``|| exit 0``; anything more is the
person's, kept byte for byte."""

import shlex
import sys

import pytest

from lazy_harness import settings
from lazy_harness.hooks import settings_commands
from tests.cli.lhrun import invoke
from tests.cli.test_hooks_env_prefix import stop_commands, write

LAUNCHER = settings.command_for("Stop", python="/opt/py/bin/python3")[:-len(settings.GUARD)]
OLD = f"/usr/bin/python3 -S -P -c {shlex.quote(settings.RUN_BEFORE)} Stop"
MODULE = "/usr/bin/python3 -m lazy_harness.hooks Stop"
CHAINED = [LAUNCHER + "; notify-send done", LAUNCHER + " && ~/bin/backup.sh", OLD + " | tee -a /tmp/lh.log",
           MODULE + " 2>>/tmp/lh.err", MODULE + " || notify-send failed", "A=1 " + LAUNCHER + "\nnotify-send done"]
ARGUMENT = [f"bash -c {shlex.quote(MODULE)}", f"echo {shlex.quote(settings.RUN)}",
            f"bash -c {shlex.quote(MODULE + '; backup.sh')}"]
OURS = [LAUNCHER, LAUNCHER + settings.GUARD, OLD, MODULE, MODULE + " || exit 0", "A=1 " + LAUNCHER]


@pytest.mark.parametrize("command", CHAINED + ARGUMENT)
def test_a_launcher_command_that_runs_more_is_the_persons(command):
    assert not settings.is_ours({"command": command})
    assert not settings_commands.our_command(command)


@pytest.mark.parametrize("command", OURS)
def test_a_launcher_alone_or_with_our_guard_is_ours(command):
    assert settings.is_ours({"command": command})
    assert settings_commands.our_command(command)


def test_install_and_uninstall_keep_a_chained_launcher_byte_for_byte(isolated_home):
    target = write(isolated_home, CHAINED)
    r = invoke("hooks", "install", "--write-settings")
    assert r.code == 0, r.out + r.err
    assert stop_commands(target) == [*CHAINED, settings.command_for("Stop")]
    assert r.out.count("names lazy-harness's hook") == len(CHAINED), r.out
    assert invoke("hooks", "uninstall").code == 0
    assert stop_commands(target) == CHAINED


def test_the_launcher_this_python_writes_is_still_ours():
    assert settings.is_ours({"command": settings.command_for("Stop", python=sys.executable)})
