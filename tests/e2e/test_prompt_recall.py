"""Recall at every prompt with the real Claude Code CLI: the UserPromptSubmit hook that `lh hooks
install` registers gives the model an old decision when, and only when, a typed prompt is about it,
and not twice in one session.

The project's memory holds more decisions than the SessionStart digest shows (the newest ones); the
oldest is about invoice rounding. The tests read what the model was sent from the stand-in's
request log and what the hook decided from hooks.log.
"""

from __future__ import annotations

import datetime as dt
import json
import re

import pytest

from loop_home import LoopHome
from standin import TURN, Script, all_user_text, inline_system_text

pytestmark = pytest.mark.e2e

OLD = "Invoices are rounded half-even at the line level, per the finance team's ledger rules."
NEWER = [f"The {name} service logs in JSON lines with a request id on every line." for name in (
    "catalog", "search", "checkout", "shipping", "accounts", "reviews", "pricing", "inventory", "media", "email")]
UNRELATED = "Please list the files in this folder for me, thanks."
ABOUT_IT = "How should invoice totals get rounded: half-up or half-even? Finance keeps asking."
LABEL = "UserPromptSubmit hook additional context"


def write_decisions(home: LoopHome) -> None:
    """The oldest decision first, then ten newer ones (the digest shows the newest 8)."""
    start = dt.datetime.now().astimezone() - dt.timedelta(days=200)
    lines = []
    for n, summary in enumerate([OLD, *NEWER]):
        ts = (start + dt.timedelta(days=10 * n)).isoformat(timespec="seconds")
        lines.append(json.dumps({"ts": ts, "type": "decision", "project": "project", "session_id": "s-prior",
                                 "task_id": "1-prior", "summary": summary, "context": "", "alternatives": [],
                                 "rationale": "Agreed in review.", "tags": ["invoices", "rounding"] if n == 0 else []}))
    home.memory_dir.mkdir(parents=True, exist_ok=True)
    (home.memory_dir / "decisions.jsonl").write_text("\n".join(lines) + "\n")


def context_of(req) -> str:
    return inline_system_text(req) + "\n" + all_user_text(req)


def test_an_old_decision_comes_back_at_the_prompt_about_it_once(loop_home: LoopHome, tmux_bin: str) -> None:
    home = loop_home
    home.standin.script = Script(text="Stand-in reply.")
    home.install()
    write_decisions(home)
    shown = home.lh("memory", "show", "--prompt", ABOUT_IT)
    assert shown.returncode == 0, shown.stderr
    old_id = re.search(r"\b(d-[0-9a-f]{8})\b.*rounded half-even", shown.stdout).group(1)

    sid = home.interactive([UNRELATED, ABOUT_IT, ABOUT_IT])

    turns = home.standin.log.of_kind(TURN)
    first = next(r for r in turns if r.last_user_text().startswith(UNRELATED[:40]))
    assert "rounded half-even" not in context_of(first), "the digest must not hold the oldest decision"
    assert any(n in context_of(first) for n in NEWER), home.standin.log.summary()  # the digest did run
    assert LABEL not in context_of(first)
    asked = [r for r in turns if r.last_user_text().startswith(ABOUT_IT[:40])]
    assert len(asked) >= 2, home.standin.log.summary()
    second = context_of(asked[0])
    assert LABEL in second and old_id in second and OLD in second, second
    assert "decisions.jsonl" in second
    # the same question again: the decision is already in the conversation, not sent a second time
    assert context_of(asked[-1]).count(OLD) == 1, context_of(asked[-1])

    lines = home.hook_lines("UserPromptSubmit", sid)
    assert len(lines) == 3, home.hook_lines()
    assert "nothing passed the bar" in lines[0], lines
    assert "injected 1 " in lines[1] and old_id in lines[1] and "best=" in lines[1], lines
    assert "already_shown=1" in lines[2] and "nothing new" in lines[2], lines


def test_by_similarity_the_old_decision_comes_back_by_its_meaning(loop_home: LoopHome, tmux_bin: str) -> None:
    """The same session with recall by similarity (the default): the entries' vectors are kept in
    the index, the hook computes the prompt's, judges the candidates by sentence similarity and says
    so in hooks.log."""
    home = loop_home
    home.standin.script = Script(text="Stand-in reply.")
    home.install(semantic=True)
    write_decisions(home)
    shown = home.lh("memory", "show", "--prompt", ABOUT_IT)  # builds the index and embeds every entry
    assert shown.returncode == 0, shown.stderr
    old_id = re.search(r"\b(d-[0-9a-f]{8})\b.*rounded half-even", shown.stdout).group(1)

    sid = home.interactive([UNRELATED, ABOUT_IT])

    turns = home.standin.log.of_kind(TURN)
    first = next(r for r in turns if r.last_user_text().startswith(UNRELATED[:40]))
    assert LABEL not in context_of(first)
    asked = next(r for r in turns if r.last_user_text().startswith(ABOUT_IT[:40]))
    assert LABEL in context_of(asked) and old_id in context_of(asked) and OLD in context_of(asked), context_of(asked)
    lines = home.hook_lines("UserPromptSubmit", sid)
    assert len(lines) == 2, home.hook_lines()
    assert "injected 1 " in lines[1] and old_id in lines[1], lines
    scored = re.search(r"semantic=(\d+)/(\d+)", lines[1])
    assert scored and int(scored.group(1)) >= 1 and scored.group(1) == scored.group(2), lines
    assert "best_sim=" in lines[1], lines
