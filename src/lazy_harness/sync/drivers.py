"""What ``python -m lazy_harness.sync`` runs: the merge drivers git calls (``merge-lines`` for
``*.jsonl``, ``merge-learning`` for ``*.md``, registered by :func:`~lazy_harness.sync.repo_setup.ensure_repo`
as ``<python> -m lazy_harness.sync merge-lines %O %A %B``) and the pull SessionStart spawns
(``pull``). Users' git config holds those commands, so their arguments and exit codes are an interface; a
file's content never makes a driver fail (``_merged``)."""

from __future__ import annotations

import json
import os
import sys

from lazy_harness import jsonload, logfile
from lazy_harness.atomic import write_all
from lazy_harness.regular_file import append_regular, read_regular
from lazy_harness.errors import LhError
from lazy_harness.sync.conflicts import ADDED, ENV, MERGED, THEIRS, line_records
from lazy_harness.sync.rounds import run

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable


def _entry_of(line: bytes) -> tuple[str, str, bool] | None:
    """A decision or failure line's id (derived for old lines), its summary normalised as the readers
    normalise it (``files.without_copies``) and whether it was salvaged; None for any other line (a
    marker, a usage or handoff record, a line that is not a JSON object and that the readers do not
    salvage into one entry, nested past the stack included: ``jsonload.line_object``). A damaged line
    (a quote lost in a hand edit) is the entry the readers salvage from it (``conflicts.line_records``),
    under its id, so an edit of that entry on the other machine meets it."""
    rec = jsonload.line_object(line)
    salvaged = rec is None
    if salvaged:
        found = line_records(line)
        rec = found[0] if len(found) == 1 else None
    summary = rec.get("summary") if rec is not None else None
    if rec is None or "op" in rec or not isinstance(summary, str) or rec.get("type") not in ("decision", "failure"):
        return None
    from lazy_harness.memory import ids
    from lazy_harness.memory.sanitize import normalise

    return ids.of_record(rec), normalise(summary), salvaged


def _entries(sides: tuple[list[bytes], ...]) -> dict[bytes, tuple[str, str] | None]:
    """:func:`_entry_of` of every line of the sides (by its stripped bytes), less each salvaged line
    whose id a whole line of a side that holds it has. why: a write cut short leaves a torn line the
    retry's whole line follows (``lines.without_salvaged_twins``); keyed by its id, it would make the
    side hold two lines of one entry, and the whole line would no longer meet an edit of it."""
    found = {ln.strip(): _entry_of(ln) for side in sides for ln in side}
    twins: set[bytes] = set()
    for side in sides:
        stripped = [ln.strip() for ln in side]
        whole = {e[0] for ln in stripped if (e := found[ln]) is not None and not e[2]}
        twins.update(ln for ln in stripped if (e := found[ln]) is not None and e[2] and e[0] in whole)
    return {ln: None if e is None or ln in twins else (e[0], e[1]) for ln, e in found.items()}


def _line_keys(sides: tuple[list[bytes], ...]) -> tuple[dict[bytes, tuple], dict[bytes, str]]:
    """The merge key of every line of the three sides (by its stripped bytes), and the entry id of
    each decision or failure line.

    An entry's key is its id, so the same entry on two machines is one line and an edit of it meets
    the other side's line. Where a side holds one id with two summaries (a line copied by hand and
    reworded, its ``id`` kept), the readers show two entries: the key is then the id and the
    summary. Where a side holds two different lines of one such key (a copy with another rationale:
    the readers show the last), the key is the line itself. A damaged line the readers salvage is the
    entry they salvage it as (:func:`_entries`). Any other line is its own key."""
    entry = _entries(sides)

    def several(key_of: Callable[[bytes, tuple[str, str]], object], value_of: Callable) -> set:
        found = set()
        for side in sides:
            first: dict = {}
            for ln in side:
                e = entry[ln.strip()]
                if e is not None and first.setdefault(key_of(ln, e), value_of(ln, e)) != value_of(ln, e):
                    found.add(key_of(ln, e))
        return found

    split = several(lambda ln, e: e[0], lambda ln, e: e[1])  # ids a side holds with two summaries

    def group(e: tuple[str, str]) -> tuple:
        return ("entry", *e) if e[0] in split else ("id", e[0])

    by_line = several(lambda ln, e: group(e), lambda ln, e: ln.strip())
    keys: dict[bytes, tuple] = {}
    for line, e in entry.items():
        keys[line] = ("line", line) if e is None or group(e) in by_line else group(e)
    return keys, {line: e[0] for line, e in entry.items() if e is not None}


