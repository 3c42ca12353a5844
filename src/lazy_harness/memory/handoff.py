"""Handoff items: the open work a session leaves for the next ones, kept as an append-only log.

    <memory dir>/handoff.jsonl   the state: one record per change, never rewritten
        {"op": "open"|"close", "id": "h-1a2b3c4d", "text", "session_id", "task_id", "ts", "reason"?, "agent"?}
    <memory dir>/handoff.md      the open items rendered from that state after every change

Folding the records gives the items. For each id the record with the greatest ``(ts, op)`` wins,
a close beating an open at the same time; further ties go by session, task and text, so the fold
is a function of the set of records and never of their order (two machines' lines concatenated in
any order give one state). ``ts`` is the session's time (its transcript's mtime), not the time of
processing: an older session processed late cannot reopen what a newer session closed.

An item's id is ``ids.handoff_id`` of its normalised text, so a restated item is the same item.
Its opened time and session are those of the first open after its last close.

handoff.md may be edited by hand; ``memory.handoff_markdown`` parses and renders it, turns a hand
edit (or a handoff.md with no state file beside it) into records and tells damage from an edit.
Readers apply those records in memory (``load``); writers append them first (a session's answer:
``memory.handoff_answer``; ``merge_markdown``). A damaged handoff.md is no edit: readers take the
log alone, and the next writer keeps a copy and renders it again. A writer that finds handoff.md
behind the log (a writer killed between the append and the render) renders it again even when it
appends nothing, unless the file holds a hand edit saved since it read it. Every render reads
handoff.md once more and, just before its rename, checks the file is still the one it read: a hand
edit saved in between is appended and the render done again, never written over
(``write_markdown``). The records and the fold live in ``memory.handoff_log``; their names are
re-exported here.

Hot path: the SessionStart read-back calls ``load``, so this module imports only ``os`` and our
hot-path modules; ``jsonload`` encodes the records.
"""

from __future__ import annotations

import os

from lazy_harness import jsonload
from lazy_harness.atomic import FileChanged, append_line, atomic_write, file_key
from lazy_harness.memory import files
from lazy_harness.memory.lines import read_regular  # why: a FIFO in the cache's place must not hold a start
from lazy_harness.memory.handoff_log import (  # noqa: F401 - the log's names are this module's API too
    CLOSE, DAY, OPEN, STALE_DAYS, STATE, Item, wins, age_days, by_whom, changes, why_closed, closed_items, epoch, fold,
    id_for, is_stale, items, open_items, parse, read_records, record, reworded_as, split_ref, stamp)
from lazy_harness.memory.sanitize import normalise

# why: not ``from typing import TYPE_CHECKING``: memory never imports ``typing`` at run time (the hooks
# load its read side: house style section 3)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from types import ModuleType

    # What a writer read of handoff.md: the file's ``file_key`` (taken before the read) and the text with
    # its mtime (None: missing, empty or too large). The render checks the file against it (write_markdown).
    Seen = tuple[tuple[int, int, int], tuple[str, float] | None]


def _md() -> ModuleType:
    """handoff.md's parser and renderer (memory/handoff_markdown.py). why loaded on first use: the writers
    and a hand edit's import need it; SessionStart, which reads the open items from their cache while
    handoff.md and the log are as the last render left them, does not (0.1 to 0.4 ms of every start)."""
    from lazy_harness.memory import handoff_markdown

    return handoff_markdown


def behind(memory_dir: str, state: dict[str, Item]) -> bool:
    """:func:`lazy_harness.memory.handoff_markdown.behind`."""
    return _md().behind(memory_dir, state)


def _held_reasons(memory_dir: str, opened: list[Item]) -> dict[str, str]:
    from lazy_harness.memory.handoff_held import held_reasons

    return held_reasons(memory_dir, opened)


def load(memory_dir: str) -> tuple[dict[str, Item], list[dict]]:
    """The items as a reader should see them, with unsynced hand edits (or a legacy handoff.md) applied
    in memory; and those pending records, which a writer appends with ``sync``."""
    return _loaded(memory_dir, _md().read_markdown(memory_dir))


def _loaded(memory_dir: str, md: tuple[str, float] | None) -> tuple[dict[str, Item], list[dict]]:
    records = read_records(memory_dir)
    state = fold(records or [])
    if md is None:
        return state, []
    pending = _md().markdown_records(state, md[0], md[1], bool(records), memory_dir=memory_dir)
    if pending:
        state = fold((records or []) + pending)
    return state, pending


def _look(memory_dir: str) -> Seen:
    # why the key before the read: a save after it, even one during the read, changes the key
    return file_key(os.path.join(memory_dir, files.HANDOFF)), _md().read_markdown(memory_dir)


