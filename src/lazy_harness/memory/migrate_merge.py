"""One old file brought into a memory folder, for ``memory.migrate`` (which holds the folder's lock):
a JSONL file merged entry by entry (:func:`merge_jsonl`), handoff.md copied or merged item by item
(:func:`move_handoff`); each then removed, unless kept for the machines and projects that still read
it. A run cut by a SIGKILL and run again adds nothing twice.

Imported only when there is something to move: not on a hook's path when there is nothing to do.
"""

from __future__ import annotations

import os


def merge_jsonl(src: str, dst: str, keep: bool = False) -> str:
    """Append to ``dst`` each entry of ``src`` it does not hold yet (by normalised summary, else the
    same line), then remove ``src`` unless ``keep``. A log line."""
    import json

    from lazy_harness.atomic import append_line
    from lazy_harness.memory import entries
    from lazy_harness.memory.sanitize import normalise

    with open(src, "rb") as fh:
        raw = fh.read().removeprefix(b"\xef\xbb\xbf")  # a byte order mark is not part of line 1
    records, torn = [], 0
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
        records.append((normalise(summary) if isinstance(summary, str) else None, line))
    have = entries.recorded(dst, {k for k, _ in records if k is not None})
    lines_there: set[str] | None = None
    entries.heal_tail(dst)
    added = 0
    for k, line in records:
        if k is not None:
            if k in have:
                continue
            have.add(k)
        else:  # an entry without a summary (edited by hand): the same line is the same entry
            if lines_there is None:
                lines_there = _lines(dst)
            if line in lines_there:
                continue
            lines_there.add(line)
        append_line(dst, line)
        added += 1
    if not keep:
        os.unlink(src)
    skipped = f", {torn} unreadable line(s) skipped" if torn else ""
    left = ", copied: left for the machines and projects that still read it" if keep else ""
    return f"migrate: {src} -> {dst}: {added} of {len(records)} entries added{skipped}{left}"


def _lines(path: str) -> set[str]:
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            return {ln.strip() for ln in fh}
    except FileNotFoundError:
        return set()


def _read(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            return fh.read()
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

    handoff.merge_markdown(memory_dir, text, now, src, locked=True)  # migrate() holds the folder lock
    _remove_unless(src, keep)
    return f"migrate: {src} merged into {memory_dir}"


def _remove_unless(path: str, keep: bool) -> None:
    if not keep:
        os.unlink(path)
