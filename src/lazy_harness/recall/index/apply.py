"""Putting entries into the index and taking them out, one step of a refresh plan at a time, the entries
and their word lists in one transaction (ADR 0049). The writer's side: never on the prompt hook's path."""

from __future__ import annotations

from lazy_harness.memory import ids, trust
from lazy_harness.memory.sanitize import no_surrogates
from lazy_harness.recall.embed import vectors
from lazy_harness.recall.index import lexical_build, lexical_write, lookup, sources

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from sqlite3 import Connection
    from typing import Any

    from lazy_harness.recall.index.lexical_write import Pending

# an entry's columns but its rowid (and ``aside``), as ``_insert`` fills them and ``_stand`` copies them
COLUMNS = ("unit, id, kind, mdir, origin, scope, file, line, ts, title, detail, body, tags, uncued, cues, okey, prov, "
           "hold, sess, claim, twin, tkey")


def _count(conn: Connection, delta: int) -> None:
    if delta:
        conn.execute("UPDATE meta SET v = CAST(v AS INTEGER) + ? WHERE k='entries'", (delta,))


def _drop(conn: Connection, unit: str, pending: Pending) -> None:
    """Take the entries of ``unit`` (a file, a handoff) out of the index: vectors, word lists, rows."""
    vectors.drop(conn, unit)
    rowids = [r for (r,) in conn.execute("SELECT rowid FROM entry WHERE unit=?", (unit,))]
    if rowids:
        lexical_write.remove(conn, rowids, pending)
    _count(conn, -conn.execute("DELETE FROM entry WHERE unit=?", (unit,)).rowcount)
    conn.execute("DELETE FROM hidden WHERE unit=?", (unit,))
    conn.execute("DELETE FROM source WHERE unit=?", (unit,))


def _insert(conn: Connection, unit: str, mdir: str, entries: list[dict[str, Any]], pending: Pending) -> set[int]:
    """Index ``entries`` of ``unit`` in ``mdir`` ("": the learnings) in this transaction; their rowids."""
    if not entries:
        return set()
    for e in entries:  # why: a lone surrogate ("\ud83d", valid JSON) made SQLite refuse the whole index
        e.update({k: no_surrogates(v) for k, v in e.items() if isinstance(v, str)})
    # why rowids handed out here: one executemany per table (a statement a row cost 1 ms per 100); never
    # one handed out before: what was indexed later has a higher rowid
    first = lookup.last_rowid(conn) + 1
    conn.execute("INSERT OR REPLACE INTO meta VALUES ('rowid', ?)", (str(first + len(entries) - 1),))
    # why the hold check's verdict here: its rules cost the hook tens of milliseconds to compile
    conn.executemany(f"INSERT INTO entry(rowid, {COLUMNS}) VALUES ({','.join('?' * 23)})",
                     [(first + n, unit, e["id"], e["kind"], mdir, e["origin"], e["scope"], e["file"], e["line"],
                       e["ts"], e["title"], e["detail"], e["body"], e["tags"], int(e.get("uncued", False)),
                       e.get("cues", ""), e.get("okey", ""), e.get("prov", ""),
                       trust.every_reason(f"{e['title'] or ''} {e['detail'] or ''}") or "", e.get("sess", ""),
                       e.get("claim", sources.KEPT), e.get("twin", ""),
                       ids.title_words(e["title"]) if e["kind"] == "learning" else "")
                      for n, e in enumerate(entries)])
    conn.executemany("INSERT INTO key(rowid, n, key) VALUES (?,?,?)", vectors.keys_rows(first, entries))
    # why in the rows' transaction: a build killed between two parts leaves each committed part searchable
    lexical_write.add(conn, mdir, [(first + n, e["title"], e["body"], e["tags"]) for n, e in enumerate(entries)],
                      pending)
    _count(conn, len(entries))
    return set(range(first, first + len(entries)))