def load_for_writing(memory_dir: str) -> tuple[dict[str, Item], list[dict], Seen]:
    """:func:`load` for a writer (it holds the folder's lock): also what it read of handoff.md, to give
    :func:`write_markdown`, so a hand edit saved after this read is not written over."""
    seen = _look(memory_dir)
    return (*_loaded(memory_dir, seen[1]), seen)


def _saved_since(memory_dir: str, seen: Seen, now: Seen, records: list[dict]) -> list[dict]:
    """The records of a hand edit saved since ``seen`` was read (handoff.md is now ``now``): what the file
    says against the log, less what the file as read said. why less: the writer appended its own
    records since (a close of an item the person had added), and the file as read, taken again against
    them, would undo them (reopen the item)."""
    if now[1] is None:
        return []  # emptied (an editor saving in place) or removed: nothing to import (see read_markdown)
    state = fold(records)
    recs = _md().markdown_records(state, now[1][0], now[1][1], bool(records), memory_dir=memory_dir)
    if seen[1] is None or not recs:
        return recs
    stale = {(r["op"], r["id"]) for r in _md().markdown_records(state, seen[1][0], seen[1][1], bool(records),
                                                          memory_dir=memory_dir)}
    return [r for r in recs if (r["op"], r["id"]) not in stale]


# --- writing (callers hold the memory folder's lock) --------------------------------------------------

def append(memory_dir: str, recs: list[dict]) -> None:
    if not recs:
        return
    from lazy_harness.memory import entries

    path = os.path.join(memory_dir, STATE)
    entries.heal_tail(path)
    for rec in recs:
        append_line(path, jsonload.dumps(rec))


RENDER_TRIES = 3


def write_markdown(memory_dir: str, meta: dict, now: float, stale_days: float | None = None,
                   before_write: Callable[[bytes], None] | None = None, seen: Seen | None = None) -> list[dict]:
    """Render handoff.md from the log; ``before_write`` is told the bytes first (a persist's record).
    ``stale_days``: ``[handoff] stale_days``; None (a writer without the config: a command, sync,
    a migration) takes what the last render was given, kept beside the open items. why: each of those
    otherwise marked items stale after the built-in 14 days, whatever the person had set.

    ``seen``: what the caller read of handoff.md (:func:`load_for_writing`; None: the file as it is now).
    The folder lock does not hold an editor back: a hand edit saved since that read is appended first,
    and one saved during the render is seen at the rename (``atomic_write``'s ``unchanged``); then the
    file is read again, its edit appended and the render done again, up to ``RENDER_TRIES`` times. After
    that handoff.md is left as the person saved it (its items are in the log, the next writer renders
    it) and the log says so. Returns the hand edit's records appended."""
    if stale_days is None:
        stale_days = _last_stale_days(memory_dir)
    if not meta.get("project"):  # why: approve, undo, sync and migrate know no project; the header kept it
        meta = dict(meta, project=_last_project(memory_dir))
    md = os.path.join(memory_dir, files.HANDOFF)
    seen = _look(memory_dir) if seen is None else seen
    appended: list[dict] = []
    for _ in range(RENDER_TRIES):
        records = read_records(memory_dir) or []
        current = _look(memory_dir)
        if current[0] != seen[0]:
            late = _saved_since(memory_dir, seen, current, records)
            append(memory_dir, late)
            appended, records = appended + late, records + late
        state = fold(records)
        text = _md().render(state, meta, now, stale_days, _held_reasons(memory_dir, open_items(state)))
        if before_write is not None:
            before_write(text.encode("utf-8"))
        if current[1] is None:
            _md().set_aside(memory_dir, current[0], now)
        try:
            atomic_write(md, text, unchanged=current[0])
        except FileChanged:
            seen = current
            continue
        _save_open_cache(memory_dir, open_items(state), stale_days)
        return appended
    from lazy_harness import logfile

    logfile.write(logfile.WORKER, f"handoff: {md} changed at each of {RENDER_TRIES} renders; left as saved, "
                  f"its items are in {STATE} and the next writer renders it")
    return appended


# --- the read-back's shortcut: open items cached beside the log ---------------------------------------
# why: SessionStart needs only the open items, but folding the whole log costs time in proportion to
# its length (about 10 ms per 1,000 records). Every writer renders handoff.md after a change and then
# stores the open items with the sizes and mtimes of handoff.jsonl and handoff.md; a reader whose
# stamp still matches takes them from there. Any other change (a hand edit, a sync, a crash between
# the two writes) changes a stamp and the reader folds the log as before. Machine-local, never synced.
OPEN_CACHE = files.HANDOFF_OPEN_CACHE


def _stamp(memory_dir: str) -> list[int]:
    out = []
    for name in (STATE, files.HANDOFF):
        try:
            st = os.stat(os.path.join(memory_dir, name))
            out += [st.st_size, st.st_mtime_ns]
        except OSError:
            out += [-1, -1]
    return out


