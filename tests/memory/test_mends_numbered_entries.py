"""``held.numbered_entries`` numbers each decision as it stands in the file (from 1), read by the rules
every reader of the file uses (``lines.read_marked``): a blank line is counted and yields nothing, a
damaged line that can be salvaged is an entry at its own line, a salvaged copy of a whole entry is
that entry (at the whole one's line), and a last line without its newline that is not a whole object
(a write in flight) is not read. The review list (``lh memory held``) names entries by these numbers."""

import json
import os
import time

import pytest

from lazy_harness.memory import files, held, ids, lines
from tests.support import memory_samples as ms

NOW = time.time()


def _decision(offset: int, summary: str) -> dict:
    return ms.decision(NOW - offset, summary, "why", id=ids.entry_id("decision", summary))


A, B, C, D, E = (_decision(50 - i, s) for i, s in enumerate(
    ("Alpha keeps the cache warm", "Bravo never deploys on Fridays", "Charlie pins the compiler",
     "Delta signs every release", "Echo was being written")))


def _write(path: str, rows: list[str], last: str) -> None:
    with open(path, "wb") as fh:
        fh.write(("\n".join(rows) + "\n" + last).encode("utf-8"))


def _layout() -> tuple[list[str], dict[str, int]]:
    """The file's lines and the line each decision is expected at (counted from this layout)."""
    rows = [
        json.dumps(A),
        "",  # a blank line
        json.dumps(B)[:-1] + ",}",  # a trailing comma left by an editor: salvaged from its fields
        json.dumps({"op": "supersede", "id": A["id"], "by": "d-0"}),  # a marker: no entry
        json.dumps(D)[:40] + json.dumps(D),  # a torn write of D ended by the retry's whole line
        json.dumps(D),  # the retry: D is this line's entry, not the torn one's
        "   ",  # a blank line of spaces
        json.dumps(C),
    ]
    where = {A["summary"]: 1, B["summary"]: 3, D["summary"]: 6, C["summary"]: 8}
    return rows, where


@pytest.mark.parametrize("last", ["torn", "whole"])
def test_each_entry_is_numbered_at_its_line(tmp_path, last):
    rows, where = _layout()
    path = str(tmp_path / files.DECISIONS)
    if last == "torn":
        _write(path, rows, json.dumps(E)[:30])  # a write in flight: not read, not counted as damage
    else:
        _write(path, rows, json.dumps(E))  # saved by an editor without its final newline: read
        where[E["summary"]] = len(rows) + 1
    lines.NOTED.discard(path)

    got = held.numbered_entries(path)

    assert [(n, rec["summary"]) for n, rec in got] == sorted((n, s) for s, n in where.items())
    assert [rec for _, rec in got] == files.read_entries(path)  # the entries every view reads
    assert next(rec for _, rec in got if rec["summary"] == D["summary"]) == D  # the whole one, tags and all
    assert path in lines.NOTED  # the damaged lines were noted for the damage report


def test_a_byte_order_mark_does_not_shift_the_numbers(tmp_path):
    path = str(tmp_path / files.DECISIONS)
    with open(path, "wb") as fh:
        fh.write(files.BOM + (json.dumps(A) + "\n\n" + json.dumps(C) + "\n").encode("utf-8"))
    assert [(n, rec["summary"]) for n, rec in held.numbered_entries(path)] == [(1, A["summary"]), (3, C["summary"])]


def test_a_missing_or_unreadable_file_has_no_entries(tmp_path):
    assert held.numbered_entries(str(tmp_path / "missing.jsonl")) == []
    folder = tmp_path / "a-folder.jsonl"
    os.makedirs(folder)
    assert held.numbered_entries(str(folder)) == []
