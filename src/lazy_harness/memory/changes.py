"""Reversible changes to a project's memory, each recorded in a journal (``memory.journal``).

Shared by consolidation (worker/consolidate.py) and by the person (``lh memory forget`` and
``lh memory close``): a mark in marks.jsonl for a decision or failure, new status fields in a
learning's frontmatter, a close record for a handoff item. Nothing is ever deleted.
"""

from __future__ import annotations

import json
import os

from lazy_harness import atomic, logfile, paths
from lazy_harness.atomic import atomic_write
from lazy_harness.errors import LhError
from lazy_harness.memory import files, journal, marks, state
from lazy_harness.memory.status_fields import STATUS_FIELDS, fields_of, with_fields
from lazy_harness.regular_file import read_regular

# why: not ``from typing import TYPE_CHECKING``: memory never imports ``typing`` at run time (the hooks
# load its read side: house style section 3)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

REASON_CHARS = 300
STATUS_LOCK = ".status.lock"  # in the learnings folder: see status_lock


def unmark(memory_dir: str, j: journal.Journal, gone: set[str], ops: tuple = marks.AUTOMATIC,
           field: str = "id") -> None:
    """Take the marks of ``ops`` whose ``field`` names one of ``gone`` out of marks.jsonl (``marks.without``),
    the lines taken out recorded in journal ``j`` first, so undo appends them again and keeps the marks
    written since."""
    path = marks.path_of(memory_dir)
    j.track(path)

    def change(data: bytes) -> bytes:
        new = marks.without(data, gone, ops, field)
        if new != data:
            removed = [line.rstrip(b"\n").decode("utf-8", "replace") for line in data.splitlines(keepends=True)
                       if not marks.without(line, gone, ops, field)]
            j.intend_removal(path, data, removed, new)
        return new

    # why rewrite: consolidation and lh memory forget append marks without the folder lock
    atomic.rewrite(path, change)
    j.record(path)


def release(memory_dir: str, j: journal.Journal, by: str) -> list[str]:
    """Take out, in journal ``j``, the ``supersede`` marks by ``by``, an entry the person forgets: a
    forgotten entry replaces nothing, as a held one (ADR 0060). Returns the ids they hid that no other
    mark hides now: the entries shown again. A merge stays: the merged text lives in its survivor.
    No such mark: nothing is written."""
    replaced = [m["id"] for m in marks.read(memory_dir) if m["op"] == "supersede" and m.get("by") == by]
    if not replaced:
        return []
    unmark(memory_dir, j, {by}, ops=("supersede",), field="by")
    still = marks.hidden(memory_dir)
    shown = [old for old in dict.fromkeys(replaced) if old not in still]
    for old in shown:
        j.note(f"release {old}: its replacement {by} is forgotten")
    return shown


def fields_before_deprecation(memory_dir: str, path: str) -> dict | None:
    """The status fields learning ``path`` had before the consolidation run that deprecated it, when that
    run is not undone and its fields are still the ones it wrote; else None. The run is looked for in
    ``memory_dir``'s journal, then in every other project's memory folder beside it (read only): a
    project's consolidation may deprecate a learning for one another project wrote. why: what is shown
    again gets the fields it had (a person's signed approval, ADR 0052), not a new reason, whether a
    session made it again or its replacement was forgotten."""
    from lazy_harness.memory import aliases

    try:  # why read_regular: a FIFO in the learning's place held the worker in open() for good
        now = fields_of(read_regular(path).decode("utf-8"), path)
    except (OSError, LhError, UnicodeDecodeError):
        return None
    here = os.path.normpath(memory_dir)
    others = [d for d in aliases.memory_folders(os.path.dirname(here)) if os.path.normpath(d) != here]
    for folder in [here, *others]:
        before = _fields_before(folder, path, now)
        if before is not None:
            return before
    return None


def deprecated_by_a_run(memory_dir: str, path: str) -> bool:
    """Whether a consolidation or ``rewrite`` run not undone deprecated learning ``path`` (looked for as
    :func:`fields_before_deprecation` looks). why: a learning deprecated by hand in its file is the
    person's word, as a forget is; a session that restates its text does not bring it back."""
    from lazy_harness.memory import aliases

    here = os.path.normpath(memory_dir)
    others = [d for d in aliases.memory_folders(os.path.dirname(here)) if os.path.normpath(d) != here]
    return any(run.get("kind") in ("consolidate", "rewrite") and not run.get("undone")
               and any(f.get("path") == path for f in run["files"])
               for folder in [here, *others] for run in journal.runs(folder))


