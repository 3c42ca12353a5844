"""The same entry edited by hand on two machines: what a round keeps of the other machine's version.

The merge drivers (``sync.drivers``) keep this machine's line or learning in place and note the other
version in a file the round names (``.git/lh-conflicts.jsonl``, never committed). After the merge the
round reads that note and, per conflict, writes a journalled run (kind ``sync-conflict``) in the
memory folder of the entry's project whose "before" is the file with the other version in place:
``lh memory undo <run>`` in that project puts it there (the next round pushes it), ``lh memory
history`` lists it. The round says so once: a line per conflict in its result (``lh sync`` prints
them), in worker.log, and in the sync state ``lh sync --status`` shows (the last ``KEPT`` of them).

Two different learnings added under one file name, one on each machine (``ADDED``): the other
machine's is written to the next free name beside this one's (``-2``, ``-3`` ...), which the round
commits and pushes with the merge; when that cannot be done it is journalled as above.
"""

from __future__ import annotations

import os

from lazy_harness import jsonload, logfile, paths
from lazy_harness.atomic import atomic_write
from lazy_harness.memory import frontmatter, journal

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from lazy_harness.config.typed import Config

SIDE = "lh-conflicts.jsonl"
ENV = "LH_SYNC_CONFLICTS"  # set by the round for git's merge: where a merge driver notes a conflict
KEPT = 20
ADDED = "+added"  # a merge driver's conflict key: two learnings added under one name, one on each machine
_SECOND_UP_TO = 20  # the writer names a second learning of one slug ``-2`` up to ``-20`` (learnings.MAX_SUFFIX)


def side_file(data: str) -> str:
    """Where the drivers of this round's merge note conflicts (inside .git: never committed)."""
    return os.path.join(data, ".git", SIDE)


def keep(data: str, cfg: Config, env: Mapping[str, str] | None, now: float,
         created: list[str] | None = None) -> list[str]:
    """Journal the other version of every conflict the merge noted, or, for a learning the other
    machine added under the name of one added here, write it to the next free name (its path,
    relative to ``data``, is added to ``created``); returns one line per conflict. Never raises: the
    merge is done, and this machine's version is in place either way."""
    side = side_file(data)
    try:
        with open(side, encoding="utf-8", errors="replace") as fh:
            lines = [line for line in fh if line.strip()]
        os.unlink(side)
    except OSError:
        return []
    noted, said = _noted(lines)
    root = paths.memory_root(cfg["memory"]["path"] or None, env)
    for one in noted:
        try:
            said.append(_keep_one(data, root, one, now, created))
        except Exception as exc:  # why: one conflict that cannot be journalled must not hide the others
            said.append(f"{one.get('file')}: edited on both machines; this machine's version kept, the other "
                        f"could not be journalled ({type(exc).__name__}: {exc}); it is in the remote's history")
    for line in said:
        logfile.write(logfile.WORKER, f"sync: {line}", env)
    return said


def _noted(lines: list[str]) -> tuple[list[dict], list[str]]:
    """The conflicts of the side file's lines, and a line for each that cannot be read. why: a driver
    killed mid-write leaves a torn line; the notes beside it are still kept, and the file is removed
    either way (left in place, it would fail every later round the same way)."""
    noted, said = [], []
    for line in dict.fromkeys(lines):  # why: a merge git stopped and the round ran again noted it twice
        one = jsonload.line_object(line)
        if one is not None and isinstance(one.get("file"), str) and "ours" in one and "theirs" in one:
            noted.append(one)
        else:
            said.append(f"a conflict note that cannot be read ({len(line.strip())} characters) was skipped")
    return noted, said


def _keep_one(data: str, root: str, one: dict, now: float, created: list[str] | None = None) -> str:
    path = os.path.join(data, str(one["file"]))
    ours, theirs = str(one["ours"]).encode("utf-8"), str(one["theirs"]).encode("utf-8")
    if one.get("added") and not one.get("id"):
        try:
            second = _second_name(path, theirs)
        except (OSError, ValueError) as exc:  # then journalled below, as a learning edited on both
            logfile.write(logfile.WORKER, f"sync: {path}: no second name for the other machine's learning: {exc}")
        else:
            if created is not None:
                created.append(os.path.relpath(second, data))
            return (f"{path}: two learnings were added under this name, one on each machine; this machine's "
                    f"stays, the other machine's is kept as {second}")
    with open(path, "rb") as fh:
        current = fh.read()
    if one.get("id"):  # a JSONL line: the file with their line in place of ours
        at = current.find(ours)
        if at < 0:
            raise ValueError("this machine's line is no longer in the file")
        before = current[:at] + theirs + current[at + len(ours):]
        mdir, what = os.path.dirname(path), str(one["id"])
    else:  # a learning: their whole file
        before = theirs
        mdir = memory_folder_of(root, path) or _any_folder(root)
        what = "learning " + os.path.basename(path)
    j = journal.Journal(mdir, "sync-conflict", os.path.basename(mdir), now)
    j.track_as(path, before)
    j.note(f"{what} in {path}: edited on both machines; undo puts the other machine's version in place")
    j.save()
    return (f"{path}: {what} was edited on both machines; kept this machine's version, the other one is "
            f"journalled: lh memory undo {j.run} (in that project) puts it in place")


def _second_name(path: str, text: bytes) -> str:
    """Write ``text`` at the first free name after ``path``'s (``<slug>-2.md``, ``-3`` ...; a ``-n`` the
    writer gave it already is counted on from) in its folder; returns that path."""
    folder, name = os.path.split(path)
    stem = name[:-3] if name.endswith(".md") else name
    head, _, n = stem.rpartition("-")
    if head and n.isdigit() and 2 <= int(n) <= _SECOND_UP_TO:
        stem = head
    for k in range(2, 1000):
        candidate = os.path.join(folder, f"{stem}-{k}.md")
        if not os.path.lexists(candidate) and atomic_write(candidate, text, exclusive=True):
            return candidate
    raise ValueError(f"every name from {stem}-2.md to {stem}-999.md is taken")


def memory_folder_of(root: str, learning: str) -> str | None:
    """The project memory folder under ``root`` a learning's ``project_folder`` names, or None: a
    pulled file's field is text anyone with the remote could have written, so only the plain name of
    a folder that is there counts (``../..`` or ``a/b`` name none)."""
    key = frontmatter.read_frontmatter_values(learning, ("project_folder",)).get("project_folder")
    if not isinstance(key, str) or not key or key in (".", "..") or "/" in key or os.sep in key or "\0" in key:
        return None
    folder = os.path.join(root, key)
    return folder if os.path.isdir(folder) and not os.path.islink(folder) else None


def _any_folder(root: str) -> str:
    folders = sorted(n for n in os.listdir(root) if os.path.isdir(os.path.join(root, n))) if os.path.isdir(root) else []
    if not folders:
        raise ValueError("no project memory folder to journal it in")
    return os.path.join(root, folders[0])
