"""``"disableAllHooks": true`` in a settings file read here: Claude Code runs no hook, ours neither.
``lh doctor`` failed that, then said ``ok  hooks`` for the same file's hooks on the next line; ``lh hooks
install`` said "already installed" (or wrote them) without a word about it. Both now agree."""

import json

from tests.cli.lhrun import invoke


def test_install_and_doctor_say_the_hooks_do_not_run(isolated_home, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    target = isolated_home / ".claude" / "settings.json"
    target.parent.mkdir(exist_ok=True)
    target.write_text(json.dumps({"disableAllHooks": True, "model": "opus"}, indent=2))
    for _ in range(2):  # written, then already installed
        out = invoke("hooks", "install", "--write-settings").out
        assert (f"warning: {target} sets \"disableAllHooks\": true: Claude Code runs no hook, these neither "
                f"(hint: remove disableAllHooks from {target})") in out, out
    said = invoke("doctor").out
    assert f"fail  hooks: {target} sets \"disableAllHooks\": true" in said
    assert "ok    hooks:" not in said, said
    assert json.loads(target.read_text())["disableAllHooks"] is True  # the person's setting, left
