"""The search index: SQLite FTS5 (BM25, the porter stemmer) over every memory entry, kept in the cache.

    <cache>/recall/index.sqlite
      source(unit, stamp, offset, lines, check)   what each memory file looked like when indexed
      entry(rowid, unit, id, kind, mdir, origin, scope, file, line, ts, title, detail, uncued, cues, okey, prov)
                                                   cues: one per line ('' : none), for the embedder;
                                                   okey, prov: provenance (project key, origin phrase)
      hidden(unit, id, mdir)                       ids named by superseded/forgotten/merged markers, and
                                                   the memory folder they hide them in ('' : learnings)
      fts(title, body, tags)                       rowid = entry.rowid

The files are the truth and the index a cache: deleting it loses nothing, and ``refresh`` brings it
up to date before every search. The check is cheap: one ``stat`` per JSONL file and one per
learning month folder (``lh memory`` commands also ``stat`` every learning file, which sees a file
edited in place). A JSONL file that only grew (same inode, larger, the bytes before the old end
unchanged) is read from where the index stopped; any other change re-reads that file (an edit in
place that keeps the size too); a month folder of learnings
whose file list, sizes or times changed is re-read. So entries added, edited or deleted by hand show
up at the next search without a command.

Writers take SQLite's write lock (``BEGIN IMMEDIATE``) and look again at what is stale once they
hold it, so two hooks catching up at once index each line once. This module is on the prompt
hook's path: SQLite is imported inside the functions that need it, and as its C module ``_sqlite3``
(see ``sqlite``).
"""

import os

from lazy_harness.atomic import ensure_dir
from lazy_harness.memory import trust
from lazy_harness.recall import lexical, sources, vectors

VERSION = "11"  # 2: inactive learnings indexed and hidden; marks.jsonl; 3: identifier words in tags;
# 4: the entry count kept in meta; 5: cues indexed with the tags; 6: entries written without cues marked;
# 7: a marker hides an id in its own memory folder only; 8: the cues kept apart, one per line (the embedder);
# 9: provenance (memory/provenance.py): the project key a learning was written for, the origin phrase;
# 10: learnings a unit per file; entry vectors kept beside the entries (vectors.py); the bounded word lists (lexical.py)
# 11: the hold check's verdict kept with each entry (hold)
UNIT_HANDOFF = "#handoff"
FOLDER_PREFIX = "#folder:"  # + a month folder of learnings: its own stat when its files were last compared
CHECK_HEAD = 4096
PART = 2000  # lines of one JSONL file read in one transaction while the index is built
LEARNING_BYTES = 2048  # what reading one learning file is counted as, against a catch-up's budget
HANDOFF_BYTES = 8192
# why: FTS5 scores every entry a prompt's words reach, exactly and with the porter stemmer, at a cost
# that grows with the index (about 5 ms at 3,000 entries of a realistic memory, 25 to 50 at 18,000);
# the bounded lists cost the same at any size but find what porter stems alike less often (on the
# evaluation: recall@5 0.876 against 0.887 with similarity, 0.753 against 0.794 by words alone)
LISTS_FROM = 3000
MERGE_AFTER = 20  # entries waiting outside the lists past which the hook starts the builder
LEX_REBUILD = 500  # entries of one file dropped at once past which the lexical lists are made again
SHORTLIST = 4  # candidates ranks this many times its limit on the full-text table alone
CHECK_TAIL = 256
SCHEMA = (
    "CREATE TABLE IF NOT EXISTS meta(k TEXT PRIMARY KEY, v TEXT)",
    "CREATE TABLE IF NOT EXISTS source(unit TEXT PRIMARY KEY, stamp TEXT, offset INTEGER, lines INTEGER, "
    "check_ TEXT)",
    "CREATE TABLE IF NOT EXISTS entry(rowid INTEGER PRIMARY KEY, unit TEXT, id TEXT, kind TEXT, mdir TEXT, "
    "origin TEXT, scope TEXT, file TEXT, line INTEGER, ts TEXT, title TEXT, detail TEXT, uncued INTEGER, "
    "cues TEXT, okey TEXT, prov TEXT, hold TEXT)",
    "CREATE INDEX IF NOT EXISTS entry_unit ON entry(unit)",
    "CREATE INDEX IF NOT EXISTS entry_mdir ON entry(mdir)",
    "CREATE TABLE IF NOT EXISTS hidden(unit TEXT, id TEXT, mdir TEXT)",
    "CREATE INDEX IF NOT EXISTS hidden_id ON hidden(id)",
    "CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5(title, body, tags, "
    "tokenize='porter unicode61 remove_diacritics 2')",
    *vectors.SCHEMA,
    *lexical.SCHEMA,
)
KINDS = {"decisions.jsonl": "decision", "failures.jsonl": "failure", "marks.jsonl": "mark"}


