"""The search index in ``<cache>/recall/index.sqlite``: every memory entry (``SCHEMA``), its words in the word
lists (``lexical_write``, ADR 0049) and its vectors (``vectors``). The files are the truth and the index a
cache its one writer brings up to date (``refresh_within``, ADR 0042; docs/how/recall.md). On the prompt
hook's path, which only reads: SQLite and the write side are imported inside functions."""

from __future__ import annotations

import os

from lazy_harness import private
from lazy_harness.errors import LhError
from lazy_harness.memory import files, lines
from lazy_harness.recall.embed import vectors
from lazy_harness.recall.index import lookup, sources
from lazy_harness.regular_file import append_regular

# why: not ``from typing import TYPE_CHECKING``: the prompt hook loads this module, and never ``typing``
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from sqlite3 import Connection
    from types import ModuleType
    from typing import Any, TypeVar

    T = TypeVar("T")

    from lazy_harness.recall.index.lexical_write import Pending

# why: an index of another version is deleted and built again (``connect``): bump it when the schema or
# what an entry holds changes (the history: git log)
VERSION = "26"
OTHER_VERSION = "index version"  # what a reader's error says of an index another version made
UNIT_HANDOFF = "#handoff"
FOLDER_PREFIX = "#folder:"  # + a month folder of learnings: its own stat when its files were last compared
PART = 2000  # lines of one JSONL file read in one transaction while the index is built
SCHEMA = (
    "CREATE TABLE IF NOT EXISTS meta(k TEXT PRIMARY KEY, v TEXT)",
    "CREATE TABLE IF NOT EXISTS source(unit TEXT PRIMARY KEY, stamp TEXT, offset INTEGER, lines INTEGER, "
    "check_ TEXT)",
    "CREATE TABLE IF NOT EXISTS entry(rowid INTEGER PRIMARY KEY, unit TEXT, id TEXT, kind TEXT, mdir TEXT, "
    "origin TEXT, scope TEXT, file TEXT, line INTEGER, ts TEXT, title TEXT, detail TEXT, body TEXT, tags TEXT, "
    "uncued INTEGER, cues TEXT, okey TEXT, prov TEXT, hold TEXT, sess TEXT, claim INTEGER, twin TEXT, "
    "aside INTEGER NOT NULL DEFAULT 0, tkey TEXT NOT NULL DEFAULT '')",  # tkey: a learning's ``ids.title_words``
    "CREATE INDEX IF NOT EXISTS entry_unit ON entry(unit)",
    "CREATE INDEX IF NOT EXISTS entry_id ON entry(id)",  # the other entries of an id (``apply.settle``)
    "CREATE INDEX IF NOT EXISTS entry_mdir ON entry(mdir)",
    # a project's own learnings (mdir '') by key and title: the title rule (``lookup.own_learnings``) reads
    # only it. why the version moves when ``ids.title_words`` does: tkey is what it said when written
    "CREATE INDEX IF NOT EXISTS entry_key ON entry(mdir, okey, origin, kind, tkey, id, title, file, hold, unit)"
    " WHERE kind='learning'",
    "CREATE TABLE IF NOT EXISTS hidden(unit TEXT, id TEXT, mdir TEXT)",
    "CREATE INDEX IF NOT EXISTS hidden_id ON hidden(id)",
    *vectors.SCHEMA,
)
KINDS = {"decisions.jsonl": "decision", "failures.jsonl": "failure", "marks.jsonl": "mark"}


class FolderRefused(LhError):
    """The index's folder is another user's or open to their writes (ADR 0031): not used."""


class FileRefused(LhError):
    """The index's file cannot be opened or written (a folder there, no permission, a full disk)."""


class BeingMade(Exception):
    """A file with no table yet, to a reader: a writer has just made it (not damage; read as no index)."""


# SQLite's words when the file's place or the disk refuses it, not its content (``damaged`` says no)
REFUSED = ("unable to open", "readonly", "read-only", "is full")


def refused(path: str, exc: BaseException) -> FileRefused | None:
    """:class:`FileRefused` for SQLite's ``exc`` when it is one of ``REFUSED``, else None."""
    said = str(exc)
    return _refused(path, said) if any(word in said for word in REFUSED) else None


