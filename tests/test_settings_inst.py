"""settings.py against files it must not take as they are: a package gone from under the hook command,
a file of another user, duplicate keys, JSON nested past the stack; and a second install/uninstall
cycle giving the person's file back byte for byte."""

import json
import os
import subprocess
import sys

import pytest

from lazy_harness import settings, settings_write
from lazy_harness.errors import SettingsError

PY = "/usr/bin/python3"
OTHER_UID = 1000 if os.geteuid() != 1000 else 1001
as_root = pytest.mark.skipif(os.geteuid() != 0, reason="giving a file to another user needs root")


def write(path, text: str):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode())
    return path


# --- the package gone before lh hooks uninstall ------------------------------------------------------

@pytest.mark.parametrize("event", list(settings.EVENTS))
def test_a_hook_whose_package_folder_is_gone_exits_0_and_says_nothing(tmp_path, event):
    """pip uninstall before lh hooks uninstall: the command still in settings.json finds no package."""
    command = settings.command_for(event, sys.executable, parent=str(tmp_path / "gone" / "site-packages"))
    payload = json.dumps({"session_id": "s1", "cwd": str(tmp_path), "hook_event_name": event}).encode()
    p = subprocess.run(["sh", "-c", command], cwd=tmp_path, input=payload, capture_output=True, timeout=60,
                       env={"HOME": str(tmp_path / "home"), "PATH": os.environ.get("PATH", "")})
    assert (p.returncode, p.stdout, p.stderr) == (0, b"", b"")


def test_the_launcher_with_the_package_gone_is_still_ours():
    command = settings.command_for("Stop", PY, parent="/gone")
    assert settings.is_ours({"command": command})
    assert "\n" not in settings.command_for("Stop", PY, portable=True)


# --- a file of another user ----------------------------------------------------------------------

@as_root
def test_install_refuses_a_settings_file_of_another_user_and_leaves_it(tmp_path):
    target = write(tmp_path / "claude" / "settings.json", '{\n  "model": "opus"\n}\n')
    os.chown(target, OTHER_UID, OTHER_UID)
    before = os.stat(target)
    with pytest.raises(SettingsError) as caught:
        settings.install(str(target), python=PY)
    message = caught.value.message
    assert str(target) in message and str(OTHER_UID) in message and "\n" not in message
    after = os.stat(target)
    assert (after.st_uid, after.st_ino, after.st_mtime_ns) == (before.st_uid, before.st_ino, before.st_mtime_ns)
    assert target.read_text() == '{\n  "model": "opus"\n}\n'
    assert os.listdir(target.parent) == ["settings.json"]  # no backup either


@as_root
def test_uninstall_refuses_a_settings_file_of_another_user(tmp_path):
    target = tmp_path / "claude" / "settings.json"
    target.parent.mkdir()
    settings.install(str(target), python=PY)
    os.chown(target, OTHER_UID, OTHER_UID)
    before = target.read_bytes()
    with pytest.raises(SettingsError) as caught:
        settings.uninstall(str(target))
    assert str(target) in caught.value.message and str(OTHER_UID) in caught.value.message
    assert target.read_bytes() == before and os.stat(target).st_uid == OTHER_UID


@as_root
def test_a_backup_of_another_user_is_refused_and_never_restored(tmp_path):
    target = write(tmp_path / "claude" / "settings.json", '{"model": "opus"}\n')
    backup = write(tmp_path / "claude" / ("settings.json" + settings_write.BACKUP_SUFFIX), '{"model": "haiku"}\n')
    os.chown(backup, OTHER_UID, OTHER_UID)
    with pytest.raises(SettingsError) as caught:
        settings.install(str(target), python=PY)
    assert str(backup) in caught.value.message and str(OTHER_UID) in caught.value.message
    assert target.read_text() == '{"model": "opus"}\n'
    # the backup handed over after install: uninstall does not take its bytes either
    os.chown(backup, 0, 0)
    settings.install(str(target), python=PY)
    os.chown(backup, OTHER_UID, OTHER_UID)
    with pytest.raises(SettingsError):
        settings.uninstall(str(target))
    assert settings.find_ours(json.loads(target.read_text()))


# --- JSON the settings file must not be taken as ------------------------------------------------------