def sqlite():
    """The SQLite module: ``_sqlite3``, the C module the ``sqlite3`` package wraps, whose connect,
    Connection and exceptions are the very objects ``sqlite3`` exports."""
    # why: the package also imports datetime and collections.abc, to register date adapters the index
    # never uses (measured: 1.7 ms of the 5.5 ms that importing sqlite3 adds to a start; 2.7 to 5.4 ms
    # in benchmarks/bench_private_modules.py)
    try:
        import _sqlite3

        return _sqlite3
    except ImportError:  # pragma: no cover - an interpreter that ships the package only
        import sqlite3

        return sqlite3


def connect(path: str, timeout: float = 5.0):
    """Open (creating it when needed) the index at ``path``. An index that is not a database, or of
    another version, is deleted and started again: it is only a cache."""
    sqlite3 = sqlite()

    ensure_dir(os.path.dirname(path))  # every folder it creates private to the user, as the file
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))  # why: SQLite would create it 0644
    except OSError:
        pass  # connect says what is wrong
    for attempt in (1, 2):
        conn = None
        try:
            conn = sqlite3.connect(path, timeout=timeout, isolation_level=None)
            _wal(conn, sqlite3, timeout)
            # why: a cache; with OFF neither a commit nor the checkpoint at close waits for the disk
            # (2.7 ms down to 0.9 ms when the prompt hook catches up). A process killed mid-write
            # loses nothing; a machine that loses power can leave a damaged file, which ``damaged``
            # recognises and the callers rebuild
            conn.execute("PRAGMA synchronous=OFF")
            # no mmap: mapped pages saved about a millisecond of a fresh connection's search but cost
            # 2 to 7 ms to unmap at close or exit, and count in a long-lived process's resident set
            # (the whole index, in time); measured in CPU time, the prompt hook alone at 18,000
            # entries went from 3.5x to 3.2x a bare start without it
            row = None
            try:
                row = conn.execute("SELECT v FROM meta WHERE k='version'").fetchone()
            except sqlite3.OperationalError as exc:
                if "no such table" not in str(exc):
                    raise
            if row is not None and row[0] == VERSION:
                return conn
            if row is not None:
                raise sqlite3.DatabaseError(f"index version {row[0]}")
            conn.execute("BEGIN IMMEDIATE")
            for stmt in SCHEMA:
                conn.execute(stmt)
            conn.execute("INSERT OR REPLACE INTO meta VALUES ('version', ?)", (VERSION,))
            conn.execute("INSERT OR REPLACE INTO meta VALUES ('entries', '0')")
            conn.execute("COMMIT")
            return conn
        except Exception as exc:  # why: a damaged file fails in other types too (see ``damaged``)
            if conn is not None:
                conn.close()
            # why: busy or locked is not damage: another process is writing the index (three hooks
            # building it at once, say), and removing the file under it loses its work
            if attempt == 2 or not damaged(exc):
                raise
            remove(path)
    raise AssertionError("unreachable")


def _wal(conn, sqlite3, timeout: float) -> None:
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
            # why: switching needs the file to itself, and SQLite answers "locked" at once, without
            # its busy timeout, while another process holds it (which is switching it too, at most)
            if "locked" not in str(exc) or time.monotonic() >= deadline:
                raise
            time.sleep(0.005)


