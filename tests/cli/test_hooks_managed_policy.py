"""A machine whose managed settings (the file an administrator puts in /etc/claude-code, which no user
or project setting overrides) set ``"allowManagedHooksOnly": true`` or ``"disableAllHooks": true``:
Claude Code runs no hook of the user's or a project's settings files, nor a plugin's. ``lh hooks
install`` wrote ours and said nothing, and ``lh doctor`` said ``ok  hooks``: no session was ever
remembered, and nothing said why. Now both say it, naming the file and the key; the managed file is only
read."""

import json

import pytest

from lazy_harness.cli import hooks_found
from tests.cli.lhrun import invoke


@pytest.fixture
def managed(tmp_path, monkeypatch, isolated_home):
    path = tmp_path / "etc" / "claude-code" / "managed-settings.json"
    path.parent.mkdir(parents=True)
    monkeypatch.setattr(hooks_found, "MANAGED_SETTINGS", str(path))
    monkeypatch.chdir(isolated_home)
    return path


@pytest.mark.parametrize("key", ["allowManagedHooksOnly", "disableAllHooks"])
def test_install_says_the_hooks_will_not_run_and_doctor_fails(managed, key):
    policy = json.dumps({key: True, "permissions": {"deny": ["Bash(curl:*)"]}}, indent=2)
    managed.write_text(policy)
    r = invoke("hooks", "install", "--write-settings")
    assert r.code == 0
    assert (f"warning: {managed} (managed settings, which no user or project setting overrides) sets "
            f"\"{key}\": true: Claude Code will not run these hooks") in r.out, r.out
    said = invoke("doctor").out
    assert f"fail  hooks: {managed} (managed settings" in said, said
    assert "ok  hooks:" not in said
    assert managed.read_text() == policy  # read, never written


def test_a_policy_that_lists_our_hooks_itself_lets_them_run(managed, isolated_home):
    invoke("hooks", "install", "--write-settings")
    user = isolated_home / ".claude" / "settings.json"
    managed.write_text(json.dumps({"allowManagedHooksOnly": True, "hooks": json.loads(user.read_text())["hooks"]}))
    said = invoke("doctor").out
    assert "managed settings" not in said, said


@pytest.mark.parametrize("text", ['{"allowManagedHooksOnly": false}', "{ not json", ""])
def test_no_policy_that_stops_hooks_changes_nothing(managed, text):
    managed.write_text(text)
    r = invoke("hooks", "install", "--write-settings")
    assert r.code == 0 and "managed settings" not in r.out
    assert "managed settings" not in invoke("doctor").out


def test_hooks_status_says_it_below_the_files(managed):
    managed.write_text('{"disableAllHooks": true}')
    invoke("hooks", "install", "--write-settings")
    out = invoke("hooks", "status").out
    assert (f"warning: {managed} (managed settings, which no user or project setting overrides) sets "
            "\"disableAllHooks\": true: Claude Code runs none of these hooks") in out, out


def test_install_that_leaves_settings_to_the_plugin_says_it_too(managed):
    """The plugin's hooks are stopped as well: leaving settings.json to the plugin must not hide it."""
    from tests.support import claude_plugin

    managed.write_text('{"allowManagedHooksOnly": true}')
    claude_plugin.install()
    r = invoke("hooks", "install")  # not a terminal: the settings file is left to the plugin
    assert "left alone (the plugin runs the hooks)" in r.out, r.out
    assert f"warning: {managed} (managed settings, which no user or project setting overrides)" in r.out, r.out
