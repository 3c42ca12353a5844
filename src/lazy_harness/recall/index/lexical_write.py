"""The word lists' write side: their tables, and entries put in and taken out of the lists.

Tables (beside FTS5's, in the same database):
  lex_scope(scope, docs, tokens, avgdl, cursor, short)
      docs/tokens: counted entries of a ready scope; avgdl: the average length the list impacts
      were computed with; cursor: not NULL while a build is under way (entries up to that rowid
      are in); short: entries lost from lists that were not complete (see ``remove``)
  lex_doc(rowid, scope, len, toks)    an entry's words per column (title, body, tags: one line
                                      each), for exact scoring and for removing it
  lex_key(scope, key, df, list)       df: entries of the scope holding the key; list: the best
                                      ``CHAMPIONS`` of them by BM25's term-frequency part
  lex_total(key, df)                  df summed over the ready scopes (BM25's idf)
  lex_meta(k, v)                      the phrase table the keys were made with
  lex_new(rowid, scope)               entries added with ``defer`` (by a refresh): not in the
                                      lists yet, rescored by every search until ``merge_new``

The search over them: ``lookup.search``; a scope's lists made whole: ``lexical_build``. Not on the
prompt hook's path: the index's writer (``recall.index.writer``) runs it.
"""

from lazy_harness.recall.index import lexical_keys
from lazy_harness.recall.index import lookup

MAX_ROWID = 2**31 - 1
SCHEMA = (
    "CREATE TABLE IF NOT EXISTS lex_meta(k TEXT PRIMARY KEY, v TEXT)",
    # entries added with ``defer``: in lex_doc, not in the lists yet (``merge_new``); every search
    # rescores them, so they are found at once
    "CREATE TABLE IF NOT EXISTS lex_new(rowid INTEGER PRIMARY KEY, scope TEXT NOT NULL)",
    ("CREATE TABLE IF NOT EXISTS lex_scope(scope TEXT PRIMARY KEY, docs INTEGER NOT NULL DEFAULT 0, "
     "tokens INTEGER NOT NULL DEFAULT 0, avgdl REAL NOT NULL DEFAULT 0, cursor INTEGER, "
     "short INTEGER NOT NULL DEFAULT 0)"),
    ("CREATE TABLE IF NOT EXISTS lex_doc(rowid INTEGER PRIMARY KEY, scope TEXT NOT NULL, len INTEGER NOT NULL, "
     "toks TEXT NOT NULL)"),
    "CREATE INDEX IF NOT EXISTS lex_doc_scope ON lex_doc(scope)",
    ("CREATE TABLE IF NOT EXISTS lex_key(scope TEXT NOT NULL, key TEXT NOT NULL, df INTEGER NOT NULL, "
     "list BLOB NOT NULL, PRIMARY KEY(scope, key)) WITHOUT ROWID"),
    "CREATE TABLE IF NOT EXISTS lex_total(key TEXT PRIMARY KEY, df INTEGER NOT NULL) WITHOUT ROWID",
)


def scope_row(conn, scope: str) -> tuple[int, int, float, int | None, int]:
    row = conn.execute("SELECT docs, tokens, avgdl, cursor, short FROM lex_scope WHERE scope=?", (scope,)).fetchone()
    if row is None:
        conn.execute("INSERT INTO lex_scope(scope) VALUES (?)", (scope,))
        return 0, 0, 0.0, None, 0
    return row


def mark_phrases(conn) -> None:
    conn.execute("INSERT OR REPLACE INTO lex_meta VALUES ('phrases', ?)", (lexical_keys.phrase_mark(),))


def update_totals(conn, delta: dict[str, int]) -> None:
    conn.executemany("INSERT INTO lex_total(key, df) VALUES (?, ?) "
                     "ON CONFLICT(key) DO UPDATE SET df = df + excluded.df",
                     [(k, d) for k, d in delta.items() if d])
    conn.executemany("DELETE FROM lex_total WHERE key=? AND df <= 0", [(k,) for k, d in delta.items() if d < 0])


