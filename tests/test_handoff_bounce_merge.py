"""An old memory folder merged into a project's folder (memory/migrate_merge.py: a project that gained
an origin, an adopted folder) never reopens an item the project closed after the old folder's open
was made: neither its handoff.jsonl's stale ``open`` records nor its handoff.md, rendered from such a
log, listing the item. A reopen made after the close is kept, and so is an item the project never had."""

import os
import time

import pytest

from lazy_harness.memory import handoff, handoff_answer, migrate_merge

ITEM = "write the runbook for deploys"
HOUR = 3600.0


@pytest.fixture
def folders(tmp_path, isolated_home):
    """(the old folder, the project's folder, the item's id, when it was closed): the item opened in
    both at t0, closed in the project's folder at t0 + 2 h."""
    old, new = str(tmp_path / "old"), str(tmp_path / "new")
    t0 = time.time() - 10 * HOUR
    for folder in (old, new):
        os.makedirs(folder)
        handoff_answer.apply_answer(folder, [ITEM], None, {"session_id": "s1", "task_id": "t1"}, t0, t0)
    hid = handoff.id_for({}, ITEM)
    closed = t0 + 2 * HOUR
    assert handoff.close_items(new, [(hid, "done")], {"session_id": "by hand", "task_id": ""}, closed)
    return old, new, hid, closed


def _open_in(folder: str, text: str, session: str, when: float) -> None:
    """An ``open`` record appended to ``folder``'s log as another machine's round would have written
    it, and handoff.md rendered from that log."""
    hid = handoff.id_for(handoff.fold(handoff.read_records(folder) or []), text)
    handoff.append(folder, [handoff.record(handoff.OPEN, text, session, "", when, hid=hid)])
    handoff.write_markdown(folder, {"session_id": session, "task_id": ""}, when)


def _merge(old: str, new: str, now: float) -> None:
    """What a migration does with the old folder: its log merged entry by entry, then its handoff.md."""
    migrate_merge.merge_jsonl(os.path.join(old, "handoff.jsonl"), os.path.join(new, "handoff.jsonl"))
    migrate_merge.move_handoff(os.path.join(old, "handoff.md"), new, now)


def _state(folder: str, hid: str) -> str:
    return "open" if handoff.fold(handoff.read_records(folder) or [])[hid].is_open else "closed"


def _opens(folder: str, hid: str) -> int:
    return sum(1 for r in handoff.read_records(folder) or [] if r["id"] == hid and r["op"] == handoff.OPEN)


def test_a_stale_open_of_the_old_folder_is_not_added_after_the_close(folders):
    old, new, hid, closed = folders
    _open_in(old, ITEM, "sync", closed - HOUR)  # the other machine's import, made before the close
    migrate_merge.merge_jsonl(os.path.join(old, "handoff.jsonl"), os.path.join(new, "handoff.jsonl"))
    assert _state(new, hid) == "closed"
    assert _opens(new, hid) == 1


def test_the_old_folders_rendering_does_not_reopen_what_the_project_closed(folders):
    old, new, hid, closed = folders
    _open_in(old, ITEM, "sync", closed - HOUR)
    _merge(old, new, closed + HOUR)
    assert _state(new, hid) == "closed"
    assert _opens(new, hid) == 1
    assert f"[{hid}]" not in open(os.path.join(new, "handoff.md"), encoding="utf-8").read()


def test_a_reopen_made_after_the_close_is_kept(folders):
    old, new, hid, closed = folders
    _open_in(old, ITEM, "s2", closed + HOUR)
    _merge(old, new, closed + 2 * HOUR)
    assert _state(new, hid) == "open"


def test_an_item_the_project_never_had_comes_over(folders):
    old, new, hid, closed = folders
    _open_in(old, "rotate the deploy keys", "s2", closed - HOUR)
    _merge(old, new, closed + HOUR)
    other = handoff.id_for({}, "rotate the deploy keys")
    assert _state(new, other) == "open" and _state(new, hid) == "closed"


def test_a_line_added_by_hand_to_the_old_handoff_md_opens_its_item(folders):
    old, new, hid, closed = folders
    with open(os.path.join(old, "handoff.md"), "a", encoding="utf-8") as fh:
        fh.write("- check the backup restore\n")
    _merge(old, new, closed + HOUR)
    added = handoff.id_for({}, "check the backup restore")
    assert _state(new, added) == "open" and _state(new, hid) == "closed"
