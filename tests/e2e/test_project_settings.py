"""The portable project settings form, with the real Claude Code CLI.

`lh hooks install --project` writes `lh-hook <Event>` into the project's `.claude/settings.json`,
naming no path of this machine; Claude Code finds `lh-hook` on PATH, as a teammate's machine would.
"""

from __future__ import annotations

import json
import os
import sys

import pytest

from loop_home import HOOK_EVENTS, LoopHome
from standin import TURN, Script, inline_system_text
from test_compound_loop import OPEN_ITEMS, write_memory

pytestmark = pytest.mark.e2e


def test_project_settings_with_lh_hook_on_path_read_the_memory_back(loop_home: LoopHome) -> None:
    home = loop_home
    home.standin.script = Script(text="Seen.")
    home.install()  # the config; then move the hooks from the user file to the project file
    assert home.lh("hooks", "uninstall").returncode == 0
    proc = home.lh("hooks", "install", "--project")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    shared = home.project / ".claude" / "settings.json"
    text = shared.read_text()
    assert sys.executable not in text and str(home.home) not in text, text
    commands = [h["command"] for e in HOOK_EVENTS for g in json.loads(text)["hooks"][e] for h in g["hooks"]]
    assert commands == [f"lh-hook {e} || exit 0" for e in HOOK_EVENTS]
    assert not (home.claude.claude_dir / "settings.json").exists()
    # lh-hook on PATH the way pipx or an activated venv puts it there
    home.env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + home.env["PATH"]
    write_memory(home, OPEN_ITEMS)

    proc = home.claude.run_print("What is open?", "--output-format", "json")
    assert proc.returncode == 0, proc.stderr
    sid = json.loads(proc.stdout)["session_id"]
    assert "source=startup context " in home.wait_hook("SessionStart", sid)
    home.wait_hook("SessionEnd", sid)
    home.wait_idle()
    context = inline_system_text(home.standin.log.of_kind(TURN)[-1])
    assert all(item in context for item in OPEN_ITEMS), context
