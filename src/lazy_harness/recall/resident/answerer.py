"""The resident answerer's own side (ADR 0029), run as ``python -m lazy_harness.recall.resident.answerer``:
the open index kept between questions, each answered with the hook's function and environment, until idle,
SIGTERM or other code. The hook's side: :mod:`lazy_harness.recall.resident.client`."""

from __future__ import annotations

import os
import sqlite3
import sys
from contextlib import suppress

from lazy_harness import jsonload
from lazy_harness.memory.lines import file_stamp
from lazy_harness.recall.resident.client import (ASK_TIMEOUT, BACKOFF_NAME, LOCK_NAME, MAX_QUESTION, PID_NAME,
                                          PROCESS_ENV, READ_SECONDS, SOCKET_NAME, WAKE_SECONDS, code_stamp, folder,
                                          is_answerer, peer_uid, pid_in, read_all)

TYPE_CHECKING = False
if TYPE_CHECKING:
    import socket
    from collections.abc import Callable

    from lazy_harness.memory.shapes import Env


# entries read ahead while no question waits (2.2 KB each; 1.5 ms of 6.5 a prompt at 18,000 entries)
AHEAD = 20000
# others kept as questions meet them. why 2,000: at 100,000 entries 87 MB, 98 MB with 6,000 (goal: 100)
KEPT_DOCS = 2000
AHEAD_PART = 200  # entries read ahead at a time (a few milliseconds: the most a question waits for it)


class Kept:
    """The index connection kept between questions; opened again when the file was replaced or removed."""

    def __init__(self, log: Callable[[str], None] | None = None) -> None:
        self.log = log
        self.conn: sqlite3.Connection | None = None
        self.path: str | None = None
        self.ident: tuple[int, int] | None = None
        self.ahead = 0  # the rowid under which to read ahead next; 0: nothing left to read
        self.ahead_seconds = 0.0  # the time read_ahead took so far, and (entries, embedded) it read: the log's
        self.ahead_read = (0, 0)

    def open(self, path: str) -> sqlite3.Connection:
        from lazy_harness.recall.embed import vectors
        from lazy_harness.recall.index import lookup, store

        try:
            st = os.stat(path)
            ident = (st.st_dev, st.st_ino)
        except OSError:
            ident = None
        if self.conn is not None and (path, ident) != (self.path, self.ident):
            self.close()
        if self.conn is None:
            self.conn = store.connect(path, create=False)  # why: a reader; the writer makes the index
            # why start over: a new file may give old rowids to other entries
            lookup.keep_docs(KEPT_DOCS)
            vectors.keep_vectors(KEPT_DOCS)
            # why: the pages every prompt reads stay in SQLite's own cache between questions (16 MB)
            self.conn.execute("PRAGMA cache_size=-16000")
            st = os.stat(path)
            self.path, self.ident = path, (st.st_dev, st.st_ino)
            self.ahead, self.ahead_seconds, self.ahead_read = lookup.last_rowid(self.conn) + 1, 0.0, (0, 0)
        return self.conn

    def read_ahead(self) -> bool:
        """Read ``AHEAD_PART`` more entries ahead (``AHEAD`` in all); whether more are left."""
        if self.conn is None or not self.ahead:
            return False
        import time

        from lazy_harness.recall.embed import static_model, vectors
        from lazy_harness.recall.index import lookup

        started = time.monotonic()
        try:
            rowids = lookup.warm_docs(self.conn, self.ahead, AHEAD_PART, AHEAD)
            embedded = vectors.warm(self.conn, rowids, static_model.MODEL_ID)
            self.ahead_read = (self.ahead_read[0] + len(rowids), self.ahead_read[1] + embedded)
        except Exception as exc:
            rowids = []
            if self.log:
                self.log(f"reading ahead stopped: {type(exc).__name__}: {exc}")
        self.ahead_seconds += time.monotonic() - started
        self.ahead = rowids[-1] if rowids else 0
        if not self.ahead and self.log:
            self.log(f"read ahead: the words of {self.ahead_read[0]:,} entries and the vectors of "
                     f"{self.ahead_read[1]:,} in {self.ahead_seconds:.2f} s")
        return bool(self.ahead)

    def close(self) -> None:
        if self.conn is not None:
            with suppress(Exception):  # why: a connection to a removed file; a new one is opened
                self.conn.close()
        self.conn, self.path, self.ident, self.ahead = None, None, None, 0