def _save_open_cache(memory_dir: str, opened: list[Item], stale_days: float = STALE_DAYS) -> None:
    try:
        atomic_write(os.path.join(memory_dir, OPEN_CACHE),
                     jsonload.dumps({"stamp": _stamp(memory_dir), "open": [dict(i) for i in opened],
                                     "stale_days": stale_days}))
    except (OSError, TypeError, ValueError):
        pass  # only a shortcut: readers fold the log without it


def _last_stale_days(memory_dir: str) -> float:
    """The ``stale_days`` the last render of this folder was given (the built-in one when unknown)."""
    try:
        value = jsonload.loads(read_regular(os.path.join(memory_dir, OPEN_CACHE))).get("stale_days")
    except (OSError, ValueError, TypeError, AttributeError):
        return STALE_DAYS
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and 0 < value < 1e6
    return float(value) if ok else STALE_DAYS


def _last_project(memory_dir: str) -> str:
    """The project handoff.md's header names (its last render's); empty when none does."""
    md = _md().read_markdown(memory_dir)
    return str(_md().parse_markdown(md[0])[0].get("project") or "") if md is not None else ""


def _current_cache(memory_dir: str) -> dict | None:
    """The open items' cache when its stamp still matches: neither handoff.md nor the log changed
    since the last render."""
    try:
        cached = jsonload.loads(read_regular(os.path.join(memory_dir, OPEN_CACHE)))
    except (OSError, ValueError):
        return None
    return cached if isinstance(cached, dict) and cached.get("stamp") == _stamp(memory_dir) else None


def open_for_reading(memory_dir: str) -> list[Item]:
    """The open items, oldest first, as :func:`load` would give them; from the cache when it is current."""
    cached = _current_cache(memory_dir)
    if cached is not None:
        try:
            return [Item(i) for i in cached["open"]]
        except (TypeError, KeyError):
            pass
    return open_items(load(memory_dir)[0])


FORGOTTEN_BY = "forget"  # the session field of the close ``lh memory forget`` appends (memory/by_hand.py)


def forgotten_items(state: dict[str, Item]) -> list[Item]:
    """The items ``lh memory forget`` closed and nothing opened again since, most recently closed
    first; an item closed as done (by a session, consolidation, ``lh memory close``) is not one."""
    return [i for i in closed_items(state) if i.get("closed_by") == FORGOTTEN_BY]


def merge_markdown(memory_dir: str, text: str, now: float, source: str, locked: bool = False,
                   saved: float | None = None) -> int:
    """Open every item listed in a handoff.md ``text`` that is not already known-open, as session ``source``
    at ``now``; re-render handoff.md. Returns how many items were opened. Takes the folder's lock unless
    the caller holds it already (``locked``: a second flock of the folder in one process would wait forever).
    Never reopened: an item a line names by its id with its text (a render's line: the log it was
    rendered from says whether the item is open, and a merge brings that log), nor one closed here
    after ``saved`` (when the file was last saved). why: a handoff.md of a folder merged before, rendered
    again from what the other machine still had, reopened the project's closed items at each merge."""
    from contextlib import nullcontext

    from lazy_harness.atomic import ensure_dir

    ensure_dir(memory_dir)
    with nullcontext() if locked else files.FolderLock(memory_dir):
        _recover(memory_dir)
        state, pending, seen = load_for_writing(memory_dir)
        if pending:
            append(memory_dir, pending)
            state = fold(read_records(memory_dir) or [])
        recs: list[dict] = []
        for _, hid, body, ticked in _md().parse_markdown(text, state)[1]:
            item = state.get(hid) if hid else None
            if ticked or (item is not None and (item.is_open or normalise(body) in ("", normalise(item["text"])))):
                continue
            if not normalise(body):
                continue
            hid = id_for(state, body, recs)
            known = state.get(hid)
            if (known is not None and known.is_open) or hid in {r["id"] for r in recs}:
                continue
            if known is not None and saved is not None and known["key"][0] >= saved:
                continue
            rec = record(OPEN, body, source, "", now, hid=hid)
            if wins(rec, known):
                recs.append(rec)
        if recs or pending or behind(memory_dir, state):
            append(memory_dir, recs)
            write_markdown(memory_dir, {"session_id": source, "task_id": ""}, now, seen=seen)
        return len(recs)


def _recover(memory_dir: str) -> None:
    """A persist a killed worker left unfinished is rolled back before anything is appended after it."""
    from lazy_harness.memory import intent

    intent.recover(memory_dir)


