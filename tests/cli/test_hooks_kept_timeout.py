"""``lh hooks install`` keeps a timeout the person set in one of our entries (a positive number), replaces a
bad one with ours, and says what it kept or replaced; a command of ours the person edited is rewritten,
with the old command said. The same for Codex's hooks.json. Nothing else in the file changes."""

import json

import pytest

from lazy_harness import settings

from tests.cli.lhrun import invoke
from tests.support import fake_codex_app_server as fake_codex


def user_file(home):
    return home / ".claude" / "settings.json"


def installed(home, edit):
    """Install into the user file, apply ``edit(data)`` to it as a person would, and return its path."""
    assert invoke("hooks", "install").code == 0
    target = user_file(home)
    data = json.loads(target.read_text())
    edit(data)
    target.write_text(json.dumps(data, indent=2) + "\n")
    return target


def our_entry(data, event):
    return next(h for g in data["hooks"][event] for h in g["hooks"] if settings.is_ours(h))


def set_timeout(event, value):
    def edit(data):
        our_entry(data, event)["timeout"] = value
    return edit


def test_a_raised_timeout_is_kept_and_said(isolated_home):
    target = installed(isolated_home, set_timeout("SessionStart", 30))
    before = target.read_bytes()
    r = invoke("hooks", "install")
    assert r.code == 0, r.out + r.err
    assert target.read_bytes() == before  # nothing else changes either
    assert f"kept your timeout 30 s for SessionStart in {target}" in r.out.splitlines()
    assert "SessionStart (timeout 30 s)" in r.out
    assert "kept your timeout" not in r.out.replace(f"kept your timeout 30 s for SessionStart in {target}", "")


def test_a_fractional_timeout_is_a_positive_number_too(isolated_home):
    target = installed(isolated_home, set_timeout("Stop", 12.5))
    r = invoke("hooks", "install")
    assert f"kept your timeout 12.5 s for Stop in {target}" in r.out.splitlines(), r.out
    assert our_entry(json.loads(target.read_text()), "Stop")["timeout"] == 12.5


@pytest.mark.parametrize("bad", ["30", 0, -5, True, None, [30]])
def test_a_bad_timeout_is_replaced_by_ours_in_one_line(isolated_home, bad):
    target = installed(isolated_home, set_timeout("SessionStart", bad))
    r = invoke("hooks", "install")
    assert r.code == 0, r.out + r.err
    assert our_entry(json.loads(target.read_text()), "SessionStart")["timeout"] == 10
    said = [line for line in r.out.splitlines() if "timeout" in line and "SessionStart" in line
            and str(target) in line]
    assert len(said) == 1 and "10 s" in said[0] and "kept" not in said[0], r.out
    assert "kept your timeout" not in r.out


def test_a_missing_timeout_is_put_back_and_said(isolated_home):
    target = installed(isolated_home, lambda data: our_entry(data, "SessionEnd").pop("timeout"))
    r = invoke("hooks", "install")
    assert our_entry(json.loads(target.read_text()), "SessionEnd")["timeout"] == 5
    said = [line for line in r.out.splitlines() if "SessionEnd" in line and str(target) in line]
    assert len(said) == 1 and "5 s" in said[0], r.out


def test_an_edited_command_is_rewritten_and_the_old_one_said(isolated_home):
    old = "/opt/my/python -m lazy_harness.hooks SessionStart --verbose"

    def edit(data):
        our_entry(data, "SessionStart").update(command=old, timeout=45)
    target = installed(isolated_home, edit)
    r = invoke("hooks", "install")
    assert r.code == 0, r.out + r.err
    entry = our_entry(json.loads(target.read_text()), "SessionStart")
    assert entry == {"type": "command", "command": settings.command_for("SessionStart"), "timeout": 45}
    said = [line for line in r.out.splitlines() if old in line]
    assert len(said) == 1 and "SessionStart" in said[0] and str(target) in said[0], r.out
    assert f"kept your timeout 45 s for SessionStart in {target}" in r.out.splitlines()


def test_an_unedited_reinstall_says_nothing_of_timeouts_or_commands(isolated_home):
    assert invoke("hooks", "install").code == 0
    r = invoke("hooks", "install")
    assert "already installed" in r.out
    assert "kept your" not in r.out and "it was:" not in r.out and "replaced" not in r.out


def test_the_rest_of_the_file_is_left_byte_for_byte(isolated_home):
    target = user_file(isolated_home)
    target.parent.mkdir()
    assert invoke("hooks", "install").code == 0
    text = target.read_text()
    data = json.loads(text)
    data["model"] = "opus"
    data["permissions"] = {"allow": ["Bash(ls)"]}
    our_entry(data, "SessionStart")["timeout"] = 60
    our_entry(data, "Stop")["timeout"] = "x"
    body = json.dumps(data, indent=2)
    body = body.replace('"permissions": {\n    "allow": [\n      "Bash(ls)"\n    ]\n  }',
                        '"permissions": {"allow": ["Bash(ls)"]}')
    target.write_text(body + "\n")
    r = invoke("hooks", "install")
    assert r.code == 0, r.out + r.err
    after = target.read_text()
    assert '"permissions": {"allow": ["Bash(ls)"]}' in after
    wanted = json.loads(body)
    our_entry(wanted, "Stop")["timeout"] = 10
    assert json.loads(after) == wanted


