"""Building a scope's word lists in resumable steps: every list and df of the scope made from its
entries (a new scope, or one whose lists a removal or a changed phrase table left short). Not on
the prompt hook's path: the index's writer (``recall.index.writer``) runs it.
"""

from lazy_harness.recall.index import lexical_keys
from lazy_harness.recall.index import lexical_write, lookup

BATCH = 2000  # entries per build step


def start_build(conn, scope: str) -> None:
    """Begin (re)building ``scope``: its entries and lists are dropped and leave the totals; until
    the build's last step the scope is searched as empty (``ready`` says so). Caller holds the lock."""
    lexical_write.scope_row(conn, scope)
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
    cursor = lexical_write.scope_row(conn, scope)[3]
    if cursor is None:
        return True
    docs = list(source(cursor, batch))
    if docs:
        lexical_write.add(conn, scope, docs)
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
        if restart or lexical_write.scope_row(conn, scope)[3] is None:
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
    df_get, floor_get, best_get, cap = df.get, floor.get, best.get, 2 * lookup.CHAMPIONS
    for rowid, dl, toks in conn.execute("SELECT rowid, len, toks FROM lex_doc WHERE scope=? ORDER BY rowid", (scope,)):
        # why: the impact depends on the weighted frequency alone within an entry, which takes a
        # few values (1, 2, 3, ...): computed once each (this loop is most of a build's time)
        tail = lexical_write.MAX_ROWID - rowid
        shifted: dict[float, int] = {}
        for key, f in lexical_keys.weighted(lexical_keys.split(toks)).items():
            df[key] = df_get(key, 0) + 1
            s = shifted.get(f)
            if s is None:
                s = shifted[f] = (lexical_keys.impact(f, dl, avgdl) << 32) | tail
            if s > floor_get(key, -1):
                lst = best_get(key)
                if lst is None:
                    best[key] = [s]
                    continue
                lst.append(s)
                if len(lst) >= cap:
                    lst.sort(reverse=True)
                    del lst[lookup.CHAMPIONS:]
                    floor[key] = lst[-1]
    conn.execute("DELETE FROM lex_key WHERE scope=?", (scope,))
    mask = (1 << 32) - 1
    conn.executemany("INSERT INTO lex_key(scope, key, df, list) VALUES (?,?,?,?)",
                     ((scope, k, df[k], lexical_keys.encode([(s >> 32, lexical_write.MAX_ROWID - (s & mask))
                                                 for s in sorted(lst, reverse=True)[:lookup.CHAMPIONS]]))
                      for k, lst in best.items()))
    lexical_write.update_totals(conn, df)
    conn.execute("UPDATE lex_scope SET docs=?, tokens=?, avgdl=?, cursor=NULL, short=0 WHERE scope=?",
                 (count, total, avgdl, scope))
    lexical_write.mark_phrases(conn)
