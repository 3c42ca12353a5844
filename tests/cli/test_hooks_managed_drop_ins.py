"""Claude Code also reads drop-in managed settings: ``managed-settings.d/*.json`` beside
``managed-settings.json`` (not dot-prefixed), merged after it in name order, the later file deciding a
key. Seen with the real CLI 2.1.332 (a private mount namespace holding its own /etc/claude-code): a
drop-in's ``"disableAllHooks": true`` or ``"allowManagedHooksOnly": true`` stopped the user file's
SessionStart hook; a later ``false`` (a drop-in after the base file, or after another drop-in) let it
run; ``.hidden.json`` and ``off.txt`` were not read; a drop-in's own hooks ran under
``allowManagedHooksOnly``. lh read only managed-settings.json: install and doctor said nothing while
a drop-in stopped every hook of ours."""

import json

import pytest

from lazy_harness.cli import hooks_found
from tests.cli.lhrun import invoke


@pytest.fixture
def managed(tmp_path, monkeypatch, isolated_home):
    path = tmp_path / "etc" / "claude-code" / "managed-settings.json"
    (path.parent / "managed-settings.d").mkdir(parents=True)
    monkeypatch.setattr(hooks_found, "MANAGED_SETTINGS", str(path))
    monkeypatch.chdir(isolated_home)
    return path


def drop_in(managed, name, data):
    path = managed.parent / "managed-settings.d" / name
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return path


@pytest.mark.parametrize("key", ["allowManagedHooksOnly", "disableAllHooks"])
def test_a_drop_in_that_stops_hooks_is_said_by_install_and_doctor(managed, key):
    path = drop_in(managed, "50-policy.json", {key: True})
    r = invoke("hooks", "install", "--write-settings")
    assert r.code == 0
    assert (f"warning: {path} (managed settings, which no user or project setting overrides) sets "
            f"\"{key}\": true: Claude Code will not run these hooks") in r.out, r.out
    said = invoke("doctor").out
    assert f"fail  hooks: {path} (managed settings" in said, said


@pytest.mark.parametrize("files", [
    {"managed-settings.json": {"disableAllHooks": True}, "50-on.json": {"disableAllHooks": False}},
    {"10-off.json": {"disableAllHooks": True}, "20-on.json": {"disableAllHooks": False}},
    {"managed-settings.json": {"allowManagedHooksOnly": True}, "50.json": {"allowManagedHooksOnly": False}},
    {".hidden.json": {"disableAllHooks": True}, "off.txt": {"disableAllHooks": True}},
    {"10-off.json": "{ not json", "20.json": {"permissions": {}}},
])
def test_what_claude_code_merges_after_or_does_not_read_stops_nothing(managed, files):
    for name, data in files.items():
        if name == "managed-settings.json":
            managed.write_text(json.dumps(data))
        else:
            drop_in(managed, name, data)
    r = invoke("hooks", "install", "--write-settings")
    assert r.code == 0 and "managed settings" not in r.out, r.out
    assert "managed settings" not in invoke("doctor").out


def test_our_hooks_in_a_drop_in_run_under_allow_managed_hooks_only(managed, isolated_home):
    invoke("hooks", "install", "--write-settings")
    user = isolated_home / ".claude" / "settings.json"
    managed.write_text(json.dumps({"allowManagedHooksOnly": True}))
    drop_in(managed, "60-hooks.json", {"hooks": json.loads(user.read_text())["hooks"]})
    assert "managed settings" not in invoke("doctor").out