def damaged(exc: BaseException) -> bool:
    """Whether ``exc``, raised while opening or reading the index, means the file must be built again:
    any error but another process holding it (busy, locked), an interrupted statement, a memory file
    that cannot be read (OSError: SQLite reports its own file in its own exceptions), or the
    interpreter itself failing (memory, exit, Ctrl-C).

    why: a damaged file fails in more than SQLite's own words. When the name of a schema object is
    not UTF-8, SQLite's "malformed database schema (...)" message cannot be decoded and Python raises
    UnicodeDecodeError; a missing table is an OperationalError. Any of these left the index broken
    for every later prompt. The index is a cache: building it again loses nothing.
    """
    sqlite3 = sqlite()

    if not isinstance(exc, Exception) or isinstance(exc, (MemoryError, OSError)):
        return False
    if isinstance(exc, sqlite3.OperationalError):
        said = str(exc).lower()
        return not any(word in said for word in ("locked", "busy", "interrupt"))
    return True


def clear(path: str) -> None:
    """Forget every entry of the index at ``path``, keeping the vectors (found again by their text's
    hash when the entries are indexed anew); an index that cannot be read is removed instead."""
    try:
        conn = connect(path)
        try:
            conn.execute("BEGIN IMMEDIATE")
            for table in ("entry", "fts", "hidden", "source", "key", "lex_doc", "lex_key", "lex_total", "lex_scope",
                      "lex_new"):
                conn.execute(f"DELETE FROM {table}")
            conn.execute("UPDATE meta SET v='0' WHERE k='entries'")
            conn.execute("COMMIT")
        finally:
            conn.close()
    except Exception as exc:
        if not damaged(exc):
            raise
        remove(path)


def remove(path: str) -> None:
    """Delete the index and its WAL files."""
    for suffix in ("", "-wal", "-shm"):
        try:
            os.unlink(path + suffix)
        except FileNotFoundError:
            pass


# --- staleness -------------------------------------------------------------------------------------

def _stat_stamp(path: str) -> tuple[str | None, os.stat_result | None]:
    try:
        st = os.stat(path)
    except OSError:
        return None, None
    return f"{st.st_ino}:{st.st_size}:{st.st_mtime_ns}", st