class Code:
    """The package's module files as the answerer found them (``file_stamp``): one changed or gone means
    other code is installed, and the answerer leaves (``code_stamp`` covers only the protocol's two files)."""

    def __init__(self, root: str | None = None) -> None:
        import lazy_harness

        self.seen: dict[str, str | None] = {}
        for where, dirs, names in os.walk(root or os.path.dirname(os.path.abspath(lazy_harness.__file__))):
            dirs[:] = [d for d in dirs if d != "__pycache__"]
            found = [os.path.join(where, name) for name in names if name.endswith(".py")]
            self.seen |= {path: file_stamp(path) for path in found}

    def changed(self) -> bool:
        return any(file_stamp(path) != seen for path, seen in self.seen.items())


def idle_seconds(env: Env) -> float:
    """``recall.resident_minutes`` from the config as it is now, in seconds (0: leave)."""
    from lazy_harness import config

    try:
        return max(0.0, float(config.load_fast(env)["recall"]["resident_minutes"]) * 60.0)
    except Exception:
        return 0.0


def answer_one(raw: bytes, kept: Kept, stamp: str, later: list[Callable[[], object]] | None = None
               ) -> tuple[dict, bool]:
    """One question's answer and whether to leave; ``later`` receives the writes recording the showing."""
    from lazy_harness.recall.prompt import recall

    try:
        q = jsonload.loads(raw)
    except (ValueError, RecursionError, MemoryError):  # why: 100,000 nested brackets exhaust the stack
        q = None
    if not isinstance(q, dict) or not isinstance(q.get("env"), dict) or not isinstance(q.get("payload"), dict):
        return {"error": "unreadable question"}, False
    if q.get("stamp") != stamp:
        return {"stale": True}, True
    # why: the question says where things are; how to run Python is the answerer's own
    env = {k: os.environ[k] for k in PROCESS_ENV if k in os.environ} | q["env"]
    try:
        decision, out = recall.answer(q["payload"], env, float(q.get("now") or 0), opener=kept.open, later=later)
    except Exception as exc:  # why: the hook logs it and does the work itself
        kept.close()
        return {"error": f"{type(exc).__name__}: {exc}"}, False
    return {"decision": decision, "out": out}, False


def serve(env: Env, log: Callable[[str], None], replace: bool = False) -> str:
    """Answer questions until idle for ``recall.resident_minutes`` or told to leave; why it left.
    ``replace``: take the place of the answerer a hook found not answering (``client.back_off``)."""
    import signal

    from lazy_harness import paths, private
    from lazy_harness.atomic import try_lock

    where = folder(env)
    try:
        private.make(paths.cache_dir(env))
        private.make(where, strict=True)
    except private.UnsafeFolder as exc:
        return f"not started: {exc}; see lh doctor"
    lock = try_lock(os.path.join(where, LOCK_NAME))
    if lock is None and replace:
        lock = _take_over(where, log)
    if lock is None:
        return "another answerer is running"
    signal.signal(signal.SIGTERM, _stop)
    server = _listen(where)
    kept = Kept(log)
    log(f"answering on {os.path.join(where, SOCKET_NAME)}")
    index = paths.recall_index_file(env)
    if os.path.exists(index):  # why: opened now, so that the entries are read ahead before the next prompt
        try:
            kept.open(index)
        except Exception as exc:  # why: a question finds the same and deals with it
            log(f"index not opened: {type(exc).__name__}: {exc}")
            kept.close()
    try:
        return _answer_until_idle(server, kept, env, Code())
    finally:
        kept.close()
        server.close()
        for name in (SOCKET_NAME, PID_NAME):
            with suppress(OSError):
                os.unlink(os.path.join(where, name))
        os.close(lock)


OTHER_CODE = "other code installed: left"
BINDING_NAME = "resident.sock.new"  # the socket's name between bind and listen