def _fields_before(memory_dir: str, path: str, now: dict) -> dict | None:
    """:func:`fields_before_deprecation` in one memory folder's journal."""
    for run in journal.runs(memory_dir):
        # why rewrite: a new text of its title deprecates a learning as consolidation does (ADR 0063), and
        # approve: so does a held new text the person approves (held_review.replace_older)
        if run.get("kind") not in ("consolidate", "rewrite", "approve") or run.get("undone"):
            continue
        for f in run["files"]:
            fields = f.get("fields")
            if f["path"] != path or not isinstance(fields, dict) or not isinstance(fields.get("before"), dict):
                continue
            after = fields.get("after")
            if isinstance(after, dict) and {k: after.get(k) for k in STATUS_FIELDS} == now:
                before = fields["before"]
                return {k: before.get(k) for k in STATUS_FIELDS}
    return None


def rewrite_claims(memory_dir: str) -> tuple[dict[str, set[str]], set[str]]:
    """What the ``rewrite`` runs of ``memory_dir``'s journal say (ADR 0063): ``{learning file: every id a
    run not undone deprecated it for}``, and the files an undone one had deprecated. why: two machines
    that each rewrote one title before a sync round met leave one older text claimed by two new ones,
    both shown; a file the person brought back by an undo is the person's word. A run that never ended
    (fewer notes than deprecations: a persist or a round's settling killed part-way, rolled back by the
    next writer) says neither: that undo is no person's word."""
    claims: dict[str, set[str]] = {}
    undone: set[str] = set()
    for run in journal.runs(memory_dir):
        if run.get("kind") != "rewrite":
            continue
        made = [(f["path"], after) for f in run["files"]
                if (after := _after(f)) is not None and after.get("status") == "deprecated"]
        # why: a run notes each deprecation once made, saved with its next change or its end
        if run.get("undone") and len(run.get("changes") or []) < len(made):
            continue
        for path, after in made:
            if run.get("undone"):
                undone.add(path)
            elif isinstance(after.get("deprecated_by"), str):
                claims.setdefault(path, set()).add(after["deprecated_by"])
    return claims, undone


def _after(f: dict) -> dict | None:
    """The status fields a journal's file entry set, None for an entry that set none."""
    after = (f.get("fields") or {}).get("after") if isinstance(f.get("fields"), dict) else None
    return after if isinstance(after, dict) else None


def runs_elsewhere(memory_dir: str, learnings_dir: str, own: Callable[[dict], bool],
                   skip: set[str]) -> list[tuple[dict, str, list[str]]]:
    """The runs journaled in another project's memory folder beside ``memory_dir`` that changed a
    learning this project keeps as its own (``own``: its frontmatter with ``id``), each with that folder
    and the ids of those learnings; runs named in ``skip`` (listed already) left out. why: a forget of a
    general learning gives back another project's own learning (:func:`release_learnings`), journaled
    where the forget ran: nothing in the project whose learning came back said why."""
    from lazy_harness.memory import aliases, frontmatter, ids

    here, base = os.path.normpath(memory_dir), os.path.abspath(learnings_dir)
    metas: dict[str, str | None] = {}

    def owned_id(path: str) -> str | None:
        if path not in metas:
            metas[path] = None
            if path.endswith(".md") and os.path.commonpath([os.path.abspath(path), base]) == base:
                meta = frontmatter.read_frontmatter_values(path, ("id", "title", "origin", "scope",
                                                                  "project_folder"))
                lid = ids.of_learning(meta, path=path)
                if not state.crosses(meta) and own({**meta, "id": lid}):
                    metas[path] = lid
        return metas[path]

    out = []
    for folder in aliases.memory_folders(os.path.dirname(here)):
        if os.path.normpath(folder) == here:
            continue
        for run in journal.runs(folder):
            if run["run"] in skip:
                continue
            touched = list(dict.fromkeys(filter(None, (owned_id(f["path"]) for f in run["files"]))))
            if touched:
                skip.add(run["run"])
                out.append((run, folder, touched))
    return out