def _check(path: str, offset: int) -> str:
    """A digest of the head of the file and of the bytes just before ``offset``."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(min(CHECK_HEAD, offset))
            start = max(0, offset - CHECK_TAIL)
            fh.seek(start)
            tail = fh.read(offset - start)
    except OSError:
        return ""
    return sources.hash_text(head.hex() + ":" + tail.hex())


def _handoff_stamp(mdir: str) -> str:
    return "|".join(str(_stat_stamp(os.path.join(mdir, n))[0]) for n in (sources.HANDOFF_JSONL, "handoff.md"))


def _plan(conn, mdirs: list[str], ldir: str | None, deep: bool | int = False) -> list[tuple]:
    """What is stale: (action, unit, ...) tuples; empty when the index matches the files. Learnings:
    a month folder whose own stat changed is stale; with ``deep`` also one where a file's size or
    time changed (a ``stat`` per learning file: the builder does it for every folder, ``lh memory
    search`` for the newest ``deep`` when it is a number, the prompt hook for none)."""
    known = {}
    units = [os.path.join(m, f) for m in mdirs for f in KINDS] + [m + UNIT_HANDOFF for m in mdirs]
    for start in range(0, len(units), 500):
        chunk = units[start:start + 500]
        for row in conn.execute(f"SELECT unit, stamp, offset, lines, check_ FROM source WHERE unit IN "
                                f"({','.join('?' * len(chunk))})", chunk):
            known[row[0]] = row
    plan: list[tuple] = []
    for mdir in mdirs:
        for name, kind in KINDS.items():
            path = os.path.join(mdir, name)
            stamp, st = _stat_stamp(path)
            row = known.get(path)
            if stamp is None or st is None:
                if row is not None:
                    plan.append(("drop", path))
                continue
            if row is not None and row[1] == stamp:
                continue
            # why: the same size with a new stamp is an edit in place (a typo fixed, a secret overwritten
            # with as many characters), which the check of the head and the end may not see
            grew = (row is not None and row[1].split(":")[0] == str(st.st_ino) and st.st_size > row[2]
                    and _check(path, row[2]) == row[4])
            resume = (row[2], row[3]) if grew and row is not None else (0, 0)
            plan.append(("jsonl", path, mdir, kind, stamp, *resume, st.st_size))
        unit = mdir + UNIT_HANDOFF
        stamp = _handoff_stamp(mdir)
        row = known.get(unit)
        if row is None or row[1] != stamp:
            plan.append(("handoff", unit, mdir, stamp))
    if ldir is not None:
        plan += _plan_learnings(conn, ldir, deep)
    return plan


def _folder_unit(folder: str) -> str:
    return FOLDER_PREFIX + folder


def _files_in(conn, folder: str) -> dict[str, str]:
    """The learning files of ``folder`` the index knows, with their stamps (a range of the key)."""
    lo = folder + os.sep
    hi = folder + chr(ord(os.sep) + 1)
    return dict(conn.execute("SELECT unit, stamp FROM source WHERE unit >= ? AND unit < ?", (lo, hi)).fetchall())


def _plan_learnings(conn, ldir: str, deep: bool | int) -> list[tuple]:
    """The learning files to (re)index or drop. A month folder whose own ``stat`` is unchanged is
    skipped without looking inside (the hook's path: one small range of the index read), unless
    ``deep`` is True or a number of newest folders it is among; otherwise each file is a unit of its
    own, compared by its size and time: a new learning costs one file read, not the folder's."""
    plan: list[tuple] = []
    lo = _folder_unit(ldir + os.sep)
    marks = dict(conn.execute("SELECT unit, stamp FROM source WHERE unit >= ? AND unit < ?",
                              (lo, _folder_unit(ldir + chr(ord(os.sep) + 1)))).fetchall())
    seen = set()
    folders = sources.month_folders(ldir)
    look = set(folders) if deep is True else set(folders[-deep:]) if deep else set()
    for folder in folders:
        unit = _folder_unit(folder)
        seen.add(unit)
        mark = sources.folder_mark(folder)
        if folder not in look and marks.get(unit) == mark:
            continue
        known = _files_in(conn, folder)
        stamps = sources.file_stamps(folder)
        before = len(plan)
        for path, stamp in stamps.items():
            if known.get(path) != stamp:
                plan.append(("learning", path, stamp))
        plan += [("drop", gone) for gone in known if gone not in stamps]
        if len(plan) > before or marks.get(unit) != mark:
            plan.append(("folder", unit, mark))
    for unit in marks:
        if unit not in seen:  # a month folder gone: its files and its mark
            plan += [("drop", gone) for gone in _files_in(conn, unit[len(FOLDER_PREFIX):])]
            plan.append(("drop", unit))
    return plan


# --- writing ---------------------------------------------------------------------------------------

def _count(conn, delta: int) -> None:
    if delta:
        conn.execute("UPDATE meta SET v = CAST(v AS INTEGER) + ? WHERE k='entries'", (delta,))


def _drop(conn, unit: str) -> None:
    vectors.drop(conn, unit)
    rowids = [r for (r,) in conn.execute("SELECT rowid FROM entry WHERE unit=?", (unit,))]
    if rowids:
        mdir = conn.execute("SELECT mdir FROM entry WHERE unit=? LIMIT 1", (unit,)).fetchone()[0]
        if len(rowids) > LEX_REBUILD and lexical.ready(conn, mdir):
            # why: taking thousands of entries out of the lists one by one costs more than making the
            # scope's lists again, which the builder does in parts (a file rewritten by hand)
            lexical.start_build(conn, mdir)
        else:
            lexical.remove(conn, rowids)
    conn.execute("DELETE FROM fts WHERE rowid IN (SELECT rowid FROM entry WHERE unit=?)", (unit,))
    _count(conn, -conn.execute("DELETE FROM entry WHERE unit=?", (unit,)).rowcount)
    conn.execute("DELETE FROM hidden WHERE unit=?", (unit,))
    conn.execute("DELETE FROM source WHERE unit=?", (unit,))


def last_rowid(conn) -> int:
    """The highest rowid handed out so far: entries indexed later have higher ones."""
    row = conn.execute("SELECT max(coalesce((SELECT max(rowid) FROM entry), 0), "
                       "coalesce((SELECT CAST(v AS INTEGER) FROM meta WHERE k='rowid'), 0))").fetchone()
    return int(row[0])


def _insert(conn, unit: str, mdir: str, entries: list[dict]) -> None:
    if not entries:
        return
    # why: rowids handed out here let both tables be filled by one executemany each (a statement
    # per row cost 1 ms per 100 entries on the prompt hook's catch-up path); the write lock is held
    # why: never a rowid handed out before, even after a delete: what was indexed after a point is what
    # has a higher rowid (``last_rowid``: the prompt hook embeds what its catch-up indexed)
    first = last_rowid(conn) + 1
    conn.execute("INSERT OR REPLACE INTO meta VALUES ('rowid', ?)", (str(first + len(entries) - 1),))
    # why: the hold check's verdict on the text the prompt hook would inject, made once here (its
    # rules cost tens of milliseconds to compile), read by the hook with the entry (recall/fence.py)
    conn.executemany("INSERT INTO entry(rowid, unit, id, kind, mdir, origin, scope, file, line, ts, title, detail, "
                     "uncued, cues, okey, prov, hold) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                     [(first + n, unit, e["id"], e["kind"], mdir, e["origin"], e["scope"], e["file"], e["line"],
                       e["ts"], e["title"], e["detail"], int(e.get("uncued", False)), e.get("cues", ""),
                       e.get("okey", ""), e.get("prov", ""),
                       trust.reason(f"{e['title'] or ''} {e['detail'] or ''}") or "")
                      for n, e in enumerate(entries)])
    conn.executemany("INSERT INTO fts(rowid, title, body, tags) VALUES (?,?,?,?)",
                     [(first + n, e["title"], e["body"], e["tags"]) for n, e in enumerate(entries)])
    conn.executemany("INSERT INTO key(rowid, n, key) VALUES (?,?,?)", vectors.keys_rows(first, entries))
    if conn.execute("SELECT 1 FROM lex_scope WHERE scope=?", (mdir,)).fetchone() is None:
        lexical.start_build(conn, mdir)  # why: a new scope's lists are made at once by the builder
    # why: putting an entry in its lists costs about 13 ms; here it is only stored (found by every
    # search at once) and the builder or the worker puts it in its lists (``lexical.merge_new``)
    lexical.add(conn, mdir, [(first + n, e["title"], e["body"], e["tags"]) for n, e in enumerate(entries)], defer=True)
    _count(conn, len(entries))


