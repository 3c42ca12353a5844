"""Install and uninstall change only the top-level "hooks" value of a settings file: its line endings,
compact objects, key order, spacing and every other byte stay as they were (docs/adr/0058)."""

import copy
import json

import pytest

from lazy_harness import settings, settings_splice
from lazy_harness.errors import SettingsError

PY = "/usr/bin/python3"
OURS_ONLY = {event: [{"matcher": "", "hooks": [{"type": "command", "command": settings.command_for(event, PY),
                                                 "timeout": timeout}]}]
             for event, timeout in settings.EVENTS.items()}
FOREIGN_HOOKS = {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "audit.sh"}]}]}


def installed(tmp_path, text: str, name: str = "settings.json") -> str:
    """``text`` as a settings file after ``lh hooks install``; asserts it parses to what the whole-file
    rewrite wrote (``merged`` of what was there)."""
    target = tmp_path / name
    target.write_bytes(text.encode())
    settings.install(str(target), python=PY)
    new = target.read_bytes().decode()
    assert json.loads(new) == settings.merged(json.loads(text), settings.EVENTS, PY)
    return new


def uninstalled(tmp_path, text: str, name: str = "settings.json") -> str:
    """``text`` as a settings file after ``lh hooks uninstall`` (no backup to give back); asserts it
    parses to what the whole-file rewrite wrote (``text`` without our entries)."""
    target = tmp_path / name
    target.write_bytes(text.encode())
    settings.uninstall(str(target))
    new = target.read_bytes().decode()
    rest = copy.deepcopy(json.loads(text))
    assert settings._remove_ours(rest)
    assert json.loads(new) == rest
    return new


def hooks_text(value: dict, indent="  ", prefix="  ", newline="\n") -> str:
    """``value`` as JSON indented by ``indent``, its lines after the first led by ``prefix``."""
    return json.dumps(value, indent=indent, ensure_ascii=False).replace("\n", newline + prefix)


def only_crlf(text: str) -> bool:
    return text.count("\n") == text.count("\r\n")


def test_a_crlf_file_keeps_its_line_endings_and_every_byte_outside_hooks(tmp_path):
    head = '{\r\n  "model": "opus",\r\n  "hooks": '
    tail = ',\r\n  "env": {"A": "1"}\r\n}\r\n'
    new = installed(tmp_path, head + hooks_text(FOREIGN_HOOKS, newline="\r\n") + tail)
    assert new.startswith(head) and new.endswith(tail)
    assert only_crlf(new)


def test_compact_objects_elsewhere_stay_compact(tmp_path):
    head = ('{\n  "permissions": {"allow": ["Bash(ls:*)"], "deny": []},\n  "env": {"A": "1", "B": "2"},\n'
            '  "hooks": ')
    tail = '\n}\n'
    new = installed(tmp_path, head + "{}" + tail)
    assert new.startswith(head) and new.endswith(tail)
    assert new[len(head):-len(tail)] == hooks_text(settings.merged({}, settings.EVENTS, PY)["hooks"])


def test_keys_out_of_order_and_their_spacing_stay(tmp_path):
    head = '{\n    "zeta" :1,\n    "alpha":   [3,1,2],\n    "hooks": '
    tail = ',\n    "mid": {\n        "b": true, "a": null\n    }\n}'
    new = installed(tmp_path, head + hooks_text(FOREIGN_HOOKS, "    ", "    ") + tail)
    assert new.startswith(head) and new.endswith(tail)
    assert list(json.loads(new)) == ["zeta", "alpha", "hooks", "mid"]


@pytest.mark.parametrize(("indent", "newline"), [("    ", "\n"), ("\t", "\r\n")])
def test_a_file_without_hooks_gets_them_before_its_last_brace_in_its_own_style(tmp_path, indent, newline):
    body = "{" + newline + indent + '"model": "opus",' + newline + indent + '"env": {"A": "1"}'
    closing = newline + "}" + newline
    new = installed(tmp_path, body + closing)
    want = settings.merged({}, settings.EVENTS, PY)["hooks"]
    assert new == (body + "," + newline + indent + '"hooks": ' + hooks_text(want, indent, indent, newline)
                   + closing)


@pytest.mark.parametrize("first", [True, False])
def test_hooks_as_the_first_or_the_last_key(tmp_path, first):
    value = hooks_text(FOREIGN_HOOKS)
    text = ('{\n  "hooks": ' + value + ',\n  "model": "opus", "x": [1,2]\n}\n' if first
            else '{\n  "model": "opus", "x": [1,2],\n  "hooks": ' + value + '\n}\n')
    new = installed(tmp_path, text)
    start = text.index(value)
    assert new.startswith(text[:start]) and new.endswith(text[start + len(value):])


def test_a_hooks_key_inside_another_object_or_a_string_is_not_touched(tmp_path):
    body = ('{\n  "plugin": {"hooks": {"keep": [1, 2]}},\n  "note": "\\"hooks\\": {}",\n'
            '  "deep": [{"hooks": []}]')
    new = installed(tmp_path, body + "\n}\n")
    assert new.startswith(body + ",\n  \"hooks\": {")
    data = json.loads(new)
    assert (data["plugin"], data["deep"], list(data)) == ({"hooks": {"keep": [1, 2]}}, [{"hooks": []}],
                                                          ["plugin", "note", "deep", "hooks"])


