"""lh hooks install, then lh hooks uninstall: an empty "hooks" value or event list the person wrote
comes back, one install added goes again (docs/adr/0058-install-changes-only-the-hooks-value.md)."""

import json

import pytest

from lazy_harness import settings

from tests.cli.lhrun import invoke

AUDIT = {"matcher": "Bash", "hooks": [{"type": "command", "command": "audit.sh"}]}


def user_file(home):
    return home / ".claude" / "settings.json"


def round_trip(target, args=()):
    assert invoke("hooks", "install", *args).code == 0
    assert settings.find_ours(json.loads(target.read_text()))  # install did put ours in
    r = invoke("hooks", "uninstall", *args)
    assert r.code == 0, r.err
    return r


@pytest.mark.parametrize("original", [
    b'{\n  "hooks": {}\n}\n',
    b'{\n  "model": "opus",\n  "hooks": {}\n}\n',
    b'{\n  "hooks": {},\n  "model": "opus"\n}\n',
    b'{\n  "model": "opus",\n  "hooks": {\n    "Stop": []\n  }\n}\n',
    b'{\r\n  "hooks": {"SessionStart": [], "Stop": []},\r\n  "model": "opus"\r\n}\r\n',
    b'{"hooks": {"Stop": [], "PreToolUse": [' + json.dumps(AUDIT).encode() + b']}, "model": "opus"}',
])
def test_an_empty_hooks_value_or_event_list_the_person_wrote_comes_back_byte_for_byte(isolated_home, original):
    target = user_file(isolated_home)
    target.parent.mkdir()
    target.write_bytes(original)
    r = round_trip(target)
    assert "deleted" not in r.out
    assert target.read_bytes() == original


def test_a_file_without_hooks_stays_without_and_one_install_made_goes(isolated_home):
    target = user_file(isolated_home)
    target.parent.mkdir()
    target.write_bytes(b'{\n  "model": "opus"\n}\n')
    round_trip(target)
    assert target.read_bytes() == b'{\n  "model": "opus"\n}\n'
    target.unlink()
    round_trip(target)
    assert not target.exists()


def test_a_project_file_with_an_empty_hooks_value_comes_back(isolated_home, tmp_path):
    proj = tmp_path / "proj"
    (proj / ".claude").mkdir(parents=True)
    target = proj / ".claude" / "settings.json"
    target.write_bytes(b'{\n  "hooks": {}\n}\n')
    round_trip(target, ("--project", str(proj)))
    assert target.read_bytes() == b'{\n  "hooks": {}\n}\n'


def test_empty_values_the_person_wrote_stay_when_the_file_changed_after_install(isolated_home):
    target = user_file(isolated_home)
    target.parent.mkdir()
    target.write_bytes(b'{\n  "model": "opus",\n  "hooks": {\n    "Stop": []\n  }\n}\n')
    assert invoke("hooks", "install").code == 0
    edited = target.read_bytes().replace(b'"opus"', b'"sonnet"')  # Claude Code's /model, say
    target.write_bytes(edited)
    assert invoke("hooks", "uninstall").code == 0
    assert target.read_bytes() == b'{\n  "model": "sonnet",\n  "hooks": {\n    "Stop": []\n  }\n}\n'


def test_lists_install_added_beside_an_empty_hooks_value_go_again_after_an_edit(isolated_home):
    target = user_file(isolated_home)
    target.parent.mkdir()
    target.write_bytes(b'{\n  "model": "opus",\n  "hooks": {}\n}\n')
    assert invoke("hooks", "install").code == 0
    target.write_bytes(target.read_bytes().replace(b'"opus"', b'"sonnet"'))
    assert invoke("hooks", "uninstall").code == 0
    assert target.read_bytes() == b'{\n  "model": "sonnet",\n  "hooks": {}\n}\n'
