"""The word lists' write side (the index's writer, not a hook): ``lex_scope`` (a scope's entries, words,
average length, entries lost from lists not complete), ``lex_doc`` (an entry's words per column),
``lex_key`` (a key's df and its best ``CHAMPIONS``), ``lex_total`` (df over the scopes). An entry goes into
its lists in the transaction that indexes it (ADR 0049)."""

from __future__ import annotations

import sys
from bisect import bisect_left

from lazy_harness.recall.index import lexical_keys, lookup

TYPE_CHECKING = False
if TYPE_CHECKING:
    from sqlite3 import Connection

    # scope -> (rowid, length, its columns' words) of entries added in this transaction, not in lists yet
    Pending = dict[str, list[tuple[int, int, list[list[str]]]]]

MAX_ROWID = 2**31 - 1
SCHEMA = (
    ("CREATE TABLE IF NOT EXISTS lex_scope(scope TEXT PRIMARY KEY, docs INTEGER NOT NULL DEFAULT 0, "
     "tokens INTEGER NOT NULL DEFAULT 0, avgdl REAL NOT NULL DEFAULT 0, short INTEGER NOT NULL DEFAULT 0)"),
    ("CREATE TABLE IF NOT EXISTS lex_doc(rowid INTEGER PRIMARY KEY, scope TEXT NOT NULL, len INTEGER NOT NULL, "
     "toks TEXT NOT NULL)"),
    "CREATE INDEX IF NOT EXISTS lex_doc_scope ON lex_doc(scope)",
    ("CREATE TABLE IF NOT EXISTS lex_key(scope TEXT NOT NULL, key TEXT NOT NULL, df INTEGER NOT NULL, "
     "list BLOB NOT NULL, PRIMARY KEY(scope, key)) WITHOUT ROWID"),
    "CREATE TABLE IF NOT EXISTS lex_total(key TEXT PRIMARY KEY, df INTEGER NOT NULL) WITHOUT ROWID",
)
_LISTS = "SELECT key, df, list FROM lex_key WHERE scope=? AND key IN ({})"


def update_totals(conn: Connection, delta: dict[str, int]) -> None:
    """Add ``delta`` to each key's df over the whole index; a key no entry holds any more goes."""
    conn.executemany("INSERT INTO lex_total(key, df) VALUES (?, ?) "
                     "ON CONFLICT(key) DO UPDATE SET df = df + excluded.df",
                     [(k, d) for k, d in delta.items() if d])
    conn.executemany("DELETE FROM lex_total WHERE key=? AND df <= 0", [(k,) for k, d in delta.items() if d < 0])


def add(conn: Connection, scope: str, docs: list[tuple[int, str, str, str]], pending: Pending) -> None:
    """Index ``docs`` (rowid, title, body, tags) in ``scope``, replacing a rowid (``flush`` lists them)."""
    if any(not 0 < d[0] <= MAX_ROWID for d in docs):
        raise ValueError(f"lexical index: rowid out of range 1..{MAX_ROWID}")
    old = lookup.rows_in(conn, "SELECT rowid FROM lex_doc WHERE rowid IN ({})", [d[0] for d in docs])
    if old:
        remove(conn, [r for (r,) in old], pending)
    words = [(rowid, [lexical_keys.tokens(t or "") for t in texts]) for rowid, *texts in docs]
    parsed = [(rowid, sum(map(len, cols)), cols) for rowid, cols in words]
    conn.executemany("INSERT OR REPLACE INTO lex_doc(rowid, scope, len, toks) VALUES (?,?,?,?)",
                     [(rowid, scope, dl, "\n".join(map(" ".join, cols))) for rowid, dl, cols in parsed])
    pending.setdefault(scope, []).extend(parsed)


def flush(conn: Connection, pending: Pending) -> None:
    """Put the entries ``add`` left in ``pending`` into their lists, one merge per key for a whole part."""
    for scope, parsed in pending.items():
        if not parsed:
            continue
        conn.execute("INSERT OR IGNORE INTO lex_scope(scope) VALUES (?)", (scope,))
        sql = "SELECT docs, tokens, avgdl FROM lex_scope WHERE scope=?"
        n_docs, n_tokens, avgdl = conn.execute(sql, (scope,)).fetchone()
        added = sum(p[1] for p in parsed)
        if not avgdl:
            # why: the impacts of an empty scope's first entries are measured against their own average
            avgdl = max(1.0, (n_tokens + added) / (n_docs + len(parsed)))
        fresh: dict[str, list[tuple[int, int]]] = {}
        for rowid, dl, cols in parsed:
            # why: within an entry the impact depends on the weighted frequency alone: computed once each
            seen: dict[float, int] = {}
            for key, f in lexical_keys.weighted(cols).items():
                q = seen.get(f)
                if q is None:
                    q = seen[f] = lexical_keys.impact(f, dl, avgdl)
                fresh.setdefault(key, []).append((q, rowid))
        _merge(conn, scope, fresh)
        update_totals(conn, {k: len(v) for k, v in fresh.items()})
        conn.execute("UPDATE lex_scope SET docs = docs + ?, tokens = tokens + ?, avgdl = ? WHERE scope=?",
                     (len(parsed), added, avgdl, scope))
    pending.clear()


