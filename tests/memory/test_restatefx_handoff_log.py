"""A session that gave an open item again in its answer (a restatement) saw it open: once the person
closes the item, that session's re-read does not reopen it, as the raiser's does not (ADR 8, "Closed
after it was raised"). The restatement is a ``restate`` record: it never changes an item's state."""

import os

import pytest

from lazy_harness import jsonload
from lazy_harness.memory import files, handoff, handoff_answer, handoff_log, handoff_markdown, ids, store
from lazy_harness.memory.handoff_log import CLOSE, OPEN, changes, fold, record

RESTATE = "restate"  # the record's op in handoff.jsonl

T0 = 1_780_000_000.0
DAY = 86400.0
X = "migrate the billing cron"
HID = ids.handoff_id(X)
S1, S2, S3, LATER = "sess-raiser", "sess-restater", "sess-third", "sess-days-later"


def _meta(sid: str) -> dict:
    return {"project": "proj", "session_id": sid, "task_id": f"t-{sid}"}


@pytest.fixture
def mdir(tmp_path) -> str:
    folder = str(tmp_path / "memory")
    os.makedirs(folder)
    return folder


def _answer(mdir: str, sid: str, when: float, opened=(X,), closed=()) -> tuple[list, list, list]:
    return handoff_answer.apply_answer(mdir, list(opened), list(closed), _meta(sid), when, when)


def _state(mdir: str) -> dict:
    return fold(handoff.read_records(mdir) or [])


def _close_by_hand(mdir: str, when: float) -> None:
    [rec] = handoff.close_items(mdir, [(HID, "")], {"session_id": "by hand", "task_id": ""}, when)
    assert rec["op"] == CLOSE


def _delete_line(mdir: str, when: float) -> None:
    path = os.path.join(mdir, files.HANDOFF)
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    start = text.index(f"- [{HID}] {X}\n")
    end = text.find("\n- ", start + 1)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text[:start] + (text[end + 1:] if end > 0 else ""))
    os.utime(path, (when, when))


# --- the record ------------------------------------------------------------------------------------

def test_a_restatement_of_an_open_item_writes_one_restate_record_once():
    state = fold([record(OPEN, X, S1, "t1", T0)])
    recs, notes, _ = changes(state, [X, "new thing"], [], _meta(S2), T0 + 10)
    assert [(r["op"], r["id"], r["session_id"]) for r in recs] == [
        (RESTATE, HID, S2), (OPEN, ids.handoff_id("new thing"), S2)]
    assert notes == [f"still open: [{HID}] {X}"]
    state = fold([record(OPEN, X, S1, "t1", T0), *recs])
    assert state[HID].is_open and state[HID]["opened_by"] == S1 and state[HID]["opened_epoch"] == T0
    # the same session again, or the raiser: nothing new to record
    assert changes(state, [X], [], _meta(S2), T0 + 20)[0] == []
    assert changes(state, [f"[{HID}] {X}"], [], _meta(S1), T0 + 20)[0] == []


def test_a_restate_record_never_changes_the_state():
    opened, closed = record(OPEN, X, S1, "t1", T0), record(CLOSE, X, "by hand", "", T0 + 10, hid=HID)
    restated_after = record(RESTATE, X, S2, "t2", T0 + 20, hid=HID)
    restated_before = record(RESTATE, X, S2, "t2", T0 - 20, hid=HID)
    plain = fold([opened, closed])
    for recs in ([opened, closed, restated_after], [restated_after, closed, opened, restated_before]):
        item = fold(recs)[HID]
        assert not item.is_open and item["key"] == plain[HID]["key"] and item["opened"] == plain[HID]["opened"]
        assert item["raised_by"] == [S1, S2]
    assert fold([restated_after]) == {}  # a restatement alone is no item
    assert S2 not in plain[HID]["raised_by"]  # a log without restate records reads as before


def test_a_damaged_restate_line_is_salvaged_like_the_others():
    rec = record(RESTATE, X, S2, "t2", T0, hid=HID)
    line = jsonload.dumps(rec)
    damaged = line.replace('"session_id"', '"session_id', 1)
    salvaged = handoff_log.salvage(damaged)
    assert salvaged is not None and salvaged["op"] == RESTATE and salvaged["id"] == HID


# --- the defect: a restating session re-read after the close -------------------------------------------

