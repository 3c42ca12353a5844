"""The resident embedder: ``python -m lazy_harness.recall.embed_server`` (ADR 0020).

One per user: it holds ``<state>/embedder.lock`` (flock) for its whole life, and a second one
started meanwhile leaves at once. It loads the sentence model (:mod:`lazy_harness.recall.embedder`;
when it cannot, it writes ``<state>/embedder.unavailable``, the reason and this interpreter, and
leaves), then answers on a Unix socket (:func:`lazy_harness.recall.embed_client.socket_path`), one
connection at a time, one JSON line in and one out (the protocol is in embed_client).

It keeps every vector it computed in memory, keyed by the SHA-1 of the text. A ``sims`` request
reads the asked entries from the index (read-only), embeds the prompt and, for at most 40 ms, the
texts it has not seen; it answers for the entries whose whole text and cues are all embedded, and
the rest waits for the warm-up. In the gaps between requests it embeds every entry of the index,
16 texts at a time, reading the index again after it changed. It leaves after
``recall.semantic_idle_minutes`` without a request, on SIGTERM, and removes its socket. Every 30 s
it looks at its socket and lock files: when either was removed or replaced (its HOME or state folder
deleted), nobody can reach it any more and it leaves at once, removing nothing that is not its own.
Each start, stop and error is one line on stderr (``<logs>/embedder.log``).
"""

import errno
import fcntl
import hashlib
import json
import os
import select
import signal
import socket
import sys
import time

from lazy_harness import logfile, paths
from lazy_harness.atomic import FILE_MODE, atomic_write, ensure_dir
from lazy_harness.recall import embed_client
from lazy_harness.recall.embedder import ModelUnavailable

LOCK_NAME = "embedder.lock"
READ_TIMEOUT = 2.0
MAX_REQUEST = 1 << 20
MAX_ROWIDS = 10_000
MAX_WAITERS = 16
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
IDLE_DEFAULT_MINUTES = 60
CHECK_EVERY = 30.0  # seconds between two looks at the socket and lock files
_WAIT = object()  # a "warm" request answered once the warm-up is done
SELECT_ROWS = ("SELECT e.rowid, f.title, f.body, f.tags, e.cues FROM entry e JOIN fts f ON f.rowid = e.rowid")


def log(message: str) -> None:
    sys.stderr.write(f"{logfile.stamp()} embedder pid {os.getpid()}: {logfile.terminal_safe(message)}\n")
    sys.stderr.flush()


def lock_path(env=None) -> str:
    return os.path.join(paths.state_dir(env), LOCK_NAME)


def unavailable_path(env=None) -> str:
    return os.path.join(paths.state_dir(env), embed_client.UNAVAILABLE_NAME)


def take_lock(env) -> int | None:
    """The descriptor holding the embedder lock, or None when another process holds it."""
    path = lock_path(env)
    ensure_dir(os.path.dirname(path))
    fd = os.open(path, os.O_RDWR | os.O_CREAT, FILE_MODE)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        os.close(fd)
        if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
            return None
        raise
    return fd


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
        import sqlite3
        from urllib.parse import quote

        return sqlite3.connect(f"file:{quote(self.path)}?mode=ro", uri=True, timeout=1.0)

    def rows(self, rowids: list[int] | None = None) -> dict[int, tuple[str, list[str]]]:
        """rowid -> (whole text, cues) for ``rowids`` (every entry when None), in their order.
        Raises sqlite3.Error (a missing index, an index without cues)."""
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
        finally:
            conn.close()
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
        self.check_index = True
        self.index_error = ""
        self.warm_started = None
        self.sec_per_char = SEC_PER_CHAR

    # --- requests ---------------------------------------------------------------------------------

    def handle(self, line: bytes):
        """The answer (a dict) to one request line, or ``_WAIT`` for a warm request not ready yet."""
        try:
            req = json.loads(line)
        except ValueError:
            return {"error": "request is not JSON"}
        if not isinstance(req, dict):
            return {"error": "request is not a JSON object"}
        op = req.get("op")
        if op == "ping":
            return {"ok": True, "pid": os.getpid()}
        if op not in ("sims", "warm"):
            return {"error": f"unknown op {str(op)[:40]!r}"}
        index = req.get("index")
        if not isinstance(index, str) or not self._serves(index):
            return {"error": f"index {str(index)[:200]!r} is not the one this embedder serves ({self.index.path})"}
        if op == "warm":
            self.check_index = True
            self.refresh()
            return {"ready": self.ready()} if self.warm_done() else _WAIT
        prompt, rowids = req.get("prompt"), req.get("rowids")
        if not isinstance(prompt, str):
            return {"error": "sims: prompt must be a string"}
        if not isinstance(rowids, list) or not all(isinstance(r, int) and not isinstance(r, bool) for r in rowids):
            return {"error": "sims: rowids must be a list of integers"}
        if len(rowids) > MAX_ROWIDS:
            return {"error": f"sims: more than {MAX_ROWIDS} rowids"}
        return self.sims(prompt, list(dict.fromkeys(rowids)))

    def _serves(self, index: str) -> bool:
        return os.path.isabs(index) and os.path.realpath(index) == os.path.realpath(self.index.path)

    def sims(self, prompt: str, rowids: list[int], budget: float | None = None) -> dict:
        started = time.monotonic()
        budget = SIMS_BUDGET if budget is None else budget
        import sqlite3

        try:
            rows = self.index.rows(rowids)
        except sqlite3.Error as exc:
            return {"error": f"{self.index.path}: {exc}"}
        self.check_index = True  # why: the hook may just have added entries; look once idle
        try:
            q = self.embedder.embed([_clean(prompt)])[0]
        except Exception as exc:
            log(f"error embedding a prompt: {type(exc).__name__}: {exc}")
            return {"error": f"embedding the prompt failed: {type(exc).__name__}"}
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
        import numpy as np

        out = {}
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


