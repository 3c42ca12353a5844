"""What the resident embedder (:mod:`lazy_harness.recall.embed_server`) knows: the index it reads,
the vectors it computed and the warm-up queue.

It keeps every vector it computed in memory, keyed by the SHA-1 of the text. A ``sims`` request
embeds the prompt as soon as it arrives (its candidates may follow on the same connection), then
reads the asked entries from the index (read-only) and embeds, for at most 40 ms, the texts it has
not seen; it answers for the entries whose whole text and cues are all embedded, and the rest waits
for the warm-up. In the gaps between requests it embeds every entry of the index,
16 texts at a time, reading the index again after it changed.
"""

import hashlib
import json
import os
import sys
import time

from lazy_harness import logfile

MAX_ROWIDS = 10_000
SIMS_BUDGET = 0.040
WARM_BATCH = 16
# why: one warm-up step blocks the requests behind it. Batching helps short texts (16 cues: 2x the
# rate of one at a time) but not long ones (an entry's whole text: about 60 a second either way, so
# 16 of them took 250 to 1000 ms), so a step also stops at 600 characters: 20 to 40 ms a step, the
# same warm-up rate
WARM_BATCH_CHARS = 600
TEXT_CHARS_MAX = 1200  # about 256 tokens: the model cuts a longer text, so it costs no more
MAX_TEXT_CHARS = 16_000  # far past 256 tokens (a token is 1 to 100 characters, mostly 4)
SEC_PER_CHAR = 5e-5  # the first guess of what a character costs to embed; measured from then on
SQL_CHUNK = 500
_WAIT = object()  # a "warm" request answered once the warm-up is done
SELECT_ROWS = ("SELECT e.rowid, f.title, f.body, f.tags, e.cues FROM entry e JOIN fts f ON f.rowid = e.rowid")


class Pending:
    """A sims request whose prompt is embedded and whose candidates are still to come."""

    __slots__ = ("vector",)

    def __init__(self, vector):
        self.vector = vector


def _object(line: bytes) -> tuple[dict, str]:
    """(a request line's JSON object, "") or ({}, why it is not one)."""
    try:
        req = json.loads(line)
    except ValueError:
        return {}, "request is not JSON"
    return (req, "") if isinstance(req, dict) else ({}, "request is not a JSON object")


def _rowids(value) -> tuple[list[int], str]:
    """(the asked rowids without repeats, in order, "") or ([], why they are refused)."""
    if not isinstance(value, list) or not all(isinstance(r, int) and not isinstance(r, bool) for r in value):
        return [], "sims: rowids must be a list of integers"
    if len(value) > MAX_ROWIDS:
        return [], f"sims: more than {MAX_ROWIDS} rowids"
    return list(dict.fromkeys(value)), ""


def log(message: str) -> None:
    sys.stderr.write(f"{logfile.stamp()} embedder pid {os.getpid()}: {logfile.terminal_safe(message)}\n")
    sys.stderr.flush()


