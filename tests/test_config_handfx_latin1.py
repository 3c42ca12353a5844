"""config.toml saved in a legacy encoding (Latin-1): the error names the line and column of the first
byte that is not UTF-8, and says to save the file as UTF-8, as the byte order mark's error does."""

import os

import pytest

from lazy_harness import config, paths
from lazy_harness.errors import ConfigError


def _config(raw: bytes) -> str:
    path = paths.config_file()
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as fh:
        fh.write(raw)
    return path


@pytest.mark.parametrize("raw, line, column", [
    ("[compound_loop]\nenabled = true\n# caf\xe9\n".encode("latin-1"), 3, 6),
    ("# caf\xe9 au lait\n".encode("latin-1"), 1, 6),
    ("[a]\r\nb = 'd\xe9j\xe0'\r\n".encode("latin-1"), 2, 7),
    # a character of several bytes before it counts once
    ("# \u00e9t\u00e9\n# caf".encode() + b"\xe9\n", 2, 6),
])
def test_a_latin1_config_names_line_column_and_what_to_do(raw, line, column):
    path = _config(raw)
    with pytest.raises(ConfigError) as caught:
        config.load()
    message = caught.value.message
    assert message.startswith(f"{path}:{line}: not UTF-8 text at column {column}"), message
    assert "save it as UTF-8" in message, message
    assert caught.value.hint == "lh config validate"
