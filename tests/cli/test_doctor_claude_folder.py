"""``lh doctor`` names a Claude folder (CLAUDE_CONFIG_DIR, ~/.claude) another user could write: it is
Claude Code's, not ours, so the hooks do not refuse it, but whoever can write its settings.json decides
which hooks run as the person (ADR 0031, amended)."""

import os

import pytest


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


def test_a_claude_folder_linked_from_the_persons_dotfiles_is_judged_by_where_it_leads(tmp_path):
    from lazy_harness import paths
    from tests.cli.lhrun import invoke

    claude = paths.claude_dir(os.environ)
    target = tmp_path / "dotfiles" / "claude"
    target.mkdir(parents=True, mode=0o700)
    if os.path.isdir(claude) and not os.path.islink(claude):
        os.rename(claude, str(target) + ".old")
    os.symlink(target, claude)
    assert "claude folder" not in invoke("doctor").out
    os.chmod(target, 0o777)
    line = next(ln for ln in invoke("doctor").out.splitlines() if "claude folder" in ln)
    assert str(target) in line and "open to group or others" in line, line


def test_a_claude_folder_writable_by_the_persons_own_private_group_passes():
    import grp
    import pwd

    from lazy_harness import paths
    from tests.cli.lhrun import invoke

    me = pwd.getpwuid(os.geteuid())
    own = grp.getgrgid(me.pw_gid)
    if own.gr_name != me.pw_name or own.gr_mem:
        pytest.skip("this user has no private group of their own")
    claude = paths.claude_dir(os.environ)
    os.makedirs(claude, exist_ok=True)
    os.chmod(claude, 0o775)  # what Claude Code makes under umask 002
    assert "claude folder" not in invoke("doctor").out
