"""Putting back one file a run changed, as its journal (``memory.journal``) says it was.

A file still exactly as the run left it gets its old bytes back (a JSONL file the run made is removed,
or only emptied where the data folder is synced, so that sync merges it with the other machine's lines);
an append-only file that grew since (the worker appended entries after the run), or that another process
appended to while the run did, loses only the run's own lines, so those entries survive; a learning whose
status fields the run set, edited since, gets its old fields back and keeps the edit; any other file
changed since is left alone and reported.

A run killed between a change and its record is undone from what the journal says it was about to
write: a line recorded but never written is simply not there to take out, and the start of one whose
write was cut short is taken out with the run's lines (a last line cut short that the journal does not
show the run writing is left, and the file reported).
"""

from __future__ import annotations

import base64
import json
import os

from lazy_harness.atomic import atomic_write, read_bytes, rewrite
from lazy_harness.errors import LhError
from lazy_harness.jsonload import line_object
from lazy_harness.memory.journal_format import FOLDER, read_folder, resolved, sha
from lazy_harness.regular_file import open_regular


def undo_file(entry: dict, run: str) -> str | None:
    """Put back one file of ``run`` (in the memory folders); None when it is back, else why not."""
    try:
        return _put_back(entry, run)
    except _Unproven as cut:  # why: never take out a line that may be another's; the person decides
        return (f"{entry['path']}: its last line was cut short ({str(cut)!r}...) and run {run}'s journal does "
                "not show the run writing it; left as it is")


def _put_back(entry: dict, run: str) -> str | None:
    """:func:`undo_file`; _Unproven from :func:`_lines_back`, the file left as it is."""
    path = entry["path"]
    current = read_bytes(path)
    if entry.get("before_sha") and sha(current) == entry["before_sha"]:
        return None  # why: as before the run (killed before its change); the copy is redacted (journal._copy)
    before = None if entry.get("before") is None else base64.b64decode(entry["before"])
    target: bytes | bool | None  # False: the file changed since the run and stays as it is
    if (current == before or (before is None and current == b"")
            or (sha(current) == entry.get("after_sha") and not entry.get("mixed") and not _stale_removed(entry))):
        target = before  # why the first two: a run killed before its change wrote nothing there
    elif (entry.get("appended") or entry.get("removed")) and current is not None:
        target = _lines_back(current, entry)
    elif isinstance(entry.get("fields"), dict) and current is not None:
        target = _fields_back(path, current, entry["fields"])
    else:
        target = False
    if isinstance(target, bool) or (target is None and before is not None):
        return f"{path}: changed since run {run}; left as it is"
    if target == b"" and before is None:
        target = None  # why: a file the run made that holds nothing but the run's lines is no file, as before
    if target is None and path.endswith(".jsonl") and current is not None:
        # why emptied first, not removed: an append-only file the run made may be synced, and the other
        # machine may have appended to it since; git cannot merge a removal with an append (every
        # later sync of that machine failed), while an emptied file merges line by line
        if current and not _write_back(path, entry, b"", b""):
            return f"{path}: changed while it was being undone; left as it is"
        if not _maybe_synced(path) and not _named_by_another_run(path, run):
            _remove_if_empty(path)  # why: as before the run; readers take a missing file for an empty one
    elif target is None:
        from lazy_harness.memory.files import unlink_created

        unlink_created(path)
    elif target != current and not _write_back(path, entry, before, target):
        return f"{path}: changed while it was being undone; left as it is"
    return None


def _maybe_synced(path: str) -> bool:
    """Whether ``path`` may have gone to another machine: a folder above it holds ``.git`` (the data folder
    once sync is set up, as ``hand_runs.sync_after`` looks). why the file's folders, not ``paths.data_dir``:
    undo is given no environment, and each folder it reads may be another profile's."""
    folder = os.path.dirname(os.path.abspath(path))
    while True:
        if os.path.exists(os.path.join(folder, ".git")):
            return True
        parent = os.path.dirname(folder)
        if parent == folder:
            return False
        folder = parent


