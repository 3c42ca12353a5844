"""A scope's word lists made whole again from its entries' words, in one transaction, when removals left
them short; until it commits searches read the old lists (WAL). Run by the index's writer."""

from __future__ import annotations

from lazy_harness.recall.index import lexical_keys, lexical_write, lookup

TYPE_CHECKING = False
if TYPE_CHECKING:
    from sqlite3 import Connection


REMAKE_SHARE = 4  # a scope's lists are made anew once they lost a place per this many of its entries


def due(conn: Connection) -> list[str]:
    """The scopes whose cut lists lost a place per ``REMAKE_SHARE`` entries (1 s per 1,000 to remake)."""
    sql = "SELECT scope FROM lex_scope WHERE short > 0 AND short * ? >= docs"
    return [s for (s,) in conn.execute(sql, (REMAKE_SHARE,))]


def remake(conn: Connection, scope: str) -> None:
    """Drop ``scope``'s lists (their df out of the totals) and make them again, in one transaction."""
    conn.execute("BEGIN IMMEDIATE")
    with conn:  # commits, or rolls back on any exception
        conn.execute("UPDATE lex_total SET df = df - (SELECT s.df FROM lex_key s WHERE s.scope=? AND s.key="
                     "lex_total.key) WHERE key IN (SELECT key FROM lex_key WHERE scope=?)", (scope, scope))
        conn.execute("DELETE FROM lex_total WHERE df <= 0")
        conn.execute("DELETE FROM lex_key WHERE scope=?", (scope,))
        _lists(conn, scope)


def _lists(conn: Connection, scope: str) -> None:
    """Every list and df of ``scope`` made from its entries' words (lex_doc)."""
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
    rows = conn.execute("SELECT rowid, len, toks FROM lex_doc WHERE scope=? ORDER BY rowid", (scope,))
    for rowid, dl, toks in rows:
        # why: within an entry the impact depends on the weighted frequency alone: computed once each
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
    mask = (1 << 32) - 1
    conn.executemany("INSERT INTO lex_key(scope, key, df, list) VALUES (?,?,?,?)",
                     ((scope, k, df[k], lexical_keys.encode([(s >> 32, lexical_write.MAX_ROWID - (s & mask))
                                                 for s in sorted(lst, reverse=True)[:lookup.CHAMPIONS]]))
                      for k, lst in best.items()))
    lexical_write.update_totals(conn, df)
    conn.execute("UPDATE lex_scope SET docs=?, tokens=?, avgdl=?, short=0 WHERE scope=?",
                 (count, total, avgdl, scope))