def _codex_installed(isolated_home, tmp_path, monkeypatch):
    """(Codex's hooks.json after ``lh hooks install --agent codex`` with a fake codex, its data)."""
    bin_dir = tmp_path / "bin"
    fake_codex.install(bin_dir)
    monkeypatch.setenv("PATH", f"{bin_dir}:/usr/bin:/bin")
    assert invoke("hooks", "install", "--agent", "codex").code == 0
    target = isolated_home / ".codex" / "hooks.json"
    return target, json.loads(target.read_text())


def test_codex_keeps_a_raised_timeout_too(isolated_home, tmp_path, monkeypatch):
    target, data = _codex_installed(isolated_home, tmp_path, monkeypatch)
    our_entry(data, "SessionStart")["timeout"] = 25
    our_entry(data, "SessionEnd")["timeout"] = 0
    target.write_text(json.dumps(data, indent=2) + "\n")
    r = invoke("hooks", "install", "--agent", "codex")
    assert r.code == 0, r.out + r.err
    after = json.loads(target.read_text())
    assert our_entry(after, "SessionStart")["timeout"] == 25
    assert our_entry(after, "SessionEnd")["timeout"] == 3
    assert f"kept your timeout 25 s for SessionStart in {target}" in r.out.splitlines()
    said = [line for line in r.out.splitlines() if "SessionEnd" in line and str(target) in line]
    assert len(said) == 1 and "3 s" in said[0], r.out


def test_a_command_of_another_install_is_said_on_one_line(isolated_home):
    target = user_file(isolated_home)
    settings.install(str(target), python="/old/venv/bin/python")
    r = invoke("hooks", "install")
    assert r.code == 0, r.out + r.err
    said = [line for line in r.out.splitlines() if "/old/venv/bin/python" in line]
    assert len(said) == 4 and all("it was:" in line and "sys.path.append" in line for line in said), r.out
    assert {o.command for o in settings.find_ours(json.loads(target.read_text()))} == {
        settings.command_for(e) for e in settings.EVENTS}


def test_keys_the_person_added_to_our_entry_are_kept_and_nothing_is_written(isolated_home):
    def edit(data):
        our_entry(data, "SessionStart").update({"statusMessage": "Loading memory", "x-mine": {"a": [1]}})
    target = installed(isolated_home, edit)
    before = target.read_bytes()
    r = invoke("hooks", "install")
    assert r.code == 0, r.out + r.err
    assert "already installed" in r.out
    assert target.read_bytes() == before


def test_keys_the_person_added_stay_in_their_order_when_the_command_and_timeout_are_rewritten(isolated_home):
    old = "/opt/my/python -m lazy_harness.hooks Stop"

    def edit(data):
        our_entry(data, "Stop").update({"command": old, "timeout": "x", "statusMessage": "Saving", "x-note": None})
    target = installed(isolated_home, edit)
    r = invoke("hooks", "install")
    assert r.code == 0, r.out + r.err
    entry = our_entry(json.loads(target.read_text()), "Stop")
    assert list(entry.items()) == [("type", "command"), ("command", settings.command_for("Stop")), ("timeout", 10),
                                   ("statusMessage", "Saving"), ("x-note", None)]


def test_keys_of_our_entry_moved_out_of_a_narrow_group_go_with_it(isolated_home):
    def edit(data):
        entry = our_entry(data, "SessionStart")
        entry["statusMessage"] = "Loading memory"
        data["hooks"]["SessionStart"] = [{"matcher": "startup", "hooks": [{"type": "command", "command": "mine.sh"},
                                                                          entry]}]
    target = installed(isolated_home, edit)
    assert invoke("hooks", "install").code == 0
    groups = json.loads(target.read_text())["hooks"]["SessionStart"]
    assert groups[0] == {"matcher": "startup", "hooks": [{"type": "command", "command": "mine.sh"}]}
    assert groups[1]["matcher"] == "" and groups[1]["hooks"][0]["statusMessage"] == "Loading memory"


def test_codex_keeps_keys_the_person_added_to_our_entry(isolated_home, tmp_path, monkeypatch):
    target, data = _codex_installed(isolated_home, tmp_path, monkeypatch)
    our_entry(data, "UserPromptSubmit")["statusMessage"] = "Recalling"
    our_entry(data, "UserPromptSubmit")["command"] = "lh-hook UserPromptSubmit"
    target.write_text(json.dumps(data, indent=2) + "\n")
    r = invoke("hooks", "install", "--agent", "codex")
    assert r.code == 0, r.out + r.err
    entry = our_entry(json.loads(target.read_text()), "UserPromptSubmit")
    assert entry["statusMessage"] == "Recalling"
    assert entry["command"] == settings.command_for("UserPromptSubmit", agent=settings.CODEX)
