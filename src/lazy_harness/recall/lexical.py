"""A bounded lexical search over memory entries: champion lists in SQLite, exact BM25 in Python.

FTS5 scores every entry that matches a prompt's words; with a real memory (each word in thousands
of entries) that cost grows with the memory. Here each *key* keeps, per *scope* (a memory folder,
or "" for the shared learnings), only its ``CHAMPIONS`` best entries, so a search reads a fixed
number of short lists whatever the memory's size, then rescores its best candidates exactly.

Keys, the same at write and at query time:
  ``word``      a lower-case run of letters and digits, as ``terms.words`` cuts it (camelCase and
                snake_case identifiers give their words)
  ``pref*``     the first 4, 5 and 6 characters of every word at least that long: the prefix
                alternatives of a group (``"connec"*``) are one list each, no range scan
  ``w1 w2``     a multi-word related term of ``terms.GROUPS`` ("sign-in", "timed-out"), where its
                words stand next to each other (FTS5's phrase); kept only for those phrases

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
  lex_new(rowid, scope)               entries added with ``defer`` (a hook's catch-up): not in the
                                      lists yet, rescored by every search until ``merge_new``

Scores are FTS5's ``bm25(fts, 3, 1, 2)`` for the OR of every alternative of every group (each
alternative one phrase; idf from the whole index), so the strength bar keeps its meaning.
On the prompt hook's path: top-level imports are cheap builtins and ``terms``; the connection comes
from the caller.
"""

import heapq
import math

from lazy_harness.recall import terms

# why: measured on a realistic memory (benchmarks/bench_lexical.py, 60 to 120 prompts): at 18,000
# entries, 400 entries a list with twice the pool rescored hold 0.72 of the exact top-60 and 0.88 of
# the top-10, and the top-10 they return sums 0.99 of the exact top-10's BM25 (the misses are near
# ties); 200 hold 0.60 and 0.78 for about a millisecond less. Four times the pool rescored: 0.83 and
# 0.94, for about as much again as the whole search. At 100,000 entries the share held falls (0.40
# and 0.56): the lists do not grow with the memory, by design
CHAMPIONS = 400  # entries kept per key and scope
RESCORE = 2  # candidates rescored exactly: this many times the pool asked for
WEIGHTS = (3.0, 1.0, 2.0)  # title, body, tags: as index.FIELD_WEIGHTS
K1, B = 1.2, 0.75
PREFIXES = (4, 5, 6)
QSCALE = 65535 / (K1 + 1.0)  # an impact (below k1 + 1) as a 16-bit integer
MAX_ROWID = 2**31 - 1
CHUNK = 500  # host parameters per statement
BATCH = 2000  # entries per build step
NEW_RESCORED = 500  # entries added with ``defer`` a search rescores at most (the builder merges them)
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


# --- tokens and keys -------------------------------------------------------------------------------

_RUN = None


def tokens(text: str) -> list[str]:
    """``terms.words(text)``, faster on long text (a regular expression finds the runs; only a run
    holding a capital goes through ``terms.words`` for its camelCase cuts)."""
    global _RUN
    if _RUN is None:
        import re  # why: write side only; the query side cuts a few words with terms.words

        _RUN = re.compile(r"[^\W_]+")
    out: list[str] = []
    for run in _RUN.findall(text):
        low = run.lower()
        if low == run:
            out.append(run)
        else:
            out += terms.words(run)
    return out


_PHRASES: dict[str, list[tuple[str, ...]]] | None = None


def phrases() -> dict[str, list[tuple[str, ...]]]:
    """The multi-word related terms of ``terms.GROUPS`` as word tuples, by their first word."""
    global _PHRASES
    if _PHRASES is None:
        found: dict[str, list[tuple[str, ...]]] = {}
        for row in terms.GROUPS:
            for w in row.split():
                ws = tuple(terms.words(w))
                if len(ws) > 1 and ws not in found.get(ws[0], []):
                    found.setdefault(ws[0], []).append(ws)
        _PHRASES = found
    return _PHRASES


def phrase_mark() -> str:
    """What the phrase keys were made from, kept in lex_meta: a changed table needs a rebuild."""
    return "|".join(sorted(" ".join(p) for ps in phrases().values() for p in ps))


