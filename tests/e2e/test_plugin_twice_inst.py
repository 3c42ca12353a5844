"""The lazy-harness plugin installed for one project (`--scope project`), then `lh hooks install` run from
another folder (the home folder), with the real Claude Code CLI, offline.

The user settings.json is read in every session, so in the project Claude Code runs our hooks twice for
each event: the settings file's and the plugin's. The plugin's run sees the settings file's and leaves
at once: one hooks.log line per event, and install named the plugin's install.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from loop_home import LoopHome
from standin import Script

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
PLUGIN_ID = "lazy-harness@lazy-harness"
EVENTS = ("SessionStart", "UserPromptSubmit", "Stop", "SessionEnd")


def test_a_project_plugin_and_the_user_settings_hooks_run_each_event_once(loop_home: LoopHome, tmp_path: Path) -> None:
    home = loop_home
    home.standin.script = Script(text="Fine.")
    home.env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + home.env["PATH"]  # lh-hook, as pipx puts it
    market = tmp_path / "lazy-harness"
    for folder in (".claude-plugin", "plugin"):
        shutil.copytree(ROOT / folder, market / folder)
    for args in (("plugin", "marketplace", "add", str(market)), ("plugin", "install", "--scope", "project", PLUGIN_ID)):
        proc = subprocess.run([home.claude.binary, *args], cwd=home.project, env=home.env, capture_output=True,
                              text=True, timeout=120, stdin=subprocess.DEVNULL)
        assert proc.returncode == 0, f"claude {' '.join(args)}: {proc.stdout}{proc.stderr}"

    installed = home.lh("hooks", "install", cwd=home.home)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    named = [line for line in installed.stdout.splitlines() if PLUGIN_ID in line]
    assert len(named) == 1 and "(project scope)" in named[0] and str(home.project) in named[0], installed.stdout

    proc = subprocess.run([home.claude.binary, "-p", "Hello there", "--output-format", "json"], cwd=home.project,
                          env=home.env, input="", capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    sid = str(json.loads(proc.stdout)["session_id"])
    home.wait_hook("SessionEnd", sid)
    counts = {event: len(home.hook_lines(event, sid)) for event in EVENTS}
    assert counts == dict.fromkeys(EVENTS, 1), home.describe()
    notes = [line for line in home.hooks_log.read_text().splitlines() if line.split(" ")[1:2] == ["plugin:"]]
    assert len(notes) == 1 and str(home.claude.claude_dir / "settings.json") in notes[0], home.describe()
    home.wait_idle()