def _listen(where: str) -> socket.socket:
    """The socket bound in ``where`` (the lock held), private to the user, the pid file written first;
    named only once it listens (a hook that found it between bind and listen was refused)."""
    import socket

    from lazy_harness.atomic import atomic_write

    os.chdir(where)  # why: the socket is bound by its short name (a long path does not fit sun_path)
    for name in (SOCKET_NAME, BINDING_NAME):
        with suppress(FileNotFoundError):
            os.unlink(name)  # a socket left by an answerer that was killed; we hold the lock
    atomic_write(os.path.join(where, PID_NAME), f"{os.getpid()}\n")
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    old = os.umask(0o177)
    try:
        server.bind(BINDING_NAME)
    finally:
        os.umask(old)
    server.listen(16)
    os.replace(BINDING_NAME, SOCKET_NAME)
    with suppress(FileNotFoundError):
        os.unlink(BACKOFF_NAME)  # why: hooks ask again from now on (see client.back_off)
    return server


def _take_over(where: str, log: Callable[[str], None]) -> int | None:
    """Kill the answerer the back-off marker names, if one of this user's, and take its lock (or None)."""
    import signal
    import time

    from lazy_harness.atomic import try_lock

    hung = pid_in(where, BACKOFF_NAME)
    if hung is None or not is_answerer(hung):
        return None
    with suppress(ProcessLookupError):
        os.kill(hung, signal.SIGKILL)  # why: a stopped process does not act on SIGTERM
    log(f"stopped pid {hung}, which did not answer in time")
    deadline = time.monotonic() + 5.0
    while time.monotonic() < deadline:
        lock = try_lock(os.path.join(where, LOCK_NAME))
        if lock is not None:
            return lock
        time.sleep(0.02)
    return None


def _answer_until_idle(server: socket.socket, kept: Kept, env: Env, code: Code | None = None) -> str:
    """Answer until the setting says leave or ``code`` changes, reading ahead meanwhile; why it left."""
    import select
    import time

    stamp, last = code_stamp(), time.monotonic()
    looked = last
    while True:
        if stop_asked:
            return "stopped (SIGTERM)"
        if code is not None and time.monotonic() - looked >= WAKE_SECONDS:
            looked = time.monotonic()
            if code.changed():
                return OTHER_CODE
        idle = idle_seconds(env)
        if idle <= 0 or time.monotonic() - last >= idle:
            return "idle: left" if idle > 0 else "recall.resident_minutes is 0: left"
        # why: between questions only; one that comes waits for at most one part
        while not stop_asked and kept.ahead and not select.select([server], [], [], 0)[0]:
            kept.read_ahead()
        server.settimeout(min(WAKE_SECONDS, max(0.05, idle - (time.monotonic() - last))))
        try:
            conn, _ = server.accept()
        except TimeoutError:
            continue
        with conn:
            leave = _one_caller(conn, kept, stamp)
        last = time.monotonic()
        if leave:
            return OTHER_CODE


def _one_caller(conn: socket.socket, kept: Kept, stamp: str, uid: int | None = None) -> bool:
    """Answer the caller on ``conn`` if it runs as ``uid`` (others get nothing); whether to leave."""
    if peer_uid(conn) != (os.geteuid() if uid is None else uid):
        return False
    later: list[Callable[[], object]] = []
    try:
        raw = read_all(conn, MAX_QUESTION, READ_SECONDS)
        try:
            reply, leave = answer_one(raw, kept, stamp, later)
        except Exception as exc:  # why: whatever a question holds, the answerer stays up
            reply, leave = {"error": f"unanswerable question: {type(exc).__name__}"}, False
        conn.settimeout(ASK_TIMEOUT)
        conn.sendall((jsonload.dumps(reply) + "\n").encode("utf-8", "surrogatepass"))
    except OSError:
        return False  # why: the hook gave up waiting (it did the work itself, and records what it showed)
    # why after the reply: the hook's wait is the prompt's; and before it, a showing could count twice
    for write in later:
        with suppress(Exception):  # why: a record lost only means an item may be shown once more
            write()
    return leave


# Whether SIGTERM arrived. why a flag: an exception raised from the handler was swallowed where it landed
stop_asked = False


def _stop(*_: object) -> None:
    global stop_asked
    stop_asked = True


def main() -> int:
    from lazy_harness import logfile

    def log(message: str) -> None:
        print(f"{logfile.stamp()} resident pid={os.getpid()} {message}", flush=True)

    try:
        log(serve(os.environ, log, replace="--replace" in sys.argv[1:]))
    except Exception as exc:  # why: detached, nobody reads a traceback; the log says what failed
        log(f"failed: {type(exc).__name__}: {exc}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