def said_elsewhere(run: dict, folder: str, touched: list[str]) -> tuple[str, list[str]]:
    """How a view lists a run of :func:`runs_elsewhere`: where it is journaled (and, not undone, how it
    is undone there), and only its changes that name the learnings ``touched`` (the other project's
    own changes are its own to show)."""
    from lazy_harness.memory.sanitize import one_line

    other = one_line(run.get("project"))[:80] or "another project"
    there = f"journaled in project {other}'s memory ({journal.folder(folder)})"
    where = (f"undone {run['undone']}; {there}" if run.get("undone")
             else f"{there}: undo it there, lh memory undo {run['run']} --project <the folder of {other}>")
    made = [str(c) for c in run.get("changes") or [] if any(lid in str(c) for lid in touched)]
    return where, made or [f"changed {', '.join(touched)}"]


def listed_elsewhere(memory_dir: str, learnings_dir: str, project: str, skip: set[str]) -> list[dict]:
    """The runs of :func:`runs_elsewhere` for the learnings project ``project`` keeps as its own
    (``aliases.Owned.lists``), each with ``elsewhere``: :func:`said_elsewhere`'s (where, changes), as
    ``lh memory history`` and the page list them."""
    from lazy_harness.memory import aliases

    owned = aliases.owned(memory_dir)
    found = runs_elsewhere(memory_dir, learnings_dir, lambda meta: owned.lists(meta, project), set(skip))
    return [{**run, "elsewhere": said_elsewhere(run, folder, touched)} for run, folder, touched in found]


SHOWN_AGAIN = {"status": state.ACTIVE, "deprecated_by": None, "deprecated_on": None, "deprecated_reason": None}


def release_learnings(memory_dir: str, learnings_dir: str, j: journal.Journal, by: str,
                      listed: Callable[[dict], bool], became: str = "forgotten") -> list[str]:
    """:func:`release` for learnings: every learning deprecated for ``by``, a learning the person forgets
    (or one held: ``became``), is set active again in journal ``j``, with the fields it had before
    (:func:`fields_before_deprecation`), else its ``deprecated_*`` fields cleared. Another project's own
    learning too: its deprecation's reason is gone, and giving it back returns it to its own state;
    ``listed`` tells whether the forgetting project lists a learning (its frontmatter, with ``id``), and
    one it does not is named with its project (``l-1a2b3c4d in project shop``), since nothing in that
    project says why it is back. Only one still deprecated: one the person forgot or held since keeps its
    state (checked again under the status lock). Returns the learnings shown again, each its id (named
    so when another project's); a file whose frontmatter no writer rewrites is left, noted in ``j``."""
    from lazy_harness.memory import frontmatter, ids

    shown: list[str] = []
    for path in files.recent_learning_files(learnings_dir, 10**6):
        meta = frontmatter.read_frontmatter_values(path, ("id", "title", "origin", "status", "deprecated_by",
                                                          "scope", "project_folder"))
        if meta.get("status") != state.DEPRECATED or str(meta.get("deprecated_by") or "").strip() != by:
            continue
        lid = ids.of_learning(meta, path=path)
        try:
            after = fields_before_deprecation(memory_dir, path) or dict(SHOWN_AGAIN)
            done = set_learning_fields(path, learnings_dir, after, j, only_from=state.DEPRECATED)
        except LhError as exc:  # why: another learning's damaged file fails no forget; it stays as it is
            j.note(f"not shown again: {exc}")
            continue
        named = lid if listed({**meta, "id": lid}) else _elsewhere(lid, meta)
        if done and named not in shown:
            shown.append(named)
            j.note(f"release {named}: its replacement {by} is {became}")
    return shown


def _elsewhere(lid: str, meta: dict) -> str:
    """How a forget names another project's own learning it gives back: with that project's name."""
    from lazy_harness.memory.sanitize import one_line

    origin = one_line(meta.get("origin"))[:80]
    return f"{lid} in project {origin}" if origin else f"{lid} in another project"


def add_mark(memory_dir: str, j: journal.Journal, op: str, target: str, by: str | None, reason: str,
             now: float, extra: dict | None = None, live: tuple[str, ...] = ()) -> bool:
    """Append one mark (memory/marks.py) in journal ``j``; ``extra``: more fields of it (an approval's
    ``mac``, ADR 0052). ``live``: ids that must still be shown, checked again under the lock every
    writer of marks.jsonl takes; False (nothing written) when a mark hides one of them now."""
    from lazy_harness.memory.entries import heal_tail

    path = marks.path_of(memory_dir)
    j.track(path)
    heal_tail(path)  # why: a last mark saved by hand without its newline would swallow this one
    rec = {"op": op, "id": target}
    if by:
        rec["by"] = by
    rec.update(reason=reason, ts=logfile.stamp(now), run=j.run, **(extra or {}))
    written = _append_mark(memory_dir, json.dumps(rec, ensure_ascii=False), j, set(live))
    j.record(path)
    return written