def _refused(path: str, why: str) -> FileRefused:
    folder = next((p for p in (path, path + "-wal", path + "-shm") if os.path.isdir(p)), None)
    verb = "written" if not folder and "full" in why else "opened"
    return FileRefused(f"the search index cannot be {verb}: {folder or path}: {'a folder' if folder else why}",
                       hint="free some space, then lh memory reindex" if verb == "written"
                       else "move it away, then lh memory reindex")


def own_folder(folder: str) -> str:
    """``folder``, made private (0700, parents too) when missing; :class:`FolderRefused` if not usable."""
    try:
        return private.make(folder)
    except private.UnsafeFolder as exc:
        raise FolderRefused(f"the search index not opened: {exc}", hint=private.fix(folder, str(exc))) from None


def sqlite() -> ModuleType:
    """``_sqlite3``, the C module the ``sqlite3`` package wraps."""
    # why: the package also imports datetime and collections.abc for date adapters the index never uses
    # (1.7 ms of 5.5 ms; benchmarks/bench_private_modules.py)
    import _sqlite3

    return _sqlite3


def read_only(path: str, timeout: float) -> Connection:
    """The index opened read only (``mode=ro``); why quoted: "#", "?" or "%" of a path is URI syntax."""
    import stat
    from urllib.parse import quote

    try:  # why lstat: a link is not the index (``connect``)
        mode: int | None = os.lstat(path).st_mode
    except OSError:
        mode = None  # why: SQLite says what is wrong
    if mode is not None and not stat.S_ISREG(mode):  # why: SQLite's open of a FIFO waits for a writer for good
        raise _refused(path, "not a regular file")
    # why "file://" and an absolute path: a path starting "//" read as "file://<host>/..." (refused)
    return sqlite().connect(f"file://{quote(os.path.abspath(path))}?mode=ro", uri=True, timeout=timeout)


def connect(path: str, timeout: float = 5.0, create: bool = True) -> Connection:
    """Open the index at ``path``: with ``create`` (the writer) one of another version is made again and a
    folder not the user's raises :class:`FolderRefused`; a reader (no ``create``) gets ``DatabaseError``."""
    if create:
        own_folder(os.path.dirname(path))  # why: never another user's folder (ADR 0031)
    _no_links(path, create)
    # why: busy or locked is not damage (``damaged``): another process writing the index would lose its work
    return rebuilt_once(path, lambda: _opened(path, timeout, True)) if create else _opened(path, timeout, False)


def _opened(path: str, timeout: float, create: bool) -> Connection:
    sqlite3 = sqlite()
    conn = None
    if create:
        # why: SQLite would make it 0644 (each try: a damaged file removed is made again); append_regular:
        # a plain open of a FIFO there waits for good
        try:
            os.close(append_regular(path, 0o600))
        except OSError:
            pass  # connect says what is wrong
    try:
        conn = sqlite3.connect(path, timeout=timeout, isolation_level=None)
        _wal(conn, sqlite3, timeout)
        # why: a cache (a damaged file is rebuilt): no wait for the disk (2.7 ms down to 0.9 ms an update).
        # No mmap: 2 to 7 ms to unmap at close, and the whole index resident in a long-lived process
        conn.execute("PRAGMA synchronous=OFF")
        row = None
        try:
            row = conn.execute("SELECT v FROM meta WHERE k='version'").fetchone()
        except sqlite3.OperationalError as exc:
            if "no such table" not in str(exc):
                raise
        if row is not None and row[0] == VERSION:
            return conn
        if row is None and not create and not conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
            raise BeingMade(path)
        if row is not None or not create:
            raise sqlite3.DatabaseError(f"{OTHER_VERSION} {row[0]}" if row else "no index in the file")
        forget_seen(path)  # why: an index made anew holds nothing the records could say
        return _made(conn)
    except Exception as exc:  # why: a damaged file fails in other types too (see ``damaged``)
        if conn is not None:
            conn.close()
        if (refusal := refused(path, exc)) is not None:  # why: SQLite's message names no file
            raise refusal from None
        raise


def _no_links(path: str, create: bool) -> None:
    """A link in place of the index, its WAL or shared memory: removed by the writer, ``DatabaseError`` to a
    reader. why: SQLite follows a link and would write the person's memory into the file it names."""
    links = [p for p in (path, path + "-wal", path + "-shm") if os.path.islink(p)]
    if links and not create:
        raise sqlite().DatabaseError(f"a link in the index's place: {links[0]}")
    for link in links:
        if link == path:
            remove(path)  # why: the index's records go with it
        else:
            try:
                os.unlink(link)
            except FileNotFoundError:
                pass


