"""A fork (`claude --resume ID --fork-session`) with the real Claude Code CLI: its transcript starts with
a copy of the parent's conversation, which the parent's own distillation already covered. The fork's
distillation holds only what came after the copy, and once its transcript exists (its first turn)
neither its prompts nor its resume are handed the entries distilled from the parent's conversation.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from loop_home import LoopHome
from standin import STRUCTURED, all_user_text
from test_compound_loop import ANSWER, TURNS, processed, session_script

pytestmark = pytest.mark.e2e

DECIDED = ANSWER["decisions"][0]["summary"]
ASK = "Remind me: where does the billing job queue live, Postgres or Redis, and why was that chosen?"
FORK_TURN = ("Forked to try a variant: keep the Postgres queue, but note that the nightly backup must also "
             "cover the dead-letter table we add for failed invoice jobs.")
FORK_ANSWER: dict[str, Any] = {
    "decisions": [{"summary": "Back up the invoice dead-letter table with the nightly Postgres backup.",
                   "context": "", "alternatives": [], "rationale": "failed jobs must survive a restore",
                   "tags": ["backup"]}],
    "failures": [], "learnings": [], "handoff": [],
}


def _distill_prompts(home: LoopHome, seen: int) -> list[str]:
    return [all_user_text(r) for r in home.standin.log.model_requests()[seen:]
            if r.kind == STRUCTURED and not r.ends_with_tool_result()]


def test_a_fork_distils_only_its_own_turns_and_is_not_told_its_parents_entries(
        loop_home: LoopHome, tmux_bin: str, cli_version: tuple[int, ...]) -> None:
    if cli_version < (2, 1, 330):
        pytest.skip("copied records name their session (requestSessionId, session_id) from 2.1.330 on")
    home = loop_home
    home.standin.script = session_script(ANSWER)
    home.install()
    parent = home.interactive(TURNS)
    home.wait_hook("SessionEnd", parent)
    home.wait_idle()
    assert processed(home) and DECIDED in (home.memory_dir / "decisions.jsonl").read_text(), home.describe()

    home.standin.script.structured = FORK_ANSWER
    seen = len(home.standin.log.model_requests())
    fork = home.interactive([FORK_TURN], "--resume", parent, "--fork-session")
    home.wait_hook("SessionEnd", fork)
    home.wait_idle()
    prompts = _distill_prompts(home, seen)
    assert prompts, home.describe()
    for text in prompts:  # the parent's turns are not sent again; the fork's is, after the marker
        assert "distilled earlier" in text and FORK_TURN[:40] in text, text[-3000:]
        assert TURNS[0][:40] not in text and TURNS[2][:40] not in text, text[-3000:]

    # why the hooks' log, not the model's context: 2.1.332 writes the fork's transcript with its first
    # prompt, so its start could not tell whose fork it was, and that start's context is stored in the
    # transcript and sent again with every request
    decided = next(json.loads(ln)["id"] for ln in (home.memory_dir / "decisions.jsonl").read_text().splitlines()
                   if DECIDED in ln)
    home.interactive([ASK], "--resume", fork)
    *_, start = home.hook_lines("SessionStart", fork)
    # the parent's entries and the fork's own are left out: nothing else to show, or no decision
    assert "source=resume" in start and ("but this session's own" in start or "decisions 0 of 0" in start), start
    *_, prompt = home.hook_lines("UserPromptSubmit", fork)
    assert "own_session=" in prompt and decided not in prompt, prompt
