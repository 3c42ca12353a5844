"""Errors about a settings file's shape name JSON's types (null, object, array, string, number,
true/false), not Python's (NoneType, dict, list, str)."""

import json

import pytest

from lazy_harness import settings, settings_read
from lazy_harness.errors import SettingsError

from tests.cli.lhrun import invoke

PY = "/usr/bin/python3"


@pytest.mark.parametrize(("hooks", "word"), [(None, "null"), ([], "an array"), ("x", "a string"),
                                             (3, "a number"), (1.5, "a number"), (True, "true"),
                                             (False, "false")])
def test_hooks_of_the_wrong_type(tmp_path, hooks, word):
    target = tmp_path / "settings.json"
    target.write_text(json.dumps({"hooks": hooks}))
    with pytest.raises(SettingsError) as info:
        settings.install(str(target), python=PY)
    assert f'"hooks" is {word}, expected an object' in info.value.message


@pytest.mark.parametrize(("groups", "word"), [({}, "an object"), (None, "null"), ("x", "a string")])
def test_an_event_of_the_wrong_type(tmp_path, groups, word):
    target = tmp_path / "settings.json"
    target.write_text(json.dumps({"hooks": {"Stop": groups}}))
    with pytest.raises(SettingsError) as info:
        settings.install(str(target), python=PY)
    assert f'"hooks.Stop" is {word}, expected an array' in info.value.message


@pytest.mark.parametrize(("top", "word"), [("[]", "an array"), ('"x"', "a string"), ("null", "null"),
                                           ("7", "a number"), ("true", "true")])
def test_a_file_that_is_not_an_object(tmp_path, top, word):
    target = tmp_path / "settings.json"
    target.write_text(top)
    with pytest.raises(SettingsError) as info:
        settings_read.read(str(target))
    assert f"expected a JSON object at the top level, got {word}" in info.value.message


def test_the_cli_line_uses_json_words(isolated_home):
    target = isolated_home / ".claude" / "settings.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text('{"hooks": null}')
    r = invoke("hooks", "install")
    assert r.code == 1 and '"hooks" is null, expected an object' in r.err
    assert "NoneType" not in r.err and "dict" not in r.err
