"""lh hooks uninstall after a second install that made the file: a backup kept by an earlier install
(of the person's file as it was then) does not put an event list back that only our entries filled
(docs/how/hooks.md, "Backups of the original": with no backup, what ours left empty goes)."""

import json

from lazy_harness import settings
from tests.cli.lhrun import invoke

MINE = {"matcher": "", "hooks": [{"type": "command", "command": "echo mine"}]}


def test_a_file_install_made_is_deleted_though_an_older_backup_held_that_event(isolated_home):
    target = isolated_home / ".claude" / "settings.json"
    target.parent.mkdir()
    original = json.dumps({"hooks": {"Stop": [MINE]}}, indent=2).encode() + b"\n"
    target.write_bytes(original)
    assert invoke("hooks", "install").code == 0
    assert invoke("hooks", "uninstall").code == 0
    assert target.read_bytes() == original  # the first cycle gives the file back
    target.unlink()  # the person starts over: the next install makes the file
    assert invoke("hooks", "install").code == 0
    r = invoke("hooks", "uninstall")
    assert r.code == 0, r.err
    assert not target.exists(), target.read_text()
    assert "deleted" in r.out


def test_an_event_list_the_person_emptied_since_install_goes_with_ours(isolated_home):
    target = isolated_home / ".claude" / "settings.json"
    target.parent.mkdir()
    target.write_text(json.dumps({"model": "opus", "hooks": {"Stop": [MINE]}}, indent=2) + "\n")
    assert invoke("hooks", "install").code == 0
    data = json.loads(target.read_text())
    data["hooks"]["Stop"] = [g for g in data["hooks"]["Stop"] if g != MINE]  # removed by hand (/hooks)
    target.write_text(json.dumps(data, indent=2) + "\n")
    assert invoke("hooks", "uninstall").code == 0
    assert json.loads(target.read_text()) == {"model": "opus"}
    assert not settings.find_ours(json.loads(target.read_text()))
