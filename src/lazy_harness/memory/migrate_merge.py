"""One old file brought into a memory folder, for ``memory.migrate`` (which holds the folder's lock):
a JSONL file merged entry by entry (:func:`merge_jsonl`), handoff.md copied or merged item by item
(:func:`move_handoff`); each then removed, unless kept for the machines and projects that still read
it. A run cut by a SIGKILL and run again adds nothing twice.

Imported only when there is something to move: not on a hook's path when there is nothing to do.
"""

from __future__ import annotations

import os

from lazy_harness.regular_file import read_regular

# why: not ``from typing import TYPE_CHECKING``: memory never imports ``typing`` at run time (the hooks
# load its read side: house style section 3)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable


def merge_jsonl(src: str, dst: str, keep: bool = False) -> str:
    """Append to ``dst`` each entry of ``src`` it does not hold yet (by normalised summary, else the
    same line), then remove ``src`` unless ``keep``. A log line. Into a handoff.jsonl, an ``open`` of an
    item ``dst`` closed later than that open was made is left out (:func:`_outranked_open`)."""
    import json

    from lazy_harness.atomic import append_line
    from lazy_harness.memory import entries
    from lazy_harness.memory.sanitize import normalise

    raw = read_regular(src).removeprefix(b"\xef\xbb\xbf")  # a byte order mark is not part of line 1
    records, torn, stale = [], 0, 0
    outranked = _outranked_open(dst)
    for chunk in raw.split(b"\n"):
        line = chunk.decode("utf-8", "replace").strip()
        if not line:
            continue
        try:
            rec = json.loads(line)
        except (ValueError, RecursionError):
            torn += 1
            continue
        if not isinstance(rec, dict):
            torn += 1
            continue
        summary = rec.get("summary")
        records.append((normalise(summary) if isinstance(summary, str) else None, line, rec))
    have = entries.recorded(dst, {k for k, _, _ in records if k is not None})
    lines_there: set[str] | None = None
    entries.heal_tail(dst)
    added = 0
    for k, line, rec in records:
        if k is not None:
            if k in have:
                continue
            have.add(k)
        else:  # an entry without a summary (edited by hand, a handoff record): the same line is the same entry
            if lines_there is None:
                lines_there = _lines(dst)
            if line in lines_there:
                continue
            if outranked is not None and outranked(rec):
                stale += 1
                continue
            lines_there.add(line)
        append_line(dst, line)
        added += 1
    if not keep:
        os.unlink(src)
    skipped = f", {torn} unreadable line(s) skipped" if torn else ""
    skipped += f", {stale} open(s) older than the item's close here left out" if stale else ""
    return _said(src, dst, added, len(records), keep) + skipped


def _said(src: str, dst: str, added: int, found: int, keep: bool) -> str:
    """What a merge did, in words: "0 of 0 entries added" said nothing of the file (it held no entry) nor
    of what became of it."""
    left = ": left for the machines and projects that still read it" if keep else ": removed"
    if not found:
        return f"migrate: {src}: no entries in it{left}"
    if not added:
        held = "its 1 entry is" if found == 1 else f"all its {found} entries are"
        return f"migrate: {src}: {held} held here already{left}"
    left = ", copied: left for the machines and projects that still read it" if keep else ""
    return f"migrate: {src} -> {dst}: {added} of {found} entries added{left}"


def _outranked_open(dst: str) -> Callable[[dict], bool] | None:
    """For a handoff.jsonl ``dst``: whether a record is an ``open`` of an item ``dst`` closed later than
    that open was made (the fold's order, memory/handoff_log.py: the close outranks it); None for other
    files. why: such an open changes nothing here, yet it was appended at every merge of the old folder
    (another machine wrote it there again); an open made after the close is a reopen and is added."""
    from lazy_harness.memory import handoff_log

    if os.path.basename(dst) != handoff_log.STATE:
        return None
    state = handoff_log.fold(handoff_log.read_records(os.path.dirname(dst)) or [])

    def outranked(rec: dict) -> bool:
        hid = rec.get("id")
        known = state.get(hid) if isinstance(hid, str) else None
        if known is None or known.is_open or rec.get("op") != handoff_log.OPEN or not isinstance(rec.get("text"), str):
            return False
        return handoff_log.epoch(rec.get("ts")) is not None and not handoff_log.wins(rec, known)

    return outranked


def _lines(path: str) -> set[str]:
    try:  # why read_regular: a FIFO in the file's place would hold the move in open(); it is named now
        return {ln.strip() for ln in read_regular(path).decode("utf-8", "replace").splitlines()}
    except FileNotFoundError:
        return set()


def _read(path: str) -> str | None:
    try:  # why read_regular: a FIFO in the file's place would hold the move in open(); it is named now
        return read_regular(path).decode("utf-8", "replace")
    except FileNotFoundError:
        return None


def move_handoff(src: str, memory_dir: str, now: float, keep: bool = False) -> str:
    """Bring ``src`` (a handoff.md) into ``memory_dir``, under its name: copied when the project has
    none, else merged item by item; then removed unless ``keep``. A log line."""
    from lazy_harness.atomic import atomic_write

    text = _read(src)
    if text is None:
        return f"migrate: {src} already gone"
    dst = os.path.join(memory_dir, os.path.basename(src))
    current = _read(dst)
    has_state = os.path.exists(os.path.join(memory_dir, "handoff.jsonl"))
    if current is None and not has_state:
        atomic_write(dst, text)
        _remove_unless(src, keep)
        return f"migrate: {src} -> {dst}"
    if current == text:  # a run cut between the copy and the removal
        _remove_unless(src, keep)
        return f"migrate: {src} -> {dst} (copied before)"
    from lazy_harness.memory import handoff

    try:
        saved: float | None = os.stat(src).st_mtime
    except OSError:
        saved = None
    handoff.merge_markdown(memory_dir, text, now, src, locked=True, saved=saved)  # migrate() holds the folder lock
    _remove_unless(src, keep)
    return f"migrate: {src} merged into {memory_dir}"


def _remove_unless(path: str, keep: bool) -> None:
    if not keep:
        os.unlink(path)
