"""Where a project's memory lives on disk and cheap ways to read its newest part.

    <memory dir>/decisions.jsonl   one JSON object per line, newest last
    <memory dir>/failures.jsonl    one JSON object per line, newest last
    <memory dir>/handoff.jsonl     handoff items: open and close records (memory.handoff)
    <memory dir>/handoff.md        the open items, rendered from handoff.jsonl
    <knowledge>/learnings/YYYY-MM/YYYY-MM-DD-<slug>.md   one learning per file

Readers take tails: a JSONL file is read backwards in blocks until enough whole lines are found,
and learnings are listed newest month first, so the cost does not grow with history (the handoff
log is the exception: ``memory.handoff`` folds it whole). The handoff marker and ISO times are
parsed with string methods (no regex); learning frontmatter is read by ``memory.frontmatter`` (no
YAML parser). Files a person saved in an editor are read as written: a byte order mark at the start
is skipped, and a last line without its newline counts when it is one whole JSON object; a damaged
line is salvaged or skipped by ``memory.lines``. Also here: the memory folder's lock. Only ``os``,
``time``, our ``jsonload`` and ``memory.lines`` at import time: the SessionStart hook uses this module.
"""

from __future__ import annotations

import os
import time

from lazy_harness import jsonload
from lazy_harness.memory import lines

# why: not ``typing.TYPE_CHECKING``: ``typing`` is not imported on the hot path (house style section 3)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
DECISIONS = "decisions.jsonl"
FAILURES = "failures.jsonl"
HANDOFF = "handoff.md"
HANDOFF_STATE = "handoff.jsonl"
HANDOFF_OPEN_CACHE = ".handoff-open.json"  # handoff.py's cache of the open items (machine-local)
HANDOFF_MARK = "<!-- lazy-harness handoff"
BOM = b"\xef\xbb\xbf"  # the UTF-8 byte order mark some editors write at the start of a file


def not_text(data: bytes) -> str | None:
    """Why a file's bytes are no text a person saved, or None: ``NUL bytes`` (what a power cut can
    leave of a file, its length kept), ``not UTF-8 (byte N)`` (binary junk, or a legacy encoding)."""
    if b"\0" in data:
        return "NUL bytes"
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return f"not UTF-8 (byte {exc.start + 1})"
    return None


MAX_LINE = lines.MAX_LINE  # bytes: no line we write comes near it (an entry's fields are capped far below)
_SCAN = 1 << 20  # bytes read at a time while looking for the start of a long line
# bytes searched past MAX_LINE for the start of a long line before the tail stops there: the entries
# before a longer line are not read (a 16 MB or 60 MB last line cost SessionStart 2x its time)
LONG_SCAN = 3 << 20
# how far a tail reads past lines that are JSON but no entry (a sync, a hand edit or another tool appended
# them) to find the entries before: bytes from the end of the file (the reach of the long-line stop), and
# lines of them (why both: 4 MiB of two-byte lines would cost SessionStart seconds to parse)
JUNK_BYTES = MAX_LINE + LONG_SCAN
JUNK_LINES = 1000
STOPPED: dict[str, int] = {}  # path -> the junk lines read when the budget stopped its last tail
_starts: dict[tuple, int] = {}  # (file version, where a long line ends) -> the newline before it


def tail_lines(path: str, n: int, block: int = 65536, skipped: list | None = None) -> list[str]:
    """See ``tail_bytes``; the lines decoded (a byte that is not UTF-8 reads as U+FFFD)."""
    return [ln.decode("utf-8", "replace") for ln in tail_bytes(path, n, block, skipped)]