def _apply(conn, step: tuple, budget: int | None) -> tuple[int, bool]:
    """Carry out one step of a plan, or its first ``budget`` lines (a JSONL file read in parts: a
    build stopped between two parts goes on from where the last one ended). Returns (entries
    (re)indexed, whether the step is done)."""
    action, unit = step[0], step[1]
    if action == "drop":
        _drop(conn, unit)
        return 0, True
    if action == "jsonl":
        _, path, mdir, kind, stamp, offset, lines, size = step
        if offset == 0:
            _drop(conn, unit)
        # why: up to the size the stamp was taken at: a line appended since is read next time, from
        # here, instead of the stamp not matching what was read and the whole file being read again
        entries, hidden, end, read = sources.read_jsonl(path, kind, offset, lines, size, max_lines=budget)
        _insert(conn, unit, mdir, entries)
        conn.executemany("INSERT INTO hidden(unit, id, mdir) VALUES (?,?,?)", [(unit, h, mdir) for h in hidden])
        done = budget is None or end == 0 or end >= size or read - lines < budget
        lines = read
        # why: a part read so far keeps the file's inode but not its stamp, so the next plan sees the
        # file stale and, its head unchanged, reads on from ``end``
        kept = stamp if done else stamp.split(":")[0] + ":partial"
        conn.execute("INSERT OR REPLACE INTO source VALUES (?,?,?,?,?)", (unit, kept, end, lines, _check(path, end)))
        return len(entries), done
    if action == "handoff":
        _, _, mdir, stamp = step
        _drop(conn, unit)
        _, entries = sources.read_handoff(mdir)
        _insert(conn, unit, mdir, entries)
        conn.execute("INSERT OR REPLACE INTO source VALUES (?,?,?,?,?)", (unit, stamp, 0, 0, ""))
        return len(entries), True
    if action == "folder":
        conn.execute("INSERT OR REPLACE INTO source VALUES (?,?,?,?,?)", (unit, step[2], 0, 0, ""))
        return 0, True
    _drop(conn, unit)
    entry = sources.read_learning(unit, inactive=True)
    if entry is not None:
        _insert(conn, unit, "", [entry])
        if entry.get("status") != "active":
            # why: kept in the index (lh memory search --all shows it) but hidden like a marked entry
            conn.execute("INSERT INTO hidden(unit, id, mdir) VALUES (?,?,?)", (unit, entry["id"], ""))
    conn.execute("INSERT OR REPLACE INTO source VALUES (?,?,?,?,?)", (unit, step[2], 0, 0, ""))
    return int(entry is not None), True


