"""The lazy-harness plugin with the real Claude Code CLI, offline (docs/adr/0022).

`claude plugin marketplace add <clone>` and `claude plugin install lazy-harness@lazy-harness`, and
nothing else: no `lh hooks install`. lh-hook is on PATH the way pipx or an activated virtualenv puts it
there. The plugin's first SessionStart switches the loop on and tells the person what happens next; an
interactive session is distilled by the worker its hooks spawned, and the next session receives the
read-back.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from claude_env import ClaudeHome
from loop_home import LoopHome, type_turn
from standin import TURN, Script, inline_system_text
from test_compound_loop import ANSWER, TURNS, assert_entries, handoff_items, processed, session_script, task_ids

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
MARKETPLACE = "lazy-harness"
PLUGIN_ID = f"lazy-harness@{MARKETPLACE}"


def claude(home: ClaudeHome, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([home.binary, *args], cwd=home.project, env=home.env, capture_output=True, text=True,
                          timeout=120, stdin=subprocess.DEVNULL)


def clone(tmp_path: Path) -> Path:
    """A git clone of this repository, with the working tree's plugin files over it (why: an edit of
    them not yet committed is what is being tested)."""
    dest = tmp_path / "lazy-harness"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(dest)], check=True, timeout=120)
    for folder in (".claude-plugin", "plugin"):
        shutil.rmtree(dest / folder, ignore_errors=True)
        shutil.copytree(ROOT / folder, dest / folder)
    return dest


def install_plugin(home: ClaudeHome, tmp_path: Path) -> None:
    for args in (("plugin", "marketplace", "add", str(clone(tmp_path))), ("plugin", "install", PLUGIN_ID)):
        proc = claude(home, *args)
        assert proc.returncode == 0, f"claude {' '.join(args)}: {proc.stdout}{proc.stderr}"


@pytest.mark.parametrize("folder", [".", "plugin"])
def test_claude_plugin_validate_passes_strict(claude_home: ClaudeHome, folder: str) -> None:
    proc = claude(claude_home, "plugin", "validate", "--strict", str(ROOT / folder))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Validation passed" in proc.stdout


def test_the_plugin_alone_distills_a_session_and_the_next_one_reads_it_back(
        loop_home: LoopHome, tmux_bin: str, tmp_path: Path) -> None:
    home = loop_home
    home.standin.script = session_script(ANSWER)
    # The test's own settings only: the real claude for the worker's call, no wait between retries, no
    # embedder process. `enabled` is not set: the plugin's first start switches the loop on.
    home.config_file.parent.mkdir(parents=True, exist_ok=True)
    home.config_file.write_text(f'[compound_loop]\nclaude_path = "{os.path.abspath(home.claude.binary)}"\n'
                                "retry_backoff_seconds = 0\n[recall]\nsemantic = false\n")
    home.env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + home.env["PATH"]  # lh-hook, as pipx puts it
    install_plugin(home.claude, tmp_path)
    settings = json.loads((home.claude.claude_dir / "settings.json").read_text())
    assert settings["enabledPlugins"] == {PLUGIN_ID: True} and "hooks" not in settings

    before = set(home.transcripts())
    term = home.claude.terminal()
    try:
        term.wait_prompt(60)
        # the first start's two lines, shown to the person
        screen = term.wait_for(r"a session is distilled into its project's memory", 30)
        assert "lh memory show" in screen or "lh memory show" in term.capture(history=True), screen
        for n, text in enumerate(TURNS, 1):
            type_turn(term, home.standin, text)
            home.wait_hooks("Stop", n)  # why: as LoopHome.interactive, so no worker reads a turn half-written
            home.wait_idle()
        term.send_text("/exit")
        assert term.wait_exit(30) == 0
    finally:
        term.close()
    (transcript,) = [p for p in home.transcripts() if p not in before]
    sid = transcript.stem
    assert "(plugin first start: loop enabled; told the person what happens next)" in \
        home.wait_hook("SessionStart", sid), home.describe()
    assert tomllib.loads(home.config_file.read_text())["compound_loop"]["enabled"] is True
    home.wait_hook("SessionEnd", sid)
    home.wait_idle()

    runs = processed(home)
    assert runs and {t["session_id"] for t in runs} == {sid}, home.describe()
    assert not home.task_names("failed"), home.describe()
    assert len(home.hook_lines("SessionEnd", sid)) == 1  # the plugin alone: each event runs once
    assert_entries(home.memory_dir / "decisions.jsonl", "decision", ANSWER["decisions"], sid, task_ids(runs))
    assert handoff_items(home.memory_dir / "handoff.md") == ANSWER["handoff"]

    seen = len(home.standin.log.model_requests())
    proc = home.claude.run_print("What is still open from the last session?", "--output-format", "json")
    assert proc.returncode == 0, proc.stderr
    context = inline_system_text(home.standin.log.model_requests()[seen])
    assert all(item in context for item in ANSWER["handoff"]), context
    next_sid = json.loads(proc.stdout)["session_id"]
    assert "plugin first start" not in home.wait_hook("SessionStart", next_sid)  # said once
    home.wait_hook("SessionEnd", next_sid)
    home.wait_idle()


def test_without_lh_hook_the_session_runs_and_nothing_is_logged(loop_home: LoopHome, tmp_path: Path) -> None:
    home = loop_home
    home.standin.script = Script(text="Fine.")
    home.env["PATH"] = os.pathsep.join(d for d in home.env["PATH"].split(os.pathsep)
                                       if d and not os.access(os.path.join(d, "lh-hook"), os.X_OK))
    install_plugin(home.claude, tmp_path)
    proc = home.claude.run_print("Hello there", "--output-format", "json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["result"] == "Fine."
    assert not home.hooks_log.exists()
    assert len(home.standin.log.of_kind(TURN)) == 1
    assert not re.search(r"lazy-harness", inline_system_text(home.standin.log.of_kind(TURN)[0]))