def apply(conn: Connection, step: tuple[Any, ...], budget: int, pending: Pending) -> tuple[int, bool]:
    """Carry out one step of a plan, or its first ``budget`` lines: (entries indexed, whether done)."""
    action, unit = step[0], step[1]
    done, row = True, (unit, step[-1], 0, 0, "")  # a step read whole: its stamp is its last item
    if action == "folder":
        conn.execute("INSERT OR REPLACE INTO source VALUES (?,?,?,?,?)", row)
        return 0, True
    # the ids a learning file carried: another file of one of them may stand for it again once it is gone
    before = {i for (i,) in conn.execute("SELECT id FROM entry WHERE unit=? AND kind='learning'", (unit,))
              } if action in ("learning", "drop") else set()
    if action != "jsonl" or step[5] == 0:  # read again whole (a JSONL file: from its start)
        _drop(conn, unit, pending)
    if action == "drop":
        settle(conn, None, before, set(), pending)
        return 0, True
    if action == "jsonl":
        _, path, mdir, kind, stamp, offset, lines, size = step
        # why up to the stamp's size: a line appended since is read next time, from here
        entries, hidden, end, read = sources.read_jsonl(path, kind, offset, lines, size, max_lines=budget)
        done = end == 0 or end >= size or read - lines < budget
        # why: a part keeps the inode but not the stamp: the next plan reads on from ``end``
        row = (unit, stamp if done else stamp.split(":")[0] + ":partial", end, read, sources.check(path, end))
    elif action == "handoff":
        mdir, entries = step[2], sources.read_handoff(step[2])[1]
    else:
        learning = sources.read_learning(unit)
        mdir, entries = "", [] if learning is None else [learning]
    fresh = _insert(conn, unit, mdir, entries, pending)
    if action != "handoff":  # why not a handoff: its store keeps one item per id
        settle(conn, unit if action == "jsonl" else None, before | {e["id"] for e in entries}, fresh, pending)
    if action != "jsonl":
        # why: a forgotten item or an inactive learning is kept (lh memory search lists it) but hidden
        hidden = [e["id"] for e in entries if e.get("status", "active") != "active"]
    conn.executemany("INSERT INTO hidden(unit, id, mdir) VALUES (?,?,?)", [(unit, h, mdir) for h in hidden])
    conn.execute("INSERT OR REPLACE INTO source VALUES (?,?,?,?,?)", row)
    return len(entries), done


def settle(conn: Connection, unit: str | None, eids: Iterable[str], fresh: set[int], pending: Pending) -> None:
    """Of the entries of each of ``eids`` (of ``unit``; None: learnings), let the one readers show stand."""
    head, where = ([unit], "unit=?") if unit is not None else ([], "kind='learning'")
    sql = f"SELECT rowid, id, twin, claim, aside, unit, line, kind, title FROM entry WHERE {where} AND id IN ({{}})"
    groups: dict[tuple[str, str], list[tuple[Any, ...]]] = {}
    for row in lookup.rows_in(conn, sql, sorted(set(eids)), *head):
        groups.setdefault((row[1], row[2] or ""), []).append(row)
    for rows in _collided_apart(list(groups.values())):
        # why one not just indexed too: it may hold the words of a copy gone since, or be set aside
        if len(rows) > 1 or rows[0][4] or rows[0][0] not in fresh:
            _stand(conn, sorted(rows, key=lambda r: (r[5], r[6])), pending)


def _collided_apart(groups: list[list[tuple[Any, ...]]]) -> list[list[tuple[Any, ...]]]:
    """``groups`` with a group of lines whose different summaries hash to one id split, one group per line."""
    from lazy_harness.memory import standing

    out: list[list[tuple[Any, ...]]] = []
    for rows in groups:
        own = [r[8] for r in rows if r[3] == sources.OWN]
        out += [[r] for r in rows] if len(rows) > 1 and standing.collided(own, rows[0][7]) else [rows]
    return out


def _stand(conn: Connection, rows: list[tuple[Any, ...]], pending: Pending) -> None:
    """Put the entries ``rows`` of one id in again under new rowids (a rowid's text never changes): the one
    that stands with its vector keys and the words of the copies it stands for; the others set aside."""
    at, kept = sources.standing([r[3] for r in rows])
    old = [r[0] for r in rows]
    lexical_write.remove(conn, old, pending)
    lookup.rows_in(conn, "DELETE FROM key WHERE rowid IN ({})", old)
    first = lookup.last_rowid(conn) + 1
    conn.executemany(f"INSERT INTO entry(rowid, {COLUMNS}, aside) SELECT ?, {COLUMNS}, ? FROM entry WHERE rowid=?",
                     [(first + k, int(k != at), r[0]) for k, r in enumerate(rows)])
    lookup.rows_in(conn, "DELETE FROM entry WHERE rowid IN ({})", old)
    conn.execute("INSERT OR REPLACE INTO meta VALUES ('rowid', ?)", (str(first + len(rows) - 1),))
    sql = "SELECT rowid, title, body, tags, cues, mdir FROM entry WHERE rowid IN ({})"
    texts = {r[0]: r[1:] for r in lookup.rows_in(conn, sql, [first + k for k in kept])}
    top = first + at
    title, body, tags, cues, mdir = texts[top]
    conn.executemany("INSERT INTO key(rowid, n, key) VALUES (?,?,?)",
                     vectors.keys_rows(top, [{"title": title, "body": body, "tags": tags, "cues": cues or ""}]))
    order = [top, *(r for r in sorted(texts) if r != top)]
    title, body, tags = (" ".join(dict.fromkeys(t for r in order if (t := texts[r][c]))) for c in range(3))
    lexical_write.add(conn, mdir, [(top, title, body, tags)], pending)


def remake_short(conn: Connection) -> int:
    """Make anew, each in one transaction, the word lists removals left short; how many."""
    scopes = lexical_build.due(conn)
    for scope in scopes:
        lexical_build.remake(conn, scope)
    return len(scopes)
