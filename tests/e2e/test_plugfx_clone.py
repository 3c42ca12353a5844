"""The plugin installed from a clone (a directory marketplace) with the real Claude Code CLI, offline
(docs/adr/0022): Claude Code reads the clone in place, not the cached copy named by installPath, and
`lh doctor` checks the folder it reads. A clone moved away loads no hook, and doctor says so."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from loop_home import LoopHome
from standin import Script

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
PLUGIN_ID = "lazy-harness@lazy-harness"
CHECK = re.compile(r"^(ok|info|warn|fail) +([a-z][a-z ]*): ")


def claude(home: LoopHome, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([home.claude.binary, *args], cwd=home.project, env=home.env, capture_output=True,
                          text=True, timeout=120, stdin=subprocess.DEVNULL)


def installed_from_a_clone(home: LoopHome, tmp_path: Path) -> tuple[Path, Path]:
    """(the clone, the cached copy): the working tree's marketplace and plugin folders, added as a
    marketplace and installed, with lh-hook on PATH as pipx puts it."""
    clone = tmp_path / "lazy-harness"
    for folder in (".claude-plugin", "plugin"):
        shutil.copytree(ROOT / folder, clone / folder)
    home.env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + home.env["PATH"]
    for args in (("plugin", "marketplace", "add", str(clone)), ("plugin", "install", PLUGIN_ID)):
        proc = claude(home, *args)
        assert proc.returncode == 0, f"claude {' '.join(args)}: {proc.stdout}{proc.stderr}"
    record = json.loads((home.claude.claude_dir / "plugins" / "installed_plugins.json").read_text())
    (install,) = record["plugins"][PLUGIN_ID]
    return clone, Path(install["installPath"])


def doctor(home: LoopHome) -> dict[str, list[tuple[str, str]]]:
    """check -> [(status, line)] of `lh doctor`."""
    found: dict[str, list[tuple[str, str]]] = {}
    for line in home.lh("doctor").stdout.splitlines():
        if m := CHECK.match(line):
            found.setdefault(m.group(2), []).append((m.group(1), line))
    return found


def test_plugfx_the_clone_runs_not_the_cached_copy_and_doctor_checks_the_clone(
        loop_home: LoopHome, tmp_path: Path) -> None:
    home = loop_home
    home.standin.script = Script(text="Fine.")
    clone, cached = installed_from_a_clone(home, tmp_path)
    # the cached copy made old: its commands name a program that is not there
    hooks = cached / "hooks" / "hooks.json"
    hooks.write_text(hooks.read_text().replace("lh-hook", "lh-hook-of-0.1.0"))
    proc = home.claude.run_print("Hello there", "--output-format", "json")
    assert proc.returncode == 0, proc.stderr
    sid = json.loads(proc.stdout)["session_id"]
    home.wait_hook("SessionEnd", sid)  # the clone's hooks ran
    home.wait_idle()
    found = doctor(home)
    (plugin,) = found["plugin"]
    assert plugin[0] == "ok" and str(clone / "plugin") in plugin[1], found
    assert [s for s, _ in found["hooks"]] == ["ok"], found


def test_plugfx_a_clone_moved_away_loads_no_hook_and_doctor_fails(loop_home: LoopHome, tmp_path: Path) -> None:
    home = loop_home
    clone, _ = installed_from_a_clone(home, tmp_path)
    shutil.move(str(clone), str(tmp_path / "moved"))
    listed = claude(home, "plugin", "list")
    assert "failed to load" in listed.stdout + listed.stderr, listed.stdout + listed.stderr
    found = doctor(home)
    (plugin,) = found["plugin"]
    assert plugin[0] == "fail" and str(clone) in plugin[1] and "claude plugin marketplace remove" in plugin[1], found
    assert found["hooks"] and all(s != "ok" for s, _ in found["hooks"]), found

    # the hint, run as written in the clone's new folder, gives the hooks back
    hint = plugin[1].partition("where it is now: ")[2].rstrip(")")
    env = dict(home.env, PATH=os.path.dirname(os.path.abspath(home.claude.binary)) + os.pathsep + home.env["PATH"])
    proc = subprocess.run(["sh", "-c", hint], cwd=tmp_path / "moved", env=env, capture_output=True, text=True,
                          timeout=180, stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    (plugin,) = doctor(home)["plugin"]
    assert plugin[0] == "ok" and str(tmp_path / "moved" / "plugin") in plugin[1], plugin
