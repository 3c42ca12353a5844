"""The lazy-harness plugin installed with `--scope project` at a repository's root, and a session started
in a subfolder of it, with the real Claude Code CLI, offline.

Claude Code (2.1.332) applies a project-scope install only to sessions started in the folder it was
installed from (its `projectPath`), and reads `.claude/settings.json` only in the folder a session
starts in: the plugin's hooks do not run in `src/deep`, and `lh doctor` there must not say they do.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from claude_env import ClaudeHome
from loop_home import LoopHome
from standin import Script

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
PLUGIN_ID = "lazy-harness@lazy-harness"
CHECK = re.compile(r"^(ok|info|warn|fail) +([a-z][a-z ]*): ")
SETTLE = 3.0  # seconds after `claude -p` returns for a hook line that would still come (none should)


def claude(home: ClaudeHome, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([home.binary, *args], cwd=cwd, env=home.env, capture_output=True, text=True,
                          timeout=120, stdin=subprocess.DEVNULL)


def marketplace(tmp_path: Path) -> Path:
    """The working tree's marketplace and plugin folders, copied (no git: a directory marketplace)."""
    dest = tmp_path / "lazy-harness"
    for folder in (".claude-plugin", "plugin"):
        shutil.copytree(ROOT / folder, dest / folder)
    return dest


def session(home: LoopHome, cwd: Path) -> str:
    proc = subprocess.run([home.claude.binary, "-p", "Hello there", "--output-format", "json"], cwd=cwd,
                          env=home.env, input="", capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return str(json.loads(proc.stdout)["session_id"])


def doctor_checks(home: LoopHome, cwd: Path) -> list[tuple[str, str, str]]:
    """(status, check, line) of each line `lh doctor` prints in ``cwd``."""
    out = home.lh("doctor", cwd=cwd).stdout
    return [(m.group(1), m.group(2), line) for line in out.splitlines() if (m := CHECK.match(line))]


def test_a_project_plugin_of_the_root_runs_no_hook_in_a_subfolder_and_doctor_says_so(
        loop_home: LoopHome, tmp_path: Path) -> None:
    home = loop_home
    home.standin.script = Script(text="Fine.")
    home.env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + home.env["PATH"]  # lh-hook, as pipx puts it
    subprocess.run(["git", "init", "-q", str(home.project)], check=True, timeout=60)
    deep = home.project / "src" / "deep"
    deep.mkdir(parents=True)
    for args in (("plugin", "marketplace", "add", str(marketplace(tmp_path))),
                 ("plugin", "install", "--scope", "project", PLUGIN_ID)):
        proc = claude(home.claude, *args, cwd=home.project)
        assert proc.returncode == 0, f"claude {' '.join(args)}: {proc.stdout}{proc.stderr}"

    at_root = session(home, home.project)  # the control: at the root the plugin's hooks run
    home.wait_hook("SessionEnd", at_root)
    home.wait_idle()
    assert ("ok", "hooks") in [(s, c) for s, c, _ in doctor_checks(home, home.project)]

    in_deep = session(home, deep)
    time.sleep(SETTLE)
    assert home.hook_lines(session=in_deep) == [], home.describe()
    checks = doctor_checks(home, deep)
    hooks = [(status, line) for status, check, line in checks if check == "hooks"]
    assert hooks and all(status != "ok" for status, _ in hooks), checks
    assert any(status == "fail" and f"start claude in {home.project}" in line for status, line in hooks), hooks
    (plugin,) = [(status, line) for status, check, line in checks if check == "plugin"]
    assert plugin[0] == "warn" and f"installed for {home.project}" in plugin[1], plugin