def refresh(conn, mdirs: list[str], ldir: str | None, deep: bool | int = False) -> int:
    """Bring the index up to date with ``mdirs`` and the learnings folder ``ldir``; returns how many
    entries were indexed (0 when nothing had changed: then no write lock is taken)."""
    return refresh_within(conn, mdirs, ldir, deep)[0]


def lexical_source(conn, scope: str):
    """The entries of ``scope`` in rowid order, as ``lexical.build`` reads them."""
    def source(after: int, limit: int):
        return conn.execute("SELECT e.rowid, f.title, f.body, f.tags FROM entry e JOIN fts f ON f.rowid = e.rowid "
                            "WHERE e.mdir = ? AND e.rowid > ? ORDER BY e.rowid LIMIT ?",
                            (scope, after, limit)).fetchall()
    return source


def build_lexical(conn, merge_part: int = 200, up_to: int | None = None) -> tuple[int, int]:
    """Make the lexical lists of every scope whose build is under way (in resumable steps, each its
    own transaction) and put the entries added since into their lists: (scopes built, entries merged).
    With ``up_to`` (the prompt hook): only scopes of at most that many entries, and nothing merged."""
    built = 0
    for (scope,) in conn.execute("SELECT scope FROM lex_scope WHERE cursor IS NOT NULL").fetchall():
        if up_to is not None and conn.execute("SELECT count(*) FROM entry WHERE mdir=?",
                                              (scope,)).fetchone()[0] > up_to:
            continue
        lexical.build(conn, scope, lexical_source(conn, scope))
        built += 1
    if up_to is not None:
        return built, 0
    merged = 0
    while True:
        conn.execute("BEGIN IMMEDIATE")
        try:
            got = lexical.merge_new(conn, merge_part)
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        merged += got
        if got < merge_part:
            return built, merged


def lexical_ready(conn, scopes: list[str]) -> bool:
    """Whether every one of ``scopes`` can be searched by ``lexical.search``; else FTS5 answers."""
    return all(lexical.ready(conn, s) for s in scopes)


def needs_build(conn) -> bool:
    """Whether the builder has lexical work: a scope's lists to make, or many entries to merge."""
    return (conn.execute("SELECT 1 FROM lex_scope WHERE cursor IS NOT NULL LIMIT 1").fetchone() is not None
            or lexical.pending(conn) > MERGE_AFTER)


def pending_bytes(plan: list[tuple]) -> int:
    """About how many bytes of memory files ``plan`` reads: what a catch-up costs."""
    total = 0
    for step in plan:
        if step[0] == "jsonl":
            total += step[7] - step[5]  # size - offset
        elif step[0] == "learning":
            total += LEARNING_BYTES
        elif step[0] == "handoff":
            total += HANDOFF_BYTES
    return total


