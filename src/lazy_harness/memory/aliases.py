"""What a project's memory folder owns besides entries written under its own key: ``aliases.jsonl``.

    {"op": "alias", "folder": "<an earlier memory key of this project>", "why": ..., "ts": ...}
    {"op": "adopt", "id": "<a learning id>", "why": ..., "ts": ...}

A project's key changes when its repository gains or changes its ``origin`` or its folder moves
(docs/how/project-key.md). Its decisions, failures and open items move into the new folder
(memory/migrate.py); its learnings stay where they are, in the shared learnings folder, each with
the key it was written under (``project_folder``). Rewriting each of those files would touch every
learning of the project and race with sync; an ``alias`` line instead says that learnings written
under the earlier key are this project's, and every reader (SessionStart, prompt recall, ``lh memory
search|show``, the page) counts them as its own. An ``adopt`` line does the same for one learning
written before keys were recorded (only its origin's name: ``lh memory unassigned``).

Append-only, one whole line per record, under the folder lock (memory.files.FolderLock), so a
record is either there or not and writing it twice changes nothing; sync merges the file as a set
of lines. Readers read it whole (a few lines).
Hot path: only ``os`` and our ``jsonload`` at import time.
"""

import os

from lazy_harness import jsonload

FILE = "aliases.jsonl"
ALIAS, ADOPT = "alias", "adopt"


class Owned:
    """The keys whose project-scoped learnings are this folder's (its own first) and the learning ids
    it adopted."""

    __slots__ = ("keys", "adopted")

    def __init__(self, keys: frozenset, adopted: frozenset) -> None:
        self.keys, self.adopted = keys, adopted

    def lists(self, meta: dict, name: str) -> bool:
        """Whether a learning (its frontmatter, with ``id``) is the project's own (``lh memory show``,
        the page, consolidation): written under one of its keys, or adopted; one written before keys
        were recorded, by its origin ``name``. why the key first: ``~/work/api`` and ``~/clients/x/api``
        share the name, and consolidating one deprecated the other's learnings."""
        if meta.get("id") in self.adopted:
            return True
        key = meta.get("project_folder")
        return key in self.keys if isinstance(key, str) and key else meta.get("origin") == name


def records(memory_dir: str) -> list[dict]:
    """Every well-formed record of the folder's file, in order; a torn or foreign line is skipped."""
    try:
        with open(os.path.join(memory_dir, FILE), "rb") as fh:
            data = fh.read()
    except OSError:
        return []
    out = []
    for raw in data.split(b"\n"):
        if not raw.strip():
            continue
        try:
            rec = jsonload.loads(raw)
        except (ValueError, RecursionError):
            continue
        if isinstance(rec, dict) and rec.get("op") in (ALIAS, ADOPT) and isinstance(rec.get(FIELD[rec["op"]]), str):
            out.append(rec)
    return out


FIELD = {ALIAS: "folder", ADOPT: "id"}  # the field each op names its value in


def owned(memory_dir: str) -> Owned:
    """The keys (the folder's own name and its aliases) and adopted ids of ``memory_dir``."""
    own = os.path.basename(memory_dir.rstrip(os.sep))
    recs = records(memory_dir)
    keys = frozenset([own] + [r["folder"] for r in recs if r["op"] == ALIAS])
    return Owned(keys, frozenset(r["id"] for r in recs if r["op"] == ADOPT))


def record(memory_dir: str, op: str, value: str, why: str, now: float, locked: bool = False) -> bool:
    """Add one record unless the folder has it already; True when written. ``locked``: the caller
    holds the folder lock (a second one in this process would wait for ever)."""
    if op not in FIELD or not value or "\n" in value:
        raise ValueError(f"not an {FILE} record: {op} {value!r}")
    from lazy_harness.atomic import append_line, ensure_dir
    from lazy_harness.logfile import stamp
    from lazy_harness.memory.files import FolderLock

    ensure_dir(memory_dir)

    def add() -> bool:
        if any(r["op"] == op and r[FIELD[op]] == value for r in records(memory_dir)):
            return False
        append_line(os.path.join(memory_dir, FILE),
                    jsonload.dumps({"op": op, FIELD[op]: value, "why": why, "ts": stamp(now)}))
        return True

    if locked:
        return add()
    with FolderLock(memory_dir):
        return add()
