"""``"async": true`` added by hand to our SessionStart or UserPromptSubmit entry (to start sessions faster):
Claude Code then runs the hook in the background and its context misses the turn (claude-code-facts.md),
so the memory read back never reaches the model. Install keeps the key (it is the person's, ADR 0058);
``lh doctor`` said ``ok  hooks``. It now names the event and the key. Stop and SessionEnd add no context:
async there changes nothing lh relies on."""

import json

from tests.cli.lhrun import invoke


def test_doctor_warns_that_an_async_read_back_reaches_no_turn(isolated_home, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    target = isolated_home / ".claude" / "settings.json"
    assert invoke("hooks", "install", "--write-settings").code == 0
    data = json.loads(target.read_text())
    for event in ("SessionStart", "Stop"):
        data["hooks"][event][0]["hooks"][0]["async"] = True
    target.write_text(json.dumps(data, indent=2))
    said = invoke("doctor").out
    assert (f"warn  hooks: {target}: SessionStart runs with \"async\": true, so what it reads back reaches no "
            "turn (the model never sees the memory)  (hint: remove \"async\" from lazy-harness's SessionStart "
            f"entry in {target})") in said, said
    assert "Stop runs with" not in said
    assert invoke("hooks", "install", "--write-settings").code == 0  # the person's key stays
    assert json.loads(target.read_text())["hooks"]["SessionStart"][0]["hooks"][0]["async"] is True