def refresh_within(conn, mdirs: list[str], ldir: str | None, deep: bool | int = False, max_bytes: int | None = None,
                   part: int = PART) -> tuple[int, bool]:
    """``refresh``, unless more than ``max_bytes`` of files wait to be read (None: no limit): then
    nothing is written. Returns (entries indexed, whether the index is now up to date). Each part of
    at most ``part`` lines is its own transaction, so a build killed at any moment keeps every part
    it committed, and the next call goes on from there."""
    count, last = 0, None
    while True:
        seen = conn.execute("PRAGMA data_version").fetchone()[0]
        plan = _plan(conn, mdirs, ldir, deep)
        if not plan:
            return count, True
        if plan == last:  # why: a step that changes nothing would be planned for ever; never loop on it
            return count, False
        last = plan
        if max_bytes is not None and pending_bytes(plan) > max_bytes:
            return count, False
        conn.execute("BEGIN IMMEDIATE")
        try:
            # why: planned again under the lock only when another connection wrote meanwhile (two hooks
            # catching up at once must index each line once); otherwise the plan still holds
            if conn.execute("PRAGMA data_version").fetchone()[0] != seen:
                plan = _plan(conn, mdirs, ldir, deep)
            room = part
            for step in plan:
                got, done = _apply(conn, step, room)
                count += got
                room -= got
                if not done or room <= 0:
                    break
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise


def open_current(path: str, mdirs: list[str], ldir: str | None, deep: bool | int = False):
    """``connect`` then ``refresh``: (connection, entries indexed). An index found damaged on the
    way is removed and built again from the files, once."""
    return read_current(path, mdirs, ldir, None, deep)


def read_current(path: str, mdirs: list[str], ldir: str | None, read, deep: bool | int = False):
    """``connect``, ``refresh``, then ``read(conn)`` (None: return the open connection): (what
    ``read`` returned or the connection, entries indexed). An index found damaged on the way, the
    read included, is removed and built again from the files, once; with ``read`` the connection
    is closed before returning.

    why: the CLI once ran SQLite's ``quick_check`` first, so that a damaged page the refresh does
    not touch could not fail the search that follows; at 100,000 entries that check read the whole
    593 MB file (800 ms, and every page mapped into the process: 397 MB resident). A read that fails
    on such a page is retried on a rebuilt index instead."""
    for attempt in (1, 2):
        conn = connect(path)
        try:
            indexed = refresh(conn, mdirs, ldir, deep)
            if read is None:
                return conn, indexed
            return read(conn), indexed
        except Exception as exc:
            conn.close()
            conn = None
            if attempt == 2 or not damaged(exc):
                raise
            remove(path)
        finally:
            if read is not None and conn is not None:
                conn.close()
    raise AssertionError("unreachable")


# --- reading ---------------------------------------------------------------------------------------

COLUMNS = "e.rowid, e.id, e.kind, e.origin, e.scope, e.file, e.line, e.ts, e.title, e.detail, e.mdir, e.uncued"
FIELD_WEIGHTS = (3.0, 1.0, 2.0)  # title (summary), body, tags


def scope_sql(mdirs: list[str] | None, project: str | None) -> tuple[str, list]:
    """The WHERE clause keeping a project's entries, its own learnings and every general learning;
    ``mdirs`` None means everything indexed."""
    if mdirs is None:
        return "1", []
    marks = ",".join("?" * len(mdirs))
    return (f"(e.mdir IN ({marks}) OR (e.kind='learning' AND (e.origin=? OR e.scope='general')))",
            [*mdirs, project or ""])