# --- the socket ----------------------------------------------------------------------------------------

def _read_line(conn, deadline: float) -> bytes | None:
    """The request line (without its newline); None when the client closed without sending one.
    Raises TimeoutError past ``deadline``, ValueError past MAX_REQUEST bytes."""
    chunks, size = [], 0
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError
        conn.settimeout(left)
        chunk = conn.recv(65536)
        if not chunk:
            raw = b"".join(chunks)
            return raw or None
        nl = chunk.find(b"\n")
        if nl >= 0:
            chunks.append(chunk[:nl])
            size += nl
        else:
            chunks.append(chunk)
            size += len(chunk)
        if size > MAX_REQUEST:
            raise ValueError
        if nl >= 0:
            return b"".join(chunks)


def _send(conn, answer: dict) -> None:
    try:
        conn.settimeout(READ_TIMEOUT)
        conn.sendall((json.dumps(answer) + "\n").encode("utf-8", "surrogatepass"))
    except OSError:
        pass


def bind(env) -> tuple[socket.socket, str, int]:
    """Listen on the socket path (a stale socket file removed first; the caller holds the lock).
    Returns (socket, path, inode of the socket file)."""
    path = embed_client.socket_path(env)
    ensure_dir(os.path.dirname(path))
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    old = os.umask(0o177)
    try:
        sock.bind(path)
    except BaseException:
        sock.close()
        raise
    finally:
        os.umask(old)
    os.chmod(path, FILE_MODE)
    sock.listen(16)
    return sock, path, os.stat(path).st_ino


def _unlink_if_ours(path: str, ino: int) -> None:
    try:
        if os.stat(path).st_ino == ino:
            os.unlink(path)
    except OSError:
        pass


def _gone(sock_path: str, sock_ino: int, lock_file: str, lock_fd: int) -> str:
    """Why nobody can reach this embedder any more ("" while they can): its socket file, or its
    lock file, was removed or replaced by another file."""
    for what, path, ino in (("socket", sock_path, sock_ino), ("lock", lock_file, os.fstat(lock_fd).st_ino)):
        try:
            st = os.stat(path)
        except (FileNotFoundError, NotADirectoryError):
            return f"{what} file {path} was removed"
        except OSError:
            continue  # why: not known to be gone (a permission changed): keep serving
        if st.st_ino != ino:
            return f"{what} file {path} was replaced by another file"
    return ""


def serve(env, load_embedder, idle_seconds: float, stop_event=None, wake_fd: int | None = None,
          check_every: float = CHECK_EVERY) -> str:
    """Run the embedder until it is idle ``idle_seconds``, ``stop_event`` is set, its socket or lock
    file is gone (looked at every ``check_every`` seconds), or it cannot run.
    ``load_embedder()`` returns an object with ``embed(texts) -> (n, 384) unit vectors`` or raises
    ModelUnavailable. A byte on ``wake_fd`` (SIGTERM's wakeup fd) makes the loop look at
    ``stop_event``. Returns why it stopped."""
    lock_fd = take_lock(env)
    if lock_fd is None:
        return "another embedder holds the lock"
    try:
        return _serve_locked(env, load_embedder, idle_seconds, stop_event, wake_fd, lock_fd, check_every)
    finally:
        os.close(lock_fd)  # why: the lock file itself stays; lock files are never deleted