def merge_lines(base: bytes, ours: bytes, theirs: bytes, conflicts: list | None = None) -> bytes:
    """Ours in order, then theirs not in ours; a line that one side removed since the base stays out,
    unless the other side changed it (then the change is kept, as git keeps a file removed on one
    side and changed on the other).

    An entry both sides hold under one id with different lines: the side that changed it since the
    base wins (an edit on one machine only is taken); when both changed it (edited by hand on both),
    ours stays and ``(id, our line, their line)`` is added to ``conflicts``, for the round to keep.
    Lines are matched by :func:`_line_keys`: two lines the readers show as two entries are two lines
    here, even under one id; identical lines are one; a damaged line is the entry the readers salvage.
    """
    def lines(data: bytes) -> list[bytes]:
        return [ln for ln in data.split(b"\n") if ln.strip()]

    def first(side: list[bytes]) -> dict[tuple, bytes]:
        out: dict[tuple, bytes] = {}
        for ln in side:
            out.setdefault(keys[ln.strip()], ln)
        return out

    base_lines, our_lines, their_lines = lines(base), lines(ours), lines(theirs)
    keys, eid = _line_keys((base_lines, our_lines, their_lines))
    base_by = {keys[ln.strip()]: ln.strip() for ln in base_lines}
    our_by, their_by = first(our_lines), first(their_lines)
    # why not removed as soon as one side lacks it: a line replaced by one no id can be read from (a
    # hand edit that broke it) reads as removed, and the other side's edit of it would go unseen
    removed = {k for k, was in base_by.items()
               if any(k not in here and (k not in there or there[k].strip() == was)
                      for here, there in ((our_by, their_by), (their_by, our_by)))}
    out, seen = [], set()
    for ln in our_lines + their_lines:
        k = keys[ln.strip()]
        if k in seen or k in removed:
            continue
        seen.add(k)
        other = their_by.get(k)
        if other is not None and other.strip() != ln.strip() and k in base_by:
            if ln.strip() == base_by[k]:
                ln = other  # edited there only
            elif other.strip() != base_by[k] and conflicts is not None:
                conflicts.append((eid[ln.strip()], ln.strip(), other.strip()))
        out.append(ln)
    return b"".join(ln + b"\n" for ln in out)


def _head(text: bytes) -> dict[bytes, bytes]:
    """The top-level ``key: value`` lines of a learning's frontmatter (within its first 40 lines)."""
    out: dict[bytes, bytes] = {}
    for line in text.split(b"\n")[1:40]:
        if line.startswith(b"---"):
            break
        key, sep, value = line.partition(b":")
        if sep and key.strip() and not key[:1].isspace():
            out.setdefault(key.strip(), value.strip())
    return out


def _status_of(text: bytes) -> str:
    return (_head(text).get(b"status") or b"active").decode("utf-8", "replace")


def _identity(text: bytes) -> tuple[bytes, ...]:
    """Which learning a file holds: its id, else its title and origin (a file from before ids)."""
    head = _head(text)
    lid = head.get(b"id")
    return (lid,) if lid else (head.get(b"title", b""), head.get(b"origin", b""))


def merge_learning(base: bytes, ours: bytes, theirs: bytes, conflicts: list | None = None) -> bytes:
    """A learning both sides hold: the side that changed it since the base, else the one whose
    status moved on (deprecated, forgotten), else ours (a learning is write-once; the same title is the
    same one). ``(key, kept, other)`` is added to ``conflicts`` when both changed it, for the round to
    keep or say (``sync.conflicts``):

    - the same status on both: ours stays, ``("", ours, theirs)``: theirs is journalled;
    - statuses that differ, the status moved on one side (its frontmatter changed, its body not) and
      the body edited on the other (its frontmatter not): both are kept in one file, that side's
      frontmatter over the edited body, and ``(MERGED, that file, the edited side)`` says so;
    - statuses that differ otherwise: the side whose status moved on stays, the other is journalled
      (the key ``THEIRS`` when the side kept is theirs, so the round does not call it its own).

    Two different learnings both sides added under one name (the same day, titles that slug the
    same): ours stays and ``(ADDED, ours, theirs)`` is added, for the round to give theirs the next
    free name; the same learning added on both with other bytes is a conflict."""
    if ours == theirs or theirs == base:
        return ours
    if ours == base:
        return theirs
    if not base and _identity(ours) != _identity(theirs):
        if conflicts is not None:
            conflicts.append((ADDED, ours, theirs))
        return ours
    if _status_of(ours) == _status_of(theirs):
        if conflicts is not None:
            conflicts.append(("", ours, theirs))
        return ours
    moved, other = (theirs, ours) if _status_of(ours) == "active" and _status_of(theirs) != "active" else (ours, theirs)
    both = _status_over_edit(base, moved, other)
    if conflicts is not None:
        conflicts.append((MERGED, both, other) if both is not None else ("" if moved is ours else THEIRS, moved, other))
    return moved if both is None else both


def _split(text: bytes) -> tuple[bytes, bytes] | None:
    """A learning's frontmatter (from its start to the newline before the closing ``---``) and the
    rest (the closing ``---`` and the body); None for a file without one."""
    start = 3 if text.startswith(b"\xef\xbb\xbf") else 0
    if not text.startswith(b"---", start):
        return None
    end = text.find(b"\n---", start + 3)
    return None if end < 0 else (text[:end + 1], text[end + 1:])


