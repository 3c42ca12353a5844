"""A string left open in config.toml: tomllib names no line for a single-quoted or triple-quoted one
("Expected "'" (at end of document)"), so ``lh config validate`` and every command said only the
file; and "Illegal character '\\n'" for a double-quoted one did not say a quote is missing. The error
names the line and column where the string opens, and says to close it."""

import pytest

from lazy_harness.config.validate import parse_bytes
from lazy_harness.errors import ConfigError


@pytest.mark.parametrize("raw, line, column", [
    (b"[compound_loop]\nenabled = true\nmodel = 'claude-haiku\nmin_messages = 4\n", 3, 9),
    (b"[compound_loop]\nmodel = \"claude-haiku", 2, 9),
    (b"x = 1\n# a 'comment\n[compound_loop]\nmodel = '''abc\n", 4, 9),
    (b"[compound_loop]\nenabled = true\nmodel = \"abc\nmin_messages = 4\n", 3, 9),
])
def test_an_open_string_is_named_by_its_line(tmp_path, raw, line, column):
    path = str(tmp_path / "config.toml")
    with pytest.raises(ConfigError) as err:
        parse_bytes(raw, path)
    message = err.value.message
    assert "\n" not in message
    assert message.startswith(f"{path}:{line}: TOML syntax error at column {column}: ")
    assert "string" in message and "not closed" in message
    assert "end of document" not in message


def test_other_syntax_errors_keep_tomllib_place(tmp_path):
    path = str(tmp_path / "config.toml")
    with pytest.raises(ConfigError) as err:
        parse_bytes(b"[compound_loop\nenabled = true\n", path)
    assert err.value.message.startswith(f"{path}:1: TOML syntax error at column 15: ")
