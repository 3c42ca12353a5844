"""Every git a round runs locally gets the same settings that keep git from asking anything (no
terminal prompt, an askpass that answers nothing) and from stalling on a slow remote, not only the
commands run through ``repo._git``: those fed on stdin (``repo._run_input``: staging, the merge's
trees, checkout of its files) and the size lookup (``repo._sizes``) too. A fake ``git`` on PATH
records the environment it was run with."""

import os
import stat

from lazy_harness.sync import repo


def _fake_git(tmp_path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    seen = tmp_path / "seen"
    git = bin_dir / "git"
    git.write_text(f'#!/bin/sh\nenv > "{seen}"\ncat > /dev/null\n')
    git.chmod(git.stat().st_mode | stat.S_IXUSR)
    env = {"PATH": f"{bin_dir}{os.pathsep}/usr/bin:/bin", "HOME": str(tmp_path), "GIT_SSH_COMMAND": ""}
    return env, seen


def _recorded(seen) -> dict[str, str]:
    return dict(line.split("=", 1) for line in seen.read_text().splitlines() if "=" in line)


def test_git_fed_on_stdin_runs_with_the_same_no_prompt_settings_as_every_other(tmp_path):
    env, seen = _fake_git(tmp_path)
    data = str(tmp_path / "data")
    os.mkdir(data)
    repo._git(data, "status", env=env)
    by_git = _recorded(seen)
    repo._run_input(data, ["hash-object", "-w", "--stdin"], "text", env)
    by_run_input = _recorded(seen)
    repo._sizes(data, ["0" * 40], env)
    by_sizes = _recorded(seen)
    assert by_run_input.get("GIT_TERMINAL_PROMPT") == "0" and by_run_input.get("GIT_ASKPASS") == "true"
    assert by_run_input == by_git and by_sizes == by_git