def text_key(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()


def _clean(text: str) -> str:
    """``text`` as the tokenizer takes it: a lone surrogate would make it fail, and what lies past
    the 256 tokens the model reads only costs time (a request line may hold a megabyte)."""
    return text[:MAX_TEXT_CHARS].encode("utf-8", "replace").decode("utf-8")


class Index:
    """The recall index, read-only: each entry's whole text and cues."""

    def __init__(self, path: str):
        self.path = path
        self._conn = None
        self._ino = None

    def inode(self) -> int | None:
        try:
            return os.stat(self.path).st_ino
        except OSError:
            return None

    def stamp(self):
        """What changes when the index does: the file and its WAL (inode, mtime, size); None if missing.
        An empty WAL counts as none (opening the index read-only creates one)."""
        try:
            st = os.stat(self.path)
        except OSError:
            return None
        try:
            wal = os.stat(self.path + "-wal")
        except OSError:
            wal = None
        return ((st.st_ino, st.st_mtime_ns, st.st_size),
                (wal.st_ino, wal.st_mtime_ns, wal.st_size) if wal is not None and wal.st_size else None)

    def _connect(self):
        """A read-only connection, kept open while the index file is the same one (a rebuilt index is
        a new file: then a new connection). Raises sqlite3.Error (no index)."""
        # why: opening one cost about 1 ms of every answer the prompt hook waits for
        import sqlite3
        from urllib.parse import quote

        try:
            ino = os.stat(self.path).st_ino
        except OSError:
            ino = None
        if self._conn is not None and ino is not None and ino == self._ino:
            return self._conn
        self.close()
        if ino is None:
            raise sqlite3.OperationalError(f"unable to open database file {self.path}")
        self._conn = sqlite3.connect(f"file:{quote(self.path)}?mode=ro", uri=True, timeout=1.0,
                                     check_same_thread=False)
        self._ino = ino
        return self._conn

    def close(self) -> None:
        if self._conn is not None:
            try:
                self._conn.close()
            except Exception:
                pass
        self._conn, self._ino = None, None

    def generation(self, key: str = "generation") -> str | None:
        """The index's change counter (``index.refresh`` moves it with every change; ``epoch``: with
        every change that deleted entries); None when the index has none or cannot be read."""
        import sqlite3

        try:
            row = self._connect().execute("SELECT v FROM meta WHERE k=?", (key,)).fetchone()
        except sqlite3.Error:
            self.close()
            return None
        return row[0] if row else "0" if key == "epoch" else None

    def rows(self, rowids: list[int] | None = None) -> dict[int, tuple[str, list[str]]]:
        """rowid -> (whole text, cues) for ``rowids`` (every entry when None), in their order.
        Raises sqlite3.Error (a missing index, an index without cues)."""
        import sqlite3

        conn = self._connect()
        try:
            if rowids is None:
                found = conn.execute(SELECT_ROWS + " ORDER BY e.rowid").fetchall()
            else:
                found = []
                for start in range(0, len(rowids), SQL_CHUNK):
                    chunk = rowids[start:start + SQL_CHUNK]
                    found += conn.execute(f"{SELECT_ROWS} WHERE e.rowid IN ({','.join('?' * len(chunk))})",
                                          chunk).fetchall()
        except sqlite3.Error:
            self.close()  # why: a damaged or half-built index: the next request opens it again
            raise
        by_id = {}
        for rowid, title, body, tags, cues in found:
            whole = f"{title or ''}\n{body or ''}\n{tags or ''}"
            by_id[rowid] = (whole, [c for c in (cues or "").split("\n") if c])
        if rowids is None:
            return by_id
        return {r: by_id[r] for r in rowids if r in by_id}


class Server:
    """The cache and the warm-up queue of one index; ``handle`` answers one request line."""

    def __init__(self, embedder, index_path: str):
        self.embedder = embedder
        self.index = Index(index_path)
        self.cache: dict = {}  # text key -> unit vector
        self.entries: dict[int, list[str]] = {}  # rowid -> keys of its whole text and its cues
        # (text key, text) embedded in the idle gaps, popped from the end (the shortest first)
        self.pending: list[tuple[str, str]] = []
        self.urgent: dict[str, str] = {}  # text key -> text asked for by a sims request: embedded first
        self.failed: set[str] = set()  # texts the embedder raised on: never tried again
        self.stamp = object()  # never equal to a real stamp: the first check reads the index
        self.generation = None  # (index inode, change counter) of the entries last read
        self.epoch = None  # (index inode, delete counter) of the entries last read
        self.check_index = True
        self.index_error = ""
        self.warm_started = None
        self.sec_per_char = SEC_PER_CHAR

    # --- requests ---------------------------------------------------------------------------------

    def handle(self, line: bytes):
        """The answer (a dict) to one request line; ``_WAIT`` for a warm request not ready yet; a
        ``Pending`` for a sims request without rowids, whose second line goes to ``follow_up``."""
        req, why = _object(line)
        if why:
            return {"error": why}
        op = req.get("op")
        if op == "ping":
            return {"ok": True, "pid": os.getpid()}
        if op not in ("sims", "warm", "look"):
            return {"error": f"unknown op {str(op)[:40]!r}"}
        index = req.get("index")
        if not isinstance(index, str) or not self._serves(index):
            return {"error": f"index {str(index)[:200]!r} is not the one this embedder serves ({self.index.path})"}
        if op == "look":  # the worker changed the index: embed what is new in the next idle gaps
            self.check_index = True
            return {"ok": True}
        if op == "warm":
            self.check_index = True
            self.refresh()
            return {"ready": self.ready()} if self.warm_done() else _WAIT
        prompt = req.get("prompt")
        if not isinstance(prompt, str):
            return {"error": "sims: prompt must be a string"}
        if "rowids" not in req:  # the candidates follow on the same connection (``follow_up``)
            q = self.prompt_vector(prompt)
            return q if isinstance(q, dict) else Pending(q)
        rowids, why = _rowids(req.get("rowids"))
        if why:
            return {"error": why}
        q = self.prompt_vector(prompt)
        return q if isinstance(q, dict) else self.sims(q, rowids)

    def follow_up(self, pending: Pending, line: bytes) -> dict:
        """The answer to the second line of a sims request, ``{"rowids": [...]}``."""
        req, why = _object(line)
        if why:
            return {"error": why}
        rowids, why = _rowids(req.get("rowids"))
        return {"error": why} if why else self.sims(pending.vector, rowids)

    def _serves(self, index: str) -> bool:
        return os.path.isabs(index) and os.path.realpath(index) == os.path.realpath(self.index.path)

    def prompt_vector(self, prompt: str):
        """The prompt's unit vector, or an error answer."""
        try:
            return self.embedder.embed([_clean(prompt)])[0]
        except Exception as exc:
            log(f"error embedding a prompt: {type(exc).__name__}: {exc}")
            return {"error": f"embedding the prompt failed: {type(exc).__name__}"}

    def sims(self, q, rowids: list[int], budget: float | None = None) -> dict:
        """Each asked entry's similarity to the prompt vector ``q``: the best cosine over its whole
        text and its cues, for the entries whose vectors are all ready. Texts not embedded yet are
        embedded for at most ``budget`` seconds (SIMS_BUDGET), the rest first in the warm-up."""
        started = time.monotonic()
        budget = SIMS_BUDGET if budget is None else budget
        import numpy as np
        import sqlite3

        self.check_index = True  # why: the hook may just have added entries; look once idle
        out = {}
        # why: the entries read at the last refresh answer without reading the index again while no
        # entry was deleted since (the delete counter): entries are never changed in place, and a
        # rowid is handed out again only after a delete. New entries are read below
        current = self.epoch is not None and self.epoch[1] is not None \
            and (self.index.inode(), self.index.generation("epoch")) == self.epoch
        unread = []
        for rowid in rowids:
            keys = self.entries.get(rowid) if current else None
            vecs = [self.cache.get(k) for k in keys] if keys else None
            if vecs and all(v is not None for v in vecs):
                out[str(rowid)] = round(float((np.stack(vecs) @ q).max()), 6)
            else:
                unread.append(rowid)
        if not unread:
            return {"sims": out}
        try:
            rows = self.index.rows(unread)
        except sqlite3.Error as exc:
            return {"error": f"{self.index.path}: {exc}"}
        wanted = {}
        for whole, cues in rows.values():
            for text in (whole, *cues):
                key = text_key(text)
                if key not in self.cache and key not in self.failed:
                    wanted[key] = text
        missing, at = list(wanted.items()), 0
        while at < len(missing):
            # why: a batch starts only when it is expected to end within the budget: an answer later
            # than the hook's timeout is wasted
            left = budget - (time.monotonic() - started)
            batch, cost = [], 0.0
            while at < len(missing) and len(batch) < WARM_BATCH:
                c = self._cost(missing[at][1])
                if cost + c > left:
                    break
                batch.append(missing[at])
                cost += c
                at += 1
            if not batch:
                break
            self._embed(batch)
        for key, text in missing[at:]:
            self.urgent[key] = text
        for rowid, (whole, cues) in rows.items():
            vecs = [self.cache.get(text_key(t)) for t in (whole, *cues)]
            if all(v is not None for v in vecs):
                out[str(rowid)] = round(float((np.stack(vecs) @ q).max()), 6)
        return {"sims": out}

    # --- the warm-up --------------------------------------------------------------------------------

    def _cost(self, text: str) -> float:
        return min(len(text), TEXT_CHARS_MAX) * self.sec_per_char

    def _embed(self, batch: list[tuple[str, str]]) -> None:
        started = time.monotonic()
        try:
            vecs = self.embedder.embed([_clean(t) for _, t in batch])
        except Exception as exc:
            if len(batch) > 1:  # why: one bad text must not cost the others theirs
                for item in batch:
                    self._embed([item])
                return
            log(f"error embedding a text of {len(batch[0][1])} characters: {type(exc).__name__}: {exc}")
            self.failed.add(batch[0][0])
            return
        chars = sum(min(len(t), TEXT_CHARS_MAX) for _, t in batch)
        if chars:
            self.sec_per_char = 0.7 * self.sec_per_char + 0.3 * (time.monotonic() - started) / chars
        for (key, _), vec in zip(batch, vecs):
            self.cache[key] = vec

    def refresh(self) -> None:
        """Read the list of entries again when the index changed (a stat, else nothing)."""
        import sqlite3

        self.check_index = False
        stamp = self.index.stamp()
        if stamp == self.stamp:
            return
        self.stamp = stamp
        # why: the file's inode and the index's change counter: a hook that only read the index moved
        # its stamps, not its entries (reading every row again took 200 ms at 18,000 entries)
        generation = (stamp[0][0], self.index.generation()) if stamp is not None else None
        if generation is not None and generation[1] is not None and generation == self.generation:
            return
        self.generation = generation
        self.epoch = (stamp[0][0], self.index.generation("epoch")) if stamp is not None else None
        try:
            rows = self.index.rows() if stamp is not None else None
        except sqlite3.Error as exc:
            message = f"{self.index.path}: {exc}"
            if message != self.index_error:
                log(f"error reading the index: {message}")
                self.index_error = message
            rows = None
        if rows is None:  # why: missing or unreadable for now (being rebuilt): keep the vectors
            self.entries, self.pending, self.urgent = {}, [], {}
            return
        self.index_error = ""
        needed, entries = {}, {}
        for rowid, (whole, cues) in rows.items():
            keys = []
            for text in (whole, *cues):
                key = text_key(text)
                keys.append(key)
                needed[key] = text
            entries[rowid] = keys
        self.entries = entries
        self.cache = {k: v for k, v in self.cache.items() if k in needed}  # what left the index goes
        self.urgent = {k: t for k, t in self.urgent.items() if k in needed and k not in self.cache}
        # why: similar lengths in one batch pad less; popped from the end, so the shortest go first
        self.pending = sorted(((k, t) for k, t in needed.items() if k not in self.cache and k not in self.failed),
                              key=lambda kt: -len(kt[1]))
        if self.pending and self.warm_started is None:
            self.warm_started = (time.monotonic(), len(self.pending))

    def ready(self) -> int:
        """How many entries have every text embedded (a text the embedder failed on never is)."""
        return sum(all(k in self.cache for k in keys) for keys in self.entries.values())

    def has_work(self) -> bool:
        return self.check_index or bool(self.urgent) or bool(self.pending)

    def warm_done(self) -> bool:
        return not self.has_work()

    def step(self) -> None:
        """One unit of idle work: look at the index, or embed one batch."""
        if self.check_index:
            self.refresh()
            return
        batch: dict[str, str] = {}
        chars = 0
        while len(batch) < WARM_BATCH and (self.urgent or self.pending):
            if self.urgent:
                key = next(iter(self.urgent))
                text = self.urgent[key]
            else:
                key, text = self.pending[-1]
            size = min(len(text), TEXT_CHARS_MAX)
            if batch and chars + size > WARM_BATCH_CHARS:
                break
            if self.urgent:
                del self.urgent[key]
            else:
                self.pending.pop()
            if key not in self.cache and key not in self.failed and key not in batch:
                batch[key] = text
                chars += size
        if batch:
            self._embed(list(batch.items()))
        if not self.urgent and not self.pending and self.warm_started is not None:
            began, count = self.warm_started
            took = time.monotonic() - began
            log(f"warm: {self.ready()} of {len(self.entries)} entries ready, {count} texts in {took:.1f} s")
            self.warm_started = None