def _weighted(cols: list[list[str]]) -> dict[str, float]:
    """Every key of an entry with its column-weighted frequency."""
    f: dict[str, float] = {}
    first = phrases()
    for w, toks in zip(WEIGHTS, cols, strict=False):  # a text of fewer columns weighs only those
        get = f.get
        for t in toks:
            f[t] = get(t, 0.0) + w
        if first.keys().isdisjoint(toks):
            continue
        for i, t in enumerate(toks):
            for ph in first.get(t, ()):
                if tuple(toks[i:i + len(ph)]) == ph:
                    k = " ".join(ph)
                    f[k] = get(k, 0.0) + w
    pre: dict[str, float] = {}
    for t, v in f.items():
        n = len(t)
        if n >= 4 and " " not in t:
            for p in (t[:4] + "*", t[:5] + "*" if n >= 5 else "", t[:6] + "*" if n >= 6 else ""):
                if p:
                    pre[p] = pre.get(p, 0.0) + v
    f.update(pre)
    return f


def _split(toks: str) -> list[list[str]]:
    return [c.split() for c in toks.split("\n")]


def _impact(f: float, dl: int, avgdl: float) -> int:
    """BM25's term-frequency part as a 16-bit integer (0 < part < k1 + 1)."""
    part = f * (K1 + 1.0) / (f + K1 * (1.0 - B + B * dl / avgdl))
    return min(65535, int(part * QSCALE + 0.5))


# --- lists: rowids (int32) then impacts (uint16), best first (impact desc, rowid asc) -------------

def _encode(entries: list[tuple[int, int]]) -> bytes:
    from array import (
        array,  # why: write side only; array imports collections (2 to 5 ms at a start)
    )

    return array("i", [r for _, r in entries]).tobytes() + array("H", [q for q, _ in entries]).tobytes()


def _columns(blob: bytes, n: int | None = None):
    """The first ``n`` (all) rowids and impacts of a list, read in place (memoryview, no copy)."""
    total = len(blob) // 6
    n = total if n is None else min(n, total)
    mv = memoryview(blob)
    return mv[:4 * n].cast("i"), mv[4 * total:4 * total + 2 * n].cast("H")


def _decode(blob: bytes) -> list[tuple[int, int]]:
    ids, qs = _columns(blob)
    return list(zip(qs, ids, strict=True))


def _rank(e: tuple[int, int]) -> tuple[int, int]:
    return (-e[0], e[1])


# --- writing ---------------------------------------------------------------------------------------

def _scope(conn, scope: str) -> tuple[int, int, float, int | None, int]:
    row = conn.execute("SELECT docs, tokens, avgdl, cursor, short FROM lex_scope WHERE scope=?", (scope,)).fetchone()
    if row is None:
        conn.execute("INSERT INTO lex_scope(scope) VALUES (?)", (scope,))
        return 0, 0, 0.0, None, 0
    return row


def _chunks(seq: list, size: int = CHUNK):
    for start in range(0, len(seq), size):
        yield seq[start:start + size]


def _mark(conn) -> None:
    conn.execute("INSERT OR REPLACE INTO lex_meta VALUES ('phrases', ?)", (phrase_mark(),))


def _totals(conn, delta: dict[str, int]) -> None:
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
    old = [r for chunk in _chunks(present)
           for (r,) in conn.execute(f"SELECT rowid FROM lex_doc WHERE rowid IN ({','.join('?' * len(chunk))})", chunk)]
    if old:
        remove(conn, old)
    n_docs, n_tokens, avgdl, cursor, _ = _scope(conn, scope)
    rows, parsed = [], []
    for rowid, title, body, tags in docs:
        cols = [tokens(title or ""), tokens(body or ""), tokens(tags or "")]
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
        for key, f in _weighted(cols).items():
            fresh.setdefault(key, []).append((_impact(f, dl, avgdl), rowid))
    _merge(conn, scope, fresh)
    _totals(conn, {k: len(v) for k, v in fresh.items()})
    conn.execute("UPDATE lex_scope SET docs = docs + ?, tokens = tokens + ?, avgdl = ? WHERE scope=?",
                 (len(docs), added, avgdl, scope))
    _mark(conn)


