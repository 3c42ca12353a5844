"""Reversible changes to a project's memory, each recorded in a journal (``memory.journal``).

Shared by consolidation (worker/consolidate.py) and by the person (``lh memory forget`` and
``lh memory close``): a mark in marks.jsonl for a decision or failure, new status fields in a
learning's frontmatter, a close record for a handoff item. Nothing is ever deleted.
"""

from __future__ import annotations

import json
import os

from lazy_harness import logfile, paths
from lazy_harness.atomic import append_line, atomic_write
from lazy_harness.errors import LhError
from lazy_harness.memory import files, journal, marks
from lazy_harness.memory.status_fields import fields_of, with_fields

REASON_CHARS = 300


def add_mark(memory_dir: str, j: journal.Journal, op: str, target: str, by: str | None, reason: str,
             now: float, extra: dict | None = None) -> None:
    """Append one mark (memory/marks.py) in journal ``j``; ``extra``: more fields of it (an approval's
    ``mac``, ADR 0052)."""
    from lazy_harness.memory.entries import heal_tail

    path = marks.path_of(memory_dir)
    j.track(path)
    heal_tail(path)  # why: a last mark saved by hand without its newline would swallow this one
    rec = {"op": op, "id": target}
    if by:
        rec["by"] = by
    rec.update(reason=reason, ts=logfile.stamp(now), run=j.run, **(extra or {}))
    line = json.dumps(rec, ensure_ascii=False)
    append_line(path, line)
    j.record(path, appended=line)


def set_learning_status(path: str, learnings_dir: str, status: str, by: str | None, reason: str, now: float,
                        j: journal.Journal) -> None:
    """Rewrite a learning's frontmatter status fields; the body stays byte for byte. The journal keeps
    the fields before and after, so undo can put them back even when the file was edited since."""
    if not paths.is_within(path, learnings_dir):
        raise LhError(f"learning {path!r} is outside {learnings_dir!r}")
    with open(path, encoding="utf-8", newline="") as fh:
        text = fh.read()
    after = {"status": status, "deprecated_by": by, "deprecated_on": logfile.stamp(now)[:10],
             "deprecated_reason": reason}
    before = fields_of(text, path)
    new = with_fields(text, path, after)
    j.track(path)
    atomic_write(path, new)
    j.record(path, fields={"before": before, "after": after})


def close_handoff_items(memory_dir: str, items: list[tuple[str, str]], who: str, now: float,
                        j: journal.Journal) -> None:
    """Close handoff items (id, reason) through the handoff store, journalled."""
    from lazy_harness import jsonload
    from lazy_harness.memory import handoff

    state_file, rendered = os.path.join(memory_dir, handoff.STATE), os.path.join(memory_dir, files.HANDOFF)
    # why before the journal looks: an item added to handoff.md by hand is recorded by the first write
    # after it; inside this run, undoing the run took the person's item out with the close
    handoff.import_hand_edits(memory_dir, {"session_id": who, "task_id": j.run}, now)
    j.track(state_file)
    j.track(rendered)
    for rec in handoff.close_items(memory_dir, items, {"session_id": who, "task_id": j.run}, now):
        j.record(state_file, appended=jsonload.dumps(rec))
    j.record(state_file)
    j.record(rendered)
