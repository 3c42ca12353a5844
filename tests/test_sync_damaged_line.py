"""A decision line damaged by a hand edit on one machine (a quote lost: no longer JSON) while the other
machine edits the same line correctly. The readers salvage the damaged line under its id, so to the
merge both sides changed one entry: this machine's version stays and the other is kept (journalled,
with a ``conflict:`` line), as for any line edited on both. A damaged line no id can be salvaged from
never makes the merge drop the other side's edit of the base line: the edit stays beside it."""

import json

from lazy_harness.memory import ids, journal
from lazy_harness.sync.drivers import merge_lines
from tests.test_sync import Machine, _git

SUMMARY = "Use SQLite for the index"
GOOD = '"rationale": "small and local"'
TYPO = '"rationale": "small and local, no server}'  # the closing quote lost: not JSON any more
EDIT = '"rationale": "small, local, and ships with Python"'


def _line(**more) -> bytes:
    rec = {"ts": "2026-01-01T00:00:00+00:00", "type": "decision", "id": ids.entry_id("decision", SUMMARY),
           "project": "demo", "summary": SUMMARY, "rationale": "small and local", "tags": [], **more}
    return json.dumps(rec).encode()


def _file(*lines: bytes) -> bytes:
    return b"".join(ln + b"\n" for ln in lines)


BASE = _line()
TYPOED = BASE.replace(GOOD.encode(), TYPO.encode())
EDITED = BASE.replace(GOOD.encode(), EDIT.encode())
# the id's closing quote lost: what is left of it is no id, so no reader salvages one
NO_ID = BASE.replace(b'", "project"', b', "project"')
OTHER = _line(id=ids.entry_id("decision", "Ship the CLI as a wheel"), summary="Ship the CLI as a wheel")


def test_the_damaged_line_is_salvaged_by_the_readers_under_its_id_and_the_other_is_not():
    from lazy_harness.memory import lines

    assert [r["id"] for r in lines.records_of(TYPOED, lines.entry_fields)[0]] == [ids.entry_id("decision", SUMMARY)]
    assert lines.records_of(NO_ID, lines.entry_fields)[0] == []


def test_a_damaged_line_and_an_edit_of_it_on_the_other_side_are_a_conflict_in_either_order():
    eid = ids.entry_id("decision", SUMMARY)
    for ours, theirs in ((TYPOED, EDITED), (EDITED, TYPOED)):
        conflicts: list = []
        merged = merge_lines(_file(BASE, OTHER), _file(ours, OTHER), _file(theirs, OTHER), conflicts)
        assert merged == _file(ours, OTHER)  # this machine's version stays in place
        assert conflicts == [(eid, ours, theirs)]  # and the other is noted, for the round to journal


def test_a_damaged_line_on_one_side_only_is_taken_like_any_edit():
    conflicts: list = []
    assert merge_lines(_file(BASE), _file(BASE), _file(TYPOED), conflicts) == _file(TYPOED)
    assert merge_lines(_file(BASE), _file(TYPOED), _file(BASE), conflicts) == _file(TYPOED)
    assert conflicts == []


def test_a_line_with_no_salvageable_id_never_drops_the_other_sides_edit():
    for ours, theirs in ((NO_ID, EDITED), (EDITED, NO_ID)):
        merged = merge_lines(_file(BASE, OTHER), _file(ours, OTHER), _file(theirs, OTHER))
        assert EDITED in merged.split(b"\n") and NO_ID in merged.split(b"\n"), merged


def test_a_line_removed_on_one_side_and_unchanged_on_the_other_stays_removed():
    assert merge_lines(_file(BASE, OTHER), _file(OTHER), _file(BASE, OTHER)) == _file(OTHER)
    assert merge_lines(_file(BASE, OTHER), _file(BASE, OTHER), _file(OTHER)) == _file(OTHER)
    # a damaged line no id comes from, replacing the base line on one side, the other side unchanged
    assert merge_lines(_file(BASE), _file(NO_ID), _file(BASE)) == _file(NO_ID)


def test_a_torn_copy_beside_its_whole_entry_still_lets_an_edit_of_the_entry_through():
    """A write cut short leaves a torn line the retry's whole line follows (lines.without_salvaged_twins):
    the torn one is a line of its own to the merge, so an edit of the whole one on one side is taken."""
    torn = BASE[:-20]
    merged = merge_lines(_file(torn, BASE), _file(torn, BASE), _file(torn, EDITED))
    assert merged == _file(torn, EDITED)


def _edit(m: Machine, old: str, new: str) -> None:
    path = m.mdir / "decisions.jsonl"
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def test_a_typo_on_one_machine_and_an_edit_on_the_other_keep_the_edit(tmp_path):
    remote = tmp_path / "remote.git"
    _git("init", "-q", "--bare", str(remote))
    a, b = Machine(tmp_path, remote, "a"), Machine(tmp_path, remote, "b")
    a.mdir.mkdir(parents=True)
    (a.mdir / "decisions.jsonl").write_bytes(_file(BASE))
    a.sync()
    b.sync()
    _edit(a, GOOD, TYPO)
    _edit(b, GOOD, EDIT)
    a.sync()
    said = b.sync()["conflicts"]
    a.sync()
    eid = ids.entry_id("decision", SUMMARY)
    assert len(said) == 1 and eid in said[0] and "edited on both machines" in said[0]
    for m in (a, b):  # b's version stays in place (b merged); a's typo is journalled there
        assert (m.mdir / "decisions.jsonl").read_bytes() == _file(EDITED)
    [run] = [r for r in journal.runs(str(b.mdir)) if r["kind"] == "sync-conflict"]
    assert run["run"] in said[0]