def _status_over_edit(base: bytes, moved: bytes, edited: bytes) -> bytes | None:
    """``moved``'s frontmatter over ``edited``'s body, when ``moved`` changed only its frontmatter
    since ``base`` (a forget, a deprecation) and ``edited`` only its body (a hand edit); else None.
    why: then each side's change is whole in the result, and undoing the forget (which puts back the
    status fields and keeps the rest of the file) brings the learning back with the edit."""
    was, now, other = _split(base), _split(moved), _split(edited)
    if was is None or now is None or other is None or now[1] != was[1] or other[0] != was[0]:
        return None
    return now[0] + other[1]


def _both(ours: bytes, theirs: bytes) -> bytes:
    """Ours, then every line of theirs ours lacks: what nothing can fail to merge."""
    mine = [ln for ln in ours.split(b"\n") if ln.strip()]
    have = {ln.strip() for ln in mine}
    out = mine + [ln for ln in theirs.split(b"\n") if ln.strip() and ln.strip() not in have]
    return b"".join(ln + b"\n" for ln in out)


def _merged(kind: str, parts: list[bytes], path: str, conflicts: list) -> bytes:
    """The driver's merge; one that fails keeps both sides. why: a driver that exits non-zero (or with
    a traceback) leaves git's merge failed, and every later round with it, until the line is gone."""
    base, ours, theirs = parts
    try:
        return (merge_lines if kind == "merge-lines" else merge_learning)(base, ours, theirs, conflicts)
    except Exception as exc:
        logfile.write(logfile.WORKER, f"sync: the {kind} driver failed on {path or 'a file'} "
                                      f"({type(exc).__name__}); kept both sides")
        if kind == "merge-lines":
            return _both(ours, theirs)
        conflicts.append(("", ours, theirs))
        return ours


def _pull() -> int:
    """``python -m lazy_harness.sync pull`` (spawned by SessionStart): fetch and merge, no push.
    Prints one status line on stdout (the hook may be waiting on it); the reason goes to worker.log."""
    from lazy_harness import config

    try:
        cfg = config.load(os.environ)
        result = run(cfg, os.environ, wait=False, push=False)
        message = f"pulled: {result['merged']} file(s) merged"
    except LhError as exc:
        message = f"pull failed: {exc.message}"
    logfile.write(logfile.WORKER, f"sync {os.getpid()}: {message}")
    try:
        sys.stdout.write(message + "\n")
        sys.stdout.flush()
    except OSError:
        pass  # why: the hook stopped waiting and closed the pipe; the pull itself is done
    return 0


def _after_write(at_once: bool = False) -> int:
    """``python -m lazy_harness.sync after-write [--now]`` (started by the worker once it wrote memory,
    ``detach.spawn_sync``): the worker's sync round, at most every ``interval_minutes``
    (``rounds.auto_sync``), or now (``--now``: a change made by hand); what it did goes to worker.log."""
    from lazy_harness import config
    from lazy_harness.sync.rounds import auto_sync

    try:
        said = auto_sync(config.load(os.environ), os.environ, at_once=at_once)
    except LhError as exc:  # why: a config.toml that went bad since the worker read it
        said = f"sync: {exc.message}"
    if said:
        logfile.write(logfile.WORKER, f"sync {os.getpid()}: {said}")
    return 0


def _driver(argv: list[str]) -> int:
    if argv[:1] == ["pull"]:
        return _pull()
    if argv[:1] == ["after-write"]:
        return _after_write(argv[1:] == ["--now"])
    # why: PATH (git's %P, the file's path in the repository) came later; a config written before
    # it runs the driver with three files, which still works (a conflict is then not named)
    if len(argv) not in (4, 5) or argv[0] not in ("merge-lines", "merge-learning"):
        sys.stderr.write("usage: python -m lazy_harness.sync merge-lines|merge-learning BASE OURS THEIRS [PATH]\n")
        return 2
    parts = []
    for path in argv[1:4]:
        try:  # why read_regular: what is not a regular file is read as an empty side, never waited on
            parts.append(read_regular(path))
        except OSError:
            parts.append(b"")
    conflicts: list = []
    path = argv[4] if len(argv) == 5 else ""
    merged = _merged(argv[0], parts, path, conflicts)
    with open(argv[2], "wb") as fh:
        fh.write(merged)
    _note_conflicts(path, conflicts)
    return 0


def _note_conflicts(path: str, conflicts: list) -> None:
    """One JSON line per conflict in the file the round named (CONFLICTS_ENV), for it to keep: the
    version kept ("ours", what the merge leaves in place) and the other one ("theirs")."""
    side = os.environ.get(ENV)
    if not conflicts or not side or not path:
        return
    text = "".join(json.dumps({"file": path, "id": "" if key in (ADDED, MERGED, THEIRS) else key,
                               "ours": kept.decode("utf-8", "replace"), "theirs": other.decode("utf-8", "replace"),
                               **({"added": True} if key == ADDED else {}),
                               **({"theirs_kept": True} if key == THEIRS else {}),
                               **({"merged": _status_of(kept)} if key == MERGED else {})}, ensure_ascii=False) + "\n"
                   for key, kept, other in conflicts)
    fd = append_regular(side)  # why: a plain open for writing waited there for a FIFO's reader, git's merge with it
    try:
        write_all(fd, text.encode("utf-8"))
    finally:
        os.close(fd)