@pytest.mark.parametrize("close", ["command", "hand edit"])
def test_the_restating_session_re_read_after_the_close_does_not_reopen_it(mdir, close):
    _answer(mdir, S1, T0)
    written, notes, _ = _answer(mdir, S2, T0 + DAY, opened=(X, "new thing from S2"))
    assert [r["op"] for r in written if r["id"] == HID] == [RESTATE]
    if close == "command":
        _close_by_hand(mdir, T0 + 2 * DAY)
    else:
        _delete_line(mdir, T0 + 2 * DAY)
    for sid in (S1, S2):  # each read again whole, its transcript grown past the close
        written, notes, _ = _answer(mdir, sid, T0 + 3 * DAY, opened=(X, "new thing from S2"))
        assert [r for r in written if r["id"] == HID and r["session_id"] == sid] == [], sid
        assert any("not reopened" in n and HID in n for n in notes), notes
    assert not _state(mdir)[HID].is_open
    assert [i["text"] for i in handoff.open_for_reading(mdir)] == ["new thing from S2"]


def test_a_session_that_raises_it_anew_after_the_close_reopens_it(mdir):
    """ADR 8: another session raising the item is the way back (besides the person's own line)."""
    _answer(mdir, S1, T0)
    _answer(mdir, S2, T0 + DAY)
    _close_by_hand(mdir, T0 + 2 * DAY)
    written, _, _ = _answer(mdir, LATER, T0 + 5 * DAY)
    assert [(r["op"], r["id"]) for r in written] == [(OPEN, HID)]
    item = _state(mdir)[HID]
    assert item.is_open and item["opened_by"] == LATER
    # reopened, then closed again: the session that restated it in the first span still does not reopen it
    _close_by_hand(mdir, T0 + 6 * DAY)
    assert _answer(mdir, S2, T0 + 7 * DAY)[0] == []


def test_two_sessions_restating_it_at_once_are_both_kept_from_reopening_it(mdir):
    _answer(mdir, S1, T0)
    # distilled in either order, both shown the item open
    _answer(mdir, S3, T0 + DAY + 60)
    _answer(mdir, S2, T0 + DAY)
    restaters = {r["session_id"] for r in handoff.read_records(mdir) if r["op"] == RESTATE}
    assert restaters == {S2, S3}
    _delete_line(mdir, T0 + 2 * DAY)
    for sid in (S2, S3):  # (the first writer records the hand edit: a close by hand-edit)
        assert [r for r in _answer(mdir, sid, T0 + 3 * DAY)[0] if r["session_id"] == sid] == [], sid
    assert not _state(mdir)[HID].is_open


def test_an_old_session_re_processed_neither_reopens_nor_moves_the_item(mdir):
    _answer(mdir, S1, T0)
    _answer(mdir, "sess-old", T0 - DAY)  # an old session, processed late, gives the item too
    item = _state(mdir)[HID]
    assert item["opened_by"] == S1 and item["opened_epoch"] == T0
    _close_by_hand(mdir, T0 + 2 * DAY)
    assert _answer(mdir, "sess-old", T0 - DAY)[0] == []  # older than the close
    assert _answer(mdir, "sess-old", T0 + 3 * DAY)[0] == []  # resumed since: it had seen the item open
    assert not _state(mdir)[HID].is_open


def test_the_restating_session_may_still_reopen_what_it_closed_itself(mdir):
    _answer(mdir, S1, T0)
    _answer(mdir, S2, T0 + DAY)
    _answer(mdir, S2, T0 + DAY + 60, opened=(), closed=(X,))
    written, _, _ = _answer(mdir, S2, T0 + DAY + 120)
    assert [(r["op"], r["id"]) for r in written] == [(OPEN, HID)]


def test_the_plan_shows_a_restatement_as_kept_and_apply_writes_it(tmp_path):
    from lazy_harness import paths

    project = tmp_path / "proj"
    project.mkdir()
    mdir_, ldir = paths.memory_dir(str(project)), paths.learnings_dir()
    store.persist({"handoff": [X]}, mdir_, ldir, {**_meta(S1), "session_time": T0}, T0 + 5)
    p = store.plan({"handoff": [X]}, mdir_, ldir, {**_meta(S2), "session_time": T0 + DAY}, T0 + DAY + 5)
    assert [(r[0], r[2]) for r in p.describe()] == [("keep", f"still open: [{HID}] {X}")]
    store.apply(p)
    assert [(r["op"], r["session_id"]) for r in handoff.read_records(mdir_)] == [(OPEN, S1), (RESTATE, S2)]
    assert handoff_markdown.TITLE in open(os.path.join(mdir_, files.HANDOFF), encoding="utf-8").read()
