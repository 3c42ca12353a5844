"""``lh doctor`` with the plugin enabled and settings hooks that Claude Code will not run: its "hooks
twice" lines must not say that the plugin's runs step aside (they do not: hooks/entry.py settings_register)."""

import json
import os

from lazy_harness import paths, settings
from tests.cli.lhrun import invoke
from tests.support import claude_plugin, fake_claude


def doctor_lines(tmp_path, monkeypatch) -> dict[str, list[str]]:
    fake_claude.on_path(monkeypatch, tmp_path / "bin")
    fake_claude.install(tmp_path / "bin")
    script = tmp_path / "bin" / "lh-hook"
    script.write_text("#!/bin/sh\nexit 0\n")
    script.chmod(0o755)
    r = invoke("doctor")
    found: dict[str, list[str]] = {}
    for line in r.out.splitlines():
        status, _, rest = line.partition("  ")
        found.setdefault(rest.split(":", 1)[0].strip(), []).append(f"{status.strip()} {line}")
    return found


def edit_user_file(**more) -> str:
    user = paths.user_settings_file()
    with open(user) as fh:
        data = json.load(fh)
    data.update(more)
    with open(user, "w") as fh:
        json.dump(data, fh)
    return user


def test_a_null_matcher_file_is_not_said_to_make_the_plugin_step_aside(tmp_path, monkeypatch):
    claude_plugin.install()
    settings.install(paths.user_settings_file())
    with open(paths.user_settings_file()) as fh:
        hooks = json.load(fh)["hooks"]
    hooks["PreToolUse"] = [{"matcher": None, "hooks": [{"type": "command", "command": "true"}]}]
    user = edit_user_file(hooks=hooks)
    (line,) = doctor_lines(tmp_path, monkeypatch)["hooks twice"]
    assert "step aside for the settings'" not in line
    assert line.startswith("warn ") and user in line and "null matcher" in line and "do the work" in line


def test_a_command_that_cannot_start_is_not_said_to_make_the_plugin_step_aside(tmp_path, monkeypatch):
    claude_plugin.install()
    gone = str(tmp_path / "oldvenv" / "bin" / "python3")
    settings.install(paths.user_settings_file(), python=gone)
    (line,) = doctor_lines(tmp_path, monkeypatch)["hooks twice"]
    assert "step aside for the settings'" not in line
    assert "cannot start" in line and "do the work" in line and "lh hooks uninstall" in line


def test_disable_all_hooks_is_not_said_to_make_the_plugin_step_aside(tmp_path, monkeypatch):
    claude_plugin.install()
    settings.install(paths.user_settings_file())
    edit_user_file(disableAllHooks=True)
    (line,) = doctor_lines(tmp_path, monkeypatch)["hooks twice"]
    assert "step aside for the settings'" not in line and "disableAllHooks" in line


def test_valid_settings_hooks_still_say_the_plugin_steps_aside(tmp_path, monkeypatch):
    claude_plugin.install()
    settings.install(paths.user_settings_file())
    assert os.path.exists(paths.user_settings_file())
    (line,) = doctor_lines(tmp_path, monkeypatch)["hooks twice"]
    assert "the plugin's runs step aside for the settings'" in line


def test_an_absolute_lh_hook_whose_interpreter_is_gone_is_not_said_to_make_the_plugin_step_aside(
        tmp_path, monkeypatch):
    """The deleted virtualenv's script is still there; its ``#!`` interpreter is not (as the hook judges it)."""
    claude_plugin.install()
    venv = tmp_path / "oldvenv" / "bin"
    venv.mkdir(parents=True)
    script = venv / "lh-hook"
    script.write_text(f"#!{venv / 'python3'}\nimport sys\n")
    script.chmod(0o755)
    settings.install(paths.user_settings_file())
    with open(paths.user_settings_file()) as fh:
        hooks = json.load(fh)["hooks"]
    for event, groups in hooks.items():
        for group in groups:
            for h in group["hooks"]:
                h["command"] = f"{script} {event}"
    edit_user_file(hooks=hooks)
    (line,) = doctor_lines(tmp_path, monkeypatch)["hooks twice"]
    assert "step aside for the settings'" not in line
    assert "cannot start" in line and "do the work" in line