def _serve_locked(env, load_embedder, idle_seconds, stop_event, wake_fd, lock_fd, check_every) -> str:
    started = time.monotonic()
    try:
        embedder = load_embedder()
    except ModelUnavailable as exc:
        reason = str(exc).replace("\n", " ") or "unknown reason"
        atomic_write(unavailable_path(env), f"{reason}\n{sys.executable}\n")
        log(f"unavailable: {reason}")
        return f"unavailable: {reason}"
    try:
        os.unlink(unavailable_path(env))
    except FileNotFoundError:
        pass
    server = Server(embedder, paths.recall_index_file(env))
    listener, sock_path, sock_ino = bind(env)
    log(f"started in {time.monotonic() - started:.2f} s on {sock_path} for {server.index.path}")
    waiters: list = []
    why = "stopped"
    try:
        last_request = time.monotonic()
        next_check = last_request + check_every
        watched = [listener] + ([wake_fd] if wake_fd is not None else [])
        while True:
            if stop_event is not None and stop_event.is_set():
                why = "stopped"
                break
            now = time.monotonic()
            if now >= next_check:
                gone = _gone(sock_path, sock_ino, lock_path(env), lock_fd)
                if gone:
                    why = gone
                    break
                next_check = now + check_every
            idle_left = last_request + idle_seconds - now
            if idle_left <= 0 and not waiters:
                why = f"idle {idle_seconds:g} s"
                break
            # why: no work, nothing to do until a client, a signal, the idle deadline or the next look
            # at the socket file: no polling
            timeout = 0 if server.has_work() else max(idle_left, 0)
            ready, _, _ = select.select(watched, [], [], min(timeout, max(next_check - now, 0)))
            if wake_fd is not None and wake_fd in ready:
                try:
                    os.read(wake_fd, 512)
                except OSError:
                    pass
            if listener in ready:
                if _one_connection(listener, server, waiters):
                    last_request = time.monotonic()
                continue
            if server.has_work():
                server.step()
                if waiters and server.warm_done():
                    answer = {"ready": server.ready()}
                    for conn in waiters:
                        _send(conn, answer)
                        conn.close()
                    waiters.clear()
    except Exception as exc:
        why = f"error: {type(exc).__name__}: {exc}"
        raise
    finally:
        for conn in waiters:
            _send(conn, {"error": "embedder stopping"})
            conn.close()
        listener.close()
        _unlink_if_ours(sock_path, sock_ino)
        log(f"stopped: {why}; {len(server.cache)} vectors cached")
    return why


def _one_connection(listener, server: Server, waiters: list) -> bool:
    """Answer one client; True when it sent a valid request (which keeps the embedder alive)."""
    try:
        conn, _ = listener.accept()
    except OSError:
        return False
    keep = False
    valid = False
    try:
        try:
            line = _read_line(conn, time.monotonic() + READ_TIMEOUT)
        except TimeoutError:
            _send(conn, {"error": f"no request line within {READ_TIMEOUT:.0f} s"})
            return False
        except ValueError:
            _send(conn, {"error": f"request longer than {MAX_REQUEST} bytes"})
            return False
        except OSError:
            return False
        if line is None:
            return False  # a client that only looked whether the embedder listens
        try:
            answer = server.handle(line)
        except Exception as exc:  # why: one bad request must not end the embedder for everyone
            log(f"error answering a request: {type(exc).__name__}: {exc}")
            answer = {"error": f"{type(exc).__name__} while answering"}
        valid = answer is _WAIT or "error" not in answer
        if answer is _WAIT:
            if len(waiters) >= MAX_WAITERS:
                _send(conn, {"error": "too many warm requests waiting"})
            else:
                waiters.append(conn)
                keep = True
            return True
        _send(conn, answer)
        return valid
    finally:
        if not keep:
            conn.close()


def idle_seconds_from_config(env) -> float:
    try:
        from lazy_harness import config

        minutes = config.load_fast(env).get("recall", {}).get("semantic_idle_minutes", IDLE_DEFAULT_MINUTES)
        if isinstance(minutes, bool) or not isinstance(minutes, (int, float)) or minutes <= 0:
            minutes = IDLE_DEFAULT_MINUTES
    except Exception:  # why: a broken config must not keep the embedder from its default
        minutes = IDLE_DEFAULT_MINUTES
    return float(minutes) * 60


def main() -> int:
    env = dict(os.environ)
    try:
        os.nice(5)
    except OSError:
        pass
    import threading

    from lazy_harness.recall.embedder import Embedder

    stop = threading.Event()
    r, w = os.pipe()
    os.set_blocking(w, False)
    signal.set_wakeup_fd(w, warn_on_full_buffer=False)

    def on_signal(signum, frame):
        stop.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    try:
        serve(env, Embedder, idle_seconds_from_config(env), stop_event=stop, wake_fd=r)
    except Exception as exc:
        log(f"error: {type(exc).__name__}: {exc}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