def _merge(conn: Connection, scope: str, fresh: dict[str, list[tuple[int, int]]]) -> None:
    """Insert new (impact, rowid) entries into the scope's lists, each kept the best of its key."""
    known = {k: (df, blob) for k, df, blob in lookup.rows_in(conn, _LISTS, list(fresh), scope)}
    out = []
    cap, rank = lookup.CHAMPIONS, lexical_keys.rank
    for k, new in fresh.items():
        df, blob = known.get(k, (0, b""))
        if len(new) == 1:  # the usual case of an update: one new entry for the key
            out.append((scope, k, df + 1, _insert_one(blob, df, new[0])))
            continue
        n = len(blob) // 6
        if n and (n < df or n >= cap):
            # why filtered before decoding: in a first build most lists are full and most new entries after
            ids, qs = lookup.columns(blob)
            last = (-qs[n - 1], ids[n - 1])
            new = [e for e in new if rank(e) < last]
        elif n < df:
            new = []
        if new:
            blob = lexical_keys.encode(sorted(lexical_keys.decode(blob) + new if n else new, key=rank)[:cap])
        out.append((scope, k, df + len(fresh[k]), blob))
    conn.executemany("INSERT OR REPLACE INTO lex_key(scope, key, df, list) VALUES (?,?,?,?)", out)


def _insert_one(blob: bytes, df: int, entry: tuple[int, int]) -> bytes:
    """``blob`` with one more (impact, rowid) where it ranks, by slicing bytes (decoding and sorting cost
    11 ms for one entry's 220 keys); unchanged when it ranks after the last of a full or not complete list."""
    n = len(blob) // 6
    ids, qs = lookup.columns(blob)
    q, r = entry
    lo = bisect_left(range(n), (-q, r), key=lambda i: (-qs[i], ids[i]))  # the first that ranks after it
    if lo == n and (n < df or n >= lookup.CHAMPIONS):
        return blob
    keep = min(n, lookup.CHAMPIONS - 1)  # entries of the old list that stay
    rid, imp = r.to_bytes(4, sys.byteorder, signed=True), q.to_bytes(2, sys.byteorder)
    return (blob[:4 * lo] + rid + blob[4 * lo:4 * keep] + blob[4 * n:4 * n + 2 * lo] + imp
            + blob[4 * n + 2 * lo:4 * n + 2 * keep])


def _without(blob: bytes, gone: set[int]) -> tuple[bytes, int]:
    """``blob`` without the entries of ``gone``, and how many it lost."""
    n = len(blob) // 6
    if len(gone) == 1 and n >= 64:
        # why: a search for its bytes in C instead of a walk over the list in Python
        packed, at = next(iter(gone)).to_bytes(4, sys.byteorder, signed=True), -1
        while True:
            at = blob.find(packed, at + 1, 4 * n)
            if at < 0 or at % 4 == 0:
                break
        drop = [at // 4] if at >= 0 else []
    else:
        drop = [i for i, r in enumerate(lookup.columns(blob)[0]) if r in gone]
    if not drop:
        return blob, 0
    ids, qs, start = [], [], 0
    for i in [*drop, n]:  # the runs between dropped entries
        ids.append(blob[4 * start:4 * i])
        qs.append(blob[4 * n + 2 * start:4 * n + 2 * i])
        start = i + 1
    return b"".join(ids) + b"".join(qs), len(drop)


def remove(conn: Connection, rowids: list[int], pending: Pending | None = None) -> None:
    """Drop entries from the index (unknown rowids ignored; one still in ``pending`` only loses its words);
    a list not complete gets shorter (``lex_scope.short``, for ``lexical_build``)."""
    if pending:
        gone = set(rowids)
        for scope, parsed in pending.items():
            waiting = [p[0] for p in parsed if p[0] in gone]
            if waiting:
                pending[scope] = [p for p in parsed if p[0] not in gone]
                lookup.rows_in(conn, "DELETE FROM lex_doc WHERE rowid IN ({})", waiting)
                gone -= set(waiting)
        rowids = [r for r in rowids if r in gone]
    by_scope: dict[str, list[tuple[int, int, str]]] = {}
    sql = "SELECT rowid, scope, len, toks FROM lex_doc WHERE rowid IN ({})"
    for rowid, scope, dl, toks in lookup.rows_in(conn, sql, list(rowids)):
        by_scope.setdefault(scope, []).append((rowid, dl, toks))
    for scope, docs in by_scope.items():
        lookup.rows_in(conn, "DELETE FROM lex_doc WHERE rowid IN ({})", [d[0] for d in docs])
        lose: dict[str, set[int]] = {}
        for rowid, _, toks in docs:
            for key in lexical_keys.weighted(lexical_keys.split(toks)):
                lose.setdefault(key, set()).add(rowid)
        short = _drop(conn, scope, lose)
        update_totals(conn, {k: -len(v) for k, v in lose.items()})
        conn.execute("UPDATE lex_scope SET docs = docs - ?, tokens = tokens - ?, short = short + ? WHERE scope=?",
                     (len(docs), sum(d[1] for d in docs), short, scope))


def _drop(conn: Connection, scope: str, lose: dict[str, set[int]]) -> int:
    """Take the entries of ``lose`` (key -> rowids) out of the lists; how many left a list not complete."""
    short, out, empty = 0, [], []
    for k, df, blob in lookup.rows_in(conn, _LISTS, list(lose), scope):
        left = df - len(lose[k])
        if left <= 0:
            empty.append((scope, k))
            continue
        kept, lost = _without(blob, lose[k])
        if len(blob) // 6 < df:
            short += lost
        out.append((scope, k, left, kept))
    conn.executemany("INSERT OR REPLACE INTO lex_key(scope, key, df, list) VALUES (?,?,?,?)", out)
    conn.executemany("DELETE FROM lex_key WHERE scope=? AND key=?", empty)
    return short
