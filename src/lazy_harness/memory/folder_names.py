"""The name of the project whose memory a folder is, seen from another project: one rule for every
reader that names one (the page's project list, ``lh memory search --all-projects``'s open items),
so a person sees one project under one name. why: search once named a folder by its handoff.md
marker first, the page by its newest decision: a renamed project read as two.
"""

from __future__ import annotations

import os

from lazy_harness import jsonload
from lazy_harness.memory import aliases, files, frontmatter, handoff_markdown, lines

# why: not ``from typing import TYPE_CHECKING``: memory never imports ``typing`` at run time
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

TAIL_BYTES = 16384  # of the decisions and failures files, read from their end for the newest name


def name_of(memory_dir: str, origins: Callable[[], dict[str, str]]) -> str:
    """The name ``lh memory show`` gives the project of a memory folder seen from another folder: the
    one its newest decision or failure was written under; else the origin of a learning written under
    one of its keys (its own, then those ``aliases.jsonl`` names: the keys whose learnings ``show``
    lists as its own, ``aliases.owned``), else its handoff.md's; its key when nothing names it.
    ``origins``: :func:`origins_by_key` of the learnings folder, called only when a folder needs it
    (the caller keeps it for every folder it names). why: a learning without a key is the project's
    by that name: named by its key, the page lost them."""
    found = name_in(memory_dir)
    if found:
        return found
    own = os.path.basename(memory_dir.rstrip(os.sep))
    keys = aliases.owned(memory_dir).keys
    for key in [own, *sorted(keys - {own})]:
        if key in origins():
            return origins()[key]
    return handoff_name(memory_dir) or own


def name_in(memory_dir: str) -> str | None:
    """The project name the newest decision or failure was written under, if any (of the lines in the
    last ``TAIL_BYTES`` of each file)."""
    for name in (files.DECISIONS, files.FAILURES):
        try:  # why open_regular: a FIFO in its place held lh memory usage --all-projects and lh ui for good
            with open(lines.open_regular(os.path.join(memory_dir, name))[0], "rb") as fh:
                end = fh.seek(0, os.SEEK_END)
                fh.seek(max(0, end - TAIL_BYTES))
                rows = fh.read().split(b"\n")
        except OSError:
            continue
        for line in reversed(rows if end <= TAIL_BYTES else rows[1:]):  # a cut first line is dropped
            rec = jsonload.line_object(line)  # None: not an object, or nested past the stack (a synced line)
            if rec is not None and isinstance(rec.get("project"), str) and rec["project"].strip():
                return str(rec["project"]).strip()
    return None


def learning_keys(path: str) -> dict:
    """The ``project_folder`` and ``origin`` of a learning file (a 4 KB read, no YAML parser)."""
    return frontmatter.read_frontmatter_values(path, ("project_folder", "origin"))


def origins_by_key(learnings_dir: str, head: Callable[[str], dict | None] = learning_keys) -> dict[str, str]:
    """``{memory key: the origin of the newest learning written under it}`` (their ``project_folder``).
    ``head``: how a learning file's frontmatter is read (the page's keeps each while its file is
    unchanged)."""
    out: dict[str, str] = {}
    for path in files.recent_learning_files(learnings_dir, 10**9):  # newest first: the first seen wins
        got = head(path)
        key, origin = (got.get("project_folder"), got.get("origin")) if got else (None, None)
        if isinstance(key, str) and key and isinstance(origin, str) and origin.strip():
            out.setdefault(key, origin.strip())
    return out


def handoff_name(memory_dir: str) -> str | None:
    """The project named in the marker of the folder's handoff.md, if any."""
    try:
        fd, _ = lines.open_regular(os.path.join(memory_dir, files.HANDOFF))  # why: as name_in, never a FIFO's wait
        with open(fd, encoding="utf-8", errors="replace") as fh:
            text = fh.read(65536)  # the marker is its second line
    except OSError:
        return None
    name = str(handoff_markdown.parse_markdown(text)[0].get("project") or "").strip()
    return name or None
