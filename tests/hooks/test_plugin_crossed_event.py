"""The plugin's run of an event leaves when a settings file registers our hook for that event (Claude Code
runs both). A command of ours copied into another event with its event word left (``lh-hook Stop`` under
SessionStart) runs the hook of the event it names, not of the one holding it: the plugin's SessionStart
left for it, and no run read memory back. Only a command that runs the event's own hook counts now."""

import json
import os
import sys

import pytest

from lazy_harness.hooks import settings_commands
from tests.hooks.test_plugin_twice_inst import plugin, run, runs_of


@pytest.fixture
def proj(tmp_path):
    p = tmp_path / "proj"
    (p / ".git").mkdir(parents=True)
    return p


def test_the_plugins_run_does_not_leave_for_a_command_of_another_event(proj, tmp_path, monkeypatch):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "lh-hook").write_text(f"#!{sys.executable}\nimport sys\n")
    (bin_dir / "lh-hook").chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    target = proj / ".claude" / "settings.json"
    target.parent.mkdir()
    entry = {"type": "command", "command": "lh-hook Stop || exit 0"}
    target.write_text(json.dumps({"hooks": {"SessionStart": [{"matcher": "", "hooks": [entry]}]}}))
    p = run("SessionStart", proj, plugin.FLAG)
    assert p.returncode == 0 and len(runs_of("SessionStart")) == 1, p
    found = settings_commands.look([(str(target), target.read_bytes())], str(proj), dict(os.environ), 0.0, None)
    assert found["runs"] == {}


def test_a_codex_command_in_a_settings_file_is_no_run_of_claude_codes(proj):
    """``--agent codex`` (copied from Codex's hooks.json) runs the hook as Codex's: the plugin does the
    work of Claude Code's session itself."""
    target = proj / ".claude" / "settings.json"
    target.parent.mkdir()
    entry = {"type": "command", "command": "/usr/bin/lh-hook Stop --agent codex || exit 0"}
    target.write_text(json.dumps({"hooks": {"Stop": [{"matcher": "", "hooks": [entry]}]}}))
    found = settings_commands.look([(str(target), target.read_bytes())], str(proj), dict(os.environ), 0.0, None)
    assert found["runs"] == {}


def test_the_plugins_form_written_in_a_settings_file_does_the_work(proj):
    """``lh-hook Stop --plugin`` written in a settings file (the plugin's line, shortened): a run with
    ``--plugin`` leaves when a settings file registers ours, and this one counted as that: it left for
    itself, and no run did the work. It is no settings run now."""
    target = proj / ".claude" / "settings.json"
    target.parent.mkdir()
    entry = {"type": "command", "command": "lh-hook Stop --plugin || exit 0"}
    target.write_text(json.dumps({"hooks": {"Stop": [{"matcher": "", "hooks": [entry]}]}}))
    p = run("Stop", proj, plugin.FLAG)
    assert p.returncode == 0 and len(runs_of("Stop")) == 1, p


def test_the_flag_read_in_commands_is_the_plugins():
    from lazy_harness import hook_command

    assert hook_command.PLUGIN_FLAG == plugin.FLAG
