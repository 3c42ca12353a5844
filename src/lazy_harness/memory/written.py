"""The ids of the decisions and failures the store wrote to a memory folder, so that a line the person
deleted by hand is not written again when a session gives the entry back (``lh knowledge handoff-now
--again``, a retry, another session of the same decision), as a forgotten entry is not:

    <memory dir>/written.jsonl
        {"id": "d-1a2b3c4d", "ts": "<when it was written>"}    one line per entry the persist appended

Appended by the persist under the folder's lock, with its entries and in its undo record
(``memory.intent``): a persist rolled back takes these lines out with its entries. Synced as every
JSONL file of the folder (its lines merged). An entry written before this file existed has no line:
deleted, it comes back as before. To let sessions write a deleted entry again, take its line out of
this file (or paste the entry's line back into its log).
"""

from __future__ import annotations

import os

from lazy_harness import jsonload
from lazy_harness.memory import lines

FILE = "written.jsonl"


def path_of(memory_dir: str) -> str:
    return os.path.join(memory_dir, FILE)


def ids_of(memory_dir: str) -> set[str]:
    """The ids the store wrote to the folder's logs (none when the file is missing or unreadable)."""
    try:  # why read_regular: a FIFO in the file's place is never waited on
        raw = lines.read_regular(path_of(memory_dir))
    except OSError:
        return set()
    out = set()
    for line in raw.decode("utf-8", "replace").splitlines():
        try:
            rec = jsonload.loads(line)
        except ValueError:
            continue
        if isinstance(rec, dict) and isinstance(rec.get("id"), str):
            out.add(rec["id"])
    return out


def lines_for(appended: list[str], when: str) -> list[str]:
    """The lines of this file for the log lines ``appended`` (whole JSON entries) written at ``when``."""
    out = []
    for line in appended:
        try:
            rec = jsonload.loads(line)
        except ValueError:
            continue
        if isinstance(rec, dict) and isinstance(rec.get("id"), str):
            out.append(jsonload.dumps({"id": rec["id"], "ts": when}))
    return out
