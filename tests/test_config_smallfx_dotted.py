"""A config.toml that already says ``compound_loop.enabled = ...`` as a dotted key: lh changes that
line in place, as it does ``enabled = ...`` under ``[compound_loop]``, and what it cannot change it
says how to change (a second ``compound_loop.enabled`` line is a duplicate key TOML refuses)."""

import os
import tomllib

import pytest

from lazy_harness import config, paths
from lazy_harness.config.edit import enable_loop, set_value
from lazy_harness.errors import ConfigError


def _config(text: str) -> str:
    path = paths.config_file()
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="") as fh:
        fh.write(text)
    os.chmod(path, 0o600)
    return path


@pytest.mark.parametrize("text, want", [
    ("compound_loop.enabled = false\ncompound_loop.min_messages = 2\n",
     "compound_loop.enabled = true\ncompound_loop.min_messages = 2\n"),
    ("# mine\ncompound_loop.min_messages = 2\n  compound_loop . enabled=false   # off\n\n[recall]\nenabled = false\n",
     "# mine\ncompound_loop.min_messages = 2\n  compound_loop . enabled=true   # off\n\n[recall]\nenabled = false\n"),
    ('"compound_loop".\'enabled\' = false\r\ncompound_loop.model = "m"\r\n',
     '"compound_loop".\'enabled\' = true\r\ncompound_loop.model = "m"\r\n'),
    ("compound_loop.enabled = 1  # not a boolean\n", "compound_loop.enabled = true\n"),
    ("compound_loop.enabled = true\n", "compound_loop.enabled = true\n"),
])
def test_a_dotted_enabled_line_is_changed_in_place(text, want):
    assert set_value(text, "compound_loop", "enabled", True) == want


def test_the_dotted_line_is_found_after_other_lines_with_odd_line_breaks():
    text = "# a \u2028 in a comment\ncompound_loop.min_messages = 2\ncompound_loop.enabled = false\n"
    new = set_value(text, "compound_loop", "enabled", True)
    assert new == text.replace("enabled = false", "enabled = true")


def test_a_dotted_line_that_cannot_be_changed_safely_gets_a_hint_that_changes_it():
    text = 'compound_loop.enabled = """\nfalse"""\ncompound_loop.min_messages = 2\n'
    with pytest.raises(ConfigError) as caught:
        set_value(text, "compound_loop", "enabled", True)
    hint = caught.value.hint or ""
    assert "change" in hint and "compound_loop.enabled = true" in hint and "line 1" in hint, hint
    assert "beside" not in hint, hint


def test_an_inline_table_that_sets_the_key_gets_a_hint_to_change_it_not_add_it():
    text = "compound_loop = { enabled = false, min_messages = 2 }\n"
    with pytest.raises(ConfigError) as caught:
        set_value(text, "compound_loop", "enabled", True)
    hint = caught.value.hint or ""
    assert hint.startswith("change enabled = ... inside the braces of compound_loop = { ... }"), hint
    assert "to enabled = true" in hint, hint


def test_hooks_install_switches_a_dotted_false_on_and_the_first_start_leaves_it_off():
    path = _config("compound_loop.enabled = false  # mine\ncompound_loop.min_messages = 2\n")
    assert enable_loop(path, unless_off=True).startswith("left off")  # as for [compound_loop] enabled = false
    assert enable_loop(path) == "enabled"
    with open(path, encoding="utf-8") as fh:
        assert fh.read() == "compound_loop.enabled = true  # mine\ncompound_loop.min_messages = 2\n"
    assert config.load()["compound_loop"]["enabled"] is True
    assert tomllib.loads(open(path, encoding="utf-8").read())["compound_loop"] == {"enabled": True, "min_messages": 2}
