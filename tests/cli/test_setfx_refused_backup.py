"""lh hooks install refused because the file changed while it was edited leaves no backup behind: the
person's file was not replaced, so there is nothing to give back."""

import json
import os

import pytest

from lazy_harness import settings, settings_read, settings_write
from lazy_harness.errors import SettingsError

from tests.cli.lhrun import invoke

PY = "/usr/bin/python3"


def backups(folder):
    return sorted(n for n in os.listdir(folder) if ".lh-backup" in n)


def someone_writes_after_the_read(monkeypatch, target):
    """Another tool saves the file between our read and our write (the first look in ``settings_write.write``)."""
    real_read = settings_read.read

    def read_then_someone_writes(path, *args):
        out = real_read(path, *args)
        target.write_text(json.dumps({"model": "changed by another tool"}) + "\n")
        return out

    monkeypatch.setattr(settings_read, "read", read_then_someone_writes)


def someone_writes_before_the_rename(monkeypatch, target):
    """Another tool saves the file once our bytes are on disk, just before the rename (the second look)."""
    real_write = settings_write.atomic_write

    def atomic_write(path, data, **kwargs):
        hook = kwargs.get("before_replace")
        if hook is not None and path == os.path.realpath(target):
            def changed_then_look():
                target.write_text(json.dumps({"model": "changed by another tool"}) + "\n")
                hook()
            kwargs["before_replace"] = changed_then_look
        return real_write(path, data, **kwargs)

    monkeypatch.setattr(settings_write, "atomic_write", atomic_write)


@pytest.mark.parametrize("race", [someone_writes_after_the_read, someone_writes_before_the_rename])
def test_a_refused_install_leaves_no_new_backup(tmp_path, monkeypatch, race):
    target = tmp_path / "settings.json"
    target.write_text('{"model": "opus"}\n')
    race(monkeypatch, target)
    with pytest.raises(SettingsError, match="changed while lh was editing it; nothing written"):
        settings.install(str(target), python=PY)
    assert json.loads(target.read_text()) == {"model": "changed by another tool"}
    assert backups(tmp_path) == []


def test_a_refused_install_keeps_the_backups_made_before(tmp_path, monkeypatch):
    """The first original is kept from an earlier install; a refused install with another original
    (a dated backup would have been made) removes only what it made itself."""
    target = tmp_path / "settings.json"
    target.write_text('{"model": "opus"}\n')
    settings.install(str(target), python=PY)
    settings.uninstall(str(target))
    target.write_text('{"model": "sonnet"}\n')  # another original than the kept one
    first = (tmp_path / "settings.json.lh-backup").read_bytes()
    someone_writes_before_the_rename(monkeypatch, target)
    with pytest.raises(SettingsError, match="nothing written"):
        settings.install(str(target), python=PY, now=1_800_000_000)
    assert backups(tmp_path) == ["settings.json.lh-backup"]
    assert (tmp_path / "settings.json.lh-backup").read_bytes() == first == b'{"model": "opus"}\n'


def test_the_cli_says_nothing_was_written_and_names_no_backup(isolated_home, monkeypatch):
    target = isolated_home / ".claude" / "settings.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text('{"model": "opus"}\n')
    someone_writes_before_the_rename(monkeypatch, target)
    r = invoke("hooks", "install")
    assert r.code == 1 and "changed while lh was editing it; nothing written" in r.err
    assert "backup:" not in r.out
    assert backups(target.parent) == []


def test_a_successful_install_still_keeps_its_backup(tmp_path):
    target = tmp_path / "settings.json"
    target.write_text('{"model": "opus"}\n')
    change = settings.install(str(target), python=PY)
    assert change.backup == str(tmp_path / "settings.json.lh-backup")
    assert backups(tmp_path) == ["settings.json.lh-backup"]
