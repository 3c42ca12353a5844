"""Hand edits of our entries that ``lh doctor`` read wrong.

- ``lh-hook Stop  ||  exit 0`` (spaces as a person types them) is ours with our guard (ADR 0070), but
  doctor took it for a command an older version wrote without the guard, and said to reinstall.
- A command of ours copied into another event without its event changed (``lh-hook Stop`` under
  SessionStart): the hook runs the event its command names, so SessionStart read nothing back and Stop
  ran twice, while doctor said ok (it counted the entry as SessionStart's)."""

import json
import sys

import pytest

from lazy_harness import hook_command, settings
from tests.cli.lhrun import invoke
from tests.cli.test_doctor import checks
from tests.support import fake_claude


def registered(home, tmp_path, monkeypatch, command_of):
    fake_claude.on_path(monkeypatch, tmp_path / "bin")
    fake_claude.install(tmp_path / "bin")
    script = tmp_path / "bin" / "lh-hook"
    script.write_text(f"#!{sys.executable}\nimport sys\n")
    script.chmod(0o755)
    target = home / ".claude" / "settings.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    hooks = {e: [{"matcher": "", "hooks": [{"type": "command", "command": command_of(e)}]}] for e in settings.EVENTS}
    target.write_text(json.dumps({"hooks": hooks}))
    return target


@pytest.mark.parametrize("guard", ["  ||  exit 0", " ||\texit 0 ", " || exit 0\n"])
def test_our_guard_spaced_by_hand_is_our_guard(isolated_home, tmp_path, monkeypatch, guard):
    registered(isolated_home, tmp_path, monkeypatch, lambda e: f"lh-hook {e}{guard}")
    status, line = checks(invoke("doctor").out)["hooks"]
    assert status == "ok", line


def test_a_command_naming_another_event_is_said(isolated_home, tmp_path, monkeypatch):
    target = registered(isolated_home, tmp_path, monkeypatch,
                        lambda e: f"lh-hook {'Stop' if e == 'SessionStart' else e} || exit 0")
    status, line = checks(invoke("doctor").out)["hooks"]
    assert status == "warn", line
    assert (f"{target}: SessionStart runs \"lh-hook Stop || exit 0\", which runs the hook of Stop: SessionStart "
            "reads nothing back, and Stop runs twice") in line and "lh hooks install" in line, line
    assert invoke("hooks", "install").code == 0
    assert checks(invoke("doctor").out)["hooks"][0] == "ok"


@pytest.mark.parametrize("command,event", [
    ("lh-hook Stop || exit 0", "Stop"), ("LH_CONFIG=/x lh-hook 'SessionEnd'", "SessionEnd"),
    (settings.command_for("UserPromptSubmit", python="/usr/bin/python3"), "UserPromptSubmit"),
    ("/usr/bin/python3 -m lazy_harness.hooks SessionStart", "SessionStart"),
    ("lh-hook $EVENT", None), ("lh-hook", None)])
def test_the_event_a_command_of_ours_names(command, event):
    assert hook_command.event_of(command) == event


def test_a_codex_command_copied_into_claude_codes_settings_is_said(isolated_home, tmp_path, monkeypatch):
    """``--agent codex`` makes the hook take the session for a Codex CLI one (its payload marked so, its
    transcript read as a Codex rollout): copied from Codex's hooks.json, Claude Code's sessions were
    read as Codex's while doctor said ok."""
    target = registered(isolated_home, tmp_path, monkeypatch,
                        lambda e: f"lh-hook {e} {'--agent codex ' if e == 'Stop' else ''}|| exit 0")
    status, line = checks(invoke("doctor").out)["hooks"]
    assert status == "warn", line
    assert (f"{target}: Stop runs \"lh-hook Stop --agent codex || exit 0\", which runs the hook of Codex CLI "
            "(--agent codex): it takes Claude Code's sessions for Codex's") in line, line


def test_a_claude_command_in_codexs_hooks_file_is_said(isolated_home, tmp_path, monkeypatch):
    from lazy_harness import paths
    from tests.support import fake_codex_app_server as fake_codex

    fake_codex.install(tmp_path / "codex-bin")
    monkeypatch.setenv("PATH", f"{tmp_path / 'codex-bin'}:{__import__('os').environ['PATH']}")
    assert invoke("hooks", "install", "--agent", "codex").code == 0
    path = paths.codex_hooks_file()
    data = json.loads(open(path).read())
    entry = data["hooks"]["Stop"][0]["hooks"][0]
    entry["command"] = entry["command"].replace(" --agent codex", "")
    open(path, "w").write(json.dumps(data))
    out = invoke("doctor").out
    (line,) = [x for x in out.splitlines() if x.split(":")[0].split(None, 1)[1:] == ["codex hooks"]]
    assert line.startswith("warn") and "Stop runs" in line and "without --agent codex" in line, out


@pytest.mark.parametrize("command,agent", [
    ("lh-hook Stop || exit 0", "claude"), ("lh-hook Stop --agent codex || exit 0", "codex"),
    ("lh-hook Stop --agent=codex", "codex"), ("lh-hook Stop --agent claude", "claude"),
    (settings.command_for("Stop", python="/usr/bin/python3", agent="codex"), "codex"), ("lh-hook $A", None)])
def test_the_agent_a_command_of_ours_runs_the_hook_for(command, agent):
    assert hook_command.agent_of(command) == agent


def test_the_plugins_form_in_a_settings_file_is_said(isolated_home, tmp_path, monkeypatch):
    target = registered(isolated_home, tmp_path, monkeypatch, lambda e: f"lh-hook {e} --plugin || exit 0")
    status, line = checks(invoke("doctor").out)["hooks"]
    assert status == "warn", line
    assert (f"{target}: SessionStart runs \"lh-hook SessionStart --plugin || exit 0\", the plugin's form of the "
            "hook (--plugin)") in line, line