def tail_bytes(path: str, n: int, block: int = 65536, skipped: list | None = None,
               cut: list | None = None) -> list[bytes]:
    """The last ``n`` complete, non-empty lines of ``path`` (oldest first); [] when missing.

    A last line without a newline is left out (a write still in flight) unless ``whole_object``.
    A byte order mark at the start of the file is not part of the first line. A line longer than
    ``MAX_LINE`` is not an entry anyone wrote: it is left out, and the offset where it ends is added
    to ``skipped`` when given (``memory.damage`` names it by its line number). Its start is looked for
    ``LONG_SCAN`` bytes further back at most: past that, reading stops (``cut`` gets the offset).
    """
    if n <= 0:
        return []
    opened = _open_regular(path)
    if opened is None:
        return []
    fd, st = opened
    found: list[bytes] = []  # whole lines, newest first
    try:
        for line, _ in _backwards(fd, st, block, skipped, cut):
            found.append(line)
            if len(found) >= n:
                break
    finally:
        os.close(fd)
    found.reverse()
    return found


def _backwards(fd: int, st: os.stat_result, block: int, skipped: list | None,
               cut: list | None) -> Iterator[tuple[bytes, int]]:
    """The lines ``tail_bytes`` keeps of the open file, newest first, each with the offset of the
    newline before it (0 for the first line): what was read from the end to reach it.

    why: the file is read backwards one block at a time, only as far as the caller takes lines, and
    each block is searched once, so the cost follows the bytes of the lines taken, never their square
    (a 60 MB last line once cost SessionStart over a minute); past ``MAX_LINE`` the rest of a long line
    is only searched for its start, through one reused buffer (fresh buffers of that size cost more in
    page faults than the read).
    """
    parts: list[bytes] = []  # the line being read, its pieces newest first
    held = 0  # bytes of that line so far
    last = True  # the line being read is the one after the last newline
    pos = line_end = st.st_size
    while pos > 0:
        if held > MAX_LINE:
            k = _long_line_start(fd, st, pos, cut)
            _whole(parts, held, last, line_end, skipped)
            parts, held, last = [], 0, False
            if k < 0:
                return  # past LONG_SCAN: nothing before the long line is read
            pos = line_end = k
            continue
        step = min(block, pos)
        pos -= step
        data = os.pread(fd, step, pos)
        j = len(data)
        while True:
            k = data.rfind(b"\n", 0, j)
            if k < 0:
                held += j
                if held <= MAX_LINE:
                    parts.append(data[:j])
                break
            held += j - k - 1
            if held <= MAX_LINE:
                parts.append(data[k + 1:j])
            line = _whole(parts, held, last, line_end, skipped)
            parts, held, last, line_end = [], 0, False, pos + k
            if line is not None:
                yield line, line_end
            j = k
    if parts or held:
        line = _whole(parts, held, last, line_end, skipped, first=True)
        if line is not None:
            yield line, 0


def _open_regular(path: str) -> tuple[int, os.stat_result] | None:
    """(descriptor, its stat) of ``path`` opened for reading; None when it is not there. Anything but
    a regular file (a folder or a FIFO put in its place) is refused with an ``LhError`` naming it, and so
    is a file that cannot be opened (no permission, an I/O error). why: read as empty, its entries were
    missing from every session without a word."""
    try:
        return lines.open_regular(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        from lazy_harness.errors import LhError  # why here: the error path only (hot path)

        if isinstance(exc, (IsADirectoryError, lines.NotRegularFile)):
            raise LhError(f"{path}: not a regular file (a folder or device in place of a memory file); not read",
                          hint=f"move {path} aside") from None
        raise LhError(f"{path}: cannot be read ({exc.strerror or exc})", hint="make it readable; lh doctor") from exc


_TOO_FAR = -2  # _newline_before: no newline within the bytes it may search


def _long_line_start(fd: int, st: os.stat_result, pos: int, cut: list | None) -> int:
    """Where reading backwards goes on after a line longer than ``MAX_LINE`` whose unread part ends at
    ``pos``: the newline before it, 0 at the file's start, or -1 when it is not within ``LONG_SCAN``
    (``pos`` is then added to ``cut``)."""
    # why: SessionStart reads the same tail twice (the digest, then what it showed)
    key = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, pos)
    k = _starts.get(key)
    if k is None:
        k = _starts[key] = _newline_before(fd, pos, LONG_SCAN)
    if k == _TOO_FAR:
        if cut is not None:
            cut.append(pos)
        return -1
    return max(k, 0)


