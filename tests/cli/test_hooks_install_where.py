"""``lh hooks install --settings`` naming a project's ``.claude/settings.local.json`` from another folder:
the plugin is looked for where the sessions that read that file start (the project), as
``--project`` and the run inside the project do, not in the current folder."""

import json
import os

from lazy_harness import settings
from tests.cli.lhrun import invoke
from tests.support import claude_plugin


def ours_in(path: str) -> list:
    try:
        with open(path) as fh:
            return settings.find_ours(json.load(fh))
    except FileNotFoundError:
        return []


def shop_with_the_plugin(tmp_path) -> tuple[str, str]:
    """The project ``shop`` whose sessions run the plugin (project scope), and a folder outside it."""
    shop = tmp_path / "shop"
    (shop / ".claude").mkdir(parents=True)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    claude_plugin.install("project", str(shop))
    return str(shop), str(elsewhere)


def test_a_projects_local_file_named_from_elsewhere_is_left_to_the_plugin_as_in_the_project(tmp_path, monkeypatch):
    shop, elsewhere = shop_with_the_plugin(tmp_path)
    local = os.path.join(shop, ".claude", "settings.local.json")
    monkeypatch.chdir(elsewhere)
    r = invoke("hooks", "install", "--settings", local)
    assert r.code == 0, r.out + r.err
    assert f"settings: {local} left alone (the plugin runs the hooks)" in r.out
    assert ours_in(local) == []
    monkeypatch.chdir(shop)
    assert f"settings: {local} left alone (the plugin runs the hooks)" in invoke(
        "hooks", "install", "--settings", local).out


def test_writing_it_anyway_from_elsewhere_names_the_plugin_once(tmp_path, monkeypatch):
    shop, elsewhere = shop_with_the_plugin(tmp_path)
    local = os.path.join(shop, ".claude", "settings.local.json")
    monkeypatch.chdir(elsewhere)
    r = invoke("hooks", "install", "--settings", local, "--write-settings")
    assert r.code == 0, r.out + r.err
    assert [o.event for o in ours_in(local)] == list(settings.EVENTS)
    assert "where both do, the plugin's runs step aside" in r.out
    assert "the lazy-harness plugin is installed too" not in r.out  # the line above said it
    r = invoke("hooks", "install", "--settings", local, "--leave-settings")
    assert f"note: {local} already holds our hooks" in r.out
