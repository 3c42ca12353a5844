"""The plugin in the repository (docs/adr/0022): its files, the hook command run by /bin/sh as Claude
Code runs it, and what lh reads of Claude Code's record of an install."""

import json
import os
import subprocess

import pytest

import lazy_harness
from lazy_harness import paths, plugin, settings
from tests.conftest import ROOT
from tests.support import claude_plugin

PAYLOAD = {"session_id": "0b7e3c55-2f4a-4d8e-9a61-5c3b2e1f0d94", "hook_event_name": "SessionStart",
           "source": "startup", "cwd": "/nowhere"}


def load(*parts: str) -> dict:
    with open(os.path.join(ROOT, *parts), encoding="utf-8") as fh:
        return json.load(fh)


def test_the_repository_is_a_marketplace_listing_the_plugin_folder():
    market = load(".claude-plugin", "marketplace.json")
    (entry,) = market["plugins"]
    assert entry["name"] == plugin.NAME and entry["source"] == f"./{plugin.FOLDER}"
    manifest = load(plugin.FOLDER, ".claude-plugin", "plugin.json")
    assert manifest["name"] == plugin.NAME
    assert manifest["version"] == lazy_harness.__version__  # an update reaches users when it changes


def test_hooks_json_registers_the_events_and_timeouts_of_lh_hooks_install():
    doc = load(plugin.FOLDER, "hooks", "hooks.json")
    assert doc == plugin.hooks_document()  # the file is what the code says (regenerate it when this fails)
    timeouts = {event: group[0]["hooks"][0]["timeout"] for event, group in doc["hooks"].items()}
    assert timeouts == settings.EVENTS and timeouts["SessionEnd"] == 5


def run_sh(event: str, path_dirs: list[str], payload: dict = PAYLOAD) -> subprocess.CompletedProcess:
    """The event's command from hooks.json, run by /bin/sh -c as Claude Code runs a command hook."""
    command = load(plugin.FOLDER, "hooks", "hooks.json")["hooks"][event][0]["hooks"][0]["command"]
    env = {"PATH": os.pathsep.join(path_dirs), "HOME": os.environ["HOME"]}
    return subprocess.run(["/bin/sh", "-c", command], input=json.dumps(payload).encode(), capture_output=True,
                          env=env, timeout=20)


@pytest.fixture
def bare_path(tmp_path):
    """A PATH without lh-hook (the shell's own tools only)."""
    empty = tmp_path / "empty"
    empty.mkdir()
    return [str(empty)]


def test_without_lh_hook_session_start_tells_the_person_how_to_install_it(bare_path):
    r = run_sh("SessionStart", bare_path)
    assert r.returncode == 0 and r.stderr == b""
    (line,) = r.stdout.decode().splitlines()
    assert json.loads(line) == {"systemMessage": plugin.MISSING}
    assert "lh-hook is not on PATH" in plugin.MISSING and "pipx install" in plugin.MISSING


@pytest.mark.parametrize("event", ["Stop", "SessionEnd", "UserPromptSubmit"])
def test_without_lh_hook_the_other_events_say_nothing_and_exit_0(bare_path, event):
    r = run_sh(event, bare_path)
    assert (r.returncode, r.stdout, r.stderr) == (0, b"", b"")


def test_with_lh_hook_on_path_the_shell_becomes_lh_hook(tmp_path, bare_path):
    """exec: lh-hook gets the event, --plugin and the payload, its stdout is the hook's, and it runs as
    the shell's own process (no second process stays between Claude Code and lh-hook)."""
    bindir = tmp_path / "bin"
    bindir.mkdir()
    record = tmp_path / "record"
    fake = bindir / "lh-hook"
    fake.write_text(f'#!/bin/sh\necho "$$ $PPID $*" > {record}\n/bin/cat >> {record}\necho \'{{"ok": 1}}\'\n')
    fake.chmod(0o755)
    proc = subprocess.Popen(["/bin/sh", "-c", load(plugin.FOLDER, "hooks", "hooks.json")["hooks"]["Stop"][0]["hooks"][0]
                             ["command"]], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            env={"PATH": os.pathsep.join([str(bindir), *bare_path])})
    out, _ = proc.communicate(json.dumps(PAYLOAD).encode(), timeout=20)
    assert proc.returncode == 0 and out == b'{"ok": 1}\n'
    head, payload = record.read_text().split("\n", 1)
    pid, _, args = head.split(" ", 2)
    assert int(pid) == proc.pid and args == "Stop --plugin"
    assert json.loads(payload) == PAYLOAD


# -- what lh reads of Claude Code's files ----------------------------------------------------------


def test_nothing_installed_reads_as_no_install(tmp_path):
    assert plugin.installs(str(tmp_path)) == [] and plugin.active(str(tmp_path)) is None


def test_a_user_install_enabled_in_the_user_file_is_active(tmp_path):
    folder = claude_plugin.install()
    found = plugin.active(str(tmp_path))
    assert found is not None and found.path == folder and found.scope == "user"
    assert found.decided_by == paths.user_settings_file()
    assert found.describe() == (f"{claude_plugin.PLUGIN_ID} 0.1.0 (user scope), enabled in "
                                f"{paths.user_settings_file()}")


def test_disabled_in_the_project_overrides_enabled_for_the_user(tmp_path):
    project = tmp_path / "app"
    (project / ".git").mkdir(parents=True)
    claude_plugin.install()
    claude_plugin.enable(claude_plugin.PLUGIN_ID, False, "local", str(project))
    assert plugin.active(str(project)) is None
    assert plugin.active(str(tmp_path)) is not None
    (install,) = plugin.installs(str(project / "sub"))
    assert not install.enabled and install.decided_by.endswith("settings.local.json")


def test_a_project_scope_install_applies_to_its_own_project_only(tmp_path):
    app, other = tmp_path / "app", tmp_path / "other"
    for p in (app, other):
        (p / ".git").mkdir(parents=True)
    claude_plugin.install("project", str(app))
    assert plugin.active(str(app)) is not None
    assert plugin.installs(str(other)) == []


def test_another_plugin_is_not_ours(tmp_path):
    claude_plugin.install(plugin_id="claude-mem@thedotmack")
    assert plugin.installs(str(tmp_path)) == []


def test_an_unreadable_plugin_file_is_an_error_naming_it(tmp_path):
    state = paths.claude_plugins_file()
    os.makedirs(os.path.dirname(state))
    with open(state, "w") as fh:
        fh.write("{oops")
    with pytest.raises(plugin.SettingsError) as err:
        plugin.installs(str(tmp_path))
    assert state in err.value.message and "not valid JSON" in err.value.message
    assert plugin.active(str(tmp_path)) is None
