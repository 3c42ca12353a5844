"""The person's changes to a project's memory: forget an entry, close a handoff item, undo a run.

Shared by ``lh memory forget | close | undo`` and by the page of ``lh ui``, so both go through the
same checks and write the same journal (``memory.journal``): every change here is undoable.
Errors are ``LhError`` with a hint; nothing is printed.
"""

from __future__ import annotations

import os

from lazy_harness.errors import LhError
from lazy_harness.memory import changes, files, handoff, ids, journal, learnings, marks
from lazy_harness.memory.sanitize import normalise, one_line


def reason_of(text: str) -> str:
    """A reason as it is kept in the record: one line, at most ``changes.REASON_CHARS``."""
    return one_line(text)[:changes.REASON_CHARS]


def learning_path(learnings_dir: str, lid: str) -> str | None:
    return next((p for p in files.recent_learning_files(learnings_dir, 10**6) if learnings.id_of(p) == lid), None)


def entry_exists(memory_dir: str, eid: str, kind: str) -> bool:
    """Whether decisions.jsonl (or failures.jsonl) holds an entry whose id is ``eid``."""
    name = files.DECISIONS if kind == "decision" else files.FAILURES
    return any(ids.of_record(rec, kind) == eid for rec in files.read_entries(os.path.join(memory_dir, name)))


def open_item(memory_dir: str, ref: str) -> tuple[str, str]:
    """(id, text) of the open handoff item named by its id, ``[id]`` or its exact text."""
    state, _ = handoff.load(memory_dir)
    bare = ref.strip()
    if bare.startswith("[") and bare.endswith("]"):  # copied as lh memory show prints it: [h-1a2b3c4d]
        ref = bare[1:-1].strip()
    for item in handoff.open_items(state):
        if ref == item["id"] or normalise(ref) == normalise(item["text"]):
            return item["id"], item["text"]
    raise LhError(f"no open handoff item {ref!r} in {memory_dir}", hint="lh memory show")


def _change(memory_dir: str, kind: str, project: str, note: str, make, now: float) -> str:
    """Run ``make(journal, now)`` as one journalled change of ``kind``; returns the run id for undo."""
    j = journal.Journal(memory_dir, kind, project, now)
    make(j, now)
    j.note(note)
    j.save()
    return j.run


def forget(memory_dir: str, learnings_dir: str, project: str, entry_id: str, reason: str, now: float) -> str:
    """Leave a decision, failure, learning or handoff item out of everything; returns the run id."""
    kind = ids.kind_of(entry_id)
    if kind is None:
        raise LhError(f"{entry_id!r} is not an id (d-, f-, l- or h- and 8 hex characters)", hint="lh memory show")
    reason = reason_of(reason)
    if kind in ("decision", "failure"):
        if not entry_exists(memory_dir, entry_id, kind):
            raise LhError(f"no {kind} {entry_id} in {memory_dir}", hint="lh memory show")
        hidden = marks.hidden(memory_dir)
        if entry_id in hidden and hidden[entry_id].get("op") != "hold":  # a held entry may be dropped
            raise LhError(f"{entry_id} is already left out ({marks.describe(hidden[entry_id])})")

        def make(j, now):
            changes.add_mark(memory_dir, j, "forget", entry_id, None, reason, now)
    elif kind == "learning":
        path = learning_path(learnings_dir, entry_id)
        if path is None:
            raise LhError(f"no learning {entry_id} in {learnings_dir}", hint="lh memory search")

        def make(j, now):
            changes.set_learning_status(path, learnings_dir, "forgotten", None, reason, now, j)
    else:
        hid, _ = open_item(memory_dir, entry_id)

        def make(j, now):
            changes.close_handoff_items(memory_dir, [(hid, reason)], "forget", now, j)
    return _change(memory_dir, "forget", project, f"forget {entry_id}: {reason}", make, now)


def close(memory_dir: str, project: str, ref: str, reason: str, now: float) -> tuple[str, str, str]:
    """Close an open handoff item (by id or exact text); returns (its id, its text, the run id)."""
    hid, text = open_item(memory_dir, ref)
    reason = reason_of(reason)
    run = _change(memory_dir, "close", project, f"close {hid}: {reason}",
                  lambda j, now: changes.close_handoff_items(memory_dir, [(hid, reason)], "by hand", now, j), now)
    return hid, text, run


def undo(memory_dir: str, learnings_dir: str, run: str | None, stale_days, now: float) -> tuple[dict, list, list]:
    """Put back the files a run changed (None: the newest not yet undone); (run data, restored, problems)."""
    rendered = os.path.join(memory_dir, files.HANDOFF)
    data, restored, problems = journal.undo(memory_dir, (memory_dir, learnings_dir), run, derived=(rendered,))
    if any(f.get("path") == rendered for f in data["files"]):  # derived from handoff.jsonl: render it again
        handoff.write_markdown(memory_dir, {"session_id": "undo", "task_id": data["run"]}, now, stale_days)
    return data, restored, problems


def approve(memory_dir: str, learnings_dir: str, project: str, entry_id: str, reason: str, now: float) -> str:
    """Release an entry held for approval (ADR 0024): shown to sessions again; returns the run id
    for ``lh memory undo``."""
    from lazy_harness.memory import held

    kind = ids.kind_of(entry_id)
    if kind is None:
        raise LhError(f"{entry_id!r} is not an id (d-, f-, l- or h- and 8 hex characters)", hint="lh memory held")
    path = ""
    if kind == "learning":
        path = learning_path(learnings_dir, entry_id) or ""
        if not path or not any(h["id"] == entry_id for h in held.listing(memory_dir, learnings_dir)
                               if h["kind"] == "learning"):
            raise LhError(f"learning {entry_id} is not held", hint="lh memory held")
    elif entry_id not in held.held_ids(memory_dir):
        raise LhError(f"{entry_id} is not held in {memory_dir}", hint="lh memory held")
    reason = reason_of(reason)
    return _change(memory_dir, "approve", project, f"approve {entry_id}: {reason}",
                   lambda j, _now: held.approve(memory_dir, learnings_dir, entry_id, kind, path, reason, j), now)
