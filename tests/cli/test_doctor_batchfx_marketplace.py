"""lh doctor on a marketplace file of an odd shape or nested too deep to parse (known_marketplaces.json,
a clone's marketplace.json, installed_plugins.json): one plugin line naming the file, no traceback."""

import json
import os

import pytest

from lazy_harness import paths, plugin
from lazy_harness.errors import SettingsError
from tests.cli.test_doctor_plugfx import doctor
from tests.support import claude_plugin

DEEP = "[" * 200_000 + "]" * 200_000


def _clone(tmp_path) -> str:
    clone = str(tmp_path / "lazy-harness")
    claude_plugin.install(clone=clone)
    return clone


def _manifest(clone: str) -> str:
    return os.path.join(clone, ".claude-plugin", "marketplace.json")


def _known() -> str:
    return os.path.join(os.path.dirname(paths.claude_plugins_file()), "known_marketplaces.json")


@pytest.mark.parametrize("content", [
    {"name": "lazy-harness", "plugins": 5},
    {"name": "lazy-harness", "plugins": "./"},
    {"name": "lazy-harness", "plugins": {"lazy-harness": {"source": "./"}}},
    {"name": "lazy-harness", "plugins": [5, "lazy-harness", None, {"name": ["lazy-harness"]}]},
    [{"name": "lazy-harness", "source": "./"}],
    7,
    None,
])
def test_a_marketplace_json_of_another_shape_lists_no_plugin_and_names_the_file(tmp_path, monkeypatch, content):
    clone = _clone(tmp_path)
    with open(_manifest(clone), "w") as fh:
        json.dump(content, fh)
    code, found = doctor(tmp_path, monkeypatch)
    assert code in (0, 1)
    (line,) = found["plugin"]
    assert line.startswith("fail ") and _manifest(clone) in line and "lists no plugin lazy-harness" in line, line


@pytest.mark.parametrize("where", ["known_marketplaces.json", "marketplace.json", "installed_plugins.json"])
def test_a_file_nested_too_deep_is_one_warn_line_naming_it(tmp_path, monkeypatch, where):
    clone = _clone(tmp_path)
    path = {"known_marketplaces.json": _known(), "marketplace.json": _manifest(clone),
            "installed_plugins.json": paths.claude_plugins_file()}[where]
    with open(path, "w") as fh:
        fh.write(DEEP)
    code, found = doctor(tmp_path, monkeypatch)
    assert code in (0, 1)
    (line,) = found["plugin"]
    assert line.startswith("warn ") and path in line, line
    assert "\n" not in line


def test_runs_from_raises_a_settings_error_naming_the_deep_file(tmp_path):
    clone = _clone(tmp_path)
    with open(_manifest(clone), "w") as fh:
        fh.write('{"plugins": ' + DEEP + "}")
    (install,) = plugin.installs(str(tmp_path))
    with pytest.raises(SettingsError) as caught:
        plugin.runs_from(install)
    assert caught.value.message.startswith(_manifest(clone) + ": ")