def merge_new(conn, limit: int | None = None) -> int:
    """Put the entries added with ``defer`` into their lists (at most ``limit``); returns how many.
    The caller holds the write lock and commits."""
    rows = conn.execute("SELECT n.rowid, n.scope, d.len, d.toks FROM lex_new n JOIN lex_doc d ON d.rowid = n.rowid "
                        "ORDER BY n.rowid" + (" LIMIT ?" if limit else ""), (limit,) if limit else ()).fetchall()
    by_scope: dict[str, list] = {}
    for rowid, scope, dl, toks in rows:
        by_scope.setdefault(scope, []).append((rowid, dl, _split(toks)))
    for scope, parsed in by_scope.items():
        n_docs, n_tokens, avgdl, cursor, _ = _scope(conn, scope)
        if cursor is None:
            _listed(conn, scope, parsed, n_docs, n_tokens, avgdl)
    for chunk in _chunks([r[0] for r in rows]):
        conn.execute(f"DELETE FROM lex_new WHERE rowid IN ({','.join('?' * len(chunk))})", chunk)
    return len(rows)


def pending(conn) -> int:
    """Entries added with ``defer`` and not in their lists yet."""
    return conn.execute("SELECT count(*) FROM lex_new").fetchone()[0]


def _merge(conn, scope: str, fresh: dict[str, list[tuple[int, int]]]) -> None:
    """Insert new (impact, rowid) entries into the scope's lists, keeping each list the best of its
    key: an entry ranking after the last of a list that is not complete stays out (better ones may
    have been left out of it before)."""
    keys = list(fresh)
    known: dict[str, tuple[int, bytes]] = {}
    for chunk in _chunks(keys):
        for k, df, blob in conn.execute(f"SELECT key, df, list FROM lex_key WHERE scope=? AND key IN "
                                        f"({','.join('?' * len(chunk))})", [scope, *chunk]):
            known[k] = (df, blob)
    out = []
    for k, new in fresh.items():
        df, blob = known.get(k, (0, b""))
        if len(new) == 1:  # the usual case of a catch-up: one new entry for the key
            out.append((scope, k, df + 1, _insert_one(blob, df, new[0])))
            continue
        cur = _decode(blob)
        if len(cur) < df and cur:  # not complete: only what ranks before its last entry
            last = _rank(cur[-1])
            new = [e for e in new if _rank(e) < last]
        elif len(cur) < df:
            new = []
        merged = sorted(cur + new, key=_rank)[:CHAMPIONS] if new else cur
        out.append((scope, k, df + len(fresh[k]), _encode(merged)))
    conn.executemany("INSERT OR REPLACE INTO lex_key(scope, key, df, list) VALUES (?,?,?,?)", out)


def _insert_one(blob: bytes, df: int, entry: tuple[int, int]) -> bytes:
    """``blob`` with one more (impact, rowid) entry where it ranks, by slicing bytes (decoding and
    sorting a list of 400 cost 50 us a key, 11 ms for one entry's 220 keys); unchanged when it
    ranks after the last of a full list or of one that is not complete."""
    import sys

    n = len(blob) // 6
    ids, qs = _columns(blob)
    q, r = entry
    lo, hi = 0, n
    while lo < hi:  # the first position ranking after the new entry
        mid = (lo + hi) // 2
        if (-qs[mid], ids[mid]) < (-q, r):
            lo = mid + 1
        else:
            hi = mid
    if lo == n and (n < df or n >= CHAMPIONS):
        return blob
    keep = min(n, CHAMPIONS - 1)  # entries of the old list that stay
    order = sys.byteorder
    rid, imp = r.to_bytes(4, order, signed=True), q.to_bytes(2, order)
    return (blob[:4 * lo] + rid + blob[4 * lo:4 * keep] + blob[4 * n:4 * n + 2 * lo] + imp
            + blob[4 * n + 2 * lo:4 * n + 2 * keep])