def test_a_one_line_file_stays_one_line(tmp_path):
    new = installed(tmp_path, '{"model":"opus","env":{"A":"1"}}')
    assert "\n" not in new and new.startswith('{"model":"opus","env":{"A":"1"},"hooks":{')


def test_an_empty_object_with_crlf_gets_crlf(tmp_path):
    new = installed(tmp_path, "{}\r\n")
    assert only_crlf(new) and new.endswith("}\r\n") and new.count("\r\n") > 1


def test_a_second_install_writes_nothing(tmp_path):
    first = installed(tmp_path, '{\r\n  "model": "opus"\r\n}\r\n')
    assert installed(tmp_path, first) == first


def test_uninstall_after_an_edit_leaves_the_rest_byte_identical(tmp_path):
    """The person changes another key after install, so no backup reads as what is left: uninstall
    removes the hooks key it added and gives back every other byte."""
    original = '{\r\n    "model": "opus",\r\n    "permissions": {"allow": ["Bash(ls:*)"]}\r\n}\r\n'
    target = tmp_path / "settings.json"
    target.write_bytes(original.encode())
    settings.install(str(target), python=PY)
    edited = target.read_bytes().decode().replace('"opus"', '"sonnet"')
    assert uninstalled(tmp_path, edited) == original.replace('"opus"', '"sonnet"')


def test_uninstall_keeps_foreign_hooks_and_the_rest_byte_identical(tmp_path):
    head = '{\r\n  "z": {"compact": true},\r\n  "hooks": '
    tail = ',\r\n  "a": 1\r\n}\r\n'
    with_ours = {**FOREIGN_HOOKS, **OURS_ONLY}
    new = uninstalled(tmp_path, head + hooks_text(with_ours, newline="\r\n") + tail)
    assert new == head + hooks_text(FOREIGN_HOOKS, newline="\r\n") + tail


@pytest.mark.parametrize("where", ["first", "middle", "last"])
def test_uninstall_removes_a_hooks_key_that_held_only_ours_and_nothing_else(tmp_path, where):
    member = '"hooks": ' + hooks_text(OURS_ONLY)
    others = ['"a": {"b": [1, 2]}', '"c": "d"']
    members = {"first": [member, *others], "middle": [others[0], member, others[1]],
               "last": [*others, member]}[where]
    text = "{\n  " + ",\n  ".join(members) + "\n}\n"
    assert uninstalled(tmp_path, text) == "{\n  " + ",\n  ".join(others) + "\n}\n"


def test_data_that_differs_outside_hooks_is_written_whole():
    """``spliced`` changes only "hooks"; were anything else to differ, the file is written whole, never
    as a text that reads otherwise than ``data``."""
    raw = b'{\r\n  "model": "opus",\r\n  "hooks": {}\r\n}\r\n'
    data = {"model": "sonnet", "hooks": {"Stop": []}}
    assert settings_splice.spliced(raw, data) == settings_splice.render(data, raw)
    assert json.loads(settings_splice.spliced(raw, {"model": "opus", "hooks": {"Stop": []}})) == {
        "model": "opus", "hooks": {"Stop": []}}


def test_a_file_with_a_byte_order_mark_is_still_refused_untouched(tmp_path):
    target = tmp_path / "settings.json"
    target.write_bytes(b'\xef\xbb\xbf{\r\n  "model": "opus"\r\n}\r\n')
    with pytest.raises(SettingsError, match="BOM"):
        settings.install(str(target), python=PY)
    assert target.read_bytes() == b'\xef\xbb\xbf{\r\n  "model": "opus"\r\n}\r\n'


def test_the_newline_is_the_one_inside_the_object_not_a_different_one_after_it(tmp_path):
    new = installed(tmp_path, '{\n  "model": "opus"\n}\r\n')
    assert new.endswith("\n}\r\n") and "\r" not in new[:-2]


THEIRS_TEXT = ('{\n  "hooks": {\n'
               '    "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "audit.sh"}]}],\n'
               '    "Stop": [\n      {"hooks": [{"type": "command", "command": "say done"}]}\n    ]\n  }\n}\n')


def test_the_persons_own_hooks_keep_their_bytes_beside_ours(tmp_path):
    """Only what changes inside "hooks" is written: the person's entries keep their text, ours go in
    after them indented as their siblings; uninstall (no backup) takes ours out the same way."""
    new = installed(tmp_path, THEIRS_TEXT)
    assert '    "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "audit.sh"}]}],\n' in new
    assert '      {"hooks": [{"type": "command", "command": "say done"}]},\n      {\n        "matcher": ""' in new
    assert uninstalled(tmp_path, new, "other.json") == THEIRS_TEXT


def test_a_rewritten_command_of_ours_in_the_persons_group_changes_only_that_value(tmp_path):
    old = "/old/python -m lazy_harness.hooks Stop"
    text = ('{\n  "hooks": {\n    "Stop": [{"matcher": "", "hooks": [{"type": "command", "command": "say done"}, '
            '{"type": "command", "command": ' + json.dumps(old) + ', "timeout": 10}]}]\n  }\n}\n')
    target = tmp_path / "settings.json"
    target.write_text(text)
    settings.install(str(target), {"Stop": 10}, python=PY)
    assert target.read_text() == text.replace(json.dumps(old), json.dumps(settings.command_for("Stop", PY)))