def candidates(conn, query: str, where: str, args: list, limit: int, hidden_too: bool = False) -> list[tuple]:
    """Rows (with their BM25 score, lower is better) of visible entries matching ``query``; with
    ``hidden_too`` also the superseded, merged, forgotten and deprecated ones."""
    w = ",".join(str(x) for x in FIELD_WEIGHTS)
    # why: ids of decisions and failures come from their summary, so two projects can hold the same
    # id; a marker hides it in its own memory folder only. A learning's id names its origin project,
    # and a learning is one file whichever project sees it: hidden anywhere, hidden everywhere
    visible = "" if hidden_too else (" AND NOT EXISTS (SELECT 1 FROM hidden h WHERE h.id = e.id "
                                     "AND (h.mdir = e.mdir OR e.kind = 'learning'))")
    # why: the best matches are ranked on the full-text table alone first, and only those are joined
    # with their entries and filtered: joining and filtering every match (1,500 at 18,000 entries)
    # took half the prompt's search. When too few of them are this project's and visible, the whole
    # query below gives the same answer the slow way
    top = conn.execute(f"SELECT rowid, bm25(fts, {w}) AS s FROM fts WHERE fts MATCH ? ORDER BY s, rowid LIMIT ?",
                       [query, limit * SHORTLIST]).fetchall()
    if top:
        score = dict(top)
        marks = ",".join("?" * len(top))
        found = conn.execute(f"SELECT {COLUMNS} FROM entry e WHERE e.rowid IN ({marks}) AND {where}{visible}",
                             [*score, *args]).fetchall()
        if len(found) >= limit or len(top) < limit * SHORTLIST:
            found.sort(key=lambda r: (score[r[0]], r[0]))
            return [(*r, score[r[0]]) for r in found[:limit]]
    else:
        return []
    sql = (f"SELECT {COLUMNS}, bm25(fts, {w}) AS s FROM fts JOIN entry e ON e.rowid = fts.rowid "
           f"WHERE fts MATCH ? AND {where}{visible} ORDER BY s, e.rowid LIMIT ?")
    return conn.execute(sql, [query, *args, limit]).fetchall()


def provenance_of(conn, rowids: list[int]) -> dict[int, tuple[str, str, str | None]]:
    """``{rowid: (project key, origin phrase, hold)}`` of entries (memory/provenance.py): ``hold``, the
    hold check's reason for the entry's title and detail as they were indexed ("" none, None not
    checked)."""
    if not rowids:
        return {}
    marks = ",".join("?" * len(rowids))
    return {r[0]: (r[1] or "", r[2] or "", r[3]) for r in conn.execute(
        f"SELECT rowid, okey, prov, hold FROM entry WHERE rowid IN ({marks})", rowids)}


def lexical_candidates(conn, groups: list[list[str]], scopes: list[str], where: str, args: list, limit: int,
                       hidden_too: bool = False) -> tuple[list[tuple], list[int], dict[int, set[int]], int]:
    """``candidates`` from the lexical lists (``lexical.search``: bounded, whatever the memory's size):
    (rows as ``candidates`` gives them, each group's entry count, rowid -> the groups it matches,
    entries in the index)."""
    hits, facts = lexical.search(conn, scopes, groups, limit)
    if not hits:
        return [], facts["df"], {}, facts["N"]
    score = {h[0]: h[1] for h in hits}
    visible = "" if hidden_too else (" AND NOT EXISTS (SELECT 1 FROM hidden h WHERE h.id = e.id "
                                     "AND (h.mdir = e.mdir OR e.kind = 'learning'))")
    found = conn.execute(f"SELECT {COLUMNS} FROM entry e WHERE e.rowid IN ({','.join('?' * len(score))}) "
                         f"AND {where}{visible}", [*score, *args]).fetchall()
    found.sort(key=lambda r: (score[r[0]], r[0]))
    return ([(*r, score[r[0]]) for r in found[:limit]], facts["df"], {h[0]: h[2] for h in hits}, facts["N"])


def count_and_match(conn, query: str, rowids: list[int]) -> tuple[int, set[int]]:
    """(how many entries match ``query``, which of ``rowids`` do): one statement for both."""
    if not rowids:
        return doc_count(conn, query), set()
    marks = ",".join("?" * len(rowids))
    n, found = conn.execute(f"SELECT count(*), group_concat(CASE WHEN rowid IN ({marks}) THEN rowid END) "
                            f"FROM fts WHERE fts MATCH ?", [*rowids, query]).fetchone()
    return n, {int(x) for x in found.split(",")} if found else set()


def doc_count(conn, query: str | None = None) -> int:
    """How many entries match ``query``; without one, how many are indexed (kept in ``meta``:
    ``count(*)`` reads the whole table, 1 to 6 ms at 18,000 entries)."""
    if query is None:
        row = conn.execute("SELECT v FROM meta WHERE k='entries'").fetchone()
        return int(row[0]) if row else 0
    return conn.execute("SELECT count(*) FROM fts WHERE fts MATCH ?", (query,)).fetchone()[0]
