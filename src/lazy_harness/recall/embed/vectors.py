"""Entry vectors, made when entries are written and kept in the index beside them (ADR 0025): ``key`` (an
entry's texts' hashes: n 0 its whole text, 1.. its cues), ``vec`` (a text's vector by model, and its
length). Kept by hash, a vector outlives a re-index; a new model re-embeds every text once. ``fill`` runs
in the index's writer; the prompt hook only reads (``similarities``): cheap imports only."""

from __future__ import annotations

from operator import mul

# why: not ``from typing import TYPE_CHECKING``: the prompt hook loads this module, and never ``typing``
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from sqlite3 import Connection
    from typing import Any

    Vecs = tuple[bytes, tuple[float, ...]]  # an entry's texts' vectors (unsigned, one after the other), lengths

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS key(rowid INTEGER, n INTEGER, key TEXT)",
    "CREATE INDEX IF NOT EXISTS key_rowid ON key(rowid, n)",
    "CREATE INDEX IF NOT EXISTS key_key ON key(key)",
    "CREATE TABLE IF NOT EXISTS vec(key TEXT PRIMARY KEY, model TEXT, v BLOB, n REAL) WITHOUT ROWID",
)
PART = 500  # texts embedded in one transaction
CHUNK = 500  # host parameters per statement (``rows_in``)
_UNSIGNED = bytes(b ^ 0x80 for b in range(256))  # an int8 byte as the unsigned value 128 higher


def texts_of(entry: Mapping[str, Any]) -> list[str]:
    """What is embedded of an entry: its whole text (title, body and tags, a line each), then each cue."""
    cues = [c for c in entry.get("cues", "").split("\n") if c]
    return [f"{entry['title'] or ''}\n{entry['body'] or ''}\n{entry['tags'] or ''}", *cues]


def keys_rows(first: int, entries: list[dict[str, Any]]) -> list[tuple[int, int, str]]:
    """The ``key`` rows (each text's hash) of entries whose rowids start at ``first``."""
    from lazy_harness.memory import ids  # why not at the top: the index's readers import this module

    return [(first + i, n, ids.text_digest(t))
            for i, e in enumerate(entries) for n, t in enumerate(texts_of(e))]


def drop(conn: Connection, unit: str) -> None:
    """Forget which texts the entries of ``unit`` had (their vectors stay: another entry may share one)."""
    conn.execute("DELETE FROM key WHERE rowid IN (SELECT rowid FROM entry WHERE unit=?)", (unit,))


def model_id() -> str:
    """The identity of the model shipped now (its table's hash)."""
    from lazy_harness.recall.embed import static_model

    return static_model.MODEL_ID


def missing(conn: Connection, model_id: str, after: int, limit: int) -> list[tuple[int, int, str]]:
    """Up to ``limit`` (rowid, n, key) past rowid ``after`` whose text has no vector of ``model_id``."""
    return conn.execute("SELECT k.rowid, k.n, k.key FROM key k LEFT JOIN vec v ON v.key = k.key AND v.model = ? "
                        "WHERE k.rowid > ? AND v.key IS NULL ORDER BY k.rowid, k.n LIMIT ?",
                        (model_id, after, limit)).fetchall()


def rows_in(conn: Connection, sql: str, values: list, *head: object) -> list:
    """The rows of ``sql`` whose ``IN ({})`` holds ``values`` (after ``head``), ``CHUNK`` at a time."""
    found: list = []
    for start in range(0, len(values), CHUNK):
        chunk = values[start:start + CHUNK]
        found += conn.execute(sql.format(",".join("?" * len(chunk))), [*head, *chunk]).fetchall()
    return found


def fill(conn: Connection, state_dir: str | None = None, part: int = PART) -> int:
    """Embed the texts without a vector of the current model, ``part`` a transaction (a killed run goes on
    from the last part committed); how many (``StaticModelError`` when the model cannot be used)."""
    from lazy_harness.recall.embed import static_model as module

    model, done, after = module.load(state_dir=state_dir), 0, 0
    while True:
        todo = missing(conn, module.MODEL_ID, after, part)
        if not todo:
            break
        after = todo[-1][0] if len(todo) < part else todo[-1][0] - 1  # why: the last rowid may have more texts
        sql = "SELECT rowid, title, body, tags, cues FROM entry WHERE rowid IN ({})"
        texts = {rowid: texts_of({"title": title, "body": body, "tags": tags, "cues": cues or ""})
                 for rowid, title, body, tags, cues in rows_in(conn, sql, sorted({r[0] for r in todo}))}
        # key -> its text, each key once (texts of one key are the same: it is their hash)
        wanted = {key: texts[rowid][n] for rowid, n, key in todo if n < len(texts.get(rowid, ()))}
        # why: packing rows pays from some dozens of texts on, or once this process packed some (20 texts:
        # 36 ms one at a time, 14 ms packed)
        many = len(wanted) > 64 or model.warm()
        made = model.embed_many(list(wanted.values())) if many else [model.embed(t) for t in wanted.values()]
        rows = [(key, module.MODEL_ID, v, norm(v)) for key, v in zip(wanted, made, strict=True)]
        if not rows:  # why: the entries went between the two reads (another process re-indexed them)
            break
        conn.execute("BEGIN IMMEDIATE")
        with conn:  # why: sqlite3's own commit, or rollback on any exception
            conn.executemany("INSERT OR REPLACE INTO vec(key, model, v, n) VALUES (?,?,?,?)", rows)
        done += len(rows)
    return done