def import_hand_edits(memory_dir: str, meta: dict, now: float, stale_days: float | None = None,
                      render: bool = False, if_behind: bool = False, locked: bool = False) -> list[dict]:
    """Record a hand edit of handoff.md (or a handoff.md written before its log) in the log, under the
    folder's lock, and render it again; the records appended. A command's journalled run calls it
    first: the person's earlier edit is not part of that run, and its undo must not take it out; an
    undo calls it first too, so an edit saved since the run it undoes is kept (``memory.by_hand``).
    ``render``: render even without an edit (after a merge changed handoff.jsonl: sync). why not a
    bare render there: it wrote over the person's edit, and an item they deleted came back.
    ``if_behind``: render when handoff.md is behind its log (a writer killed between its append and
    its render), as a command does before it reads the items it changes. ``locked``: the caller holds
    the folder's lock already (an undo: a second flock of the folder in one process would wait forever)."""
    from contextlib import nullcontext

    from lazy_harness.atomic import ensure_dir

    ensure_dir(memory_dir)
    with nullcontext() if locked else files.FolderLock(memory_dir):
        _recover(memory_dir)
        state, pending, seen = load_for_writing(memory_dir)
        if pending:
            append(memory_dir, pending)
        if pending or render or (if_behind and behind(memory_dir, state)):
            pending += write_markdown(memory_dir, meta, now, stale_days, seen=seen)
        return pending


def drop_unlogged(memory_dir: str) -> bool:
    """Whether ``memory_dir`` has no handoff.jsonl (a merge removed it: another machine moved the
    project's memory); then its handoff.md and open items' cache are removed under the folder's lock,
    nothing imported. why: read without its log, handoff.md was imported as a new log, which went back
    to the machine that moved it and was merged into the new folder again, after the items' close."""
    if not os.path.isdir(memory_dir):
        return True
    with files.FolderLock(memory_dir):
        if os.path.lexists(os.path.join(memory_dir, STATE)):
            return False
        for name in (files.HANDOFF, OPEN_CACHE):
            try:
                os.unlink(os.path.join(memory_dir, name))
            except FileNotFoundError:
                pass
    return True


def after_undo(memory_dir: str, meta: dict, now: float, stale_days: float | None = None) -> None:
    """handoff.md after an undo put handoff.jsonl back (the caller holds the folder's lock and recorded
    any hand edit first, :func:`import_hand_edits`): kept as it is when the log renders to it, as the
    render that wrote it did (its header's session, task, project and time), which the bytes of before
    the run do once the undo wrote them back; else rendered again from the log. why not always
    rendered: the undo gives a file still as the run left it its previous bytes back, and a render
    wrote a header of its own over them (the undo's session and time)."""
    if stale_days is None:
        stale_days = _last_stale_days(memory_dir)
    state = fold(read_records(memory_dir) or [])
    md = _md().read_markdown(memory_dir)
    if md is not None and md[0] == _as_rendered(memory_dir, state, md[0], stale_days):
        _save_open_cache(memory_dir, open_items(state), stale_days)
        return
    write_markdown(memory_dir, meta, now, stale_days)


def _as_rendered(memory_dir: str, state: dict[str, Item], text: str, stale_days: float) -> str | None:
    """``state`` rendered as the render that wrote handoff.md ``text`` was (its items held as they are
    now); None without its header."""
    marker = _md().parse_markdown(text)[0]
    written = files.iso_epoch(marker.get("written"))
    if written is None:
        return None
    meta = {"session_id": marker.get("session"), "task_id": marker.get("task"), "project": marker.get("project")}
    return _md().render(state, meta, written, stale_days, _held_reasons(memory_dir, open_items(state)))


def edited_since_render(memory_dir: str) -> bool:
    """Whether a folder's handoff.md may hold an edit not in its log: it exists and the open items'
    cache no longer matches it (the stamp every render writes)."""
    return os.path.isfile(os.path.join(memory_dir, files.HANDOFF)) and _current_cache(memory_dir) is None


def close_items(memory_dir: str, closing: list[tuple[str, str]], meta: dict, now: float,
                stale_days: float | None = None) -> list[dict]:
    """Close open items given as (id, reason), by ``meta``'s session at ``now`` (consolidation, or the
    person with ``lh memory close``); ids that are not open are left. Takes the folder's lock and
    re-renders handoff.md. Returns the records appended."""
    from lazy_harness.atomic import ensure_dir

    ensure_dir(memory_dir)
    with files.FolderLock(memory_dir):
        _recover(memory_dir)
        state, pending, seen = load_for_writing(memory_dir)
        recs = []
        for hid, reason in closing:
            item = state.get(hid)
            if item is None or not item.is_open:
                continue
            # why: a close must outrank the item's latest open, even with a clock behind it
            when = max(now, item["key"][0] + 0.001)
            recs.append(record(CLOSE, item["text"], meta.get("session_id"), meta.get("task_id"), when,
                               reason=reason or None, hid=hid))
        if recs or pending or behind(memory_dir, state):
            append(memory_dir, pending + recs)
            write_markdown(memory_dir, meta, now, stale_days, seen=seen)
        return recs
