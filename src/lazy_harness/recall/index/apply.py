"""Putting entries into the index and taking them out: one step of a refresh plan (``store.refresh_within``
plans; this applies), and the word lists' glue. The writer's side (recall/index/writer.py): never on the
prompt hook's path.
"""

from lazy_harness.memory import trust
from lazy_harness.recall.embed import vectors
from lazy_harness.recall.index import lexical_build, lexical_write, lookup, sources

LEX_REBUILD = 500  # entries of one file dropped at once past which the lexical lists are made again


def _count(conn, delta: int) -> None:
    if delta:
        conn.execute("UPDATE meta SET v = CAST(v AS INTEGER) + ? WHERE k='entries'", (delta,))


def _drop(conn, unit: str) -> None:
    vectors.drop(conn, unit)
    rowids = [r for (r,) in conn.execute("SELECT rowid FROM entry WHERE unit=?", (unit,))]
    if rowids:
        mdir = conn.execute("SELECT mdir FROM entry WHERE unit=? LIMIT 1", (unit,)).fetchone()[0]
        if len(rowids) > LEX_REBUILD and lookup.ready(conn, mdir):
            # why: taking thousands of entries out of the lists one by one costs more than making the
            # scope's lists again, which the writer does in parts (a file rewritten by hand)
            lexical_build.start_build(conn, mdir)
        else:
            lexical_write.remove(conn, rowids)
    conn.execute("DELETE FROM fts WHERE rowid IN (SELECT rowid FROM entry WHERE unit=?)", (unit,))
    _count(conn, -conn.execute("DELETE FROM entry WHERE unit=?", (unit,)).rowcount)
    conn.execute("DELETE FROM hidden WHERE unit=?", (unit,))
    conn.execute("DELETE FROM source WHERE unit=?", (unit,))


def _insert(conn, unit: str, mdir: str, entries: list[dict]) -> None:
    if not entries:
        return
    # why: rowids handed out here let both tables be filled by one executemany each (a statement
    # per row cost 1 ms per 100 entries); the write lock is held
    # why: never a rowid handed out before, even after a delete: what was indexed after a point is what
    # has a higher rowid (``lookup.last_rowid``)
    first = lookup.last_rowid(conn) + 1
    conn.execute("INSERT OR REPLACE INTO meta VALUES ('rowid', ?)", (str(first + len(entries) - 1),))
    # why: the hold check's verdict on the text the prompt hook would inject, made once here (its
    # rules cost tens of milliseconds to compile), read by the hook with the entry (recall/prompt/admit.py)
    conn.executemany("INSERT INTO entry(rowid, unit, id, kind, mdir, origin, scope, file, line, ts, title, detail, "
                     "uncued, cues, okey, prov, hold, sess) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                     [(first + n, unit, e["id"], e["kind"], mdir, e["origin"], e["scope"], e["file"], e["line"],
                       e["ts"], e["title"], e["detail"], int(e.get("uncued", False)), e.get("cues", ""),
                       e.get("okey", ""), e.get("prov", ""),
                       trust.reason(f"{e['title'] or ''} {e['detail'] or ''}") or "", e.get("sess", ""))
                      for n, e in enumerate(entries)])
    conn.executemany("INSERT INTO fts(rowid, title, body, tags) VALUES (?,?,?,?)",
                     [(first + n, e["title"], e["body"], e["tags"]) for n, e in enumerate(entries)])
    conn.executemany("INSERT INTO key(rowid, n, key) VALUES (?,?,?)", vectors.keys_rows(first, entries))
    if conn.execute("SELECT 1 FROM lex_scope WHERE scope=?", (mdir,)).fetchone() is None:
        lexical_build.start_build(conn, mdir)  # why: a new scope's lists are made by the writer's next step
    # why: putting an entry in its lists costs about 13 ms; here it is only stored (found by every
    # search at once) and the writer's next step puts it in its lists (``lexical_write.merge_new``)
    lexical_write.add(conn, mdir, [(first + n, e["title"], e["body"], e["tags"]) for n, e in enumerate(entries)],
                      defer=True)
    _count(conn, len(entries))


def apply(conn, step: tuple, budget: int | None) -> tuple[int, bool]:
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
        conn.execute("INSERT OR REPLACE INTO source VALUES (?,?,?,?,?)",
                     (unit, kept, end, lines, sources.check(path, end)))
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


def lexical_source(conn, scope: str):
    """The entries of ``scope`` in rowid order, as ``lexical_build.build`` reads them."""
    def source(after: int, limit: int):
        return conn.execute("SELECT e.rowid, f.title, f.body, f.tags FROM entry e JOIN fts f ON f.rowid = e.rowid "
                            "WHERE e.mdir = ? AND e.rowid > ? ORDER BY e.rowid LIMIT ?",
                            (scope, after, limit)).fetchall()
    return source


def build_lexical(conn, merge_part: int = 200) -> tuple[int, int]:
    """Make the lexical lists of every scope whose build is under way (in resumable steps, each its
    own transaction) and put the entries added since into their lists: (scopes built, entries merged)."""
    built = 0
    for (scope,) in conn.execute("SELECT scope FROM lex_scope WHERE cursor IS NOT NULL").fetchall():
        lexical_build.build(conn, scope, lexical_source(conn, scope))
        built += 1
    merged = 0
    while True:
        conn.execute("BEGIN IMMEDIATE")
        try:
            got = lexical_write.merge_new(conn, merge_part)
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        merged += got
        if got < merge_part:
            return built, merged
