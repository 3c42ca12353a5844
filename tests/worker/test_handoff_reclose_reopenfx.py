"""A handoff item the person closed by hand is not reopened by the session that raised it: neither
by `lh knowledge handoff-now` re-reading the session whole after it was resumed, nor by its resumed
part giving the item again (ADR 8)."""

import json
import os

from lazy_harness import paths, queue
from lazy_harness.memory import files, handoff
from tests.support import fake_claude
from tests.support.growth import append_turn
from tests.worker.spendrig import configure, queue_session, run_worker

FIRST = "Follow up on the nightly invoice retry"
SECOND = "Write the runbook for the queue"
FIRST_PROMPT = "We need to decide how the billing service stores its job queue"  # the fixture's first prompt


def _answer(*items: str) -> dict:
    return {"decisions": [], "failures": [], "learnings": [], "handoff": list(items)}


def _conversation(fake) -> str:
    return fake_claude.calls(fake)[-1]["stdin"].split("untrusted session data starts here", 1)[1]


def _records(mdir: str) -> list[dict]:
    with open(os.path.join(mdir, handoff.STATE)) as fh:
        return [json.loads(line) for line in fh if line.strip()]


def _close_by_hand(mdir: str, text: str, at: float) -> None:
    """The person deletes the item's line (and its note) from handoff.md, saved at ``at``."""
    md = os.path.join(mdir, files.HANDOFF)
    with open(md) as fh:
        lines = fh.read().split("\n")
    keep, skip_note = [], False
    for line in lines:
        if text in line:
            skip_note = True
            continue
        if skip_note and line.startswith("  opened "):
            skip_note = False
            continue
        skip_note = False
        keep.append(line)
    with open(md, "w") as fh:
        fh.write("\n".join(keep))
    os.utime(md, (at, at))


def _resume(payload: dict, project, at: float) -> None:
    append_turn(payload["transcript_path"], payload["session_id"], str(project),
                "Resumed after lunch: let us also write the runbook for the queue next time.",
                "Noted: the runbook for the queue is still to write.")
    os.utime(payload["transcript_path"], (at, at))


def _raised_then_closed(isolated_home, fake, project) -> tuple[dict, str, str, float]:
    configure(isolated_home)
    fake_claude.control(fake, mode="ok", answer=_answer(FIRST))
    payload = queue_session(project)
    assert run_worker().processed == 1
    mdir = paths.memory_dir(str(project))
    (opened,) = _records(mdir)
    assert opened["op"] == "open" and opened["text"] == FIRST
    t0 = os.stat(payload["transcript_path"]).st_mtime
    _close_by_hand(mdir, FIRST, t0 + 5)
    return payload, mdir, opened["id"], t0


def _item_state(mdir: str, hid: str) -> tuple[list[str], bool]:
    ops = [r["op"] for r in _records(mdir) if r["id"] == hid]
    with open(os.path.join(mdir, files.HANDOFF)) as fh:
        listed = hid in fh.read()
    return ops, listed


def test_handoff_now_after_a_resume_leaves_the_hand_closed_item_closed(isolated_home, fake, project):
    payload, mdir, hid, t0 = _raised_then_closed(isolated_home, fake, project)
    # resumed with the same id: the new part raises something else; the hand close is recorded
    _resume(payload, project, t0 + 10)
    fake_claude.control(fake, mode="ok", answer=_answer(SECOND))
    queue.enqueue(paths.queue_dir(), queue.task_fields(payload, "SessionEnd", True))
    assert run_worker().processed == 1
    assert _item_state(mdir, hid) == (["open", "close"], False)
    # the whole re-read gives the first part's item again
    fake_claude.control(fake, mode="ok", answer=_answer(FIRST, SECOND))
    queue.enqueue(paths.queue_dir(), {**queue.task_fields(payload, "handoff-now", True), queue.AGAIN: "1"})
    assert run_worker().processed == 1
    assert FIRST_PROMPT in _conversation(fake)  # read whole
    assert _item_state(mdir, hid) == (["open", "close"], False)
    assert [i["text"] for i in handoff.open_items(handoff.load(mdir)[0])] == [SECOND]


def test_the_resumed_part_giving_it_again_leaves_it_closed(isolated_home, fake, project):
    # decided (ADR 8): the store cannot tell the resumed part from a re-read of the first, so the
    # session that raised the item cannot reopen it after the close; the person or another session can
    payload, mdir, hid, t0 = _raised_then_closed(isolated_home, fake, project)
    _resume(payload, project, t0 + 10)
    fake_claude.control(fake, mode="ok", answer=_answer(FIRST))
    queue.enqueue(paths.queue_dir(), queue.task_fields(payload, "SessionEnd", True))
    assert run_worker().processed == 1
    assert FIRST_PROMPT not in _conversation(fake)  # the resumed part only
    assert _item_state(mdir, hid) == (["open", "close"], False)