def _without(blob: bytes, gone: set[int]) -> tuple[bytes, int]:
    """``blob`` without the entries of ``gone``, and how many it lost."""
    n = len(blob) // 6
    ids, _ = _columns(blob)
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
    ``lex_scope.short``: ``rebuild_due`` says when a build should make them whole again)."""
    found: list[tuple[int, str, int, str]] = []
    for chunk in _chunks(list(rowids)):
        found += conn.execute(f"SELECT rowid, scope, len, toks FROM lex_doc WHERE rowid IN "
                              f"({','.join('?' * len(chunk))})", chunk).fetchall()
    unlisted: set[int] = set()
    for chunk in _chunks([f[0] for f in found]):
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
        for chunk in _chunks(gone):
            conn.execute(f"DELETE FROM lex_doc WHERE rowid IN ({','.join('?' * len(chunk))})", chunk)
        if _scope(conn, scope)[3] is not None:
            continue  # a build is under way: no lists yet
        lose: dict[str, set[int]] = {}
        for rowid, _, toks in docs:
            for key in _weighted(_split(toks)):
                lose.setdefault(key, set()).add(rowid)
        short = _drop(conn, scope, lose)
        _totals(conn, {k: -len(v) for k, v in lose.items()})
        conn.execute("UPDATE lex_scope SET docs = docs - ?, tokens = tokens - ?, short = short + ? WHERE scope=?",
                     (len(docs), sum(d[1] for d in docs), short, scope))


def _drop(conn, scope: str, lose: dict[str, set[int]]) -> int:
    keys, short, out, empty = list(lose), 0, [], []
    for chunk in _chunks(keys):
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


# --- building a scope in steps ---------------------------------------------------------------------

def start_build(conn, scope: str) -> None:
    """Begin (re)building ``scope``: its entries and lists are dropped and leave the totals; until
    the build's last step the scope is searched as empty (``ready`` says so). Caller holds the lock."""
    _scope(conn, scope)
    conn.execute("UPDATE lex_total SET df = df - (SELECT s.df FROM lex_key s WHERE s.scope=? AND s.key=lex_total.key) "
                 "WHERE key IN (SELECT key FROM lex_key WHERE scope=?)", (scope, scope))
    conn.execute("DELETE FROM lex_total WHERE df <= 0")
    conn.execute("DELETE FROM lex_key WHERE scope=?", (scope,))
    conn.execute("DELETE FROM lex_doc WHERE scope=?", (scope,))
    conn.execute("DELETE FROM lex_new WHERE scope=?", (scope,))
    conn.execute("UPDATE lex_scope SET docs=0, tokens=0, avgdl=0, short=0, cursor=0 WHERE scope=?", (scope,))


def build_step(conn, scope: str, source, batch: int = BATCH) -> bool:
    """One step of the build of ``scope``, inside the caller's transaction (commit after each step):
    the next ``batch`` entries from ``source(after_rowid, limit)`` (rowid, title, body, tags, by
    rowid, all after ``after_rowid``), or, when it has none left, the lists of the whole scope. True
    when the scope is ready (nothing under way). A step killed before its commit is done again."""
    cursor = _scope(conn, scope)[3]
    if cursor is None:
        return True
    docs = list(source(cursor, batch))
    if docs:
        add(conn, scope, docs)
        conn.execute("UPDATE lex_scope SET cursor=? WHERE scope=?", (max(d[0] for d in docs), scope))
        return False
    _lists(conn, scope)
    return True


def build(conn, scope: str, source, batch: int = BATCH, restart: bool = False) -> int:
    """Build ``scope`` to the end, one transaction per step (``BEGIN IMMEDIATE`` ... ``COMMIT``);
    resumes a build under way unless ``restart``. Returns the steps taken."""
    steps = 0
    conn.execute("BEGIN IMMEDIATE")
    try:
        if restart or _scope(conn, scope)[3] is None:
            start_build(conn, scope)
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    while True:
        conn.execute("BEGIN IMMEDIATE")
        try:
            done = build_step(conn, scope, source, batch)
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        steps += 1
        if done:
            return steps


