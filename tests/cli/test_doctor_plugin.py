"""lh doctor where the Claude Code plugin registers the hooks (docs/adr/0022): a plugin user never runs
``lh hooks install``, so no line tells them to; a disabled plugin is said to be paused."""

import os

from lazy_harness import hotload, paths
from tests.cli.lhrun import invoke
from tests.support import claude_plugin, fake_claude

PLUGIN = claude_plugin.PLUGIN_ID


def doctor(tmp_path, monkeypatch) -> tuple[int, dict[str, str]]:
    """Exit code and check name -> line, with claude and an lh-hook on PATH."""
    fake_claude.on_path(monkeypatch, tmp_path / "bin")
    fake_claude.install(tmp_path / "bin")
    script = tmp_path / "bin" / "lh-hook"
    script.write_text("#!/bin/sh\nexit 0\n")
    script.chmod(0o755)
    r = invoke("doctor")
    return r.code, {line.split(":")[0].split(None, 1)[1]: line for line in r.out.splitlines()}


def test_a_fresh_plugin_install_says_the_first_session_writes_the_hook_modules(tmp_path, monkeypatch):
    claude_plugin.install()
    assert not os.path.exists(hotload.bundle_file())
    code, found = doctor(tmp_path, monkeypatch)
    line = found["hook modules"]
    assert line == (f"info  hook modules: {hotload.bundle_file()} not written yet: the first session's worker "
                    f"writes it (the plugin {PLUGIN} registers the hooks)")
    assert code == 0, found


def test_with_the_plugin_a_stale_bundle_is_left_to_the_next_sessions_worker(tmp_path, monkeypatch):
    claude_plugin.install()
    marker = paths.plugin_welcome_file()  # a session started already
    os.makedirs(os.path.dirname(marker), exist_ok=True)
    open(marker, "w").close()
    where = hotload.bundle_file()
    os.makedirs(os.path.dirname(where), mode=0o700, exist_ok=True)
    os.chmod(paths.cache_dir(), 0o700)
    with open(where, "wb") as fh:
        fh.write(b"not a bundle")
    _, found = doctor(tmp_path, monkeypatch)
    line = found["hook modules"]
    assert line.startswith("warn  hook modules: ") and "lh hooks install" not in line
    assert line.endswith("(hint: the next session's worker writes it again)")


def test_a_disabled_plugin_is_paused_and_the_hint_enables_it(tmp_path, monkeypatch):
    claude_plugin.install(enabled=False)
    _, found = doctor(tmp_path, monkeypatch)
    line = found["hooks"]
    assert line == (f"fail  hooks: paused: the plugin {PLUGIN} is disabled and no settings file holds lazy-harness "
                    f"hooks, so no session is remembered  (hint: claude plugin enable {PLUGIN})")
    assert "lh hooks install" not in found["hook modules"]


def test_without_the_plugin_the_bundle_hint_is_still_lh_hooks_install(tmp_path, monkeypatch):
    assert invoke("hooks", "install").code == 0
    os.unlink(hotload.bundle_file())
    _, found = doctor(tmp_path, monkeypatch)
    assert found["hook modules"].startswith("warn  hook modules: ") and "lh hooks install" in found["hook modules"]
