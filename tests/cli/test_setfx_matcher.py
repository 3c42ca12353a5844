"""Our SessionStart (and SessionEnd) entry runs for every source (reason) only in a group whose matcher
matches them all: install moves it out of a narrower group, leaving the person's entries there, and
lh doctor warns while it sits in one."""

import json

import pytest

from lazy_harness import settings

from tests.cli.lhrun import invoke
from tests.support import fake_claude

PY = "/usr/bin/python3"
THEIRS = {"type": "command", "command": "echo hi"}


def ours(event):
    return {"type": "command", "command": settings.command_for(event, PY), "timeout": settings.EVENTS[event]}


def installed(path):
    settings.install(str(path), python=PY)
    return json.loads(path.read_text())


def move_into(path, event, group):
    """The person (or another tool's installer) puts our entry for ``event`` into ``group``."""
    data = json.loads(path.read_text())
    entry = data["hooks"][event][0]["hooks"][0]
    data["hooks"][event] = [{**group, "hooks": [*group["hooks"], entry]}]
    path.write_text(json.dumps(data, indent=2) + "\n")
    return entry


@pytest.mark.parametrize(("event", "matcher"), [("SessionStart", "startup"), ("SessionStart", "resume|clear"),
                                                ("SessionEnd", "logout"), ("SessionStart", None)])
def test_install_moves_ours_out_of_a_narrower_group(tmp_path, event, matcher):
    target = tmp_path / "settings.json"
    installed(target)
    entry = move_into(target, event, {"matcher": matcher, "hooks": [THEIRS]})
    change = settings.install(str(target), python=PY)
    assert change.action == "updated"
    groups = json.loads(target.read_text())["hooks"][event]
    assert groups == [{"matcher": matcher, "hooks": [THEIRS]}, {"matcher": "", "hooks": [entry]}]
    assert settings.install(str(target), python=PY).action == "unchanged"


def test_a_narrow_group_holding_only_ours_goes(tmp_path):
    target = tmp_path / "settings.json"
    installed(target)
    entry = move_into(target, "SessionStart", {"matcher": "startup", "hooks": []})
    settings.install(str(target), python=PY)
    assert json.loads(target.read_text())["hooks"]["SessionStart"] == [{"matcher": "", "hooks": [entry]}]


@pytest.mark.parametrize("group", [{"hooks": [THEIRS]}, {"matcher": "", "hooks": [THEIRS]},
                                   {"matcher": "*", "hooks": [THEIRS]}])
def test_ours_in_a_group_that_matches_everything_stays_there(tmp_path, group):
    target = tmp_path / "settings.json"
    installed(target)
    move_into(target, "SessionStart", group)
    before = target.read_bytes()
    assert settings.install(str(target), python=PY).action == "unchanged"
    assert target.read_bytes() == before


def test_events_without_matchers_are_left_in_their_group(tmp_path):
    """Stop and UserPromptSubmit take no matcher (Claude Code runs every group): nothing to move."""
    target = tmp_path / "settings.json"
    installed(target)
    move_into(target, "Stop", {"matcher": "whatever", "hooks": [THEIRS]})
    assert settings.install(str(target), python=PY).action == "unchanged"


def test_the_one_in_a_wide_group_is_kept_when_ours_is_in_both(tmp_path):
    target = tmp_path / "settings.json"
    data = installed(target)
    data["hooks"]["SessionStart"].insert(0, {"matcher": "startup", "hooks": [THEIRS, ours("SessionStart")]})
    target.write_text(json.dumps(data, indent=2) + "\n")
    settings.install(str(target), python=PY)
    assert json.loads(target.read_text())["hooks"]["SessionStart"] == [
        {"matcher": "startup", "hooks": [THEIRS]}, {"matcher": "", "hooks": [ours("SessionStart")]}]


def test_uninstall_after_the_move_leaves_the_persons_group(tmp_path):
    target = tmp_path / "settings.json"
    target.write_text('{"model": "opus"}\n')
    installed(target)
    move_into(target, "SessionStart", {"matcher": "startup", "hooks": [THEIRS]})
    settings.install(str(target), python=PY)
    settings.uninstall(str(target))
    assert json.loads(target.read_text()) == {"model": "opus", "hooks": {"SessionStart": [
        {"matcher": "startup", "hooks": [THEIRS]}]}}


def test_find_ours_says_which_entries_sit_in_a_narrower_group(tmp_path):
    target = tmp_path / "settings.json"
    installed(target)
    move_into(target, "SessionStart", {"matcher": "startup", "hooks": [THEIRS]})
    found = {o.event: o.narrow for o in settings.find_ours(json.loads(target.read_text()))}
    assert found == {"SessionStart": '"startup"', "Stop": None, "SessionEnd": None, "UserPromptSubmit": None}


def test_doctor_warns_while_ours_sits_in_a_narrower_group(isolated_home, tmp_path, monkeypatch):
    fake_claude.on_path(monkeypatch, tmp_path / "bin")
    fake_claude.install(tmp_path / "bin")
    assert invoke("hooks", "install").code == 0
    target = isolated_home / ".claude" / "settings.json"
    move_into(target, "SessionStart", {"matcher": "startup", "hooks": [THEIRS]})
    lines = [line for line in invoke("doctor").out.splitlines() if line.split()[1:2] == ["hooks:"]]
    assert len(lines) == 1 and lines[0].startswith("warn  hooks: "), lines
    assert "SessionStart" in lines[0] and '"startup"' in lines[0] and "lh hooks install" in lines[0]
    assert invoke("hooks", "install").code == 0
    lines = [line for line in invoke("doctor").out.splitlines() if line.split()[1:2] == ["hooks:"]]
    assert len(lines) == 1 and lines[0].startswith("ok    hooks: "), lines
