"""Where memory lives, checked against the real Claude Code CLI.

- Claude Code's auto memory owns `<claude dir>/projects/<key>/memory/` (2.1.330 indexes the `.md`
  files it finds there in MEMORY.md). After sessions with the loop on, no lazy-harness file is there,
  MEMORY.md lists none, and the files an older version left there were moved into lazy-harness's own
  folder and read back.
- The project key: for long, emoji, accented and spaced folders lazy-harness's key equals the folder
  name the CLI itself creates under `projects/`, and such a project is distilled and read back.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from claude_env import ClaudeHome, first_run_state
from loop_home import LoopHome
from standin import inline_system_text
from test_compound_loop import ANSWER, TURNS, read_jsonl, session_script

pytestmark = pytest.mark.e2e

OURS = {"decisions.jsonl", "failures.jsonl", "handoff.md", "handoff.jsonl"}
OLD_DECISION = {"ts": "2026-01-05T09:00:00+00:00", "type": "decision", "project": "project", "session_id": "old",
                "task_id": "old", "summary": "Deploy on Tuesdays only.", "context": "", "alternatives": [],
                "rationale": "Ops is staffed.", "tags": ["deploy"]}
TOPIC = "---\nname: tabs\ndescription: the user indents with tabs\ntype: feedback\n---\n\nUse tabs.\n"


def test_no_lazy_harness_file_stays_in_claude_codes_memory_folder(loop_home: LoopHome, tmux_bin: str) -> None:
    home = loop_home
    home.standin.script = session_script(ANSWER)
    home.install(debounce_seconds=0, reprocess_min_growth_seconds=0)
    # what an older lazy-harness left in Claude Code's folder, beside a topic file of Claude Code's own
    old = home.claude_memory_dir
    old.mkdir(parents=True)
    (old / "decisions.jsonl").write_text(json.dumps(OLD_DECISION) + "\n")
    (old / "handoff.md").write_text("# Open items for the next session\n\n- Rotate the deploy key.\n")
    (old / "feedback_tabs.md").write_text(TOPIC)

    sid = home.interactive(TURNS)
    home.wait_hook("SessionEnd", sid)
    home.wait_idle()
    assert not home.task_names("failed"), home.describe()
    assert any("migrate:" in line for line in home.hook_lines("SessionStart", sid)), home.describe()

    # moved, merged with what the session added, and read back by the next session
    summaries = [r["summary"] for r in read_jsonl(home.memory_dir / "decisions.jsonl")]
    assert summaries == [OLD_DECISION["summary"], *(d["summary"] for d in ANSWER["decisions"])]
    seen = len(home.standin.log.model_requests())
    proc = home.claude.run_print("Anything I should know?", "--output-format", "json")
    assert proc.returncode == 0, proc.stderr
    context = inline_system_text(home.standin.log.model_requests()[seen])
    assert OLD_DECISION["summary"] in context and str(home.memory_dir) in context
    home.wait_hook("SessionEnd", json.loads(proc.stdout)["session_id"])
    home.wait_idle()

    left = {p.name for p in old.iterdir()}
    assert not left & OURS, left
    assert (old / "feedback_tabs.md").read_text() == TOPIC  # Claude Code's own file, untouched
    index = old / "MEMORY.md"
    if index.exists():  # 2.1.330 writes one from the .md files it finds
        text = index.read_text()
        assert not any(name in text for name in OURS), text
    assert all(not (home.sessions_dir / name).exists() for name in OURS)


# Folder names under the tmp HOME; with it they pass 200 characters, need a hash, or hold
# characters Claude Code turns into one `-` per UTF-16 code unit.
SPECIAL = {
    "long": "deep-" + "x" * 120 + "/" + "nested folder " * 8,
    "emoji": "emoji-🚀 rocket",
    "accented": "café résumé",
    "spaced": "my project (copy) v2",
}


@pytest.mark.parametrize("kind", list(SPECIAL))
def test_project_key_is_the_folder_the_cli_creates(loop_home: LoopHome, tmux_bin: str, kind: str) -> None:
    base = loop_home
    project = base.home / SPECIAL[kind]
    project.mkdir(parents=True)
    state = json.loads((base.home / ".claude.json").read_text())
    state["projects"].update(first_run_state(project)["projects"])
    (base.home / ".claude.json").write_text(json.dumps(state))
    claude = ClaudeHome(base.home, project, base.env, base.claude.binary)
    home = LoopHome(claude, base.standin)
    home.standin.script = session_script(ANSWER)
    home.install()

    transcript = _interactive(home)
    sid, folder = transcript.stem, transcript.parent.name  # the folder the CLI created for the project
    if kind == "long":
        assert len(str(project)) > 200 and len(folder) > 200 and folder[200] == "-", folder

    shown = home.lh("memory", "path", "--project", str(project))
    assert shown.returncode == 0, shown.stderr
    assert os.path.basename(shown.stdout.strip()) == folder  # our key == Claude Code's folder
    memory = Path(shown.stdout.strip())
    assert [r["summary"] for r in read_jsonl(memory / "decisions.jsonl")] == [d["summary"] for d in ANSWER["decisions"]]
    assert all(r["session_id"] == sid for r in read_jsonl(memory / "decisions.jsonl"))

    seen = len(home.standin.log.model_requests())
    proc = claude.run_print("What is still open?", "--output-format", "json")
    assert proc.returncode == 0, proc.stderr
    context = inline_system_text(home.standin.log.model_requests()[seen])
    assert all(item in context for item in ANSWER["handoff"]), context
    home.wait_hook("SessionEnd", json.loads(proc.stdout)["session_id"])
    home.wait_idle()


def _interactive(home: LoopHome) -> Path:
    """One three-turn session; its transcript folder is found by listing, not by our key."""
    before = set(home.claude.transcripts())
    stops = len(home.hook_lines("Stop"))
    term = home.claude.terminal()
    try:
        term.wait_prompt(60)
        from loop_home import type_turn

        for text in TURNS:
            type_turn(term, home.standin, text)
            stops += 1
            home.wait_hooks("Stop", stops)
            home.wait_idle()
        term.send_text("/exit")
        assert term.wait_exit(30) == 0
    finally:
        term.close()
    (new,) = [p for p in home.claude.transcripts() if p not in before and p.parent.parent.name == "projects"]
    home.wait_hook("SessionEnd", new.stem)
    home.wait_idle()
    assert not home.task_names("failed"), home.describe()
    return new