def _made(conn: Connection) -> Connection:
    # why: the word lists' schema is the write side's, imported only when the index is made
    from lazy_harness.recall.index import lexical_write

    conn.execute("BEGIN IMMEDIATE")
    for stmt in (*SCHEMA, *lexical_write.SCHEMA):
        conn.execute(stmt)
    conn.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", [("version", VERSION), ("entries", "0")])
    conn.execute("COMMIT")
    return conn


def _wal(conn: Connection, sqlite3: ModuleType, timeout: float) -> None:
    """Put the index in WAL mode, once for the file (the mode is kept in it)."""
    if str(conn.execute("PRAGMA journal_mode").fetchone()[0]).lower() == "wal":
        return
    import time

    deadline = time.monotonic() + timeout
    while True:
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            # why: switching needs the file to itself; SQLite answers "locked" at once, not after its timeout
            if "locked" not in str(exc) or time.monotonic() >= deadline:
                raise
            time.sleep(0.005)


# not the file's fault: another process at work, an interrupted statement, a disk full or read-only, a
# file that cannot be opened, memory, or SQL of ours that is wrong
NOT_DAMAGE = (*REFUSED, "locked", "busy", "interrupt", "out of memory", "syntax error", "no such column",
              "locking protocol")


def damaged(exc: BaseException) -> bool:
    """Whether ``exc``, raised opening or reading the index, means the file is damaged and must be built
    again. why not on our own bugs (``NOT_DAMAGE``, a broken constraint): a rebuild does not cure them, and
    once threw away an index that took minutes to build at every prompt."""
    import struct

    sqlite3 = sqlite()
    if isinstance(exc, (sqlite3.ProgrammingError, sqlite3.InterfaceError, sqlite3.IntegrityError, sqlite3.DataError,
                        sqlite3.NotSupportedError)):
        return False  # the API used wrongly, a constraint our own statement broke: a rebuild meets it again
    if isinstance(exc, sqlite3.OperationalError):
        return not any(word in str(exc).lower() for word in NOT_DAMAGE)
    return isinstance(exc, (sqlite3.DatabaseError, UnicodeDecodeError, struct.error))


def removed_if_damaged(path: str, work: Callable[[], T], said: Callable[[BaseException], object] = repr) -> T | None:
    """``work()``, or None when it raised damage: then ``said(exc)`` and the index removed."""
    try:
        return work()
    except Exception as exc:
        if not damaged(exc):
            raise
        said(exc)
    remove(path)
    return None


def rebuilt_once(path: str, work: Callable[[], T], said: Callable[[BaseException], object] = repr) -> T:
    """``work()``, run once more after the index it found damaged was removed."""
    got = removed_if_damaged(path, work, said)
    return work() if got is None else got


def remove(path: str) -> None:
    """Delete the index, its WAL files and the writer's records of what it saw."""
    for suffix in ("", "-wal", "-shm"):
        try:
            os.unlink(path + suffix)
        except FileNotFoundError:
            pass
    forget_seen(path)


def forget_seen(path: str) -> None:
    """Delete the writer's records beside the index (``seen/<folder>``). why: an index made anew holds
    nothing, and a record left would tell every session start its folder is indexed (``writer.behind``)."""
    from contextlib import suppress

    from lazy_harness import paths

    folder = paths.recall_seen_dir(path)
    with suppress(OSError):
        for name in os.listdir(folder):
            with suppress(OSError):
                os.unlink(os.path.join(folder, name))


# --- staleness -------------------------------------------------------------------------------------