def _lists(conn, scope: str) -> None:
    """Every list and df of ``scope`` from its entries (the last step of a build)."""
    count, total = conn.execute("SELECT count(*), coalesce(sum(len), 0) FROM lex_doc WHERE scope=?",
                                (scope,)).fetchone()
    avgdl = max(1.0, total / count) if count else 0.0
    # candidates per key as (impact << 32 | ~rowid): larger is better; cut back to CHAMPIONS when
    # twice as long, after which only an entry beating the cut can join
    best: dict[str, list[int]] = {}
    floor: dict[str, int] = {}
    df: dict[str, int] = {}
    # why: read as a stream, not fetched whole (the entries' words are 40 MB at 100,000 entries)
    df_get, floor_get, best_get, cap = df.get, floor.get, best.get, 2 * CHAMPIONS
    for rowid, dl, toks in conn.execute("SELECT rowid, len, toks FROM lex_doc WHERE scope=? ORDER BY rowid", (scope,)):
        # why: the impact depends on the weighted frequency alone within an entry, which takes a
        # few values (1, 2, 3, ...): computed once each (this loop is most of a build's time)
        tail = MAX_ROWID - rowid
        shifted: dict[float, int] = {}
        for key, f in _weighted(_split(toks)).items():
            df[key] = df_get(key, 0) + 1
            s = shifted.get(f)
            if s is None:
                s = shifted[f] = (_impact(f, dl, avgdl) << 32) | tail
            if s > floor_get(key, -1):
                lst = best_get(key)
                if lst is None:
                    best[key] = [s]
                    continue
                lst.append(s)
                if len(lst) >= cap:
                    lst.sort(reverse=True)
                    del lst[CHAMPIONS:]
                    floor[key] = lst[-1]
    conn.execute("DELETE FROM lex_key WHERE scope=?", (scope,))
    mask = (1 << 32) - 1
    conn.executemany("INSERT INTO lex_key(scope, key, df, list) VALUES (?,?,?,?)",
                     ((scope, k, df[k], _encode([(s >> 32, MAX_ROWID - (s & mask))
                                                 for s in sorted(lst, reverse=True)[:CHAMPIONS]]))
                      for k, lst in best.items()))
    _totals(conn, df)
    conn.execute("UPDATE lex_scope SET docs=?, tokens=?, avgdl=?, cursor=NULL, short=0 WHERE scope=?",
                 (count, total, avgdl, scope))
    _mark(conn)


def ready(conn, scope: str) -> bool:
    """Whether ``scope`` is searchable: known, and no build under way."""
    row = conn.execute("SELECT cursor FROM lex_scope WHERE scope=?", (scope,)).fetchone()
    return row is not None and row[0] is None


def rebuild_due(conn, scope: str, share: float = 0.1) -> bool:
    """Whether removals shortened the scope's incomplete lists by more than ``share`` of its entries,
    or the phrase table changed since the keys were made: time for a build."""
    row = conn.execute("SELECT docs, short FROM lex_scope WHERE scope=?", (scope,)).fetchone()
    mark = conn.execute("SELECT v FROM lex_meta WHERE k='phrases'").fetchone()
    return (row is not None and row[1] > share * max(row[0], 1)) or (mark is not None and mark[0] != phrase_mark())


# --- searching -------------------------------------------------------------------------------------

def _alternative(text: str) -> tuple[str, str, tuple[str, ...]]:
    """(kind, key, words) of one alternative as ``terms.group_query`` makes them: 'word',
    'prefix*', or several words (a phrase)."""
    if text.endswith("*"):
        cut = terms.words(text[:-1])
        p = cut[0] if cut else ""
        # why: a prefix longer than the longest kept is looked up by that one (a superset) and
        # checked exactly when rescoring; one shorter than 4 has no list
        return "prefix", (p[:6] + "*") if len(p) >= 4 else "", (p,)
    ws = tuple(terms.words(text))
    if len(ws) == 1:
        return "word", ws[0], ws
    return "phrase", " ".join(ws), ws


