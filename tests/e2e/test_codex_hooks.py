"""Codex CLI end to end: the real ``codex`` (TUI in tmux, app-server for trust) against the Responses
stand-in, with lazy-harness installed by the real ``lh hooks install --agent codex``."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator

import pytest

from codex_home import CodexHome, exit_tui, prompt, tui
from responses_standin import ResponsesScript, ResponsesStandIn

pytestmark = pytest.mark.e2e

THEIRS = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true"}]}]}}
QUESTION = "Where should the billing queue live, Postgres or Redis"  # no '?': the TUI takes it as a key
REPLY = "Postgres it is: the nightly backup covers it."
REMEMBERED = "Decided earlier: retries go through the queue table"


@pytest.fixture
def standin() -> Iterator[ResponsesStandIn]:
    with ResponsesStandIn(ResponsesScript(text=REPLY)) as server:
        yield server


@pytest.fixture
def home(standin, codex_bin, tmux_bin) -> Iterator[CodexHome]:
    made = CodexHome(standin.base_url, codex_bin)
    yield made
    made.close()


def remember(home: CodexHome, text: str) -> None:
    mdir = home.memory_dir()
    mdir.mkdir(parents=True, exist_ok=True)
    rec = {"ts": "2026-11-20T10:00:00+00:00", "type": "decision", "project": "project", "session_id": "5e6f7a8b-c0de",
           "task_id": "t-1", "summary": text, "rationale": "one place to look", "via": "session"}
    with open(mdir / "decisions.jsonl", "a") as fh:
        fh.write(json.dumps(rec) + "\n")


def trust_of(home: CodexHome) -> list[str]:
    """Our hooks' trust as the real app-server reports it."""
    code = ("import sys; from lazy_harness import codex_trust, paths; "
            "print(' '.join(h['trustStatus'] for h in codex_trust.status(paths.codex_hooks_file(), sys.argv[1])))")
    done = subprocess.run([sys.executable, "-c", code, str(home.project)], env=home.env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_install_trusts_a_tui_session_fires_our_hooks_and_uninstall_restores_hooks_json(home, standin):
    original = (json.dumps(THEIRS, indent=2) + "\n").encode()
    home.hooks_file.write_bytes(original)
    remember(home, REMEMBERED)
    done = home.install()
    assert re.search(r"^trust: 4 hooks trusted in ", done.stdout, re.M), done.stdout
    assert trust_of(home) == ["trusted"] * 4
    home.hold_worker()  # the task stays as the hook left it
    with tui(home, review=True) as term:
        prompt(term, QUESTION)
        standin.wait_for(1, 60)
        term.wait_for(REPLY[:20], 30)
        exit_tui(term)
    [rollout] = home.rollouts()
    sid = re.search(r"-([0-9a-f-]{36})\.jsonl$", rollout.name)[1]
    fired = {line.split()[1] for line in home.hook_lines() if f"session={sid} agent=codex" in line}
    assert {"SessionStart", "UserPromptSubmit", "Stop"} <= fired, home.hook_lines()
    [task] = [t for t in home.tasks() if t["session_id"] == sid]
    assert (task["agent"], task["event"], task["session_jsonl"]) == ("codex", "Stop", str(rollout))
    # the read-back reached the model as a developer message, within Codex's preview limit
    first = standin.turn_requests()[0]
    digest = next(m for m in first.messages("developer") if REMEMBERED in m)
    assert "session 5e6f7a8b" in digest and len(digest) < 6000
    assert "hook_outputs" not in first.all_text()  # not turned into a file and a preview
    gone = home.lh("hooks", "uninstall", "--agent", "codex")
    assert gone.returncode == 0, gone.stderr
    assert home.hooks_file.read_bytes() == original
    assert "hooks.state" not in (home.codex_home / "config.toml").read_text()  # our trust entries went too


def test_session_end_of_a_tui_without_the_daemon_forces_the_task(home, standin):
    home.install()
    home.hold_worker()
    with tui(home, "--no-daemon") as term:
        prompt(term, QUESTION)
        standin.wait_for(1, 60)
        term.wait_for(REPLY[:20], 30)
        exit_tui(term)
    [rollout] = home.rollouts()
    sid = re.search(r"-([0-9a-f-]{36})\.jsonl$", rollout.name)[1]
    ended = [line for line in home.hook_lines() if line.split()[1:3] == ["SessionEnd", f"session={sid}"]]
    assert ended and "agent=codex" in ended[-1], home.hook_lines()
    [task] = [t for t in home.tasks() if t["session_id"] == sid]
    assert (task["agent"], task["forced"], task["event"]) == ("codex", "1", "SessionEnd")
