"""SessionStart sources beyond startup and resume, with the real Claude Code CLI.

A fork (`claude --resume ID --fork-session`) starts a new session from an old one's conversation.
Claude Code 2.1.328 and later report it as source `fork` under the new session id; 2.1.197 as source
`resume` under the parent's id. Either way the fork
must start with the project's memory, like any other start.
"""

from __future__ import annotations

import pytest

from loop_home import LoopHome
from standin import TURN, Script, inline_system_text
from test_compound_loop import OPEN_ITEMS, RESUME_ITEMS, write_handoff, write_memory

pytestmark = pytest.mark.e2e


def test_forked_session_starts_with_the_memory(loop_home: LoopHome, tmux_bin: str,
                                               cli_version: tuple[int, ...]) -> None:
    home = loop_home
    home.standin.script = Script(text="Noted.")
    home.install()
    write_memory(home, OPEN_ITEMS)
    parent = home.interactive(["What is still open from last time?"])
    home.wait_hook("SessionEnd", parent)
    home.wait_idle()

    write_handoff(home, RESUME_ITEMS)  # written after the parent started: only a fresh read sees it
    seen = len(home.standin.log.model_requests())
    fork = home.interactive(["Forked: anything new on the list?"], "--resume", parent, "--fork-session")

    assert fork != parent
    turns = [r for r in home.standin.log.model_requests()[seen:] if r.kind == TURN]
    assert turns, home.standin.log.summary()
    context = inline_system_text(turns[0])
    assert all(item in context for item in RESUME_ITEMS), context
    *_, start = home.hook_lines("SessionStart")  # the fork's start was logged before its first turn
    if cli_version >= (2, 1, 328):  # seen on 2.1.328 and 2.1.330
        assert f"session={fork} source=fork context " in start, home.hook_lines()
    else:  # 2.1.197 reports the fork's start as a resume of the parent
        assert f"session={parent} source=resume context " in start, home.hook_lines()