def add(conn, scope: str, docs: list[tuple[int, str, str, str]], defer: bool = False) -> None:
    """Index ``docs`` (rowid, title, body, tags) in ``scope``; a rowid already indexed is replaced.
    The caller holds the write lock (``BEGIN IMMEDIATE``) and commits. With ``defer`` (the prompt
    hook: updating the lists costs about 13 ms an entry) the entries are stored and found by every
    search, and their lists updated later by ``merge_new``."""
    if not docs:
        return
    if any(not 0 < d[0] <= MAX_ROWID for d in docs):
        raise ValueError(f"lexical index: rowid out of range 1..{MAX_ROWID}")
    present = [d[0] for d in docs]
    old = [r for chunk in lookup.chunks(present)
           for (r,) in conn.execute(f"SELECT rowid FROM lex_doc WHERE rowid IN ({','.join('?' * len(chunk))})", chunk)]
    if old:
        remove(conn, old)
    n_docs, n_tokens, avgdl, cursor, _ = scope_row(conn, scope)
    rows, parsed = [], []
    for rowid, title, body, tags in docs:
        cols = [lexical_keys.tokens(title or ""), lexical_keys.tokens(body or ""), lexical_keys.tokens(tags or "")]
        dl = sum(len(c) for c in cols)
        rows.append((rowid, scope, dl, "\n".join(" ".join(c) for c in cols)))
        parsed.append((rowid, dl, cols))
    conn.executemany("INSERT OR REPLACE INTO lex_doc(rowid, scope, len, toks) VALUES (?,?,?,?)", rows)
    if cursor is not None:
        return  # a build is under way: its last step makes the lists from lex_doc
    if defer:
        conn.executemany("INSERT OR REPLACE INTO lex_new(rowid, scope) VALUES (?,?)", [(r[0], scope) for r in rows])
        return
    _listed(conn, scope, parsed, n_docs, n_tokens, avgdl)


def _listed(conn, scope: str, parsed: list, n_docs: int, n_tokens: int, avgdl: float) -> None:
    """Put entries already in lex_doc into the scope's lists, df and counts."""
    docs = parsed
    added = sum(p[1] for p in parsed)
    if not avgdl:
        # why: the impacts of an empty scope's first entries are measured against their own average
        avgdl = max(1.0, (n_tokens + added) / (n_docs + len(docs)))
    fresh: dict[str, list[tuple[int, int]]] = {}
    for rowid, dl, cols in parsed:
        for key, f in lexical_keys.weighted(cols).items():
            fresh.setdefault(key, []).append((lexical_keys.impact(f, dl, avgdl), rowid))
    _merge(conn, scope, fresh)
    update_totals(conn, {k: len(v) for k, v in fresh.items()})
    conn.execute("UPDATE lex_scope SET docs = docs + ?, tokens = tokens + ?, avgdl = ? WHERE scope=?",
                 (len(docs), added, avgdl, scope))
    mark_phrases(conn)


def merge_new(conn, limit: int | None = None) -> int:
    """Put the entries added with ``defer`` into their lists (at most ``limit``); returns how many.
    The caller holds the write lock and commits."""
    rows = conn.execute("SELECT n.rowid, n.scope, d.len, d.toks FROM lex_new n JOIN lex_doc d ON d.rowid = n.rowid "
                        "ORDER BY n.rowid" + (" LIMIT ?" if limit else ""), (limit,) if limit else ()).fetchall()
    by_scope: dict[str, list] = {}
    for rowid, scope, dl, toks in rows:
        by_scope.setdefault(scope, []).append((rowid, dl, lexical_keys.split(toks)))
    for scope, parsed in by_scope.items():
        n_docs, n_tokens, avgdl, cursor, _ = scope_row(conn, scope)
        if cursor is None:
            _listed(conn, scope, parsed, n_docs, n_tokens, avgdl)
    for chunk in lookup.chunks([r[0] for r in rows]):
        conn.execute(f"DELETE FROM lex_new WHERE rowid IN ({','.join('?' * len(chunk))})", chunk)
    return len(rows)


