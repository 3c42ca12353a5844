"""``CLAUDE_CONFIG_DIR='~/cfg'``: lh took it for ``$HOME/cfg`` before it read the folder as Claude Code does
(``<cwd>/~/cfg``). What the older lh left in ``$HOME/cfg`` stays there: sessions queued and not yet
distilled, a settings.json holding our hooks that Claude Code never read. Nothing said so: the queue
looked empty and the hooks missing. lh doctor names that folder, what waits in it, and the way out
(an absolute CLAUDE_CONFIG_DIR, which Claude Code and lh read alike)."""

import json

from lazy_harness import paths, settings
from tests.cli.lhrun import invoke


def leave_behind(home, tasks=1, hooks=True):
    before = home / "cfg"
    (before / "queue").mkdir(parents=True)
    for i in range(tasks):
        (before / "queue" / f"{1700000000000000000 + i}-abcd{i}.task").write_text(json.dumps({"session_id": "s"}))
    if hooks:
        (before / "settings.json").write_text(json.dumps(settings.merged({}, settings.EVENTS)))
    return before


def test_doctor_names_the_folder_an_older_lh_used_and_what_waits_there(isolated_home, tmp_path, monkeypatch):
    project = tmp_path / "proj"
    project.mkdir()
    monkeypatch.chdir(project)
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", "~/cfg")
    before = leave_behind(isolated_home, tasks=2)
    assert paths.claude_dir_before() == str(before)
    said = invoke("doctor").out
    line = next((x for x in said.splitlines() if str(before) in x), "")
    assert line.startswith("warn  claude folder:"), said
    assert str(project / "~" / "cfg") in line and "2 sessions queued" in line and "settings.json" in line
    assert f'export CLAUDE_CONFIG_DIR="{before}"' in said


def test_nothing_is_said_without_a_tilde_or_without_anything_left(isolated_home, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", "~/cfg")
    before = leave_behind(isolated_home, tasks=0, hooks=False)
    assert "claude folder" not in invoke("doctor").out
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(before))
    assert paths.claude_dir_before() is None
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", "cfg")
    assert paths.claude_dir_before() is None
