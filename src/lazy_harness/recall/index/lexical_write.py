"""The word lists' write side: their tables, and entries put in and taken out of the lists.

Tables (in the index's database):
  lex_scope(scope, docs, tokens, avgdl, short)
      docs/tokens: the scope's entries and their words; avgdl: the average length the list impacts
      were computed with; short: entries lost from lists that were not complete (see ``remove``;
      ``lexical_build`` makes such lists whole again)
  lex_doc(rowid, scope, len, toks)    an entry's words per column (title, body, tags: one line
                                      each), for exact scoring and for removing it
  lex_key(scope, key, df, list)       df: entries of the scope holding the key; list: the best
                                      ``CHAMPIONS`` of them by BM25's term-frequency part
  lex_total(key, df)                  df summed over the scopes (BM25's idf)

An entry is put in its lists in the transaction that indexes it (``recall.index.apply``, ADR 0049): what
a search finds is what was committed, and there is no state in which a scope cannot be searched. The
search over them: ``lookup.search``. Not on the prompt hook's path: the index's writer
(``recall.index.writer``) runs it.
"""

from __future__ import annotations

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


def scope_row(conn: Connection, scope: str) -> tuple[int, int, float, int]:
    """(docs, tokens, avgdl, short) of ``scope``, made (empty) when it has no row yet."""
    row = conn.execute("SELECT docs, tokens, avgdl, short FROM lex_scope WHERE scope=?", (scope,)).fetchone()
    if row is None:
        conn.execute("INSERT INTO lex_scope(scope) VALUES (?)", (scope,))
        return 0, 0, 0.0, 0
    return row


def update_totals(conn: Connection, delta: dict[str, int]) -> None:
    """Add ``delta`` to each key's df over the whole index; a key no entry holds any more goes."""
    conn.executemany("INSERT INTO lex_total(key, df) VALUES (?, ?) "
                     "ON CONFLICT(key) DO UPDATE SET df = df + excluded.df",
                     [(k, d) for k, d in delta.items() if d])
    conn.executemany("DELETE FROM lex_total WHERE key=? AND df <= 0", [(k,) for k, d in delta.items() if d < 0])


def add(conn: Connection, scope: str, docs: list[tuple[int, str, str, str]], pending: Pending) -> None:
    """Index ``docs`` (rowid, title, body, tags) in ``scope``; a rowid already indexed is replaced.
    The caller holds the write lock (``BEGIN IMMEDIATE``) and commits, with the entries themselves: a
    search sees both or neither. Their lists are updated by ``flush``, before that commit, for every
    entry of the transaction at once (``pending``)."""
    if not docs:
        return
    if any(not 0 < d[0] <= MAX_ROWID for d in docs):
        raise ValueError(f"lexical index: rowid out of range 1..{MAX_ROWID}")
    present = [d[0] for d in docs]
    old = [r for chunk in lookup.chunks(present)
           for (r,) in conn.execute(f"SELECT rowid FROM lex_doc WHERE rowid IN ({','.join('?' * len(chunk))})", chunk)]
    if old:
        remove(conn, old, pending)
    rows, parsed = [], []
    for rowid, title, body, tags in docs:
        cols = [lexical_keys.tokens(title or ""), lexical_keys.tokens(body or ""), lexical_keys.tokens(tags or "")]
        dl = sum(len(c) for c in cols)
        rows.append((rowid, scope, dl, "\n".join(" ".join(c) for c in cols)))
        parsed.append((rowid, dl, cols))
    conn.executemany("INSERT OR REPLACE INTO lex_doc(rowid, scope, len, toks) VALUES (?,?,?,?)", rows)
    pending.setdefault(scope, []).extend(parsed)


def flush(conn: Connection, pending: Pending) -> None:
    """Put the entries ``add`` left in ``pending`` into their lists (one merge per key for a whole
    part of a build: entry by entry, a part of learnings cost as much again), in the caller's
    transaction."""
    for scope, parsed in pending.items():
        if parsed:
            _listed(conn, scope, parsed, *scope_row(conn, scope)[:3])
    pending.clear()


