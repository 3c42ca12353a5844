"""The two slips a person makes editing settings.json by hand, as in a JSONC file of their editor: a comma
after the last member, and a comment. The file is refused and left as it is (lh does not "fix" it); the
line names where the slip is, not where the parser gave up (for a trailing comma, the closing brace on
the next line, with "Expecting property name enclosed in double quotes")."""

import pytest

from lazy_harness import settings
from lazy_harness.errors import SettingsError
from tests.cli.lhrun import invoke


@pytest.mark.parametrize("text,where", [
    ('{\n  "model": "opus",\n}\n', "line 2, column 18: a comma after the last member, which JSON does not allow"),
    ('{\n  "allow": ["Bash(ls:*)", "Read",\n  ],\n  "model": "opus"\n}\n',
     "line 2, column 33: a comma after the last item, which JSON does not allow"),
    ('{\n  // my model\n  "model": "opus"\n}\n', "line 2, column 3: a comment, which JSON does not allow"),
    ('{\n  "model": "opus" /* for now */\n}\n', "line 2, column 19: a comment, which JSON does not allow"),
])
def test_a_slip_is_named_where_it_is_and_the_file_left(tmp_path, text, where):
    target = tmp_path / "settings.json"
    target.write_text(text)
    with pytest.raises(SettingsError) as info:
        settings.install(str(target))
    assert f"{target}: not valid JSON ({where}); left untouched" in str(info.value)
    assert target.read_text() == text and not list(tmp_path.glob("settings.json?*"))  # no backup either


def test_the_cli_says_it_in_one_line_for_install_and_uninstall(isolated_home):
    target = isolated_home / ".claude" / "settings.json"
    target.parent.mkdir(exist_ok=True)
    text = '{\n  "model": "opus",\n}\n'
    target.write_text(text)
    for command in ("install", "uninstall"):
        r = invoke("hooks", command)
        [line] = r.err.strip().splitlines()
        assert r.code == 1 and "line 2, column 18: a comma after the last member" in line, line
    assert target.read_text() == text


def test_other_json_errors_keep_the_parsers_words(tmp_path):
    target = tmp_path / "settings.json"
    target.write_text('{\n  "model": opus\n}\n')
    with pytest.raises(SettingsError, match=r"line 2, column 12: Expecting value"):
        settings.install(str(target))
