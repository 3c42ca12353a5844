"""One memory for Codex CLI and Claude Code, end to end with both real CLIs: a Codex TUI session is
distilled by ``codex exec`` (no ``claude`` on the PATH Codex runs with), the next Codex session and a
Claude Code session in the same project start with its memory; ``codex exec`` runs are never
distilled; ``codex resume`` is distilled for what it added only."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from codex_home import CodexHome, exit_tui, prompt, tui
from loop_home import LoopHome
from responses_standin import ResponsesRequest, ResponsesScript, ResponsesStandIn
from standin import inline_system_text

pytestmark = pytest.mark.e2e

TURNS = [
    "Where should the billing job queue live, Postgres or Redis. We back up Postgres every night already",
    "Decision: the queue stays in Postgres, and the nightly migration needs a lock timeout. Note that down",
]
REPLY = "Noted: Postgres for the queue, with a lock timeout on migrations."
DECISION = "Keep the billing job queue in Postgres (decided in Codex)."
ANSWER: dict[str, Any] = {
    "decisions": [{"summary": DECISION, "context": "Storage for the billing queue.", "alternatives": ["Redis"],
                   "rationale": "Postgres is already backed up every night.", "tags": ["queue"]}],
    "failures": [], "learnings": [], "handoff": [],
}
RESUMED = "One more thing from the resumed session: retries go through the same queue table"
WORKING = "esc to interrupt"  # the TUI's status line while a turn runs


@pytest.fixture
def responses() -> Iterator[ResponsesStandIn]:
    with ResponsesStandIn(ResponsesScript(text=REPLY, structured=ANSWER)) as server:
        yield server


@pytest.fixture
def both(loop_home: LoopHome, responses, codex_bin, tmux_bin) -> Iterator[tuple[LoopHome, CodexHome]]:
    """Claude Code's and Codex's hooks installed in one HOME; the loop's config written as a person would."""
    codex = CodexHome(responses.base_url, codex_bin, home=loop_home.home, env=loop_home.env)
    loop_home.config_file.parent.mkdir(parents=True, exist_ok=True)
    loop_home.config_file.write_text("[compound_loop]\nenabled = true\nretry_backoff_seconds = 0\n"
                                     "timeout_seconds = 60\n[recall]\nsemantic = false\n[trust]\nmodel_check = false\n")
    done = loop_home.lh("hooks", "install")
    assert done.returncode == 0, done.stderr
    assert "trust: 4 hooks trusted" in codex.install().stdout
    yield loop_home, codex
    loop_home.kill_workers()
    codex.close()


def schema_requests(responses: ResponsesStandIn) -> list[ResponsesRequest]:
    """The worker's distill calls: codex exec with the answer schema (the TUI asks with a schema too,
    for a thread title)."""
    return [r for r in responses.model_requests()
            if r.schema is not None and r.headers.get("originator") == "codex_exec"]


def wait_for(condition, timeout: float, what: str, describe=lambda: "") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.2)
    raise AssertionError(f"{what} not within {timeout} s\n{describe()}")


def decisions(home: LoopHome) -> list[dict]:
    path = home.memory_dir / "decisions.jsonl"
    return [json.loads(x) for x in path.read_text().splitlines() if x.strip()] if path.exists() else []


def session_of(rollout: Path) -> str:
    return re.search(r"-([0-9a-f-]{36})\.jsonl$", rollout.name)[1]


def tui_session(codex: CodexHome, responses: ResponsesStandIn, turns: list[str], *args: str) -> None:
    """Each of ``turns`` typed and answered before the next, then /exit. A turn is done when one more
    reply shows than before it (the earlier replies stay on screen: waiting for the text alone let a
    second turn end the session mid-answer, and its rollout missed the reply) and the TUI no longer
    says it is working."""
    with tui(codex, *args) as term:
        for text in turns:
            before = len(responses.model_requests())
            shown = term.capture(history=True).count(REPLY[:25])
            prompt(term, text)
            responses.wait_for(before + 1, 60)
            assert term.poll(lambda n=shown: term.capture(history=True).count(REPLY[:25]) > n, 30), term.capture()
            assert term.poll(lambda: WORKING not in term.capture(), 30), term.capture()
        exit_tui(term)