def _listed(conn: Connection, scope: str, parsed: list[tuple[int, int, list[list[str]]]], n_docs: int,
            n_tokens: int, avgdl: float) -> None:
    """Put entries already in lex_doc into the scope's lists, df and counts."""
    added = sum(p[1] for p in parsed)
    if not avgdl:
        # why: the impacts of an empty scope's first entries are measured against their own average
        avgdl = max(1.0, (n_tokens + added) / (n_docs + len(parsed)))
    fresh: dict[str, list[tuple[int, int]]] = {}
    # why: within an entry the impact depends on the weighted frequency alone, which takes a few
    # values (1, 2, 3, ...): computed once each
    impact = lexical_keys.impact
    for rowid, dl, cols in parsed:
        seen: dict[float, int] = {}
        for key, f in lexical_keys.weighted(cols).items():
            q = seen.get(f)
            if q is None:
                q = seen[f] = impact(f, dl, avgdl)
            fresh.setdefault(key, []).append((q, rowid))
    _merge(conn, scope, fresh)
    update_totals(conn, {k: len(v) for k, v in fresh.items()})
    conn.execute("UPDATE lex_scope SET docs = docs + ?, tokens = tokens + ?, avgdl = ? WHERE scope=?",
                 (len(parsed), added, avgdl, scope))


def _merge(conn: Connection, scope: str, fresh: dict[str, list[tuple[int, int]]]) -> None:
    """Insert new (impact, rowid) entries into the scope's lists, keeping each list the best of its
    key: an entry ranking after the last of a list that is full or not complete stays out (better
    ones may have been left out of it before)."""
    keys = list(fresh)
    known: dict[str, tuple[int, bytes]] = {}
    for chunk in lookup.chunks(keys):
        for k, df, blob in conn.execute(f"SELECT key, df, list FROM lex_key WHERE scope=? AND key IN "
                                        f"({','.join('?' * len(chunk))})", [scope, *chunk]):
            known[k] = (df, blob)
    out = []
    cap, rank = lookup.CHAMPIONS, lexical_keys.rank
    for k, new in fresh.items():
        df, blob = known.get(k, (0, b""))
        if len(new) == 1:  # the usual case of an update: one new entry for the key
            out.append((scope, k, df + 1, _insert_one(blob, df, new[0])))
            continue
        n = len(blob) // 6
        if n and (n < df or n >= cap):
            # why: filtered before the list is decoded: in a first build most keys' lists are full,
            # and most new entries rank after their last
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
    """``blob`` with one more (impact, rowid) entry where it ranks, by slicing bytes (decoding and
    sorting a list of 400 cost 50 us a key, 11 ms for one entry's 220 keys); unchanged when it
    ranks after the last of a full list or of one that is not complete."""
    import sys

    n = len(blob) // 6
    ids, qs = lookup.columns(blob)
    q, r = entry
    lo, hi = 0, n
    while lo < hi:  # the first position ranking after the new entry
        mid = (lo + hi) // 2
        if (-qs[mid], ids[mid]) < (-q, r):
            lo = mid + 1
        else:
            hi = mid
    if lo == n and (n < df or n >= lookup.CHAMPIONS):
        return blob
    keep = min(n, lookup.CHAMPIONS - 1)  # entries of the old list that stay
    order = sys.byteorder
    rid, imp = r.to_bytes(4, order, signed=True), q.to_bytes(2, order)
    return (blob[:4 * lo] + rid + blob[4 * lo:4 * keep] + blob[4 * n:4 * n + 2 * lo] + imp
            + blob[4 * n + 2 * lo:4 * n + 2 * keep])


