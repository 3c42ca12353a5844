"""One settings file holding two different commands of ours for one event (a hand edit, a merge of a
project's file that kept both sides, an older form beside the new one). Claude Code drops a command
repeated word for word, but runs two different ones both: that event ran twice, and doctor only
listed the event twice among the others. Now it names the event and what to run."""

import json
import os
import sys

from lazy_harness import settings
from tests.cli.lhrun import invoke


def test_doctor_names_an_event_whose_two_different_commands_both_run(isolated_home, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    # why: doctor weighs only commands that can start; lh-hook is installed beside this interpreter,
    # which is on PATH only in an activated environment
    monkeypatch.setenv("PATH", f"{os.path.dirname(sys.executable)}{os.pathsep}{os.environ['PATH']}")
    target = isolated_home / ".claude" / "settings.json"
    assert invoke("hooks", "install", "--write-settings").code == 0
    data = json.loads(target.read_text())
    portable = settings.command_for("UserPromptSubmit", portable=True)
    data["hooks"]["UserPromptSubmit"].append({"matcher": "", "hooks": [{"type": "command", "command": portable}]})
    data["hooks"]["Stop"].append(json.loads(json.dumps(data["hooks"]["Stop"][0])))  # the same words: run once
    target.write_text(json.dumps(data, indent=2))
    said = invoke("doctor").out
    assert (f"warn  hooks: {target}: UserPromptSubmit is registered by 2 different commands, and Claude Code "
            "runs each (the event runs twice)  (hint: lh hooks install (keeps one per event))") in said, said
    assert "Stop is registered" not in said
    assert invoke("hooks", "install", "--write-settings").code == 0
    assert "registered by 2 different commands" not in invoke("doctor").out