def _append_mark(memory_dir: str, line: str, j: journal.Journal, live: set[str]) -> bool:
    """``atomic.append_line`` with a check and the journal's record between the lock and the write:
    under the ``flock`` of marks.jsonl (what ``append_line`` and ``rewrite`` take, so the person's
    ``lh memory forget`` waits), the marks are read again; the line is recorded, then written.
    why not append_line: its lock is taken inside it; a second flock of the file here would wait forever."""
    import fcntl

    from lazy_harness.atomic import ensure_dir, open_append, write_all

    path = marks.path_of(memory_dir)
    ensure_dir(memory_dir)
    while True:
        fd = open_append(path)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            mine = os.fstat(fd)
            try:
                now = os.stat(path)
            except FileNotFoundError:
                continue
            if (mine.st_dev, mine.st_ino) != (now.st_dev, now.st_ino):
                continue  # why: replaced under us (a rewrite); appending to the old inode would lose the line
            if live & set(marks.hidden(memory_dir)):
                # why recorded all the same: a forget that hid it came after track(); undo must keep it
                j.intend_lines(path, [])
                return False
            j.intend_lines(path, [line])
            write_all(fd, (line + "\n").encode("utf-8"))
            os.fsync(fd)
            return True
        finally:
            os.close(fd)


def set_learning_status(path: str, learnings_dir: str, status: str, by: str | None, reason: str, now: float,
                        j: journal.Journal, only_from: str | tuple[str, ...] | None = None,
                        others_active: tuple[str, ...] = ()) -> bool:
    """Rewrite a learning's frontmatter status fields; the body stays byte for byte. The journal keeps
    the fields before and after, so undo can put them back even when the file was edited since.
    ``only_from``: only while its status is still this one (or one of these); ``others_active``: only
    while these learnings are still active (the one a deprecation points at); both read under the lock."""
    after = {"status": status, "deprecated_by": by, "deprecated_on": logfile.stamp(now)[:10],
             "deprecated_reason": reason}
    return set_learning_fields(path, learnings_dir, after, j, only_from, others_active)


WRITE_TRIES = 3  # a learning saved by hand again at each try is left as the person saved it


def set_learning_fields(path: str, learnings_dir: str, after: dict, j: journal.Journal,
                        only_from: str | tuple[str, ...] | None = None, others_active: tuple[str, ...] = ()) -> bool:
    """Set a learning's status fields to ``after`` (see :func:`set_learning_status`), recorded in the
    journal before the file is replaced. The read, the checks, the journal and the rename happen under
    the learnings folder's status lock (:func:`status_lock`), which every writer of these fields takes:
    a writer that read the file before another's change waits, then reads it again. False (nothing
    written, nothing journalled for the file) when a check no longer holds, or when the learning is
    forgotten and ``after`` is not: only undoing the person's forget brings a forgotten learning back.

    An editor takes no lock: a save of the file after it was read is seen just before the rename
    (``atomic_write``'s ``unchanged``); the file is read again, checked again and its fields set on the
    edited text, up to ``WRITE_TRIES`` times, then LhError, the file left as saved. A file that is not
    UTF-8 is refused with LhError (never rewritten: its bytes are the person's)."""
    if not paths.is_within(path, learnings_dir):
        raise LhError(f"learning {path!r} is outside {learnings_dir!r}")
    # why: a file an earlier change of this run tracked keeps its bytes of before the run in the
    # journal; a redo there could not say what undo should put back, so it is not tried
    earlier = any(f.get("path") == path for f in j.data["files"])
    fd = status_lock(learnings_dir)
    try:
        for attempt in range(1 if earlier else WRITE_TRIES):
            done = _set_fields_once(path, after, j, only_from, others_active, redo=bool(attempt))
            if done is not None:
                return done
        if not earlier:
            _untrack(j, path)  # the last try wrote nothing
    finally:
        os.close(fd)
    raise LhError(f"{path}: saved again while lh set its status; left as it is",
                  hint="run the command again once the editor has saved it")