def _newline_before(fd: int, end: int, limit: int | None = None) -> int:
    """The offset of the last newline before ``end`` in the open file ``fd``; -1 when there is none;
    ``_TOO_FAR`` when there is none in the ``limit`` bytes before ``end`` and the file goes on."""
    stop = 0 if limit is None else max(0, end - limit)
    buf = bytearray(min(_SCAN, end - stop))
    view = memoryview(buf)
    while end > stop:
        step = min(len(buf), end - stop)
        start = end - step
        if hasattr(os, "preadv"):
            got = os.preadv(fd, [view[:step]], start)
        else:  # pragma: no cover - a system without preadv
            chunk = os.pread(fd, step, start)
            got = len(chunk)
            buf[:got] = chunk
        if got < step:  # the file shrank under us: what is before is not one file with what follows
            return -1
        k = buf.rfind(b"\n", 0, step)
        if k >= 0:
            return start + k
        end = start
    return -1 if stop == 0 else _TOO_FAR


def _whole(parts: list[bytes], held: int, last: bool, end: int, skipped: list[int] | None,
           first: bool = False) -> bytes | None:
    """The line made of ``parts`` (newest first), or None when it is blank, too long, or a last line
    without its newline that is not one whole object. The ``first`` line loses its BOM."""
    if held > MAX_LINE:
        if skipped is not None:
            skipped.append(end)
        return None
    line = parts[0] if len(parts) == 1 else b"".join(reversed(parts))
    if first and line.startswith(BOM):
        line = line[len(BOM):]
    if not line.strip() or (last and not whole_object(line)):
        return None
    return line


def whole_object(last: bytes) -> bool:
    """True when ``last``, a file's last line without its newline, is one whole JSON object.

    why: our writers append ``{...}\\n`` in one go, so a line torn by a killed or unfinished write is a
    prefix of it, and no shorter prefix of an object parses whole. One that does was saved by a person
    in an editor that ends files without a newline (VS Code's default), or lost only its newline.
    """
    if not last.strip():
        return False
    try:
        return isinstance(jsonload.loads(last), dict)
    except (ValueError, RecursionError):
        return False


def tail_records(path: str, n: int, block: int = 65536) -> list[dict]:
    """The last ``n`` records of a JSONL file that are entries or markers (``lines.not_an_entry``),
    oldest first. A damaged line is salvaged when it can be (``lines.records_of``), else skipped; either
    way, and for a line too long to be an entry or one that is JSON but no entry, the file is noted for
    the log (``memory.damage``).

    The newest ``n * 2 + 4`` lines are read, then more while lines that are no entry (a sync, a hand
    edit or another tool appended them) keep that many entries out, until ``JUNK_BYTES`` from the end or
    ``JUNK_LINES`` such lines: then reading stops and ``stopped`` says so. Without such lines the read
    ends where it always did."""
    STOPPED.pop(path, None)
    opened = _open_regular(path) if n > 0 else None
    if opened is None:
        return []
    fd, st = opened
    rows: list[list[tuple[dict, bool]]] = []  # the records of each line read, newest line first
    skipped: list[int] = []
    cut: list[int] = []
    want, good, junk = n * 2 + 4, 0, 0
    try:
        for raw, start in _backwards(fd, st, block, skipped, cut):
            recs, how = lines.records_of(raw, lines.entry_fields)
            kept = [(rec, bool(how)) for rec in recs if lines.not_an_entry(rec) is None]
            if how or len(kept) < len(recs):
                lines.note(path)
            rows.append(kept)
            if kept:
                good += 1
                if good >= want:
                    break
                continue
            junk += 1
            if good + junk >= want and (junk >= JUNK_LINES or st.st_size - start >= JUNK_BYTES):
                if start > 0:
                    STOPPED[path] = junk
                break
    finally:
        os.close(fd)
    if skipped:
        lines.note(path)
    if cut:
        lines.note_cut(path)
    found = [pair for row in reversed(rows) for pair in row]
    out = without_copies(lines.without_salvaged_twins(found))  # a torn line and its retry's whole entry are one
    return out[-n:]