def prune(conn: Connection, model_id: str) -> int:
    """Drop the vectors no entry's text has any more, and those of another model."""
    conn.execute("BEGIN IMMEDIATE")
    with conn:
        return conn.execute("DELETE FROM vec WHERE model != ? OR key NOT IN (SELECT key FROM key)",
                            (model_id,)).rowcount


def norm(v: bytes) -> float:
    """The length of a kept vector (signed bytes)."""
    x = memoryview(v).cast("b")
    return float(sum(map(mul, x, x))) ** 0.5


class KeptRows:
    """What searches read per rowid, kept in a long-lived process: ``ahead`` (read ahead) and ``met``, up
    to ``most`` (a rowid is never given to another entry: what is kept stays true)."""

    def __init__(self) -> None:
        self.ahead: dict[int, Any] = {}
        self.met: dict[int, Any] = {}
        self.most = 0

    def reset(self, most: int) -> None:
        """Keep up to ``most`` rows met from now on (0: none), and forget every row kept."""
        self.most = most
        self.ahead.clear()
        self.met.clear()

    def get(self, rowids: list[int], read: Callable[[list[int]], dict[int, Any]]) -> dict[int, Any]:
        """rowid -> its row, for ``rowids``: the kept ones, and ``read`` of the others (then kept)."""
        found = {r: row for r in rowids if (row := self.ahead.get(r) or self.met.get(r)) is not None}
        got = read([r for r in rowids if r not in found])
        if self.most and got:
            if len(self.met) + len(got) > self.most:
                self.met.clear()  # why: bounded; the entries asked for again come back at the next searches
            self.met.update(got)
        found.update(got)
        return found


_VECS = KeptRows()  # rowid -> its texts' vectors and their lengths (``keep_vectors``, ``warm``)
_KEPT_MODEL = ""


def keep_vectors(n: int) -> None:
    """Keep the vectors of up to ``n`` entries between searches; forget what ``warm`` read."""
    _VECS.reset(n)


def similarities(conn: Connection, prompt_vec: bytes, rowids: list[int], model_id: str) -> dict[int, float]:
    """rowid -> the best of the prompt's cosines with the entry's texts, for those with all texts embedded."""
    from math import dist

    # why: math.dist works in C (2.4 against 6.1 us a text), and |q - v|^2 = |q|^2 + |v|^2 - 2 q.v gives
    # q.v back exactly (integers below 2^25); both read unsigned (128 higher), which leaves the distance
    qu = tuple(prompt_vec.translate(_UNSIGNED))
    qq = sum(map(mul, memoryview(prompt_vec).cast("b"), memoryview(prompt_vec).cast("b")))
    qn = qq ** 0.5
    dims = len(prompt_vec)
    best: dict[int, float] = {}
    for rowid, (blob, lengths) in _vectors(conn, rowids, model_id).items():
        if len(blob) != dims * len(lengths):
            continue  # why: vectors of another size (a hand-made row): judged by its words, as one not embedded
        top = -2.0
        for at, n in enumerate(lengths):
            s = 0.0
            if qn and n:
                d = dist(qu, blob[at * dims:(at + 1) * dims])
                s = round((qq + round(n * n) - d * d) / 2) / (qn * n)
            if s > top:
                top = s
        best[rowid] = top
    return best


def _read(conn: Connection, rowids: list[int], model_id: str) -> dict[int, Vecs]:
    """rowid -> its texts' vectors (unsigned, in a row) and lengths, when all are embedded, of one size."""
    got: dict[int, tuple[list[bytes], list[float]]] = {}
    lacking = set()
    sql = ("SELECT k.rowid, v.v, v.n FROM key k LEFT JOIN vec v ON v.key = k.key AND v.model = ? "
           "WHERE k.rowid IN ({})")
    for rowid, v, n in rows_in(conn, sql, rowids, model_id):
        if not v or (rowid in got and len(v) != len(got[rowid][0][0])):
            lacking.add(rowid)
        else:
            us, ns = got.setdefault(rowid, ([], []))
            us.append(v)
            ns.append(n or 0.0)  # why: a length missing (a hand-made row) scores 0, as before, not an error
    return {r: (b"".join(us).translate(_UNSIGNED), tuple(ns)) for r, (us, ns) in got.items() if r not in lacking}


def _check_model(model_id: str) -> None:
    global _KEPT_MODEL
    if _VECS.most and model_id != _KEPT_MODEL:
        keep_vectors(_VECS.most)
        _KEPT_MODEL = model_id


def warm(conn: Connection, rowids: list[int], model_id: str) -> int:
    """Read ahead and keep the vectors of the entries ``rowids``; how many had every text embedded."""
    _check_model(model_id)
    got = _read(conn, rowids, model_id)
    _VECS.ahead.update(got)
    return len(got)


def _vectors(conn: Connection, rowids: list[int], model_id: str) -> dict[int, Vecs]:
    """``_read``, after what ``warm`` and ``keep_vectors`` kept."""
    _check_model(model_id)
    return _VECS.get(rowids, lambda asked: _read(conn, asked, model_id))
