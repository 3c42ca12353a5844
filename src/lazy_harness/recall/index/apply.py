"""Putting entries into the index and taking them out: one step of a refresh plan (``store.refresh_within``
plans; this applies), the entries and their word lists in the same transaction (ADR 0049), and the
lists made whole again where removals left them short. The writer's side: never on the prompt hook's path.
"""

from __future__ import annotations

from lazy_harness.memory import trust
from lazy_harness.memory.sanitize import no_surrogates
from lazy_harness.recall.embed import vectors
from lazy_harness.recall.index import lexical_build, lexical_write, lookup, sources

TYPE_CHECKING = False
if TYPE_CHECKING:
    from sqlite3 import Connection
    from typing import Any

    from lazy_harness.recall.index.lexical_write import Pending


def _count(conn: Connection, delta: int) -> None:
    """Add ``delta`` to the entry count kept in ``meta``."""
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


def _insert(conn: Connection, unit: str, mdir: str, entries: list[dict[str, Any]], pending: Pending) -> None:
    """Index ``entries`` of ``unit`` in memory folder ``mdir`` (the learnings: ""): their rows, their
    texts' vector keys and their word lists (in ``pending``), in the caller's transaction."""
    if not entries:
        return
    for e in entries:  # why: a lone surrogate ("\ud83d", valid JSON) made SQLite refuse the whole index
        e.update({k: no_surrogates(v) for k, v in e.items() if isinstance(v, str)})
    # why: rowids handed out here let the tables be filled by one executemany each (a statement
    # per row cost 1 ms per 100 entries); the write lock is held. Never a rowid handed out before,
    # even after a delete: what was indexed after a point has a higher rowid (``lookup.last_rowid``)
    first = lookup.last_rowid(conn) + 1
    conn.execute("INSERT OR REPLACE INTO meta VALUES ('rowid', ?)", (str(first + len(entries) - 1),))
    # why: the hold check's verdict on the text the prompt hook would inject, made once here (its
    # rules cost tens of milliseconds to compile), read by the hook with the entry (recall/prompt/admit.py)
    conn.executemany("INSERT INTO entry(rowid, unit, id, kind, mdir, origin, scope, file, line, ts, title, detail, "
                     "body, tags, uncued, cues, okey, prov, hold, sess) VALUES (" + ",".join("?" * 20) + ")",
                     [(first + n, unit, e["id"], e["kind"], mdir, e["origin"], e["scope"], e["file"], e["line"],
                       e["ts"], e["title"], e["detail"], e["body"], e["tags"], int(e.get("uncued", False)),
                       e.get("cues", ""), e.get("okey", ""), e.get("prov", ""),
                       trust.every_reason(f"{e['title'] or ''} {e['detail'] or ''}") or "", e.get("sess", ""))
                      for n, e in enumerate(entries)])
    conn.executemany("INSERT INTO key(rowid, n, key) VALUES (?,?,?)", vectors.keys_rows(first, entries))
    # why: in the same transaction as the rows: a search finds an entry as soon as it is committed,
    # and a build killed between two parts leaves every committed part searchable
    lexical_write.add(conn, mdir, [(first + n, e["title"], e["body"], e["tags"]) for n, e in enumerate(entries)],
                      pending)
    _count(conn, len(entries))


def apply(conn: Connection, step: tuple[Any, ...], budget: int, pending: Pending) -> tuple[int, bool]:
    """Carry out one step of a plan, or its first ``budget`` lines (a JSONL file read in parts: a
    build stopped between two parts goes on from where the last one ended). Returns (entries
    (re)indexed, whether the step is done). ``pending``: the word lists' updates of the transaction."""
    action, unit = step[0], step[1]
    done, row = True, (unit, step[-1], 0, 0, "")  # a step read whole: its stamp is its last item
    if action == "folder":
        conn.execute("INSERT OR REPLACE INTO source VALUES (?,?,?,?,?)", row)
        return 0, True
    if action != "jsonl" or step[5] == 0:  # read again whole (a JSONL file: from its start)
        _drop(conn, unit, pending)
    if action == "drop":
        return 0, True
    if action == "jsonl":
        _, path, mdir, kind, stamp, offset, lines, size = step
        # why: up to the size the stamp was taken at: a line appended since is read next time, from
        # here, instead of the stamp not matching what was read and the whole file being read again
        entries, hidden, end, read = sources.read_jsonl(path, kind, offset, lines, size, max_lines=budget)
        done = end == 0 or end >= size or read - lines < budget
        # why: a part read so far keeps the file's inode but not its stamp, so the next plan sees the
        # file stale and, its head unchanged, reads on from ``end``
        row = (unit, stamp if done else stamp.split(":")[0] + ":partial", end, read, sources.check(path, end))
    elif action == "handoff":
        mdir, entries = step[2], sources.read_handoff(step[2])[1]
    else:
        learning = sources.read_learning(unit)
        mdir, entries = "", [] if learning is None else [learning]
    _insert(conn, unit, mdir, entries, pending)
    if action != "jsonl":
        # why: a forgotten handoff item or an inactive learning is kept (lh memory search lists it,
        # labelled) but hidden like a marked entry; by its id as ``_insert`` made it storable
        hidden = [e["id"] for e in entries if e.get("status", "active") != "active"]
    conn.executemany("INSERT INTO hidden(unit, id, mdir) VALUES (?,?,?)", [(unit, h, mdir) for h in hidden])
    conn.execute("INSERT OR REPLACE INTO source VALUES (?,?,?,?,?)", row)
    return len(entries), done


def remake_short(conn: Connection) -> int:
    """Make anew, each in one transaction, the word lists of every scope that removals left short
    (``lexical_build.due``); returns how many."""
    scopes = lexical_build.due(conn)
    for scope in scopes:
        lexical_build.remake(conn, scope)
    return len(scopes)
