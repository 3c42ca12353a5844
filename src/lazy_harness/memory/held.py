"""Entries held for approval: what the hold check (memory/trust.py) caught, kept out of every session
until the person approves or forgets it.

    decision, failure, open item   a mark ``{"op": "hold", "id", "reason", "ts", "run"}`` in marks.jsonl,
                                   left out by every reader as a forgotten entry is
    learning                       frontmatter ``status: held`` (``deprecated_reason: held: <why>``),
                                   left out as a deprecated one is

Approving is a journalled run too: the hold mark is taken out and ``{"op": "approve", "id"}`` written
(a learning is set active with ``deprecated_reason: approved by hand``), so the read-time check lets
that id through from then on and ``lh memory undo`` holds it again. ``lh memory forget`` drops a held
entry for good. Every hold and approval is one run of ``lh memory history``.

Who holds: the worker after it wrote a session's entries, sync after a merge, migration after it
moved old files, and the SessionStart hook for an entry it finds hostile at read time (a hand edit,
an entry older than the check); prompt recall leaves such an entry out and the next start records it.
"""

from __future__ import annotations

import os

from lazy_harness.memory import files, ids, marks, trust

HOLD, APPROVE = "hold", "approve"
HELD = "held"  # a learning's status
APPROVED = "approved by hand"  # a learning's deprecated_reason once approved


def approved(memory_dir: str) -> set[str]:
    """Ids the person approved in this memory folder."""
    return {m["id"] for m in marks.read(memory_dir) if m.get("op") == APPROVE}


def learning_approved(meta: dict) -> bool:
    return str(meta.get("deprecated_reason") or "").startswith(APPROVED)


def record_text(rec: dict, kind: str) -> str:
    return trust.text_of(rec, kind)


def learning_text(path: str) -> tuple[dict, str]:
    """(frontmatter, the text the check reads) of a learning file; ({}, '') when unreadable."""
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            parsed = files.parse_frontmatter(fh.read(256 * 1024))
    except OSError:
        return {}, ""
    if parsed is None:
        return {}, ""
    meta, body = parsed
    return meta, " ".join(str(x) for x in (meta.get("title"), body, meta.get("tags"), meta.get("cues")) if x)


def hold(memory_dir: str, learnings_dir: str, found: list[tuple[str, str, str, str]], project: str,
         now: float, why: str) -> str | None:
    """Hold every ``(kind, id, learning path or '', reason)`` of ``found`` in one journalled run;
    returns the run id (None when there was nothing left to hold)."""
    from lazy_harness.memory import changes, journal

    if not found:
        return None
    hidden = marks.hidden(memory_dir) if os.path.isdir(memory_dir) else {}
    j = journal.Journal(memory_dir, "hold", project, now)
    done = 0
    for kind, eid, path, reason in found:
        if kind == "learning":
            meta = files.read_frontmatter_values(path, ("status",))
            if (meta.get("status") or "active") != "active":
                continue
            changes.set_learning_status(path, learnings_dir, HELD, None, f"{HELD}: {reason}", now, j)
        else:
            if eid in hidden:
                continue
            os.makedirs(memory_dir, exist_ok=True)
            changes.add_mark(memory_dir, j, HOLD, eid, None, reason, now)
            hidden[eid] = {"op": HOLD}
        j.note(f"hold {eid}: {reason} ({why})")
        done += 1
    if not done:
        return None
    j.save()
    return j.run


def scan_records(memory_dir: str) -> list[tuple[str, str, str, str]]:
    """Live decisions, failures and open items of a memory folder that the check holds and nobody approved."""
    from lazy_harness import jsonload
    from lazy_harness.memory import handoff

    hidden, ok = marks.hidden(memory_dir), approved(memory_dir)
    out = []
    for kind, name in (("decision", files.DECISIONS), ("failure", files.FAILURES)):
        try:
            with open(os.path.join(memory_dir, name), "rb") as fh:
                lines = fh.read().split(b"\n")
        except OSError:
            continue
        for line in lines:
            try:
                rec = jsonload.loads(line) if line.strip() else None
            except ValueError:
                continue
            if not isinstance(rec, dict) or "op" in rec or not isinstance(rec.get("summary"), str):
                continue
            eid = ids.of_record(rec, kind)
            if eid in hidden or eid in ok:
                continue
            reason = trust.check(rec, kind)
            if reason:
                out.append((kind, eid, "", reason))
    for item in handoff.open_for_reading(memory_dir):
        if item["id"] not in hidden and item["id"] not in ok:
            reason = trust.reason(str(item.get("text") or ""))
            if reason:
                out.append(("handoff", item["id"], "", reason))
    return out


def scan_learnings(paths_: list[str]) -> list[tuple[str, str, str, str]]:
    """Active learning files among ``paths_`` that the check holds and nobody approved."""
    out = []
    for path in paths_:
        meta, text = learning_text(path)
        if not meta or str(meta.get("status") or "active") != "active" or learning_approved(meta):
            continue
        reason = trust.reason(text)
        if reason:
            out.append(("learning", ids.of_learning(meta), path, reason))
    return out


def held_ids(memory_dir: str) -> dict[str, dict]:
    """``{id: its hold mark}`` of the decisions, failures and open items held in a memory folder."""
    return {m["id"]: m for m in marks.read(memory_dir) if m.get("op") == HOLD}
