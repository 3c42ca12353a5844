"""An empty settings.json written moments ago is another tool's write in progress (it truncates, then
writes, as Node's writeFileSync does): install waits a moment for it to fill instead of taking it
for ``{}`` at once and writing only our hooks over the person's settings. Still empty after the wait,
it is empty (``touch`` then ``lh hooks install``)."""

import json
import os
import time

import pytest

from lazy_harness import settings, settings_read

from tests.cli.lhrun import invoke

PY = "/usr/bin/python3"
THEIRS = {"model": "sonnet", "permissions": {"allow": ["Bash(ls)"]}}


def aged(path, seconds):
    """Set ``path``'s mtime ``seconds`` before now."""
    then = time.time() - seconds
    os.utime(path, (then, then))


class Pauses:
    """Stands in for the wait between two looks: records each pause; ``fill`` is written into the
    file at the pause numbered ``at`` (the other tool's write landing while install waits)."""

    def __init__(self, path=None, fill=None, at=0):
        self.path, self.fill, self.at, self.seconds = path, fill, at, []

    def __call__(self, seconds):
        if self.fill is not None and len(self.seconds) == self.at:
            with open(self.path, "r+b") as fh:  # why: in place, as the truncating writer does
                fh.write(self.fill)
        self.seconds.append(seconds)


@pytest.fixture
def pauses(monkeypatch):
    p = Pauses()
    monkeypatch.setattr(settings_read, "_pause", p)
    return p


def test_an_old_empty_file_is_still_an_empty_object(tmp_path, pauses):
    target = tmp_path / "settings.json"
    target.write_bytes(b"")
    aged(target, 60)
    change = settings.install(str(target), python=PY)
    assert change.action == "updated" and pauses.seconds == []
    assert len(settings.find_ours(json.loads(target.read_text()))) == len(settings.EVENTS)


def test_a_fresh_empty_file_that_fills_while_install_waits_keeps_what_was_written(tmp_path, monkeypatch):
    target = tmp_path / "settings.json"
    target.write_bytes(b"")
    aged(target, 0.2)
    filled = (json.dumps(THEIRS, indent=2) + "\n").encode()
    pauses = Pauses(target, filled, at=3)
    monkeypatch.setattr(settings_read, "_pause", pauses)
    change = settings.install(str(target), python=PY)
    data = json.loads(target.read_text())
    assert data["model"] == "sonnet" and data["permissions"] == THEIRS["permissions"]
    assert len(settings.find_ours(data)) == len(settings.EVENTS)
    assert open(change.backup, "rb").read() == filled  # the person's file, not 0 bytes
    assert len(pauses.seconds) == 4


def test_a_fresh_empty_file_that_stays_empty_is_an_empty_object_after_a_bounded_wait(tmp_path, pauses):
    """``touch settings.json`` and then ``lh hooks install``: a file still empty after the looks is empty."""
    target = tmp_path / "settings.json"
    target.write_bytes(b"")
    aged(target, 0.5)
    change = settings.install(str(target), python=PY)
    assert change.action == "updated"
    assert len(settings.find_ours(json.loads(target.read_text()))) == len(settings.EVENTS)
    # bounded: a few looks over a short time, never an open-ended wait
    assert len(pauses.seconds) >= 2 and sum(pauses.seconds) <= 3


def test_a_file_with_an_mtime_a_moment_ahead_is_fresh_too(tmp_path, pauses):
    """A clock a little behind the file system's (a network folder) still counts as just written."""
    target = tmp_path / "settings.json"
    target.write_bytes(b"")
    aged(target, -0.5)
    settings.install(str(target), python=PY)
    assert len(pauses.seconds) >= 2


def test_a_blank_file_is_not_a_write_in_progress(tmp_path, pauses):
    """Only 0 bytes is what a truncating writer leaves; a newline is a file someone saved."""
    target = tmp_path / "settings.json"
    target.write_bytes(b"\n")
    assert settings.install(str(target), python=PY).action == "updated" and pauses.seconds == []


def test_the_cli_installs_into_a_file_just_made_empty(isolated_home, pauses):
    target = isolated_home / ".claude" / "settings.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(b"")
    aged(target, 0.1)
    r = invoke("hooks", "install")
    assert r.code == 0, r.err
    assert len(settings.find_ours(json.loads(target.read_text()))) == len(settings.EVENTS)
    assert pauses.seconds
