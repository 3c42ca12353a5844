"""The plugin's hook (``lh-hook <Event> --plugin``) in a session whose settings files already register our
hooks: Claude Code runs both, so the plugin's run leaves at once, silently, and says so once in hooks.log."""

import json
import os
import subprocess
import sys

import pytest

from lazy_harness import hotload, paths, plugin, settings
from lazy_harness.hooks import entry
from lazy_harness.hooks import settings_commands
from tests.hooks.hookrun import SID, hook_log


def run(event: str, cwd, *flags: str, sid: str = SID) -> subprocess.CompletedProcess:
    payload = {"session_id": sid, "transcript_path": f"/nowhere/{sid}.jsonl", "cwd": str(cwd),
               "hook_event_name": event, "source": "startup", "reason": "other", "prompt": "hi"}
    return subprocess.run([sys.executable, "-m", "lazy_harness.hooks", event, *flags],
                          input=json.dumps(payload).encode(), capture_output=True, env=dict(os.environ), timeout=30)


def runs_of(event: str) -> list[str]:
    return [line for line in hook_log(paths.claude_dir()) if line.split(" ")[1:2] == [event]]


def plugin_notes() -> list[str]:
    return [line for line in hook_log(paths.claude_dir()) if line.split(" ")[1:2] == ["plugin:"]]


@pytest.fixture
def proj(tmp_path):
    p = tmp_path / "proj"
    (p / ".git").mkdir(parents=True)
    return p


@pytest.mark.parametrize("where", ["user", "project", "local"])
def test_the_plugins_run_leaves_when_a_settings_file_read_there_registers_ours(proj, where):
    target = {"user": paths.user_settings_file(), "project": str(proj / ".claude" / "settings.json"),
              "local": str(proj / ".claude" / "settings.local.json")}[where]
    os.makedirs(os.path.dirname(target), exist_ok=True)
    settings.install(target, portable=where == "project")
    for event in ("Stop", "UserPromptSubmit", "SessionEnd", "Stop"):
        p = run(event, proj, plugin.FLAG)
        assert (p.returncode, p.stdout, p.stderr) == (0, b"", b""), p
        assert runs_of(event) == []
    (note,) = plugin_notes()  # once, for all the runs
    assert target in note and str(proj) in note
    p = run("Stop", proj)  # the settings file's own run goes on as before
    assert p.returncode == 0 and len(runs_of("Stop")) == 1


def test_without_our_hooks_in_a_settings_file_the_plugin_runs_as_before(proj):
    settings.install(str(proj / ".claude" / "settings.json"), events={"Stop": 10}, portable=True)
    p = run("SessionEnd", proj, plugin.FLAG)
    assert p.returncode == 0 and len(runs_of("SessionEnd")) == 1  # only Stop is registered there
    p = run("Stop", proj, plugin.FLAG)
    assert p.returncode == 0 and runs_of("Stop") == []


def test_a_settings_file_of_another_folder_does_not_count(proj, tmp_path):
    other = tmp_path / "other"
    other.mkdir()
    settings.install(str(other / ".claude" / "settings.json"), portable=True)
    p = run("Stop", proj, plugin.FLAG)
    assert p.returncode == 0 and len(runs_of("Stop")) == 1 and plugin_notes() == []


def test_after_lh_hooks_uninstall_the_plugin_runs_again(proj):
    user = paths.user_settings_file()
    settings.install(user)
    assert run("Stop", proj, plugin.FLAG).returncode == 0 and runs_of("Stop") == []
    settings.uninstall(user)
    assert run("Stop", proj, plugin.FLAG).returncode == 0 and len(runs_of("Stop")) == 1
    settings.install(user)
    assert run("Stop", proj, plugin.FLAG).returncode == 0 and len(runs_of("Stop")) == 1
    assert len(plugin_notes()) == 2  # registered, gone, registered again: said each time it changed


def test_a_settings_file_that_does_not_parse_registers_nothing(proj):
    os.makedirs(paths.claude_dir(), exist_ok=True)
    with open(paths.user_settings_file(), "w") as fh:
        fh.write('{"hooks": {"Stop": [')
    assert run("Stop", proj, plugin.FLAG).returncode == 0 and len(runs_of("Stop")) == 1


def test_the_plugins_run_that_leaves_loads_only_hot_modules(proj):
    settings.install(paths.user_settings_file())
    flags = ["-X", "importtime", "-m", "lazy_harness.hooks", "Stop", plugin.FLAG]
    payload = json.dumps({"session_id": SID, "cwd": str(proj), "hook_event_name": "Stop"}).encode()
    for _ in range(2):  # the second run: the settings files as the first one saw them
        p = subprocess.run([sys.executable, *flags], input=payload, capture_output=True, env=dict(os.environ),
                           timeout=30)
    names = {line.rsplit("|", 1)[1].strip() for line in p.stderr.decode().splitlines()
             if line.startswith("import time:")}
    ours = {n for n in names if n.startswith("lazy_harness")}
    assert ours <= set(hotload.HOT), ours - set(hotload.HOT)
    assert not {"json", "re", "dataclasses", "shlex", "typing"} & names
    assert runs_of("Stop") == []


@pytest.mark.parametrize("command", [
    settings.command_for("Stop", "/usr/bin/python3"), settings.command_for("Stop", "/opt/my venv/bin/python"),
    settings.command_for("Stop", "/usr/bin/python3", parent="/gone"),
    settings.command_for("Stop", portable=True), settings.command_for("Stop", portable=True, agent="codex"),
    "/usr/bin/python3 -m lazy_harness.hooks Stop", "/usr/bin/python3 -m  lazy_harness.hooks",
    "/home/u/.local/bin/lh-hook Stop", "lh-hook", " lh-hook Stop",
    "/usr/bin/python3 -S -c 'from lazy_harness.hooks.entry import run; run()' Stop",
    plugin.hook_command("Stop"), plugin.hook_command("SessionStart"), "notify-send done", "lh-hooks Stop",
    "python -m lazy_harness.hooksx Stop", "echo lazy_harness.hooks", "my-lh-hook Stop",
])
def test_the_entrys_look_at_commands_agrees_with_settings(command):
    assert settings_commands.our_command(command) == settings.is_ours({"command": command})


def test_the_entrys_files_are_those_settings_says_claude_code_reads(tmp_path):
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    (root / "src" / "deep").mkdir(parents=True)
    for cwd in (root, root / "src" / "deep", tmp_path):
        assert entry.files_read_at(str(cwd), os.environ) == [p for _, p in settings.files_read_at(str(cwd))]
