"""A session distilled while it ran never gets its own entries back, with the real Claude Code CLI
(ADR 0034): resumed, neither its SessionStart read-back nor a prompt about what it decided hold them;
a new session of the same project gets them.
"""

from __future__ import annotations

import pytest

from loop_home import LoopHome
from standin import TURN, inline_system_text
from test_compound_loop import ANSWER, TURNS, processed, session_script

pytestmark = pytest.mark.e2e

ASK = "Remind me: where does the billing job queue live, Postgres or Redis, and why was that chosen?"
DECIDED = "Keep the billing job queue in Postgres instead of Redis."
PROMPT_LABEL = "UserPromptSubmit hook additional context"


def _contexts(home: LoopHome, seen: int) -> list[str]:
    """The context (system and user text) of each model turn after the first ``seen`` requests."""
    from standin import all_user_text

    return [inline_system_text(r) + "\n" + all_user_text(r)
            for r in home.standin.log.model_requests()[seen:] if r.kind == TURN]


def test_a_resumed_session_is_not_told_its_own_entries(loop_home: LoopHome, tmux_bin: str) -> None:
    home = loop_home
    home.standin.script = session_script(ANSWER)
    home.install()
    sid = home.interactive(TURNS)
    home.wait_hook("SessionEnd", sid)
    home.wait_idle()
    assert processed(home), home.describe()
    assert DECIDED in (home.memory_dir / "decisions.jsonl").read_text()

    seen = len(home.standin.log.model_requests())
    home.interactive([ASK], "--resume", sid)
    resumed = _contexts(home, seen)
    assert resumed, home.standin.log.summary()
    assert all(DECIDED not in c for c in resumed), resumed[-1]
    assert any("own_session=" in line for line in home.hook_lines("UserPromptSubmit", sid)), home.hook_lines()

    seen = len(home.standin.log.model_requests())
    home.interactive([ASK])  # a new session of the project: told what the first one decided
    fresh = _contexts(home, seen)
    assert fresh and DECIDED in fresh[0], fresh
