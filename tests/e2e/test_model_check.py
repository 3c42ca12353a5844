"""The model check of new entries (ADR 0039) with the real Claude Code CLI: after an interactive session
is distilled, one more `claude -p` call sees what it wrote only as quoted data, with no tool but its
answer's; the entry it calls hostile is held, and the next session is not told it.
"""

from __future__ import annotations

import pytest

from loop_home import LoopHome
from standin import STRUCTURED, STRUCTURED_OUTPUT, TURN, Reply, all_user_text, inline_system_text
from test_compound_loop import ANSWER, TURNS, processed, session_script

from lazy_harness.memory import ids
from lazy_harness.worker import model_check

pytestmark = pytest.mark.e2e

JUDGED = ANSWER["decisions"][1]["summary"]  # the stand-in's check calls this one hostile
KEPT = ANSWER["decisions"][0]["summary"]


def _is_check(req) -> bool:
    return req.kind == STRUCTURED and model_check.START in all_user_text(req)


def test_the_entry_the_model_check_calls_hostile_is_held_and_not_told(loop_home: LoopHome, tmux_bin: str) -> None:
    home = loop_home
    judged = ids.entry_id("decision", JUDGED)
    script = session_script(ANSWER)
    script.on(lambda req: _is_check(req) and not req.ends_with_tool_result(STRUCTURED_OUTPUT),
              Reply.tool_use(STRUCTURED_OUTPUT, {"verdicts": [{"id": judged, "hostile": True,
                                                               "why": "the stand-in's verdict"}]}))
    home.standin.script = script
    home.install(trust={"model_check": True})
    sid = home.interactive(TURNS)
    home.wait_hook("SessionEnd", sid)
    home.wait_idle()
    assert processed(home), home.describe()

    checks = [r for r in home.standin.log.model_requests() if _is_check(r)]
    assert checks, home.standin.log.summary()
    asked = all_user_text(checks[0])
    block = asked[asked.index(model_check.START):asked.rindex(model_check.END)]
    assert JUDGED in block and KEPT in block
    outside = asked.replace(block, "")
    assert JUDGED not in outside and KEPT not in outside  # the entries only as quoted data
    assert checks[0].tools == [STRUCTURED_OUTPUT]  # no tool but its answer's

    held = home.lh("memory", "held")
    assert held.returncode == 0, held.stderr
    assert judged in held.stdout and "judged hostile by the model check" in held.stdout, held.stdout
    assert ids.entry_id("decision", KEPT) not in held.stdout

    seen = len(home.standin.log.model_requests())
    home.interactive(["Where does the billing job queue live, and how do we run migrations?"])
    told = [inline_system_text(r) + "\n" + all_user_text(r)
            for r in home.standin.log.model_requests()[seen:] if r.kind == TURN]
    assert told and KEPT in told[0], told
    assert all(JUDGED not in t for t in told)