def stopped(path: str) -> list[str]:
    """What to log when the last ``tail_records`` of ``path`` stopped at its junk budget (then forgets
    it): one sentence, or none."""
    junk = STOPPED.pop(path, 0)
    if not junk:
        return []
    return [f"{path}: reading stopped after {junk} line(s) that are not entries near its end (at most "
            f"{JUNK_BYTES >> 20} MiB or {JUNK_LINES} such lines are read); older entries not read until they "
            "are removed (lh memory check names them)"]


def without_copies(recs: list[dict]) -> list[dict]:
    """``recs`` less each decision or failure whose id and summary a later record has: a line a person
    duplicated by hand is one entry (the last copy is kept, in its place)."""
    from lazy_harness.memory import ids
    from lazy_harness.memory.sanitize import normalise

    seen: set[tuple[str, str]] = set()
    out: list[dict] = []
    for rec in reversed(recs):
        summary = rec.get("summary")
        if "op" not in rec and isinstance(summary, str):
            key = (ids.of_record(rec), normalise(summary))
            if key in seen:
                continue
            seen.add(key)
        out.append(rec)
    out.reverse()
    return out


def read_entries(path: str) -> list[dict]:
    """Every decision or failure of a JSONL file, oldest first: the records that are JSON objects with a
    summary and no ``op`` (markers). A damaged line is read as the read-back reads it (``tail_records``):
    salvaged when it can be (``lines.records_of``), else left out, and a salvaged copy of a whole entry
    is that entry; so every view lists, and every command finds by its id, what sessions receive.
    [] when unreadable."""
    try:
        found = lines.read_marked(path, lines.entry_fields)
    except OSError:
        return []
    return [rec for rec in lines.without_salvaged_twins(found)
            if "op" not in rec and isinstance(rec.get("summary"), str)]


def is_learning_name(name: str) -> bool:
    """Whether a file name in a month folder can be a learning: ``.md``, and not hidden. why: no file
    the store writes starts with a dot, and editors and file systems leave ``.md`` names that do beside
    the ones a person edits (an Emacs lock ``.#<name>.md`` copied as a file, macOS's ``._<name>.md``)."""
    return name.endswith(".md") and not name.startswith(".")


def unlink_created(path: str) -> None:
    """Remove a file a run created (undo, or the recovery of a killed persist), and the month folder it
    leaves empty when it is a learning: nothing else would remove it, and every listing of folders
    would show the empty month. ``os.rmdir`` fails on a folder that holds anything, which stays."""
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
    folder = os.path.dirname(path)
    name = os.path.basename(folder)
    if is_learning_name(os.path.basename(path)) and len(name) == 7 and name[4] == "-" and (
            name[:4] + name[5:]).isdigit():
        try:
            os.rmdir(folder)
        except OSError:
            pass  # why: holds another learning, or a file the person put there


def month_folders(learnings_dir: str) -> list[str]:
    """The names of the month folders (``YYYY-MM``) of ``learnings_dir``, oldest first; [] when it cannot be read."""
    try:
        return sorted(m for m in os.listdir(learnings_dir) if len(m) == 7 and m[4] == "-")
    except OSError:
        return []


