"""A key set twice in config.toml is said in words, with the file, the line that sets it again, the
key and its table, and what to do, by every command that reads the file; not tomllib's "Cannot
overwrite a value" (whose place is "end of document" when the file's last line has no line break)."""

import pytest

from lazy_harness import config, paths
from lazy_harness.errors import ConfigError
from tests.cli.lhrun import invoke


def write(text: str) -> str:
    path = paths.config_file()
    import os

    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
    return path


CASES = [
    ("[recall]\nsemantic = true\nsemantic = false\n", 3, "the key semantic of [recall] is set twice (lines 2 and 3)"),
    ("[recall]\nsemantic = true\nsemantic = false", 3, "the key semantic of [recall] is set twice (lines 2 and 3)"),
    ('[recall]\n"semantic" = true\n# a comment\nsemantic = false\n', 4,
     "the key semantic of [recall] is set twice (lines 2 and 4)"),
    ("recall.semantic = true\nrecall.model = 'x'\nrecall.semantic = false\n", 3,
     "the key semantic of [recall] is set twice (lines 1 and 3)"),
    ('[recall]\nsemantic = true\n\n[sync]\nremote = "a"\nremote = "b"', 6,
     "the key remote of [sync] is set twice (lines 5 and 6)"),
]


@pytest.mark.parametrize("text, line, said", CASES, ids=["header", "no-final-newline", "quoted", "dotted", "later"])
def test_the_loader_names_the_file_line_key_and_fix(text, line, said):
    path = write(text)
    with pytest.raises(ConfigError) as caught:
        config.load()
    message = caught.value.message
    assert message.startswith(f"{path}:{line}: "), message
    assert said in message and "keep one" in message, message
    assert "Cannot overwrite" not in message and "\n" not in message


def test_validate_doctor_and_a_command_say_the_same_line():
    path = write("[recall]\nsemantic = true\nsemantic = false\n")
    said = f"{path}:3: TOML syntax error: the key semantic of [recall] is set twice (lines 2 and 3); keep one"
    validate = invoke("config", "validate")
    assert validate.code == 1 and said in validate.out, validate
    doctor = invoke("doctor")
    assert said in doctor.out, doctor.out
    status = invoke("hooks", "install")  # any command that loads the file: one line, exit 1
    assert status.code == 1 and said in status.err and status.err.count("\n") == 1, status


def test_a_key_then_a_table_under_it_names_both_lines():
    path = write("[recall]\nsemantic = true\n[recall.semantic]\nx = 1\n")
    with pytest.raises(ConfigError) as caught:
        config.load()
    message = caught.value.message
    assert message.startswith(f"{path}:3: "), message
    assert "semantic of [recall]" in message and "line 2" in message and "Cannot overwrite" not in message, message
