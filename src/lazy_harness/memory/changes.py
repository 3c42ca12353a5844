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

REASON_CHARS = 300


def add_mark(memory_dir: str, j: journal.Journal, op: str, target: str, by: str | None, reason: str,
             now: float) -> None:
    from lazy_harness.memory.entries import heal_tail

    path = marks.path_of(memory_dir)
    j.track(path)
    heal_tail(path)  # why: a last mark saved by hand without its newline would swallow this one
    rec = {"op": op, "id": target}
    if by:
        rec["by"] = by
    rec.update(reason=reason, ts=logfile.stamp(now), run=j.run)
    line = json.dumps(rec, ensure_ascii=False)
    append_line(path, line)
    j.record(path, appended=line)


STATUS_FIELDS = ("status", "deprecated_by", "deprecated_on", "deprecated_reason")
MAX_FRONTMATTER = 65536


def _frontmatter(text: str, path: str) -> tuple[str, str, dict, str]:
    """(BOM, newline, frontmatter, the text from its closing ``---`` on) of a learning file; a file an
    editor saved with a BOM or CRLF line ends keeps them."""
    import yaml

    bom = "\ufeff" if text.startswith("\ufeff") else ""
    body = text[len(bom):]
    nl = "\r\n" if body.startswith("---\r\n") else "\n"
    end = body.find(nl + "---", 3)
    if not body.startswith("---" + nl) or end < 0:
        raise LhError(f"{path}: no frontmatter to mark")
    head = body[3 + len(nl):end + len(nl)]
    if len(head) > MAX_FRONTMATTER:
        raise LhError(f"{path}: frontmatter over {MAX_FRONTMATTER} characters; not changed")
    try:
        # why: an alias repeats what it names without copying it; written out (the journal, the file)
        # a few nested ones grow into gigabytes. Nothing we write uses them
        if any(isinstance(event, (yaml.AliasEvent,)) or getattr(event, "anchor", None)
               for event in yaml.parse(head, Loader=yaml.SafeLoader)):
            raise LhError(f"{path}: frontmatter uses YAML anchors or aliases; not changed")
        front = yaml.safe_load(head) or {}
    except yaml.YAMLError as exc:
        raise LhError(f"{path}: frontmatter is not valid YAML ({str(exc).splitlines()[0]})") from None
    if not isinstance(front, dict):
        raise LhError(f"{path}: frontmatter is not a mapping")
    return bom, nl, front, body[end + len(nl):]


def with_fields(text: str, path: str, fields: dict) -> str:
    """``text`` of a learning file with ``fields`` set in its frontmatter; the body stays byte for byte."""
    import yaml

    bom, nl, front, rest = _frontmatter(text, path)
    front.update(fields)
    head = yaml.safe_dump(front, sort_keys=False, width=10**9, allow_unicode=True, default_flow_style=False)
    return bom + "---" + nl + head.replace("\n", nl) + rest


def fields_of(text: str, path: str) -> dict:
    """The status fields of a learning file's frontmatter."""
    front = _frontmatter(text, path)[2]
    return {k: front.get(k) if isinstance(front.get(k), (str, type(None))) else str(front.get(k))
            for k in STATUS_FIELDS}


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
    j.track(state_file)
    j.track(rendered)
    for rec in handoff.close_items(memory_dir, items, {"session_id": who, "task_id": j.run}, now):
        j.record(state_file, appended=jsonload.dumps(rec))
    j.record(state_file)
    j.record(rendered)