def _set_fields_once(path: str, after: dict, j: journal.Journal, only_from: str | tuple[str, ...] | None,
                     others_active: tuple[str, ...], redo: bool) -> bool | None:
    """One read, check, journal and write of :func:`set_learning_fields`; None when the file was saved
    by someone else between the read and the rename (nothing written). ``redo``: the journal's record
    of the file, from the try before, holds its bytes of before the person's save; it is dropped, or
    undo would write the old body over the edit."""
    if redo:
        _untrack(j, path)
    seen = atomic.file_key(path)  # why before the read: a save after it, even during the read, is seen
    text = _read_learning(path)
    before = fields_of(text, path)
    was = before.get("status") or state.ACTIVE
    wanted = (only_from,) if isinstance(only_from, str) else only_from
    if ((was == state.FORGOTTEN and after.get("status") != state.FORGOTTEN)
            or (wanted is not None and was not in wanted)
            or any(_status_of(other) != state.ACTIVE for other in others_active)):
        return False
    new = with_fields(text, path, after)
    j.track(path)
    j.intend_fields(path, {"before": before, "after": after}, new.encode("utf-8"))
    try:
        atomic_write(path, new, unchanged=seen)
    except atomic.FileChanged:
        return None
    j.record(path)
    return True


def _untrack(j: journal.Journal, path: str) -> None:
    """Drop the journal's record of ``path``, made by a try that wrote nothing to it (saved at once: a
    run stopped now is undone from what the journal says).
    why the journal's own maps: it has no call for a file tracked and then left unchanged, and only
    a file no earlier change of the run tracked comes here (``set_learning_fields``)."""
    j.data["files"] = [f for f in j.data["files"] if f.get("path") != path]
    j._files.pop(path, None)
    j._pending.discard(path)
    j.save()


def _read_learning(path: str) -> str:
    """A learning's text, read as it is (no newline translation): LhError naming the file when it is
    not UTF-8 (an editor saved it in Latin-1); never rewritten then, its bytes are the person's."""
    raw = read_regular(path)  # why: a FIFO in the learning's place held the command in open() for good
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise LhError(f"{path}: not UTF-8 (byte 0x{raw[exc.start]:02x} at offset {exc.start}); left as it is",
                      hint="save it as UTF-8 in the editor, then run the command again") from None


def _status_of(path: str) -> str:
    return fields_of(_read_learning(path), path).get("status") or state.ACTIVE


def status_lock(learnings_dir: str) -> int:
    """Take the learnings folder's status lock (``<learnings>/.status.lock``, 0600, never deleted),
    waiting for its holder; returns the descriptor to close. A dot name outside the month folders:
    no lister of learnings reads it, and sync's ``*.lock`` keeps it on this machine. Never taken twice
    in one process (a second ``flock`` on another descriptor waits for the first forever): only
    :func:`set_learning_fields` takes it, and none of its callers holds it."""
    atomic.ensure_dir(learnings_dir)
    return atomic.lock(os.path.join(learnings_dir, STATUS_LOCK))


def close_handoff_items(memory_dir: str, items: list[tuple[str, str]], who: str, now: float,
                        j: journal.Journal) -> None:
    """Close handoff items (id, reason) through the handoff store, journalled: the close records it
    will append are recorded first (as ``handoff.close_items`` makes them), then written."""
    from lazy_harness import jsonload
    from lazy_harness.memory import handoff

    state_file, rendered = os.path.join(memory_dir, handoff.STATE), os.path.join(memory_dir, files.HANDOFF)
    # why the run's project: handoff.md's header names it (``project=``), as the worker's render does;
    # ``folder_names.handoff_name`` reads the folder's name from there
    meta = {"session_id": who, "task_id": j.run, "project": j.data.get("project") or ""}
    # why before the journal looks: an item added to handoff.md by hand is recorded by the first write
    # after it; inside this run, undoing the run took the person's item out with the close
    handoff.import_hand_edits(memory_dir, meta, now)
    j.track(state_file)
    j.track(rendered)
    state, _ = handoff.load(memory_dir)
    planned = []
    for hid, reason in items:
        item = state.get(hid)
        if item is not None and item.is_open:  # why the same records: close_items makes them so
            when = max(now, item["key"][0] + 0.001)
            planned.append(jsonload.dumps(handoff.record(handoff.CLOSE, item["text"], who, j.run, when,
                                                         reason=reason or None, hid=hid)))
    if planned:
        j.intend_lines(state_file, planned)
    recs = handoff.close_items(memory_dir, items, meta, now)
    j.record(state_file)
    for rec in recs:
        if jsonload.dumps(rec) not in planned:  # the state changed in between: recorded after, as before
            j.record(state_file, appended=jsonload.dumps(rec))
    j.record(rendered)