def _plan(conn: Connection, mdirs: list[str], ldir: str | None, deep: bool | int) -> list[tuple[Any, ...]]:
    """What is stale: (action, unit, ...) steps; empty when the index matches the files."""
    units = [os.path.join(m, f) for m in mdirs for f in KINDS] + [m + UNIT_HANDOFF for m in mdirs]
    sql = "SELECT unit, stamp, offset, lines, check_ FROM source WHERE unit IN ({})"
    known = {row[0]: row for row in lookup.rows_in(conn, sql, units)}
    plan: list[tuple] = []
    for mdir in mdirs:
        for name, kind in KINDS.items():
            path = os.path.join(mdir, name)
            stamp, row = lines.file_stamp(path), known.get(path)  # stamp: "inode:size:mtime_ns"
            if stamp is None and row is not None:
                plan.append(("drop", path))
            elif stamp is not None and (row is None or row[1] != stamp):
                inode, size = stamp.split(":")[0], int(stamp.split(":")[1])
                # why the check: an edit in place (a secret overwritten) is read again whole, grown or not
                grew = (row is not None and row[1].split(":")[0] == inode and size > row[2]
                        and sources.check(path, row[2]) == row[4])
                resume = row[2:4] if grew and row is not None else (0, 0)
                plan.append(("jsonl", path, mdir, kind, stamp, *resume, size))
        unit = mdir + UNIT_HANDOFF
        names = (files.HANDOFF_STATE, files.HANDOFF)
        stamp = "|".join(str(lines.file_stamp(os.path.join(mdir, n))) for n in names)
        if unit not in known or known[unit][1] != stamp:
            plan.append(("handoff", unit, mdir, stamp))
    if ldir is not None:
        plan += _plan_learnings(conn, ldir, deep)
    return plan


def _files_in(conn: Connection, folder: str) -> dict[str, str]:
    """The learning files of ``folder`` the index knows, with their stamps."""
    bounds = (folder + os.sep, folder + chr(ord(os.sep) + 1))
    return dict(conn.execute("SELECT unit, stamp FROM source WHERE unit >= ? AND unit < ?", bounds).fetchall())


def _plan_learnings(conn: Connection, ldir: str, deep: bool | int) -> list[tuple[Any, ...]]:
    """The learning files to (re)index or drop. why: a month folder whose own ``stat`` is unchanged is
    skipped, unless ``deep`` (True, or a number of newest folders) names it."""
    plan: list[tuple] = []
    marks = _files_in(conn, FOLDER_PREFIX + ldir)  # the month folders' marks: the same range of the key
    folders = [os.path.join(ldir, m) for m in files.month_folders(ldir)]
    look = set(folders) if deep is True else set(folders[-deep:]) if deep else set()
    for folder in folders:
        unit = FOLDER_PREFIX + folder
        mark = lines.file_stamp(folder) or "missing"  # changes when a file in it is made, removed, replaced
        if folder not in look and marks.get(unit) == mark:
            continue
        known = _files_in(conn, folder)
        stamps = sources.file_stamps(folder)
        steps: list[tuple] = [("learning", p, stamp) for p, stamp in stamps.items() if known.get(p) != stamp]
        steps += [("drop", gone) for gone in known if gone not in stamps]
        if steps or marks.get(unit) != mark:
            steps.append(("folder", unit, mark))
        plan += steps
    seen = {FOLDER_PREFIX + folder for folder in folders}
    for unit in marks:
        if unit not in seen:  # a month folder gone: its files and its mark
            plan += [("drop", gone) for gone in [*_files_in(conn, unit[len(FOLDER_PREFIX):]), unit]]
    return plan


# --- bringing it up to date (the writer's) ---------------------------------------------------------

def refresh_within(conn: Connection, mdirs: list[str], ldir: str | None, deep: bool | int = False,
                   part: int = PART) -> tuple[int, bool]:
    """Bring the index up to date with ``mdirs`` and ``ldir``: (entries indexed, whether now up to date). Each
    part of at most ``part`` lines is its own transaction, so a killed build keeps what it committed."""
    count = 0
    last_plan: list[tuple[Any, ...]] | None = None
    while True:
        seen = conn.execute("PRAGMA data_version").fetchone()[0]
        plan = _plan(conn, mdirs, ldir, deep)
        if not plan:
            return count, True
        if plan == last_plan:  # why: a step that changes nothing would be planned for ever; never loop on it
            return count, False
        last_plan = plan
        # why: the write side only when there is something to write: a current index never loads it
        from lazy_harness.recall.index import apply, lexical_write

        conn.execute("BEGIN IMMEDIATE")
        with conn:  # commits, or rolls back on any exception
            # why: planned again when another connection wrote meanwhile: a line is never indexed twice
            if conn.execute("PRAGMA data_version").fetchone()[0] != seen:
                plan = _plan(conn, mdirs, ldir, deep)
            room = part
            pending: Pending = {}
            for step in plan:
                got, done = apply.apply(conn, step, room, pending)
                count += got
                room -= got
                if not done or room <= 0:
                    break
            lexical_write.flush(conn, pending)  # why: the part's entries in their lists, in its transaction
