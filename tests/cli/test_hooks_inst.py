"""``lh hooks install``: the user-level settings.local.json (which Claude Code does not read) refused, and
every recorded install of the plugin named, whatever its scope and wherever install runs."""

import json
import os

from lazy_harness import paths, settings
from tests.cli.lhrun import invoke
from tests.support import claude_plugin


def test_install_refuses_the_settings_local_json_of_the_claude_dir_and_names_the_user_file():
    target = os.path.join(paths.claude_dir(), "settings.local.json")
    r = invoke("hooks", "install", "--settings", target)
    assert r.code == 1, r.out + r.err
    assert target in r.err and paths.user_settings_file() in r.err and len(r.err.strip().splitlines()) == 1
    assert not os.path.exists(target) and not os.path.exists(paths.user_settings_file())


def test_a_projects_settings_local_json_is_still_taken(tmp_path):
    target = tmp_path / "proj" / ".claude" / "settings.local.json"
    target.parent.mkdir(parents=True)
    r = invoke("hooks", "install", "--settings", str(target))
    assert r.code == 0, r.out + r.err
    assert [o.event for o in settings.find_ours(json.loads(target.read_text()))] == list(settings.EVENTS)


def test_uninstall_still_cleans_a_settings_local_json_of_the_claude_dir():
    target = os.path.join(paths.claude_dir(), "settings.local.json")
    settings.install(target)
    r = invoke("hooks", "uninstall", "--settings", target)
    assert r.code == 0 and not os.path.exists(target), r.out + r.err


def test_install_elsewhere_names_a_plugin_installed_for_another_project(tmp_path, monkeypatch):
    other = tmp_path / "other"
    (other / ".git").mkdir(parents=True)
    claude_plugin.install("project", str(other))
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    r = invoke("hooks", "install")
    assert r.code == 0, r.out + r.err
    lines = [line for line in r.out.splitlines() if "lazy-harness@lazy-harness" in line]
    assert len(lines) == 1 and "(project scope)" in lines[0] and str(other) in lines[0], r.out
    assert lines[0].startswith("warning: ")
    assert [o.event for o in settings.find_ours(json.load(open(paths.user_settings_file())))] == list(settings.EVENTS)


def test_install_names_every_recorded_install_once(tmp_path, monkeypatch):
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    claude_plugin.install("local", str(a))
    claude_plugin.install("project", str(b), enabled=False)
    monkeypatch.chdir(tmp_path)
    r = invoke("hooks", "install")
    assert r.code == 0, r.out + r.err
    lines = [line for line in r.out.splitlines() if "lazy-harness@lazy-harness" in line]
    assert len(lines) == 2, r.out
    assert any("(local scope)" in line and str(a) in line for line in lines)
    assert any("(project scope), disabled" in line and str(b) in line for line in lines)


def test_the_plugin_enabled_here_is_named_once_when_settings_are_written_anyway(tmp_path, monkeypatch):
    claude_plugin.install()
    monkeypatch.chdir(tmp_path)
    r = invoke("hooks", "install", "--write-settings")
    assert r.code == 0, r.out + r.err
    assert len([line for line in r.out.splitlines() if "lazy-harness@lazy-harness" in line]) == 1, r.out