def _without(blob: bytes, gone: set[int]) -> tuple[bytes, int]:
    """``blob`` without the entries of ``gone``, and how many it lost."""
    n = len(blob) // 6
    ids, _ = lookup.columns(blob)
    drop = [i for i, r in enumerate(ids) if r in gone] if len(gone) > 1 or n < 64 else []
    if len(gone) == 1 and n >= 64:
        (r,) = gone
        import sys

        # why: a search for its bytes in C instead of a walk over the list in Python
        packed, at = r.to_bytes(4, sys.byteorder, signed=True), -1
        while True:
            at = blob.find(packed, at + 1, 4 * n)
            if at < 0 or at % 4 == 0:
                break
        drop = [at // 4] if at >= 0 else []
    if not drop:
        return blob, 0
    ids_b, qs_b = blob[:4 * n], blob[4 * n:]
    keep_ids, keep_qs, start = [], [], 0
    for i in drop:
        keep_ids.append(ids_b[4 * start:4 * i])
        keep_qs.append(qs_b[2 * start:2 * i])
        start = i + 1
    keep_ids.append(ids_b[4 * start:])
    keep_qs.append(qs_b[2 * start:])
    return b"".join(keep_ids) + b"".join(keep_qs), len(drop)


def remove(conn: Connection, rowids: list[int], pending: Pending | None = None) -> None:
    """Drop entries from the index (unknown rowids are ignored); caller holds the write lock.
    Lists stay the best of what remains; a list that was not complete gets shorter (counted in
    ``lex_scope.short``; ``lexical_build.remake`` makes them whole again). An entry still in
    ``pending`` (added in this transaction) was in no list: only its words go."""
    if pending:
        gone = set(rowids)
        for scope, parsed in pending.items():
            waiting = [p[0] for p in parsed if p[0] in gone]
            if waiting:
                pending[scope] = [p for p in parsed if p[0] not in gone]
                for chunk in lookup.chunks(waiting):
                    conn.execute(f"DELETE FROM lex_doc WHERE rowid IN ({','.join('?' * len(chunk))})", chunk)
                gone -= set(waiting)
        rowids = [r for r in rowids if r in gone]
    found: list[tuple[int, str, int, str]] = []
    for chunk in lookup.chunks(list(rowids)):
        found += conn.execute(f"SELECT rowid, scope, len, toks FROM lex_doc WHERE rowid IN "
                              f"({','.join('?' * len(chunk))})", chunk).fetchall()
    by_scope: dict[str, list[tuple[int, int, str]]] = {}
    for rowid, scope, dl, toks in found:
        by_scope.setdefault(scope, []).append((rowid, dl, toks))
    for scope, docs in by_scope.items():
        for chunk in lookup.chunks([d[0] for d in docs]):
            conn.execute(f"DELETE FROM lex_doc WHERE rowid IN ({','.join('?' * len(chunk))})", chunk)
        lose: dict[str, set[int]] = {}
        for rowid, _, toks in docs:
            for key in lexical_keys.weighted(lexical_keys.split(toks)):
                lose.setdefault(key, set()).add(rowid)
        short = _drop(conn, scope, lose)
        update_totals(conn, {k: -len(v) for k, v in lose.items()})
        conn.execute("UPDATE lex_scope SET docs = docs - ?, tokens = tokens - ?, short = short + ? WHERE scope=?",
                     (len(docs), sum(d[1] for d in docs), short, scope))


def _drop(conn: Connection, scope: str, lose: dict[str, set[int]]) -> int:
    """Take the entries of ``lose`` (key -> rowids) out of the scope's lists; returns how many left a
    list that was not complete (it is shorter now than the best of what remains)."""
    keys, short, out, empty = list(lose), 0, [], []
    for chunk in lookup.chunks(keys):
        for k, df, blob in conn.execute(f"SELECT key, df, list FROM lex_key WHERE scope=? AND key IN "
                                        f"({','.join('?' * len(chunk))})", [scope, *chunk]).fetchall():
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