@pytest.mark.parametrize("text, key", [
    ('{\n  "permissions": {"allow": ["Bash(npm test:*)"]},\n  "model": "opus",\n  "permissions": {"allow": []}\n}\n',
     "permissions"),
    ('{"env": {"A": "1", "A": "2"}}\n', "A"),
])
def test_a_duplicate_key_is_refused_naming_it_and_the_file_is_left(tmp_path, text, key):
    target = write(tmp_path / "claude" / "settings.json", text)
    for call in (lambda: settings.install(str(target), python=PY), lambda: settings.uninstall(str(target))):
        with pytest.raises(SettingsError) as caught:
            call()
        message = caught.value.message
        assert str(target) in message and f'"{key}"' in message and "duplicate" in message and "\n" not in message
    assert target.read_bytes() == text.encode() and os.listdir(target.parent) == ["settings.json"]


def test_json_nested_past_the_stack_is_one_line_naming_the_file(tmp_path):
    text = '{"a": ' + "[" * 100_000 + "]" * 100_000 + "}\n"
    target = write(tmp_path / "settings.json", text)
    with pytest.raises(SettingsError) as caught:
        settings.install(str(target), python=PY)
    assert caught.value.message == f"{target}: not valid JSON (nested too deep); left untouched"
    assert target.read_bytes() == text.encode()



@pytest.mark.parametrize("depth", [700, 990])
def test_json_the_parser_reads_but_a_write_could_not_copy_is_refused_in_one_line(tmp_path, depth):
    """Deep enough to parse and too deep for the merge's copy (Python's recursion limit): refused
    before anything is copied, for install and uninstall, the file as it was."""
    text = '{"env": {"a": ' + "[" * depth + "]" * depth + "}}\n"
    target = write(tmp_path / "settings.json", text)
    for call in (lambda: settings.install(str(target), python=PY), lambda: settings.uninstall(str(target))):
        with pytest.raises(SettingsError) as caught:
            call()
        message = caught.value.message
        assert message.startswith(f"{target}: ") and "deep" in message and message.endswith("left untouched")
    assert target.read_bytes() == text.encode()
    assert not [n for n in os.listdir(target.parent) if n.startswith("settings.json.")]  # no backup, no temp


def test_json_nested_as_settings_are_is_read(tmp_path):
    text = '{"env": {"a": ' + "[" * 60 + "]" * 60 + "}}\n"
    target = write(tmp_path / "settings.json", text)
    settings.install(str(target), python=PY)
    assert json.loads(target.read_text())["env"] == json.loads(text)["env"]

# --- a second install and uninstall --------------------------------------------------------------------

def test_a_second_cycle_gives_the_hand_edited_file_back_byte_for_byte(tmp_path):
    target = tmp_path / "claude" / "settings.json"
    first = '{\n  "model": "opus",\n  "permissions": {"allow": ["Bash(ls:*)"]}\n}\n'
    write(target, first)
    settings.install(str(target), python=PY, now=1_700_000_000)
    settings.uninstall(str(target))
    assert target.read_text() == first
    second = '{\n  "model": "sonnet",\n  "permissions": {"allow": ["Bash(ls:*)", "Bash(git status)"]}\n}\n'
    write(target, second)
    change = settings.install(str(target), python=PY, now=1_800_000_000)
    assert change.backup and change.backup != str(target) + settings_write.BACKUP_SUFFIX
    settings.uninstall(str(target))
    assert target.read_text() == second


def test_uninstall_takes_the_newest_backup_that_matches(tmp_path):
    """Two dated backups hold the same settings in two layouts: the newer one's bytes come back."""
    target = tmp_path / "claude" / "settings.json"
    write(target, '{"model": "opus"}\n')
    base = str(target) + settings_write.BACKUP_SUFFIX
    settings.install(str(target), python=PY, now=1_700_000_000)
    write(tmp_path / "claude" / "settings.json.lh-backup.20300101T000000", '{"model":   "sonnet"}\n')
    write(tmp_path / "claude" / "settings.json.lh-backup.20300101T000000-1", '{ "model": "sonnet" }\n')
    data = json.loads(target.read_text())
    data["model"] = "sonnet"
    target.write_text(json.dumps(data, indent=2) + "\n")
    settings.uninstall(str(target))
    assert target.read_text() == '{ "model": "sonnet" }\n'
    assert open(base).read() == '{"model": "opus"}\n'
