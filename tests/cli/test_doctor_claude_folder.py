"""``lh doctor`` names a Claude folder (CLAUDE_CONFIG_DIR, ~/.claude) another user could write: it is
Claude Code's, not ours, so the hooks do not refuse it, but whoever can write its settings.json decides
which hooks run as the person (ADR 0031, amended)."""

import os


def test_doctor_fails_on_a_claude_folder_others_could_write():
    from lazy_harness import paths
    from tests.cli.lhrun import invoke

    claude = paths.claude_dir(os.environ)
    os.makedirs(claude, exist_ok=True)
    os.chmod(claude, 0o700)
    assert "claude folder" not in invoke("doctor").out
    os.chmod(claude, 0o777)
    r = invoke("doctor")
    assert r.code == 1, r.out
    line = next(ln for ln in r.out.splitlines() if "claude folder" in ln)
    assert claude in line and "open to group or others" in line, line
    assert f"chmod 700 {claude}" in r.out
