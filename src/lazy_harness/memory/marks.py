"""marks.jsonl: what consolidation and the person said about entries, as append-only records.

    {"op": "supersede", "id": "d-...", "by": "d-...", "reason", "ts", "run"}   a newer decision replaces it
    {"op": "merge",     "id": "f-...", "by": "f-...", "reason", "ts", "run"}   a duplicate failure, kept as ``by``
    {"op": "forget",    "id": "<any id>",             "reason", "ts", "run"}   left out everywhere

Nothing is deleted: an entry named by a mark keeps its line in decisions.jsonl / failures.jsonl and
is only left out by readers (read-back, prompt recall, search without ``--all``). Marks live in their
own small file, not between the entries: readers that tail decisions.jsonl stay flat in history and
no older reader can mistake a mark for an entry; an append-only file merges as a union of lines.
Undo (``memory.journal``) removes the run's lines again.

Hot path: the SessionStart digest and prompt recall call :func:`hidden`, so only ``os`` and
``jsonload`` are imported; the file is read whole (it holds one short line per mark).
"""

import os

from lazy_harness import jsonload

MARKS = "marks.jsonl"
OPS = ("supersede", "merge", "forget")


def path_of(memory_dir: str) -> str:
    return os.path.join(memory_dir, MARKS)


def read(memory_dir: str) -> list[dict]:
    """Every whole mark record, in file order; torn or foreign lines are skipped."""
    try:
        with open(path_of(memory_dir), "rb") as fh:
            data = fh.read()
    except OSError:
        return []
    out = []
    for line in data.split(b"\n"):
        if not line.strip():
            continue
        try:
            rec = jsonload.loads(line)
        except ValueError:
            continue
        if isinstance(rec, dict) and rec.get("op") in OPS and isinstance(rec.get("id"), str):
            out.append(rec)
    return out


def hidden(memory_dir: str) -> dict[str, dict]:
    """``{id: the first mark naming it}`` for every entry readers must leave out."""
    out: dict[str, dict] = {}
    for rec in read(memory_dir):
        out.setdefault(rec["id"], rec)
    return out


def describe(rec: dict) -> str:
    """``superseded by d-...``, ``merged into f-...``, ``forgotten``: how a marked entry is labelled."""
    op = rec.get("op")
    if op == "supersede":
        return f"superseded by {rec.get('by')}"
    if op == "merge":
        return f"merged into {rec.get('by')}"
    return "forgotten"
