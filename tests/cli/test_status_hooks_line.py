"""``lh status`` says whether Claude Code runs our hooks here: after ``lh hooks uninstall`` it said
"compound loop: enabled" and nothing else, so nothing told the person that no session is remembered
or read back any more (only ``lh doctor`` did)."""

import json

from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms


def _hooks_line(out: str) -> str:
    return next(line for line in out.splitlines() if line.startswith("hooks:"))


def test_status_names_where_the_hooks_are_and_says_when_there_are_none(isolated_home, tmp_path, monkeypatch):
    project = ms.make_project(str(tmp_path), "app")
    monkeypatch.chdir(project)
    assert invoke("hooks", "install").code == 0
    user_file = isolated_home / ".claude" / "settings.json"
    installed = _hooks_line(invoke("status").out)
    assert str(user_file) in installed and "not" not in installed
    assert invoke("hooks", "uninstall").code == 0
    gone = _hooks_line(invoke("status").out)
    assert "not registered" in gone and "lh hooks install" in gone


def test_status_says_when_disable_all_hooks_stops_them(isolated_home, tmp_path, monkeypatch):
    project = ms.make_project(str(tmp_path), "app")
    monkeypatch.chdir(project)
    assert invoke("hooks", "install").code == 0
    user_file = isolated_home / ".claude" / "settings.json"
    data = json.loads(user_file.read_text())
    user_file.write_text(json.dumps({**data, "disableAllHooks": True}))
    line = _hooks_line(invoke("status").out)
    assert "disableAllHooks" in line and str(user_file) in line
