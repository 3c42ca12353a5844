"""config.toml written in the other TOML forms: dotted keys (``compound_loop.min_messages = 2``), an
inline table, a byte order mark. The edit lh makes keeps the file's form, and what it cannot do it
says in that form; a syntax error names the BOM, and a key in its TOML form, not Python's."""

import os
import tomllib

import pytest

from lazy_harness import config, paths
from lazy_harness.config.edit import enable_loop, set_value
from lazy_harness.errors import ConfigError


def _config(text: str | bytes) -> str:
    path = paths.config_file()
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as fh:
        fh.write(text.encode() if isinstance(text, str) else text)
    return path


def test_a_file_of_dotted_keys_gets_a_dotted_key():
    text = "# mine\ncompound_loop.min_messages = 2\n\n[recall]\nenabled = false\n"
    new = set_value(text, "compound_loop", "enabled", True)
    assert tomllib.loads(new) == {"compound_loop": {"min_messages": 2, "enabled": True}, "recall": {"enabled": False}}
    assert "compound_loop.enabled = true\n" in new and "[compound_loop]" not in new
    assert new.replace("compound_loop.enabled = true\n", "", 1) == text  # only that line added


def test_enable_loop_switches_a_dotted_key_config_on():
    path = _config("compound_loop.min_messages = 2\n")
    assert enable_loop(path) == "enabled"
    assert config.load()["compound_loop"] == {**config.load()["compound_loop"], "enabled": True, "min_messages": 2}


def test_the_hint_for_an_inline_table_is_in_its_own_form_and_following_it_gives_a_valid_file():
    text = "compound_loop = { min_messages = 2 }\n"
    with pytest.raises(ConfigError) as caught:
        set_value(text, "compound_loop", "enabled", True)
    hint = caught.value.hint or ""
    assert "[compound_loop] enabled" not in hint
    assert "enabled = true" in hint and "compound_loop = { ... }" in hint, hint
    # what the hint says to do, done by hand
    fixed = text.replace("min_messages = 2 }", "min_messages = 2, enabled = true }")
    assert tomllib.loads(fixed)["compound_loop"] == {"min_messages": 2, "enabled": True}


def test_a_bom_is_named():
    path = _config(b"\xef\xbb\xbf[compound_loop]\nenabled = true\n")
    with pytest.raises(ConfigError) as caught:
        config.load()
    message = caught.value.message
    assert message.startswith(f"{path}:1: ") and "byte order mark" in message and "BOM" in message, message
    assert "Invalid statement" not in message


@pytest.mark.parametrize("text, said", [
    ("compound_loop.min_messages = 2\n[compound_loop]\nenabled = true\n", "[compound_loop] declared twice"),
    ('[sync]\nremote = "x"\n[sync]\nauto = true\n', "[sync] declared twice"),
    ('["a b".c]\n["a b".c]\n', '["a b".c] declared twice'),
    ("compound_loop = { min_messages = 2 }\ncompound_loop.enabled = true\n", "compound_loop"),
])
def test_a_toml_error_names_the_key_in_its_toml_form(text, said):
    _config(text)
    with pytest.raises(ConfigError) as caught:
        config.load()
    message = caught.value.message
    assert said in message and "('" not in message, message
