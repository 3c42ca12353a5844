"""An item closed after the session that raised it was distilled stays closed when that session's
answer gives it again (a whole re-read, or its resumed part): ADR 8, "Closed after it was raised"."""

from lazy_harness.memory import handoff_markdown
from lazy_harness.memory.handoff_log import CLOSE, OPEN, changes, fold, record

T0 = 1_780_000_000.0
TEXT = "Follow up on the billing queue"
S, OTHER = "sess-raised", "sess-other"


def _state(*recs: dict) -> dict:
    return fold(list(recs))


def _raised_then_closed_by(who: str, reason: str | None = None) -> tuple[dict, str]:
    opened = record(OPEN, TEXT, S, "task-1", T0)
    closed = record(CLOSE, TEXT, who, "", T0 + 10, reason=reason, hid=opened["id"])
    return _state(opened, closed), opened["id"]


def test_the_raising_session_does_not_reopen_an_item_closed_by_hand_since():
    state, hid = _raised_then_closed_by(handoff_markdown.HAND_EDIT, "removed from handoff.md by hand")
    for given in (TEXT, f"[{hid}] {TEXT}", f"  {TEXT.upper()}  "):
        recs, notes, problems = changes(state, [given], [], {"session_id": S, "task_id": "task-3"}, T0 + 20)
        assert recs == [] and problems == []
        assert any(hid in n and "not reopened" in n for n in notes), notes


def test_closes_by_a_command_consolidation_or_another_session_hold_too():
    for who in ("by hand", "forget", "consolidate", OTHER):
        state, hid = _raised_then_closed_by(who)
        recs, _, _ = changes(state, [TEXT], [], {"session_id": S, "task_id": "t"}, T0 + 20)
        assert recs == [], who


def test_another_session_may_still_reopen_it():
    state, hid = _raised_then_closed_by(handoff_markdown.HAND_EDIT)
    recs, _, _ = changes(state, [TEXT], [], {"session_id": OTHER, "task_id": "t"}, T0 + 20)
    assert [(r["op"], r["id"], r["session_id"]) for r in recs] == [(OPEN, hid, OTHER)]


def test_the_session_reopens_what_it_closed_itself():
    # why: a running session distilled turn by turn closes an item and later finds it open again
    state, hid = _raised_then_closed_by(S)
    recs, _, _ = changes(state, [TEXT], [], {"session_id": S, "task_id": "t"}, T0 + 20)
    assert [(r["op"], r["id"]) for r in recs] == [(OPEN, hid)]


def test_raised_earlier_in_a_former_span_counts():
    # raised by S, closed by another session, reopened by a third, closed by hand: S raised it before
    first = record(OPEN, TEXT, S, "t1", T0)
    hid = first["id"]
    state = _state(first, record(CLOSE, TEXT, OTHER, "t2", T0 + 5, hid=hid),
                   record(OPEN, TEXT, "sess-third", "t3", T0 + 8, hid=hid),
                   record(CLOSE, TEXT, handoff_markdown.HAND_EDIT, "", T0 + 10, hid=hid))
    assert S in state[hid]["raised_by"]
    recs, _, _ = changes(state, [TEXT], [], {"session_id": S, "task_id": "t4"}, T0 + 20)
    assert recs == []


def test_an_item_opened_by_the_session_after_the_close_is_its_own():
    # closed by hand first, raised by S afterwards: S's open is the newer news and stands
    opened = record(OPEN, TEXT, OTHER, "t1", T0)
    hid = opened["id"]
    state = _state(opened, record(CLOSE, TEXT, handoff_markdown.HAND_EDIT, "", T0 + 10, hid=hid))
    assert S not in state[hid]["raised_by"]
    recs, _, _ = changes(state, [TEXT], [], {"session_id": S, "task_id": "t"}, T0 + 20)
    assert [r["id"] for r in recs] == [hid]
