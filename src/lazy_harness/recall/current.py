"""The index as commands open it: brought up to date with the memory files first, and built again
from them when it is found damaged on the way; and ``clear``, which forgets every entry. Not on the
prompt hook's path (the hook connects and catches up itself: ``recall.prompt``).
"""

from lazy_harness.recall import index


def clear(path: str) -> None:
    """Forget every entry of the index at ``path``, keeping the vectors (found again by their text's
    hash when the entries are indexed anew); an index that cannot be read is removed instead."""
    try:
        conn = index.connect(path)
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
        if not index.damaged(exc):
            raise
        index.remove(path)


def open_current(path: str, mdirs: list[str], ldir: str | None, deep: bool | int = False):
    """``index.connect`` then ``index.refresh``: (connection, entries indexed). An index found damaged
    on the way is removed and built again from the files, once."""
    return read_current(path, mdirs, ldir, None, deep)


def read_current(path: str, mdirs: list[str], ldir: str | None, read, deep: bool | int = False):
    """``index.connect``, ``index.refresh``, then ``read(conn)`` (None: return the open connection):
    (what ``read`` returned or the connection, entries indexed). An index found damaged on the way,
    the read included, is removed and built again from the files, once; with ``read`` the
    connection is closed before returning.

    why: the CLI once ran SQLite's ``quick_check`` first, so that a damaged page the refresh does
    not touch could not fail the search that follows; at 100,000 entries that check read the whole
    593 MB file (800 ms, and every page mapped into the process: 397 MB resident). A read that fails
    on such a page is retried on a rebuilt index instead."""
    for attempt in (1, 2):
        conn = index.connect(path)
        try:
            indexed = index.refresh(conn, mdirs, ldir, deep)
            if read is None:
                return conn, indexed
            return read(conn), indexed
        except Exception as exc:
            conn.close()
            conn = None
            if attempt == 2 or not index.damaged(exc):
                raise
            index.remove(path)
        finally:
            if read is not None and conn is not None:
                conn.close()
    raise AssertionError("unreachable")