def search(conn, scopes: list[str], groups: list[list[str]], pool: int, champions: int | None = None,
           rescore: int | None = None) -> tuple[list[tuple[int, float, set[int]]], dict]:
    """The best ``pool`` entries of ``scopes`` for the OR of every alternative of ``groups``:
    [(rowid, bm25 as FTS5's bm25(fts, 3, 1, 2) gives it: negative, lower is better, the groups it
    matches)], best first; and facts: ``N`` (entries in the whole index), ``df`` per group (entries
    matching any of its alternatives, over the whole index: exact where ``exact`` says so, else an
    upper bound), ``missing`` (asked-for scopes not ready). ``champions`` and ``rescore`` override
    ``CHAMPIONS`` and ``RESCORE`` (for measuring)."""
    champions = champions or CHAMPIONS
    rescore = rescore or RESCORE
    alts = [(g, *_alternative(a)) for g, group in enumerate(groups) for a in group]
    alts = [a for a in alts if a[3] and all(a[3])]
    n_docs, n_tokens = conn.execute("SELECT coalesce(sum(docs), 0), coalesce(sum(tokens), 0) FROM lex_scope "
                                    "WHERE cursor IS NULL").fetchone()
    ready_scopes = [s for s, c in conn.execute(
        f"SELECT scope, cursor FROM lex_scope WHERE scope IN ({','.join('?' * len(scopes))})", scopes) if c is None]
    facts = {"N": n_docs, "df": [0] * len(groups), "exact": [True] * len(groups),
             "missing": sorted(set(scopes) - set(ready_scopes))}
    keys = list(dict.fromkeys(a[2] for a in alts))
    if not keys or not n_docs:
        return [], facts
    km = ",".join("?" * len(keys))
    total = dict(conn.execute(f"SELECT key, df FROM lex_total WHERE key IN ({km})", keys).fetchall())
    _group_facts(facts, alts, total, n_docs)
    idf = {k: max(math.log((n_docs - total.get(k, 0) + 0.5) / (total.get(k, 0) + 0.5)), 1e-6) for k in keys}
    weight: dict[str, float] = {}
    for a in alts:
        weight[a[2]] = weight.get(a[2], 0.0) + idf[a[2]]
    acc: dict[int, float] = {}
    get = acc.get
    # why: a key in more than half the index weighs 1e-6 in FTS5 (its idf floored): its list cannot
    # move a candidate, and it is the longest to read; kept only when every key is such a one
    # (a key no entry holds has no list, and does not count here)
    held = [w for k, w in weight.items() if total.get(k, 0)]
    floor = 1e-5 if held and max(held) > 1e-5 else 0.0
    if ready_scopes:
        sm = ",".join("?" * len(ready_scopes))
        for key, blob in conn.execute(f"SELECT key, list FROM lex_key WHERE scope IN ({sm}) AND key IN ({km})",
                                      [*ready_scopes, *keys]):
            if weight[key] < floor:
                continue
            w = weight[key] / QSCALE
            ids, qs = _columns(blob, champions)
            # why: measured against map/zip/dict.update in C: this plain loop was faster (1.3 against
            # 1.8 ms for 7,000 entries)
            for r, q in zip(ids, qs, strict=True):
                acc[r] = get(r, 0.0) + w * q
    fresh = [r for (r,) in conn.execute(f"SELECT rowid FROM lex_new WHERE scope IN ({','.join('?' * len(scopes))}) "
                                        f"LIMIT ?", [*scopes, NEW_RESCORED])]
    if not acc and not fresh:
        return [], facts
    # why: the same list as sorted(...)[:n] (documented so), without ordering all 6,500 entries
    best = heapq.nlargest(max(pool, rescore * pool), acc, key=acc.__getitem__)
    best += [r for r in fresh if r not in acc]
    hits = _exact(conn, best, alts, idf, n_tokens / n_docs)
    hits.sort(key=lambda h: (h[1], h[0]))
    return hits[:pool], facts


def _group_facts(facts: dict, alts: list, total: dict[str, int], n_docs: int) -> None:
    """Per group: the df of its one alternative that covers the others (exact), else the sum of
    those no other alternative covers (an upper bound)."""
    by_group: dict[int, list] = {}
    for a in alts:
        by_group.setdefault(a[0], []).append(a)
    for g, group in by_group.items():
        prefixes = [a[3][0] for a in group if a[1] == "prefix"]

        def covered(a, prefixes=prefixes, group=group) -> bool:
            if a[1] == "word":
                return any(a[2].startswith(p) for p in prefixes)
            if a[1] == "prefix":
                return any(a[3][0].startswith(p) and a[3][0] != p for p in prefixes)
            words = {b[2] for b in group if b[1] == "word"}
            return any(w in words or any(w.startswith(p) for p in prefixes) for w in a[3])

        # a prefix longer than 6 has only its 6-prefix's df (an upper bound)
        left = list({a[2]: a for a in group if not covered(a)}.values())
        facts["df"][g] = min(n_docs, sum(total.get(a[2], 0) for a in left))
        facts["exact"][g] = len(left) == 1 and not (left[0][1] == "prefix" and len(left[0][3][0]) > 6)


