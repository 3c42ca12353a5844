"""Undo of a run whose append was cut short (a write of half its bytes, then a kill: tests/support/crashpoint.py)
takes the cut fragment out with the run's whole lines: the file's bytes are those of before the run, and
``lh memory check`` finds no torn line. A line the run's journal cannot show it wrote stays, and undo says so."""

import json
import os
import sys

from lazy_harness import paths
from lazy_harness.memory import by_hand, damage, entries, handoff, journal, marks, store
from tests.memory.test_store import META, NOW, answer
from tests.support import crashpoint

ITEM = "finish the docs"

BY_HAND = """
import sys
from lazy_harness.memory import by_hand
from tests.memory.test_store import NOW
from tests.support import crashpoint
mdir, ldir, k, what, eid = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
crashpoint.arm(k, partial=True)
if what == "close":
    by_hand.close(mdir, "proj", eid, "done", NOW + 60)
else:
    by_hand.forget(mdir, ldir, "proj", eid, "not needed", NOW + 60)
crashpoint.finished()
"""

WATCHED = (marks.MARKS, handoff.STATE)


def _bytes(mdir: str) -> dict[str, bytes]:
    """The watched files' bytes; one not there as empty (undo empties a JSONL file the run made)."""
    out = {}
    for name in WATCHED:
        try:
            with open(os.path.join(mdir, name), "rb") as fh:
                out[name] = fh.read()
        except FileNotFoundError:
            out[name] = b""
    return out


def _torn(mdir: str) -> list[str]:
    return [f"{name}:{n}: {how}" for name in WATCHED for n, how in damage.check_file(os.path.join(mdir, name)).found]


def _seeded(tmp_path, name: str) -> tuple[str, str, str, str]:
    project = tmp_path / name
    project.mkdir()
    mdir, ldir = paths.memory_dir(str(project)), paths.learnings_dir()
    store.persist(answer(handoff=(ITEM, "run the benchmark")), mdir, ldir, META, NOW)
    state, _ = handoff.load(mdir)
    hid = next(i["id"] for i in handoff.open_items(state) if i["text"] == ITEM)
    with open(os.path.join(mdir, "decisions.jsonl"), encoding="utf-8") as fh:
        did = json.loads(fh.readline())["id"]
    return mdir, ldir, did, hid


def _walk(tmp_path, what: str) -> int:
    """Kill ``what`` with half of each write, at every step; undo the killed run; the watched files
    must be back byte for byte and clean. Returns how many kills left a torn line for undo to take out."""
    torn_before_undo = 0
    for k in range(1, 200):
        mdir, ldir, did, hid = _seeded(tmp_path, f"{what}{k}")
        seed = _bytes(mdir)
        said = crashpoint.run_to([sys.executable, "-c", BY_HAND, mdir, ldir, str(k), what,
                                  hid if what == "close" else did])
        if said == "finished":
            return torn_before_undo
        torn_before_undo += bool(_torn(mdir))
        killed = [r["run"] for r in journal.runs(mdir) if r.get("kind") == what]
        if killed:
            data, _, problems = by_hand.undo(mdir, ldir, killed[0], 7.0, NOW + 120)
            assert problems == [], f"k={k} ({said}): {problems}"
            assert data["undone"], f"k={k} ({said})"
        assert _bytes(mdir) == seed, f"k={k} ({said}): not the bytes of before the run"
        assert _torn(mdir) == [], f"k={k} ({said})"
    raise AssertionError(f"the {what} never finished")


def test_a_forget_cut_mid_write_is_undone_byte_for_byte(tmp_path):
    assert _walk(tmp_path, "forget"), "no kill left a torn mark: the walk tested nothing"


def test_a_close_cut_mid_write_is_undone_byte_for_byte(tmp_path):
    assert _walk(tmp_path, "close"), "no kill left a torn close record: the walk tested nothing"


# --- the journal alone: what undo may take out, and what it must leave -------------------------------

def _killed_mark_run(mdir: str, before: bytes, line: str) -> journal.Journal:
    """A run that tracked marks.jsonl (holding ``before``), healed its last line and recorded ``line`` as
    about to be written, as ``changes.add_mark`` does; nothing of the line written yet."""
    path = os.path.join(mdir, "marks.jsonl")
    os.makedirs(mdir, exist_ok=True)
    with open(path, "wb") as fh:
        fh.write(before)
    j = journal.Journal(mdir, "forget", "proj", NOW)
    j.track(path)
    entries.heal_tail(path)
    j.intend_lines(path, [line])
    return j


def _append(path: str, data: bytes) -> None:
    with open(path, "ab") as fh:
        fh.write(data)


def _mark(target: str, run: str) -> str:
    return json.dumps({"op": "forget", "id": target, "reason": "not needed", "ts": "2025-10-09T09:00:00+00:00",
                       "run": run})


def test_a_hand_saved_torn_line_of_before_stays_and_the_runs_fragment_goes(tmp_path):
    mdir = str(tmp_path / "m")
    line = _mark("d-0123abcd", "r1")
    # the person's own cut line, the same start as the run's mark, before the run
    before = (_mark("d-99999999", "r0") + "\n" + line[:12]).encode()
    j = _killed_mark_run(mdir, before, line)
    path = os.path.join(mdir, "marks.jsonl")
    _append(path, line.encode()[:30])  # the run's write, cut short
    _, restored, problems = journal.undo(mdir, (mdir,), j.run)
    assert problems == [] and restored == [path]
    with open(path, "rb") as fh:
        assert fh.read() == before


def test_another_runs_line_after_the_healed_fragment_stays(tmp_path):
    mdir = str(tmp_path / "m")
    line, theirs = _mark("d-0123abcd", "r1"), _mark("d-fedcba98", "r2")
    before = (_mark("d-99999999", "r0") + "\n").encode()
    j = _killed_mark_run(mdir, before, line)
    path = os.path.join(mdir, "marks.jsonl")
    _append(path, line.encode()[:30])
    _append(path, b"\n" + theirs.encode() + b"\n")  # the next writer healed the fragment, then appended
    _, _, problems = journal.undo(mdir, (mdir,), j.run)
    assert problems == []
    with open(path, "rb") as fh:
        assert fh.read() == before + theirs.encode() + b"\n"


def test_a_torn_line_the_journal_cannot_show_is_left_and_reported(tmp_path):
    mdir = str(tmp_path / "m")
    line = _mark("d-0123abcd", "r1")
    before = (_mark("d-99999999", "r0") + "\n").encode()
    j = _killed_mark_run(mdir, before, line)
    path = os.path.join(mdir, "marks.jsonl")
    stranger = b'{"op": "approve", "id": "l-1'  # not the start of the run's line
    _append(path, stranger)
    data, restored, problems = journal.undo(mdir, (mdir,), j.run)
    assert restored == [] and len(problems) == 1 and "marks.jsonl" in problems[0], problems
    assert not data["undone"]
    with open(path, "rb") as fh:
        assert fh.read() == before + stranger
    said, left = by_hand.undo_said(data, restored, problems)
    assert "restored" not in said.split(":")[0] and "is not undone" in said
    assert any("cut short" in one for one in left), left