def _merge(conn, scope: str, fresh: dict[str, list[tuple[int, int]]]) -> None:
    """Insert new (impact, rowid) entries into the scope's lists, keeping each list the best of its
    key: an entry ranking after the last of a list that is not complete stays out (better ones may
    have been left out of it before)."""
    keys = list(fresh)
    known: dict[str, tuple[int, bytes]] = {}
    for chunk in lookup.chunks(keys):
        for k, df, blob in conn.execute(f"SELECT key, df, list FROM lex_key WHERE scope=? AND key IN "
                                        f"({','.join('?' * len(chunk))})", [scope, *chunk]):
            known[k] = (df, blob)
    out = []
    for k, new in fresh.items():
        df, blob = known.get(k, (0, b""))
        if len(new) == 1:  # the usual case of an update: one new entry for the key
            out.append((scope, k, df + 1, _insert_one(blob, df, new[0])))
            continue
        cur = lexical_keys.decode(blob)
        if len(cur) < df and cur:  # not complete: only what ranks before its last entry
            last = lexical_keys.rank(cur[-1])
            new = [e for e in new if lexical_keys.rank(e) < last]
        elif len(cur) < df:
            new = []
        merged = sorted(cur + new, key=lexical_keys.rank)[:lookup.CHAMPIONS] if new else cur
        out.append((scope, k, df + len(fresh[k]), lexical_keys.encode(merged)))
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


def remove(conn, rowids: list[int]) -> None:
    """Drop entries from the index (unknown rowids are ignored); caller holds the write lock.
    Lists stay the best of what remains; a list that was not complete gets shorter (counted in
    ``lex_scope.short``; a build makes them whole again)."""
    found: list[tuple[int, str, int, str]] = []
    for chunk in lookup.chunks(list(rowids)):
        found += conn.execute(f"SELECT rowid, scope, len, toks FROM lex_doc WHERE rowid IN "
                              f"({','.join('?' * len(chunk))})", chunk).fetchall()
    unlisted: set[int] = set()
    for chunk in lookup.chunks([f[0] for f in found]):
        marks = ",".join("?" * len(chunk))
        unlisted |= {r for (r,) in conn.execute(f"SELECT rowid FROM lex_new WHERE rowid IN ({marks})", chunk)}
        conn.execute(f"DELETE FROM lex_new WHERE rowid IN ({marks})", chunk)
    by_scope: dict[str, list[tuple[int, int, str]]] = {}
    for rowid, scope, dl, toks in found:
        if rowid in unlisted:  # never in the lists: its lex_doc row alone
            conn.execute("DELETE FROM lex_doc WHERE rowid=?", (rowid,))
            continue
        by_scope.setdefault(scope, []).append((rowid, dl, toks))
    for scope, docs in by_scope.items():
        gone = [d[0] for d in docs]
        for chunk in lookup.chunks(gone):
            conn.execute(f"DELETE FROM lex_doc WHERE rowid IN ({','.join('?' * len(chunk))})", chunk)
        if scope_row(conn, scope)[3] is not None:
            continue  # a build is under way: no lists yet
        lose: dict[str, set[int]] = {}
        for rowid, _, toks in docs:
            for key in lexical_keys.weighted(lexical_keys.split(toks)):
                lose.setdefault(key, set()).add(rowid)
        short = _drop(conn, scope, lose)
        update_totals(conn, {k: -len(v) for k, v in lose.items()})
        conn.execute("UPDATE lex_scope SET docs = docs - ?, tokens = tokens - ?, short = short + ? WHERE scope=?",
                     (len(docs), sum(d[1] for d in docs), short, scope))


def _drop(conn, scope: str, lose: dict[str, set[int]]) -> int:
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
