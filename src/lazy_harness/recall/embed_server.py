"""The resident embedder: ``python -m lazy_harness.recall.embed_server`` (ADR 0020).

One per user: it holds ``<state>/embedder.lock`` (flock) for its whole life, and a second one
started meanwhile leaves at once. It loads the sentence model (:mod:`lazy_harness.recall.embedder`;
when it cannot, it writes ``<state>/embedder.unavailable``, the reason and this interpreter, and
leaves), then answers on a Unix socket (:func:`lazy_harness.recall.embed_client.socket_path`), one
connection at a time, JSON lines in and one out (the protocol is in embed_client). What it
answers with, and the warm-up in the gaps between requests: :mod:`lazy_harness.recall.embed_cache`.

It leaves after ``recall.semantic_idle_minutes`` without a request, on SIGTERM, and removes its
socket. Every 30 s it looks at its socket and lock files: when either was removed or replaced (its
HOME or state folder deleted), nobody can reach it any more and it leaves at once, removing nothing
that is not its own. It also leaves when its own code files changed (an upgrade): the next prompt
starts the new code. Each start, stop and error is one line on stderr (``<logs>/embedder.log``).
"""

import errno
import fcntl
import json
import os
import select
import signal
import socket
import sys
import time

from lazy_harness import paths
from lazy_harness.atomic import FILE_MODE, atomic_write, ensure_dir
from lazy_harness.recall import embed_client
from lazy_harness.recall.embed_cache import _WAIT, Pending, Server, log
from lazy_harness.recall.embedder import ModelUnavailable

LOCK_NAME = "embedder.lock"
READ_TIMEOUT = 2.0
MAX_REQUEST = 1 << 20
MAX_WAITERS = 16
IDLE_DEFAULT_MINUTES = 60
CHECK_EVERY = 30.0  # seconds between two looks at the socket and lock files
QUIET_AFTER = 0.05  # seconds without idle work after a request


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


# --- the socket ----------------------------------------------------------------------------------------

class _Lines:
    """The request lines of one connection, in order (a client may send its second line before the
    server read the first: what follows a newline is kept for the next call)."""

    def __init__(self, conn):
        self.conn = conn
        self.rest = b""

    def next(self, deadline: float) -> bytes | None:
        """The next line (without its newline); None when the client closed without sending one.
        Raises TimeoutError past ``deadline``, ValueError past MAX_REQUEST bytes."""
        chunks, size = [self.rest], len(self.rest)
        self.rest = b""
        while True:
            joined = b"".join(chunks)
            nl = joined.find(b"\n")
            if nl >= 0:
                if nl > MAX_REQUEST:
                    raise ValueError
                self.rest = joined[nl + 1:]
                return joined[:nl]
            chunks = [joined]
            if size > MAX_REQUEST:
                raise ValueError
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError
            self.conn.settimeout(left)
            chunk = self.conn.recv(65536)
            if not chunk:
                return joined or None
            chunks.append(chunk)
            size += len(chunk)


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


def code_files() -> list[str]:
    """The files of the code this process runs and speaks: itself, its cache, the model's loader and
    the client (which holds the protocol the hooks speak)."""
    from lazy_harness.recall import embed_cache, embedder

    return [os.path.abspath(m.__file__) for m in (sys.modules[__name__], embed_cache, embed_client, embedder)]


def code_stamp(files: list[str]) -> tuple:
    """What changes when a file of ``files`` is written again (an upgrade, a reinstall, an edit)."""
    out = []
    for path in files:
        try:
            st = os.stat(path)
            out.append((st.st_ino, st.st_mtime_ns, st.st_size))
        except OSError:
            out.append(None)
    return tuple(out)


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
    files = code_files()
    code = code_stamp(files)
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
                if code_stamp(files) != code:
                    # why: an upgrade must not leave the hooks talking to the old code for up to
                    # semantic_idle_minutes; the next prompt starts the new one
                    why = "its code changed (lazy-harness upgraded or reinstalled)"
                    break
                next_check = now + check_every
            idle_left = last_request + idle_seconds - now
            if idle_left <= 0 and not waiters:
                why = f"idle {idle_seconds:g} s"
                break
            # why: no work, nothing to do until a client, a signal, the idle deadline or the next look
            # at the socket file: no polling. Idle work waits QUIET_AFTER a request: the hook that
            # just got its answer finishes on a machine the warm-up does not load yet
            quiet = max(last_request + QUIET_AFTER - now, 0)
            timeout = (0 if waiters else quiet) if server.has_work() else max(idle_left, 0)
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
            if server.has_work() and (waiters or time.monotonic() >= last_request + QUIET_AFTER):
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
        server.index.close()
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
    try:
        lines = _Lines(conn)
        line = _next_line(conn, lines)
        if line is None:
            return False  # a client that only looked whether the embedder listens, or sent nothing valid
        answer = _handled(server.handle, line)
        if isinstance(answer, Pending):
            # the prompt is embedded: now the candidates, which the client searched for meanwhile
            pending = answer
            line = _next_line(conn, lines)
            if line is None:
                return True  # why: no candidate was worth asking about; the request was valid
            answer = _handled(lambda raw: server.follow_up(pending, raw), line)
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


def _next_line(conn, lines: _Lines) -> bytes | None:
    """The next request line, or None (the client closed, or was told what was wrong)."""
    try:
        return lines.next(time.monotonic() + READ_TIMEOUT)
    except TimeoutError:
        _send(conn, {"error": f"no request line within {READ_TIMEOUT:.0f} s"})
    except ValueError:
        _send(conn, {"error": f"request longer than {MAX_REQUEST} bytes"})
    except OSError:
        pass
    return None


def _handled(handle, line: bytes):
    try:
        return handle(line)
    except Exception as exc:  # why: one bad request must not end the embedder for everyone
        log(f"error answering a request: {type(exc).__name__}: {exc}")
        return {"error": f"{type(exc).__name__} while answering"}


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
