"""lazy_harness.config.validate: every problem names the line it is on, however valid TOML writes the key."""

import pytest

from lazy_harness import config


def write(path, text):
    path.write_text(text, encoding="utf-8")
    return path


TYPO = "context.enabld: unknown key, ignored (did you mean context.enabled?)"


@pytest.mark.parametrize("text,line,message", [
    ("# c\n[context]  # read-back\nmax_chars = \"x\"\n", 3, 'context.max_chars: expected an integer, got "x"'),
    ("# c\n[\"context\"]\nmax_chars = \"x\"\n", 3, 'context.max_chars: expected an integer, got "x"'),
    ("# c\n[ 'context' ] # quoted, spaced, commented\nmax_chars = \"x\"\n", 3,
     'context.max_chars: expected an integer, got "x"'),
    ("# c\n[context]\n\"max_chars\" = \"x\"  # quoted key\n", 3, 'context.max_chars: expected an integer, got "x"'),
    ("# c\ncompound_loop.model = 42\n", 2, "compound_loop.model: expected a string, got 42"),
    ("# c\n\"compound_loop\" . 'model' = 42\n", 2, "compound_loop.model: expected a string, got 42"),
    ("# c\ncontext = { max_chars = \"x\" }\n", 2, 'context.max_chars: expected an integer, got "x"'),
    ("# c\n[compound_loop]\nmodel.name = \"x\"\n", 3, "compound_loop.model: expected a string, got a table"),
    ("# c\n[compound_loop.model]\nname = \"x\"\n", 2, "compound_loop.model: expected a string, got a table"),
    ("[compound_loop]\nclaude_path = \"a\u2028b\"\nmodel = 42\n", 3, "compound_loop.model: expected a string, got 42"),
])
def test_an_error_names_its_line_however_the_key_is_written(tmp_path, text, line, message):
    path = write(tmp_path / "c.toml", text)
    _, errors, _ = config.parse_file(str(path))
    assert errors == [f"{path}:{line}: {message}"]


@pytest.mark.parametrize("text,line,message", [
    ("# c\n[extra]  # mine\nx = 1\n", 2, "extra: unknown section, ignored"),
    ("# c\n[\"extra\"]\nx = 1\n", 2, "extra: unknown section, ignored"),
    ("# c\nextra.x = 1\n", 2, "extra: unknown section, ignored"),
    ("# c\nextra = { x = 1 }\n", 2, "extra: unknown section, ignored"),
    ("# c\n[context]\n'enabld' = true # typo\n", 3, TYPO),
    ("# c\ncontext.enabld = true\n", 2, TYPO),
    ("# c\ncontext = { enabld = true }\n", 2, TYPO),
])
def test_a_warning_names_its_line_however_the_key_is_written(tmp_path, text, line, message):
    path = write(tmp_path / "c.toml", text)
    _, errors, warnings = config.parse_file(str(path))
    assert (errors, warnings) == ([], [f"{path}:{line}: {message}"])


def test_a_cap_warning_names_the_line_of_an_inline_table(tmp_path):
    path = write(tmp_path / "c.toml", "# c\ncontext = { max_chars = 99999 }  # big\n")
    _, _, warnings = config.parse_file(str(path))
    assert warnings == [f"{path}:2: context.max_chars: 99999 is above the cap of 9500; 9500 is used"]


def test_lines_inside_strings_and_arrays_are_not_read_as_headers_or_keys(tmp_path):
    text = ('[compound_loop]\n'
            'redact_patterns = [\n'
            '  "model = 1",\n'
            '  \'\'\'\n'
            '[context]\n'
            'max_chars = 1\n'
            '\'\'\',\n'
            ']\n'
            'model = """\n'
            '[context]\n'
            'max_chars = "a \\""" quote"\n'
            '"""\n'
            '[context]\n'
            'max_chars = "x"\n')
    path = write(tmp_path / "c.toml", text)
    _, errors, _ = config.parse_file(str(path))
    assert errors == [f'{path}:14: context.max_chars: expected an integer, got "x"']


def test_keys_under_an_array_of_tables_belong_to_no_section(tmp_path):
    path = write(tmp_path / "c.toml", "[[extra]]\nmax_chars = 1\n[context]\nmax_chars = \"x\"\n")
    _, errors, warnings = config.parse_file(str(path))
    assert errors == [f'{path}:4: context.max_chars: expected an integer, got "x"']
    assert warnings == [f"{path}:1: extra: unknown section, ignored"]