def test_a_codex_session_is_distilled_by_codex_exec_and_read_back_in_codex_and_claude_code(both, responses):
    home, codex = both
    tui_session(codex, responses, TURNS, "--no-daemon")
    [rollout] = codex.rollouts()
    sid = session_of(rollout)
    wait_for(lambda: any(d["summary"] == DECISION for d in decisions(home)), 120, "the distilled decision",
             home.describe)
    [entry] = [d for d in decisions(home) if d["summary"] == DECISION]
    assert entry["agent"] == "codex" and entry["session_id"] == sid
    distill = schema_requests(responses)
    assert distill and all(r.headers.get("originator") == "codex_exec" for r in distill)
    asked = distill[-1].all_text()
    assert TURNS[0][:40] in asked and TURNS[1][:40] in asked
    home.wait_idle()

    # the next Codex session starts with it, its origin naming Codex
    seen = len(responses.model_requests())
    asked_now = "What did we decide about the billing queue"
    tui_session(codex, responses, [asked_now])
    # why by its prompt, not the first request after ``seen``: a request of the first session's Codex
    # (its own background work) may still arrive after it ended, and it carries no start of the second;
    # and a turn, not any request with the prompt: the thread-title request carries it too, without context
    turns = [r for r in responses.model_requests()[seen:] if r.schema is None and asked_now in r.last_user_text()]
    assert turns, f"no model request of the second session carries its prompt: {responses.model_requests()[seen:]}"
    context = "\n".join(turns[0].messages("developer"))
    line = next((x for x in context.splitlines() if DECISION in x), None)
    assert line is not None, f"the second session's start has no {DECISION!r}: {context[:2000]}"
    assert f"Codex session {sid[:8]}" in line

    # and so does a Claude Code session in the same project
    before = len(home.standin.log.model_requests())
    proc = home.claude.run_print("What did we decide about the billing queue", "--output-format", "json")
    assert proc.returncode == 0, proc.stderr
    claude_context = inline_system_text(home.standin.log.model_requests()[before])
    assert DECISION in claude_context and f"Codex session {sid[:8]}" in claude_context
    home.wait_hook("SessionEnd", json.loads(proc.stdout)["session_id"])
    home.wait_idle()


def test_codex_exec_runs_fire_our_hooks_but_are_never_distilled(both, responses):
    import subprocess

    home, codex = both
    text = " ".join([TURNS[0], TURNS[1], TURNS[0]])  # long enough to pass every gate
    done = subprocess.run(["codex", "exec", "--skip-git-repo-check", text], env=codex.env, cwd=codex.project,
                          capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    [rollout] = codex.rollouts()
    sid = session_of(rollout)
    wait_for(lambda: any(t["session_id"] == sid and t["_state"] in ("done", "failed") for t in codex.tasks()), 90,
             "the exec run's task to be processed", home.describe)
    home.wait_idle()
    tasks = [t for t in codex.tasks() if t["session_id"] == sid]
    assert tasks and all(t["agent"] == "codex" for t in tasks)
    assert all(t.get("outcome") != "processed" for t in tasks), tasks
    assert schema_requests(responses) == [] and decisions(home) == []


def test_a_resumed_codex_session_is_distilled_for_what_it_added(both, responses):
    home, codex = both
    tui_session(codex, responses, TURNS, "--no-daemon")
    [rollout] = codex.rollouts()
    sid = session_of(rollout)
    wait_for(lambda: len(schema_requests(responses)) >= 1, 120, "the first distillation", home.describe)
    home.wait_idle()
    first = len(schema_requests(responses))
    tui_session(codex, responses, [RESUMED + ", with five attempts for every job and a backoff that doubles",
                                   "Decision: failed jobs move to a dead letter table after the fifth attempt, "
                                   "and an alert goes to the billing channel"], "resume", "--no-daemon", sid)
    assert codex.rollouts() == [rollout]  # resume appends to the same rollout
    wait_for(lambda: len(schema_requests(responses)) > first, 120, "the resumed session's distillation",
             home.describe)
    home.wait_idle()
    resumed = [r.all_text() for r in schema_requests(responses)[first:]]
    assert any(RESUMED[:40] in asked for asked in resumed)
    assert not any(TURNS[0][:40] in asked or TURNS[1][:40] in asked for asked in resumed)  # only what it added
    assert all("distilled earlier" in asked for asked in resumed)
