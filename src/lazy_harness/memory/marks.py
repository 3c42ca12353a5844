"""marks.jsonl: what consolidation and the person said about entries, as append-only records.

    {"op": "supersede", "id": "d-...", "by": "d-...", "reason", "ts", "run"}   a newer decision replaces it
    {"op": "merge",     "id": "f-...", "by": "f-...", "reason", "ts", "run"}   a duplicate failure, kept as ``by``
    {"op": "forget",    "id": "<any id>",             "reason", "ts", "run"}   left out everywhere
    {"op": "hold",      "id": "<any id>",             "reason", "ts", "run"}   held for approval (memory/held.py)
    {"op": "approve",   "id": "<any id>",             "reason", "ts", "run"}   approved: no longer held

Nothing is deleted: an entry named by a mark keeps its line in decisions.jsonl / failures.jsonl and
is only left out by readers (read-back, prompt recall, search without ``--all``). Marks live in their
own small file, not between the entries: readers that tail decisions.jsonl stay flat in history and
no older reader can mistake a mark for an entry; an append-only file merges as a union of lines.
Undo (``memory.journal``) removes the run's lines again; so does the store for the marks consolidation
wrote on an entry a later session makes again (``memory.store``, ADR 0014).

Hot path: the SessionStart digest and prompt recall call :func:`hidden`, so only ``os`` and
``jsonload`` are imported; the file is read whole (it holds one short line per mark).
"""

import os

from lazy_harness import jsonload
from lazy_harness.memory import lines

MARKS = "marks.jsonl"
HIDING = ("supersede", "merge", "forget", "hold")
OPS = HIDING + ("approve",)
AUTOMATIC = ("supersede", "merge")  # what consolidation writes; "forget" is the person's word


def path_of(memory_dir: str) -> str:
    return os.path.join(memory_dir, MARKS)


def read(memory_dir: str) -> list[dict]:
    """Every whole mark record, in file order; torn or foreign lines are skipped, damaged ones salvaged
    when they can be (``lines.records_of``) and the file noted for the log; none when the file is missing.
    A file that is there and cannot be read (a folder or a FIFO in its place, no permission, an I/O error)
    raises an ``LhError`` naming it (its OSError the cause). why: read as no marks, every forgotten, held
    or replaced entry came back as active; a reader without the marks shows less or fails, and says why."""
    path = path_of(memory_dir)
    try:
        recs = lines.read_file(path)
    except OSError as exc:
        from lazy_harness.errors import LhError

        raise LhError(f"{path}: cannot be read ({exc.strerror or exc}); what was forgotten or held cannot be told "
                      "without it", hint="move it aside if it is no file, or make it readable; lh doctor") from exc
    out = []
    for rec in recs:
        if rec.get("op") in OPS and isinstance(rec.get("id"), str):
            out.append(rec)
    return out


def held_ids(memory_dir: str) -> dict[str, dict]:
    """``{id: its hold mark}`` of the decisions, failures and open items held in a memory folder
    (memory/held.py holds them; here so that a start with nothing to hold imports none of it)."""
    return {m["id"]: m for m in read(memory_dir) if m.get("op") == "hold"}


def hidden(memory_dir: str, recs: list[dict] | None = None) -> dict[str, dict]:
    """``{id: the first mark naming it}`` for every entry readers must leave out. ``recs``: the
    folder's marks (:func:`read`) when the caller read them already."""
    out: dict[str, dict] = {}
    for rec in read(memory_dir) if recs is None else recs:
        if rec["op"] in HIDING:  # why: an approval says an entry is shown, not left out
            out.setdefault(rec["id"], rec)
    return out


def by_id(memory_dir: str, ops: tuple = HIDING) -> dict[str, list[dict]]:
    """``{id: every mark of ``ops`` naming it, in file order}``: the hiding ones by default; with
    :data:`OPS`, approvals too (what ``state.of_marks`` reads)."""
    out: dict[str, list[dict]] = {}
    for rec in read(memory_dir):
        if rec["op"] in ops:
            out.setdefault(rec["id"], []).append(rec)
    return out


def without(data: bytes, ids: set[str], ops: tuple = AUTOMATIC, field: str = "id") -> bytes:
    """marks.jsonl ``data`` less its whole lines of ``ops`` whose ``field`` (the entry marked, or ``by``:
    the one it was marked for) names one of ``ids``; every other byte kept."""
    def named(line: bytes) -> bool:
        try:
            rec = jsonload.loads(line)
        except ValueError:
            return False
        return isinstance(rec, dict) and rec.get("op") in ops and isinstance(rec.get(field), str) and rec[field] in ids

    return b"".join(line for line in data.splitlines(keepends=True) if not named(line))


def describe(rec: dict) -> str:
    """``superseded by d-...``, ``merged into f-...``, ``forgotten``: how a marked entry is labelled."""
    op = rec.get("op")
    if op == "supersede":
        return f"superseded by {rec.get('by')}"
    if op == "merge":
        return f"merged into {rec.get('by')}"
    if op == "hold":
        return f"held for approval: {rec.get('reason') or '?'}"
    return "forgotten"
