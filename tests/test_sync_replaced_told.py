"""The same entry edited by hand on two machines, seen from the machine whose text lost: the round that
meets the conflict keeps its own version and journals the other (tests/test_sync_conflicts.py); the
other machine's next round brings that version in place of its own, and says so once, naming the
journalled run that puts its own text back. Real git, machine homes, one bare remote."""

from lazy_harness import sync
from lazy_harness.memory import journal
from tests.test_sync import Machine
from tests.test_sync_conflicts import LEARNING, _edit, _line, _two, learning_edited_on_both


def test_the_machine_whose_edit_was_replaced_is_told_once_and_can_bring_it_back(tmp_path):
    a, b, eid = _two(tmp_path)
    on_a = _edit(a, eid, rationale="edited on a: faster to open")
    on_b = _edit(b, eid, rationale="edited on b: one file to back up")
    b.sync()
    assert len(a.sync()["conflicts"]) == 1  # a keeps its own and journals b's
    result = b.sync()
    assert _line(b, eid) == on_a  # b's text replaced by a's
    [said] = result["conflicts"]
    [run] = [r for r in journal.runs(str(b.mdir)) if r["kind"] == "sync-conflict"]
    assert eid in said and "the other machine's version" in said and f"lh memory undo {run['run']}" in said
    assert sync.status(b.cfg, b.env)["conflicts"] == [said]  # lh sync --status shows it
    assert b.sync()["conflicts"] == []  # said once
    assert a.sync()["conflicts"] == []  # and a is not told a second time
    journal.undo(str(b.mdir), (str(b.mdir),), run["run"])  # what lh memory undo RUN does
    assert _line(b, eid) == on_b  # b's own text, back


def test_a_learning_whose_edit_was_replaced_is_told(tmp_path):
    a, b, _ = _two(tmp_path)
    rel = LEARNING
    learning_edited_on_both(a, b)
    a.sync()
    result = b.sync()
    assert (b.data / rel).read_text().endswith("(edited on a).\n")
    [said] = result["conflicts"]
    assert "2026-01-02-retry.md" in said and "the other machine's version" in said and "lh memory undo" in said
    assert b.sync()["conflicts"] == []
    [run] = [r for r in journal.runs(str(b.mdir)) if r["kind"] == "sync-conflict"]
    journal.undo(str(b.mdir), (str(b.mdir), str(b.data / "knowledge" / "learnings")), run["run"])
    assert (b.data / rel).read_text().endswith("(edited on b).\n")  # b's own text, back


def test_a_third_machine_that_never_held_the_lost_text_is_not_told(tmp_path):
    a, b, eid = _two(tmp_path)
    c = Machine(tmp_path, tmp_path / "remote.git", "c")
    c.sync()
    _edit(a, eid, rationale="edited on a")
    _edit(b, eid, rationale="edited on b")
    b.sync()
    a.sync()
    result = c.sync()
    assert result["merged"] and result["conflicts"] == []


def test_the_run_as_history_lists_it_on_the_machine_whose_edit_was_replaced(tmp_path):
    """lh memory history on b listed a's run as ``d-... in /home-of-a/.../decisions.jsonl: ...; undo puts
    the other machine's version in place``: a path of the other machine, and on b the undo puts b's own
    version back, which is no other machine's. The note is written once and read on both machines."""
    a, b, eid = _two(tmp_path)
    _edit(a, eid, rationale="edited on a: faster to open")
    _edit(b, eid, rationale="edited on b: one file to back up")
    b.sync()
    a.sync()
    b.sync()
    for machine in (a, b):
        [run] = [r for r in journal.runs(str(machine.mdir)) if r["kind"] == "sync-conflict"]
        [note] = run["changes"]
        assert str(a.data) not in note and str(b.data) not in note, note
        assert note == f"{eid} in decisions.jsonl: edited on two machines; undo puts the version not kept in place"


def test_sync_status_says_a_conflict_whose_run_was_undone_is_undone(tmp_path):
    """lh sync --status kept listing the conflict with ``lh memory undo RUN ... puts it back`` after
    that undo was made (here or on the other machine, whose undo syncs): the command it offered then
    only said "already undone"."""
    a, b, eid = _two(tmp_path)
    _edit(a, eid, rationale="edited on a: faster to open")
    _edit(b, eid, rationale="edited on b: one file to back up")
    b.sync()
    a.sync()
    b.sync()
    [run] = [r for r in journal.runs(str(b.mdir)) if r["kind"] == "sync-conflict"]
    [before] = sync.status(b.cfg, b.env)["conflicts"]
    assert "undone" not in before
    journal.undo(str(b.mdir), (str(b.mdir),), run["run"])
    b.sync()
    a.sync()
    for machine in (a, b):
        [said] = sync.status(machine.cfg, machine.env)["conflicts"]
        assert f"lh memory undo {run['run']}" in said and said.endswith(
            f" [undone {journal.runs(str(machine.mdir))[0]['undone']}: lh memory history]"), said