def _named_by_another_run(path: str, run: str) -> bool:
    """Whether a journal beside ``path`` other than ``run``'s names it. why: that run's undo finds the file
    as it left it (emptied, say, by a restore that took a mark out): removed, it reads as changed since."""
    folder = os.path.dirname(path)
    for data in read_folder(os.path.join(folder, FOLDER)):
        if data["run"] != run and any(f["path"] == path for f in resolved(data, folder)["files"]):
            return True
    return False


def _remove_if_empty(path: str) -> None:
    """Remove ``path`` when it is empty, holding the lock its appenders take: one that waited for it
    finds the file gone and makes it again (``atomic.append_line``), so no line appended meanwhile is lost."""
    import fcntl

    from lazy_harness.atomic import same_file

    try:
        fd, _ = open_regular(path, getattr(os, "O_NOFOLLOW", 0))  # why: a FIFO there held the undo in open()
    except OSError:
        return  # why: gone already, a link or no regular file (left alone, as every writer of memory leaves one)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        if same_file(fd, path) and os.fstat(fd).st_size == 0:
            os.unlink(path)
    except OSError:
        pass  # why: the undo is done either way; an empty file reads as no file
    finally:
        os.close(fd)


def _without_lines(current: bytes, lines: list[str], start: int,
                   lenient: bool = False) -> tuple[bytes, list[str]] | None:
    """``current`` with each of ``lines`` removed once, looked for past ``start`` first, then in the
    whole file (a sync pull that dropped an earlier line moves the run's lines before ``start``; each
    carries its run and time, so it is found once), and the lines not found; None if one is missing,
    unless ``lenient`` (a journal that records a line before writing it: a run killed in between
    never wrote it, or wrote only its start: :func:`_without_fragments`)."""
    head, tail = current[:start], current[start:].splitlines(keepends=True)
    if all(_take(tail, line) for line in lines):
        return head + b"".join(tail), []
    whole = current.splitlines(keepends=True)
    missing = [line for line in lines if not _take(whole, line)]  # why a list: take every line
    if missing and not lenient:
        return None
    return b"".join(whole), missing


class _Unproven(Exception):
    """An append-only file ends in a line cut short that the run's journal cannot show it wrote."""


def _without_fragments(out: bytes, missing: list[str], start: int, before: bytes | None) -> bytes:
    """``out`` less what a run killed mid-append wrote of its ``missing`` lines (each recorded before
    it was written, not found whole): a line past ``start`` (the file's size before the run) that is
    the start of one of them, the file's last (cut short: the rest of the write never came) or one a
    later append ended first (the appenders heal a last line). A line of another run is whole, never
    the start of another line, so it stays. Then, when what is left is the bytes of before and the
    newline the run put after a last line of before that had none, those bytes.
    _Unproven when the last line past ``start`` is still cut short: not the start of a missing line."""
    from lazy_harness.memory.files import whole_object

    rows = out[start:].splitlines(keepends=True)
    for line in missing:
        needle = line.encode("utf-8") + b"\n"
        cut = next((i for i, row in enumerate(rows) if row.rstrip(b"\n") and row != needle
                    and needle.startswith(row if not row.endswith(b"\n") else row[:-1])), None)
        if cut is not None:
            del rows[cut]
    last = rows[-1] if rows else b""
    if last and not last.endswith(b"\n") and not whole_object(last):
        raise _Unproven(last[:40].decode("utf-8", "replace"))
    out = out[:start] + b"".join(rows)
    if before and not before.endswith(b"\n") and out == before + b"\n":
        return before
    return out


def _take(pool: list[bytes], line: str) -> bool:
    """Remove ``line`` (and its newline, ``\n`` or ``\r\n``) once from ``pool``; whether it was there.
    why CRLF too: every reader takes such a line for the run's (an editor saved the file with Windows line
    ends); not found, it was taken for a line the run never wrote and the undo said done, changing nothing."""
    for needle in (line.encode("utf-8") + b"\n", line.encode("utf-8") + b"\r\n"):
        if needle in pool:
            pool.remove(needle)
            return True
    reworded = _reworded(pool, line)
    if reworded is not None:
        del pool[reworded]
        return True
    return False


REWORDABLE = ("reason",)  # fields of a run's line a person may reword by hand: it stays the run's line


