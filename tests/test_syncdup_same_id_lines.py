"""Two lines of decisions.jsonl under one id (a line copied by hand, its summary changed, its ``id``
kept): the readers take them as two entries, so a sync merge keeps both, on every machine. Identical
lines still merge to one; an edit of one line on one side follows the usual rules."""

import json

from lazy_harness.memory import files, ids
from lazy_harness.sync.drivers import merge_lines
from tests.test_sync import Machine, _git

ORIGINAL = "Use SQLite for the index"
COPY = "Back up the SQLite index nightly, written by hand"
NEW = "Ship the CLI as a wheel"


def _line(summary: str, eid: str | None = None, **more) -> bytes:
    rec = {"id": eid or ids.entry_id("decision", summary), "type": "decision", "summary": summary, **more}
    return json.dumps(rec).encode()


def _file(*lines: bytes) -> bytes:
    return b"".join(ln + b"\n" for ln in lines)


def _summaries(data: bytes) -> list[str]:
    return [json.loads(ln)["summary"] for ln in data.splitlines() if ln.strip()]


def _shown(path) -> list[str]:
    """What the readers show of a decisions file (``files.tail_records``: copies made one)."""
    return [rec["summary"] for rec in files.tail_records(str(path), 100)]


def test_a_copied_line_with_another_summary_survives_on_either_side():
    eid = ids.entry_id("decision", ORIGINAL)
    orig, copy, new = _line(ORIGINAL), _line(COPY, eid), _line(NEW)
    base = _file(orig)
    assert _summaries(merge_lines(base, _file(orig, copy), _file(orig, new))) == [ORIGINAL, COPY, NEW]
    assert _summaries(merge_lines(base, _file(orig, new), _file(orig, copy))) == [ORIGINAL, NEW, COPY]
    both = merge_lines(b"", _file(orig, copy), _file(orig, copy))
    assert both == _file(orig, copy)  # the same two lines on both sides: two lines, not four


def test_identical_lines_under_one_id_still_merge_to_one():
    orig = _line(ORIGINAL)
    assert merge_lines(b"", _file(orig, orig), _file(orig)) == _file(orig)
    assert merge_lines(_file(orig), _file(orig), _file(orig, orig)) == _file(orig)


def test_a_summary_differing_only_as_the_readers_normalise_it_is_one_entry_to_the_merge_too():
    eid = ids.entry_id("decision", ORIGINAL)
    orig, restated = _line(ORIGINAL), _line("  use sqlite for the INDEX!", eid)
    conflicts: list = []
    merged = merge_lines(_file(orig), _file(orig), _file(restated), conflicts)
    assert merged == _file(restated) and conflicts == []  # edited there only: taken, as before


def test_an_edit_on_one_side_is_taken_and_the_copy_beside_it_kept():
    eid = ids.entry_id("decision", ORIGINAL)
    orig, copy = _line(ORIGINAL), _line(COPY, eid)
    edited = _line(ORIGINAL, rationale="measured: 3 ms per query")
    conflicts: list = []
    merged = merge_lines(_file(orig), _file(orig, copy), _file(edited), conflicts)
    assert merged == _file(edited, copy) and conflicts == []


def test_an_edit_on_both_sides_is_still_a_conflict_named_by_the_id():
    eid = ids.entry_id("decision", ORIGINAL)
    orig, copy = _line(ORIGINAL), _line(COPY, eid)
    ours, theirs = _line(ORIGINAL, rationale="edited here"), _line(ORIGINAL, rationale="edited there")
    for mine in (_file(ours), _file(ours, copy)):
        conflicts: list = []
        merged = merge_lines(_file(orig), mine, _file(theirs), conflicts)
        assert merged == mine and conflicts == [(eid, ours, theirs)]


def test_a_copy_with_the_same_summary_and_other_fields_keeps_the_copy_the_readers_show(tmp_path):
    """Readers keep the last of two lines of one id and summary; the merge must not drop it."""
    orig = _line(ORIGINAL)
    later = _line(ORIGINAL, rationale="added by hand to the copy")
    new = _line(NEW)
    merged = merge_lines(_file(orig), _file(orig, later), _file(orig, new))
    path = tmp_path / "decisions.jsonl"
    path.write_bytes(_file(orig, later))
    before = [r.get("rationale") for r in files.tail_records(str(path), 100)]
    path.write_bytes(merged)
    after = [r.get("rationale") for r in files.tail_records(str(path), 100) if r["summary"] == ORIGINAL]
    assert before == after == ["added by hand to the copy"]
    assert NEW in _summaries(merged)


def test_a_copied_line_survives_a_git_round_on_both_machines(tmp_path):
    remote = tmp_path / "remote.git"
    _git("init", "-q", "--bare", str(remote))
    a, b = Machine(tmp_path, remote, "a"), Machine(tmp_path, remote, "b")
    a.add("decision", ORIGINAL)
    a.sync()
    b.sync()
    path = a.mdir / "decisions.jsonl"
    first = json.loads(path.read_text().splitlines()[0])
    with open(path, "a") as fh:
        fh.write(json.dumps(dict(first, summary=COPY)) + "\n")
    shown_before = _shown(path)
    assert shown_before == [ORIGINAL, COPY]
    b.add("decision", NEW)
    b.sync()
    result = a.sync()
    b.sync()
    a.sync()
    assert result["conflicts"] == []
    for m in (a, b):
        shown = _shown(m.mdir / "decisions.jsonl")
        assert sorted(shown) == sorted([ORIGINAL, COPY, NEW]) and len(shown) == 3, m.home
        m.no_conflict_markers()
