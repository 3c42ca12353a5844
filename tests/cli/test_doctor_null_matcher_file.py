"""A settings file holding our hooks and, in a group of the person's (or another tool's), a ``null``
matcher: Claude Code discards that whole file (claude-code-facts.md; the plugin's runs already do the
work then). ``lh doctor`` said ``ok  hooks`` beside a warning that Claude Code "may" ignore the file, and
install wrote our hooks with the same "may": no session was remembered. lh still leaves the person's
group as it is; doctor fails, and install says the hooks will not run until that matcher is fixed."""

import json

from tests.cli.lhrun import invoke

PERSONS = {"hooks": {"PreToolUse": [{"matcher": None, "hooks": [{"type": "command", "command": "audit-log"}]}]}}


def test_doctor_fails_the_hooks_of_a_file_claude_code_discards(isolated_home, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    target = isolated_home / ".claude" / "settings.json"
    target.parent.mkdir(exist_ok=True)
    target.write_text(json.dumps(PERSONS, indent=2))
    r = invoke("hooks", "install", "--write-settings")
    assert (f"warning: {target}: hooks.PreToolUse[0]: \"matcher\" is null: Claude Code ignores this whole file, "
            "so none of its hooks run, ours neither (left as is; use \"\" to match everything)") in r.out, r.out
    assert json.loads(target.read_text())["hooks"]["PreToolUse"] == PERSONS["hooks"]["PreToolUse"]
    said = invoke("doctor").out
    assert "ok    hooks:" not in said, said
    assert (f"fail  hooks: {target}: SessionStart, Stop, SessionEnd, UserPromptSubmit: Claude Code ignores this "
            "whole file for the null \"matcher\" at hooks.PreToolUse[0], so none of these hooks run") in said, said
    data = json.loads(target.read_text())
    data["hooks"]["PreToolUse"][0]["matcher"] = ""
    target.write_text(json.dumps(data, indent=2))
    assert "ok    hooks:" in invoke("doctor").out
