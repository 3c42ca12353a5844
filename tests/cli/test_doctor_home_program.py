"""A hook command the person wrote as ``$HOME/.local/bin/lh-hook Stop`` (or ``${HOME}``, ``~/``) names a
program only the shell resolves. ``lh doctor`` did not check that it can start (``$HOME``: not checked at
all; ``~/``: looked up as a folder named ``~`` and said to be missing when it was there), while a missing
script, one not executable or one whose interpreter is gone makes every hook fail silently (``|| exit
0``). Doctor now reads ``$HOME`` and ``~`` as sh does and says in one line which settings file, which
command, and why it cannot start."""

import json
import sys

import pytest

from lazy_harness import paths, settings
from lazy_harness.hooks import settings_commands
from tests.cli.lhrun import invoke
from tests.cli.test_doctor import checks
from tests.support import fake_claude

SPELLINGS = ["$HOME/.local/bin/lh-hook", "${HOME}/.local/bin/lh-hook", "~/.local/bin/lh-hook",
             '"$HOME/.local/bin/lh-hook"', "LH_CONFIG=/x/y.toml $HOME/.local/bin/lh-hook"]


def registered(home, tmp_path, monkeypatch, program):
    fake_claude.on_path(monkeypatch, tmp_path / "bin")
    fake_claude.install(tmp_path / "bin")
    target = home / ".claude" / "settings.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    hooks = {e: [{"matcher": "", "hooks": [{"type": "command", "command": f"{program} {e} || exit 0"}]}]
             for e in settings.EVENTS}
    target.write_text(json.dumps({"hooks": hooks}))
    return target, home / ".local" / "bin" / "lh-hook"


def script(path, first_line):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"{first_line}\nimport sys\n")
    path.chmod(0o755)


@pytest.mark.parametrize("program", SPELLINGS)
def test_a_missing_home_lh_hook_fails_naming_the_file_and_the_command(isolated_home, tmp_path, monkeypatch, program):
    target, file = registered(isolated_home, tmp_path, monkeypatch, program)
    r = invoke("doctor")
    status, line = checks(r.out)["hooks"]
    assert status == "fail" and r.code == 1, r.out
    assert str(target) in line and f"{file} not found" in line and "lh hooks install" in line, line


@pytest.mark.parametrize("program", SPELLINGS)
def test_a_home_lh_hook_that_can_start_is_ok(isolated_home, tmp_path, monkeypatch, program):
    _, file = registered(isolated_home, tmp_path, monkeypatch, program)
    script(file, f"#!{sys.executable}")
    status, line = checks(invoke("doctor").out)["hooks"]
    assert status == "ok", line


def test_a_home_lh_hook_not_executable_fails(isolated_home, tmp_path, monkeypatch):
    _, file = registered(isolated_home, tmp_path, monkeypatch, "$HOME/.local/bin/lh-hook")
    script(file, f"#!{sys.executable}")
    file.chmod(0o644)
    status, line = checks(invoke("doctor").out)["hooks"]
    assert status == "fail" and f"{file} is not executable" in line, line


def test_a_home_lh_hook_whose_interpreter_is_gone_fails(isolated_home, tmp_path, monkeypatch):
    _, file = registered(isolated_home, tmp_path, monkeypatch, "$HOME/.local/bin/lh-hook")
    script(file, "#!/gone/pipx/venvs/lazy-harness/bin/python")
    status, line = checks(invoke("doctor").out)["hooks"]
    assert status == "fail" and f"{file} names the interpreter /gone/pipx/venvs/lazy-harness/bin/python" in line, line


@pytest.mark.parametrize("program", SPELLINGS)
def test_the_plugins_run_checks_the_same_program(isolated_home, program):
    """The plugin's hook steps aside for a settings command only when it can start (hooks/entry.py
    ``_gone``): it is given the program read as sh reads it, not None (which counted as able to start)."""
    env = {"HOME": str(isolated_home), "PATH": "/usr/bin"}
    need = settings_commands._needs(f"{program} Stop || exit 0", str(isolated_home), env)
    assert need == [str(isolated_home / ".local" / "bin" / "lh-hook"), None]


def test_another_variable_in_the_program_is_left_to_the_shell(isolated_home):
    assert settings.program_file("$LH_BIN/lh-hook Stop", {"HOME": str(isolated_home)}) is None
    assert settings.program_file("$HOMEDIR/lh-hook Stop", {"HOME": str(isolated_home)}) is None
    assert settings.program_file("'~/lh-hook' Stop", {"HOME": str(isolated_home)}) == "~/lh-hook"
    assert paths.home({"HOME": str(isolated_home)}) == str(isolated_home)