def recent_learning_files(learnings_dir: str, n: int) -> list[str]:
    """Paths of the ``n`` newest learning files (by the date in their name), newest first; a hidden
    name is none (``is_learning_name``)."""
    out: list[str] = []
    for month in reversed(month_folders(learnings_dir)):
        folder = os.path.join(learnings_dir, month)
        try:
            names = sorted(filter(is_learning_name, os.listdir(folder)), reverse=True)
        except OSError:
            continue
        for name in names:
            out.append(os.path.join(folder, name))
            if len(out) >= n:
                return out
    return out


def marker_fields(line: str) -> dict[str, str]:
    """``key=value`` pairs of the handoff marker comment; a value may hold spaces (a project name).
    A key seen again is text of the value before it: a project named ``x digest=y`` sets no digest."""
    body = line[len(HANDOFF_MARK):].split("-->", 1)[0]
    fields: dict[str, str] = {}
    key = None
    for token in body.split():
        name, eq, value = token.partition("=")
        if eq and name.isidentifier() and name not in fields:
            key = name
            fields[key] = value
        elif key is not None:
            fields[key] += " " + token
    return fields


# --- times and the folder lock ---------------------------------------------------------------------

def days_from_civil(y: int, m: int, d: int) -> int:
    """Days since 1970-01-01 of a proleptic Gregorian date (no datetime import on the hot path)."""
    y -= m <= 2
    era = y // 400
    yoe = y - era * 400
    doy = (153 * (m + (-3 if m > 2 else 9)) + 2) // 5 + d - 1
    return era * 146097 + yoe * 365 + yoe // 4 - yoe // 100 + doy - 719468


def _month_days(year: int, month: int) -> int:
    if month == 2:
        return 29 if year % 4 == 0 and (year % 100 != 0 or year % 400 == 0) else 28
    return 30 if month in (4, 6, 9, 11) else 31


def iso_epoch(text: object) -> float | None:
    """Seconds since the epoch of an ISO-8601 time such as ``2026-04-13T18:32:45-03:00``; None if not one.

    Without an offset the time is local. A bare date is its local midnight.
    """
    if not isinstance(text, str) or len(text) < 10:
        return None
    try:
        y, mo, d = int(text[0:4]), int(text[5:7]), int(text[8:10])
        rest = text[10:].strip()
        h = mi = 0
        s = 0.0
        offset = None
        if rest:
            if rest[0] in "Tt":
                rest = rest[1:]
            cut = len(rest)
            for i, c in enumerate(rest):
                if c in "+-Zz" and i >= 5:
                    cut = i
                    break
            clock, zone = rest[:cut], rest[cut:]
            h, mi = int(clock[0:2]), int(clock[3:5])
            s = float(clock[6:]) if len(clock) > 6 else 0.0
            if zone:
                if zone in "Zz":
                    offset = 0
                else:
                    sign = -1 if zone[0] == "-" else 1
                    hh, _, mm = zone[1:].partition(":")
                    offset = sign * (int(hh[:2]) * 3600 + int(mm or hh[2:4] or 0) * 60)
        # why the month's own length: ``2026-02-30`` was read as 2026-03-02 (mktime rolls over)
        if not (1 <= mo <= 12 and 1 <= d <= _month_days(y, mo) and 0 <= h < 24 and 0 <= mi < 60 and 0 <= s < 61):
            return None
    except (ValueError, IndexError):
        return None
    if offset is None:
        return time.mktime((y, mo, d, h, mi, int(s), 0, 0, -1)) + (s - int(s))
    return days_from_civil(y, mo, d) * 86400.0 + h * 3600 + mi * 60 + s - offset


class FolderLock:
    """flock on the memory folder itself: no lock file to leave behind, and no clash with the
    per-line lock ``append_line`` takes on a JSONL file (a second flock on it would self-block)."""

    def __init__(self, folder: str) -> None:
        self.folder, self.fd = folder, -1

    def __enter__(self) -> FolderLock:
        import fcntl

        self.fd = os.open(self.folder, os.O_RDONLY | os.O_DIRECTORY)
        fcntl.flock(self.fd, fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc: object) -> None:
        os.close(self.fd)