def _exact(conn, rowids: list[int], alts: list, idf: dict[str, float],
           avgdl: float) -> list[tuple[int, float, set[int]]]:
    """FTS5's bm25 of each of ``rowids`` for the OR of ``alts``, from its stored words: each
    alternative is looked for in the entry's text as a string (" word ", " pref", " two words "),
    its occurrences counted per column; alternatives that are the same pattern are counted once and
    weighed as many times (FTS5 scores each phrase of the query, repeats too)."""
    specs: dict[str, list] = {}
    for g, kind, key, ws in alts:
        pat = " " + ws[0] if kind == "prefix" else " " + " ".join(ws) + " "
        spec = specs.setdefault(pat, [pat, kind == "prefix", 0.0, set()])
        spec[2] += idf[key]
        spec[3].add(g)
    # why: the entry's set of words meets the query's words in C; only prefixes are searched for
    # in the text one by one (a loop over every alternative cost 26 us an entry at 59 alternatives)
    by_word: dict[str, list] = {}
    prefixes = []
    for pat, spec in specs.items():
        if spec[1]:
            prefixes.append(spec)
        else:
            by_word.setdefault(pat.split()[0], []).append(spec)
    out = []
    for rowid, (dl, full, words, cols) in _docs(conn, rowids):
        found = [spec for w in by_word.keys() & words for spec in by_word[w]]
        found += [spec for spec in prefixes if spec[0] in full]
        norm = K1 * (1.0 - B + B * dl / avgdl)
        score, matched = 0.0, set()
        for pat, prefix, weight, groups in found:
            f = 0.0
            for w, col in zip(WEIGHTS, cols, strict=False):  # a stored text of fewer columns
                n = col.count(pat)
                # why: count() skips an occurrence that shares its leading space with the one
                # before (" a a "); only then are they walked one by one
                if n and not prefix and pat[:-1] + pat in col:
                    n = _occurrences(col, pat)
                f += w * n
            if f:
                score += weight * f * (K1 + 1.0) / (f + norm)
                matched |= groups
        out.append((rowid, -score, matched))
    return out


_KEPT: dict[int, tuple[int, str, set[str], list[str]]] = {}  # rowid -> its parsed words (keep_docs)
_KEEP = 0


def keep_docs(n: int) -> None:
    """Keep the parsed words of up to ``n`` entries between searches (a long-lived process: the
    resident answerer). An entry's rowid is never given to another entry, so what is kept stays true."""
    global _KEEP
    _KEEP = n
    _KEPT.clear()


def _docs(conn, rowids: list[int]):
    """(rowid, (length, text with spaced lines, set of words, spaced columns)) of those of ``rowids``
    in lex_doc, what ``keep_docs`` kept first."""
    kept = _KEPT if _KEEP else {}
    docs = {r: kept[r] for r in rowids if r in kept}
    got = {}
    for chunk in _chunks([r for r in rowids if r not in docs]):
        for rowid, dl, toks in conn.execute(f"SELECT rowid, len, toks FROM lex_doc WHERE rowid IN "
                                            f"({','.join('?' * len(chunk))})", chunk):
            got[rowid] = (dl, " " + toks.replace("\n", " \n ") + " ", set(toks.split()),
                          [" " + c + " " for c in toks.split("\n")])
    if _KEEP and got:
        if len(kept) + len(got) > _KEEP:
            kept.clear()  # why: bounded; the entries asked for again come back at the next searches
        kept.update(got)
    docs.update(got)
    for r in rowids:
        doc = docs.get(r)
        if doc is not None:
            yield r, doc


def _occurrences(text: str, pat: str) -> int:
    """How many times ``pat`` (" word " or " two words ") is in ``text``, overlapping ones too
    (" a a " holds " a " twice: two tokens)."""
    n, at = 0, text.find(pat)
    while at >= 0:
        n += 1
        at = text.find(pat, at + 1)
    return n
