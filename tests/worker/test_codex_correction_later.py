"""A Codex session (its rollout, appended to as it runs and when resumed) that corrects, in a later
turn, a learning an earlier part of it wrote (ADR 0063): the later part is distilled from the cursor,
and its new text under the same title replaces the earlier one; the whole rollout read again
(``lh knowledge handoff-now``) gives back what it learnt then, worded otherwise: no news."""

import json
from pathlib import Path

from lazy_harness import paths, queue
from lazy_harness.memory import frontmatter, learnings
from tests.support import fake_codex
from tests.support.sessions import place_rollout
from tests.worker.spendrig import configure, run_worker, tasks

TITLE = "Money columns in the orders table"
OLD = "Amounts are stored as NUMERIC(14,4); four decimals are enough for every currency we bill."
NEW = "Amounts are stored as NUMERIC(19,6); NUMERIC(14,4) overflowed on crypto payouts in March."


def _answer(text: str) -> dict:
    return {"decisions": [], "failures": [], "handoff": [],
            "learnings": [{"title": TITLE, "learning": text, "context": "billing", "scope": "project",
                           "tags": ["money"]}]}


def _another_turn(rollout: str) -> None:
    """The session goes on: its last turn's records again, with what was said this time."""
    lines = Path(rollout).read_text(encoding="utf-8").splitlines()
    start = max(i for i, line in enumerate(lines) if '"task_started"' in line)
    said = "The crypto payouts overflowed NUMERIC(14,4); widen every money column to NUMERIC(19,6) now."
    turn = []
    for line in lines[start:]:
        rec = json.loads(line)
        payload = rec.get("payload") or {}
        if payload.get("type") == "message" and payload.get("role") in ("user", "assistant"):
            user = payload["role"] == "user"
            payload["content"] = [{"type": "input_text" if user else "output_text",
                                   "text": said if user else "Widened and backfilled."}]
        turn.append(json.dumps(rec))
    with open(rollout, "a", encoding="utf-8") as fh:
        fh.write("\n".join(turn) + "\n")


def _texts() -> dict[str, str]:
    out = {}
    for found in learnings.names_by_slug(paths.learnings_dir()).values():
        for path in found:
            out[path] = str(frontmatter.read_frontmatter_values(path, ("status",)).get("status"))
    return out


def _queue(sid: str, rollout: str, project: Path, event: str) -> None:
    payload = {"session_id": sid, "transcript_path": rollout, "cwd": str(project), "lh_agent": "codex"}
    again = {queue.AGAIN: "1"} if event == "handoff-now" else {}  # read whole again, as --again asks
    queue.enqueue(paths.queue_dir(), {**queue.task_fields(payload, event, event != "Stop"), **again})


def test_a_later_turn_of_a_codex_session_corrects_its_own_learning(isolated_home, tmp_path, monkeypatch):
    fake = fake_codex.use(tmp_path, monkeypatch)
    configure(isolated_home, min_user_chars=50)
    project = tmp_path / "api"
    project.mkdir()
    sid, rollout = place_rollout(project)
    fake_codex.control(fake, mode="ok", answer=_answer(OLD))
    _queue(sid, rollout, project, "Stop")
    assert run_worker().processed == 1, tasks("failed")
    [first] = _texts()

    _another_turn(rollout)
    fake_codex.control(fake, mode="ok", answer=_answer(NEW))
    _queue(sid, rollout, project, "Stop")
    assert run_worker().processed == 1, tasks("failed")
    files = _texts()
    assert files[first] == "deprecated", "the correction made in a later turn was dropped"
    [new] = [p for p, s in files.items() if s == "active"]
    assert NEW in Path(new).read_text(encoding="utf-8")

    fake_codex.control(fake, mode="ok", answer=_answer(OLD + " Checked against the ledger."))
    _queue(sid, rollout, project, "handoff-now")
    assert run_worker().processed == 1, tasks("failed")
    assert _texts() == files