def _reworded(pool: list[bytes], line: str) -> int | None:
    """Where in ``pool`` ``line`` stands with only its :data:`REWORDABLE` fields changed by hand (the same
    run, op and id), or None. why: a forget whose reason the person reworded in marks.jsonl was taken for a
    line the run never wrote: undo said done, and the entry stayed forgotten with nothing left to undo."""
    want = line_object(line)
    if want is None or "run" not in want:
        return None
    for i, row in enumerate(pool):
        got = line_object(row)
        if got is not None and got.keys() == want.keys() and all(
                got[k] == want[k] for k in want if k not in REWORDABLE):
            return i
    return None


def _lines_back(current: bytes, entry: dict) -> bytes | None:
    """``current`` less the run's appended lines and with the lines it removed appended again (those
    not there already, and those of a run undone since: :func:`_stale_removed`), every other line
    kept; None when a line the run appended is missing (and not recorded before it was written);
    _Unproven when one recorded so is missing and the file ends in a line cut short that is not its start."""
    start = entry.get("before_size") or 0
    found = _without_lines(current, entry.get("appended") or [], start, bool(entry.get("intent")))
    if found is None:
        return None
    out, missing = found
    if missing:
        before = None if entry.get("before") is None else base64.b64decode(entry["before"])
        out = _without_fragments(out, missing, start, before)
    have = set(out.splitlines()) | {line.encode("utf-8") for line in _stale_removed(entry)}
    back = [line.encode("utf-8") for line in entry.get("removed") or [] if line.encode("utf-8") not in have]
    if back and out and not out.endswith(b"\n"):
        out += b"\n"
    return out + b"".join(line + b"\n" for line in back)


def _stale_removed(entry: dict) -> list[str]:
    """The lines the run took out (a restore's marks) that a run undone since wrote: putting one back
    would hide the entry again by the word of a run the person undid, with nothing left to undo.
    why the folder of the file: the lines a run removes are marks, and marks.jsonl lies in the memory
    folder, beside the journals."""
    removed = entry.get("removed") or []
    if not removed:
        return []
    undone = {data["run"] for data in read_folder(os.path.join(os.path.dirname(entry["path"]), FOLDER))
              if data.get("undone")}
    out = []
    for line in removed:
        try:
            rec = json.loads(line)
        except (ValueError, RecursionError):  # why: a line synced or edited by hand may be anything
            continue
        if isinstance(rec, dict) and isinstance(rec.get("run"), str) and rec["run"] in undone:
            out.append(line)
    return out


def _fields_back(path: str, current: bytes, fields: dict) -> bytes | bool:
    """A learning edited since the run, with the frontmatter fields the run changed put back (as it is
    when they are back already); False when they are neither what the run wrote nor what it found
    (changed again since) or cannot be read."""
    from lazy_harness.memory import status_fields

    try:
        text = current.decode("utf-8")
        after = {k: fields["after"].get(k) for k in status_fields.STATUS_FIELDS}
        now = status_fields.fields_of(text, path)
        if now == {k: fields["before"].get(k) for k in status_fields.STATUS_FIELDS}:
            # why: put back by hand already (the person took the forget back in the editor): nothing is
            # left to undo, and refusing kept the run one to undo at every try
            return current
        if now != after:
            return False
        return status_fields.with_fields(text, path, fields["before"]).encode("utf-8")
    except (LhError, UnicodeDecodeError, KeyError, TypeError, AttributeError):
        return False


def _write_back(path: str, entry: dict, before: bytes | None, target: bytes) -> bool:
    """Write ``target``. An append-only file's is computed again under the lock its appenders take,
    so a line another process appends meanwhile (the worker, a mark) is kept; False when the run's
    lines are no longer all there."""
    if not entry.get("appended") and not entry.get("removed"):
        atomic_write(path, target)
        return True
    done = {}

    def change(current: bytes) -> bytes | None:
        again = (before if sha(current) == entry.get("after_sha") and not entry.get("mixed")
                 and not _stale_removed(entry) else _lines_back(current, entry))
        done["ok"] = again is not None
        return again

    rewrite(path, change)
    return done.get("ok", False)
