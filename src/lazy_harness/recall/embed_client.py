"""Asking the resident embedder for similarities, and starting it. Hot path: the prompt hook calls
:func:`send_prompt` and :func:`similarities_for` before every prompt, so only ``os``, ``sys``,
``errno`` and our hot-path modules at top level.

The embedder (:mod:`lazy_harness.recall.embed_server`, one per user) listens on a Unix socket. The
protocol is JSON lines, then the server closes:

- ``{"op": "sims", "index": <path>, "prompt": <text>}``, then, on the same connection,
  ``{"rowids": [...]}`` -> ``{"sims": {"<rowid>": <cosine>, ...}}`` (only the rowids whose vectors
  are ready). The prompt goes first so that the embedder embeds it while the hook searches the index
  for the candidates (the two take about as long; measured in docs/adr/0020). A client that closes
  after the first line (no candidates) gets nothing. The same request in one line, with ``rowids``,
  is answered at once.
- ``{"op": "warm", "index": <path>}`` -> ``{"ready": <count>}`` once every entry is embedded;
- ``{"op": "look", "index": <path>}`` -> ``{"ok": true}``: the index changed (the worker says so
  after a persist), the new entries are embedded in the next idle gaps;
- ``{"op": "ping"}`` -> ``{"ok": true, "pid": <pid>}``; errors ``{"error": <line>}``.

Nothing here raises: every failure becomes a word for hooks.log, and the hook ranks by words.
"""

import errno
import os
import sys

from lazy_harness import jsonload, paths
from lazy_harness.atomic import DIR_MODE, FILE_MODE, ensure_dir

SERVER_MODULE = "lazy_harness.recall.embed_server"
LOG = "embedder.log"
LOG_MAX_BYTES = 1_000_000
SOCKET_NAME = "embedder.sock"
SPAWNED_NAME = "embedder.spawned"
UNAVAILABLE_NAME = "embedder.unavailable"
MAX_SOCKET_PATH = 100  # why: sun_path holds 108 bytes on Linux, 104 on macOS, with its final NUL
SPAWN_QUIET_SECONDS = 30
UNAVAILABLE_SECONDS = 86400
MAX_ANSWER = 4 << 20


def _socket_module():
    # why: ``import socket`` costs 11 to 15 ms here (it loads enum and selectors); the C module under
    # it costs 0.7 ms and has all a client needs (connect, sendall, recv, timeouts)
    import _socket

    return _socket


def _sha1_hex(text: str) -> str:
    try:
        from _sha1 import sha1  # why: hashlib imports far more than this one hash needs
    except ImportError:  # pragma: no cover - a Python built without _sha1
        from hashlib import sha1
    return sha1(text.encode("utf-8", "surrogatepass")).hexdigest()


def _temp_dir(env=None) -> str:
    """``$TMPDIR`` (or ``$TEMP``, ``$TMP``) when it is a folder, else /tmp: what ``tempfile`` picks,
    # why: without importing it (13 ms on the prompt hook's path: it loads shutil, random and re)"""
    e = os.environ if env is None else env
    for name in ("TMPDIR", "TEMP", "TMP"):
        value = e.get(name)
        if value and os.path.isdir(value):
            return os.path.abspath(value)
    return "/tmp"


def socket_path(env=None) -> str:
    """``<state>/embedder.sock``, or, when that path is too long for a Unix socket,
    ``<temp dir>/lh-<uid>/<first 16 hex of the SHA-1 of the state folder>.sock`` (the folder private
    to the user).
    Raises OSError when that folder is someone else's or open to others."""
    state = paths.state_dir(env)
    path = os.path.join(state, SOCKET_NAME)
    if len(path.encode("utf-8", "surrogatepass")) <= MAX_SOCKET_PATH:
        return path
    import stat

    uid = os.getuid()
    folder = os.path.join(_temp_dir(env), f"lh-{uid}")
    try:
        os.mkdir(folder, DIR_MODE)
    except FileExistsError:
        pass
    st = os.lstat(folder)
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != uid or stat.S_IMODE(st.st_mode) != DIR_MODE:
        raise OSError(errno.EPERM, f"{folder}: not a folder of uid {uid} with mode 0700; refused for the embedder's socket")
    return os.path.join(folder, _sha1_hex(state)[:16] + ".sock")


def _why(exc: OSError) -> str:
    return exc.strerror or str(exc) or type(exc).__name__


def _connect(env, timeout: float):
    """A connected socket to the embedder, or raises OSError (FileNotFoundError, ConnectionRefusedError,
    TimeoutError...)."""
    s = _socket_module()
    sock = s.socket(s.AF_UNIX, s.SOCK_STREAM)
    try:
        sock.settimeout(max(timeout, 0.001))
        sock.connect(socket_path(env))
    except BaseException:
        sock.close()
        raise
    return sock


def _open(env, line: dict, timeout: float):
    """(a connected socket that has sent ``line``, "") or (None, why)."""
    try:
        sock = _connect(env, timeout)
    except (FileNotFoundError, ConnectionRefusedError):
        return None, "no embedder running"
    except TimeoutError:
        return None, "embedder did not accept in time"
    except OSError as exc:
        return None, f"embedder socket: {_why(exc)}"
    try:
        sock.sendall((jsonload.dumps(line) + "\n").encode("utf-8", "surrogatepass"))
    except TimeoutError:
        sock.close()
        return None, "embedder did not take the request in time"
    except OSError as exc:
        sock.close()
        return None, f"embedder connection: {_why(exc)}"
    return sock, ""


def _answer(sock, line: dict | None, timeout: float):
    """Send ``line`` (when not None) on an open connection, read one answer line and close:
    (decoded answer, "") or (None, why)."""
    import time

    deadline = time.monotonic() + timeout
    try:
        sock.settimeout(max(timeout, 0.001))
        if line is not None:
            sock.sendall((jsonload.dumps(line) + "\n").encode("utf-8", "surrogatepass"))
        chunks, size = [], 0
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None, f"embedder timed out after {timeout * 1000:.0f} ms"
            sock.settimeout(left)
            chunk = sock.recv(65536)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if b"\n" in chunk or size > MAX_ANSWER:
                break
        raw = b"".join(chunks)
    except TimeoutError:
        return None, f"embedder timed out after {timeout * 1000:.0f} ms"
    except OSError as exc:
        return None, f"embedder connection: {_why(exc)}"
    finally:
        sock.close()
    first, newline, _ = raw.partition(b"\n")
    if not newline:
        return None, "embedder closed without a whole answer"
    try:
        answer = jsonload.loads(first)
    except ValueError:
        return None, "embedder answered garbage"
    if not isinstance(answer, dict):
        return None, "embedder answered garbage"
    if "error" in answer:
        return None, f"embedder refused: {str(answer['error'])[:200]}"
    return answer, ""


def _request(env, request: dict, timeout: float):
    """Send one request, read one answer line: (decoded answer, "") or (None, why)."""
    sock, why = _open(env, request, timeout)
    if sock is None:
        return None, why
    return _answer(sock, None, timeout)


class Pending:
    """A sims request whose prompt is sent: its connection, and the rowids asked once they are."""

    __slots__ = ("sock", "asked")

    def __init__(self, sock):
        self.sock, self.asked = sock, None


def send_prompt(env, index_path: str, prompt: str, timeout: float):
    """Send the prompt ahead of the candidates, so the embedder embeds it meanwhile: (a ``Pending``
    for :func:`ask` and :func:`answer`, or :func:`drop`; "") or (None, why). Never raises."""
    try:
        sock, why = _open(env, {"op": "sims", "index": index_path, "prompt": prompt}, timeout)
        return (Pending(sock) if sock is not None else None), why
    except Exception as exc:  # why: the prompt hook must never fail because of the embedder
        return None, f"embedder: {type(exc).__name__}"


def drop(pending) -> None:
    """Close a pending request; before :func:`ask` (no candidates) the embedder answers nothing."""
    try:
        pending.sock.close()
    except Exception:
        pass


def _sims(answer: dict, wanted: set) -> tuple[dict | None, str]:
    """The similarities of an answer, checked: only rowids asked, cosines in range."""
    sims = answer.get("sims")
    if not isinstance(sims, dict):
        return None, "embedder answered garbage"
    out = {}
    for key, value in sims.items():
        rowid = int(key)
        if rowid not in wanted or isinstance(value, bool) or not isinstance(value, (int, float)) \
                or not -1.01 <= value <= 1.01:
            return None, "embedder answered garbage"
        out[rowid] = float(value)
    return out, ""


def ask(pending, rowids: list[int]) -> str:
    """Send the rowids whose similarities a pending request (:func:`send_prompt`) wants, in the
    caller's order (its best candidates first: the embedder spends its short budget for texts not
    embedded yet in that order); the answer is read by :func:`answer`. Returns "" or why it failed
    (then the request is closed). Never raises."""
    try:
        order = list(dict.fromkeys(int(r) for r in rowids))
        pending.sock.settimeout(1.0)
        pending.sock.sendall((jsonload.dumps({"rowids": order}) + "\n").encode("utf-8", "surrogatepass"))
        pending.asked = set(order)
        return ""
    except (ValueError, TypeError):
        drop(pending)
        return "embedder request: rowids that are not integers"
    except TimeoutError:
        drop(pending)
        return "embedder did not take the request in time"
    except OSError as exc:
        drop(pending)
        return f"embedder connection: {_why(exc)}"
    except Exception as exc:  # why: the prompt hook must never fail because of the embedder
        drop(pending)
        return f"embedder: {type(exc).__name__}"


def answer(pending, wanted: list[int], timeout: float) -> tuple[dict | None, str]:
    """Wait at most ``timeout`` seconds for the answer to :func:`ask`: ({rowid: similarity} for the
    rowids of ``wanted`` whose vectors are ready, "") or (None, why). Closes the request. Never raises."""
    try:
        got, why = _answer(pending.sock, None, timeout)
        if got is None:
            return None, why
        sims, why = _sims(got, pending.asked)
        if sims is None:
            return None, why
        keep = set(int(r) for r in wanted)
        return {r: v for r, v in sims.items() if r in keep}, ""
    except (ValueError, TypeError):
        return None, "embedder answered garbage"
    except Exception as exc:  # why: the prompt hook must never fail because of the embedder
        return None, f"embedder: {type(exc).__name__}"
    finally:
        drop(pending)


def similarities_for(pending, rowids: list[int], timeout: float) -> tuple[dict | None, str]:
    """:func:`ask` then :func:`answer`: ({rowid: similarity} for the rowids whose vectors are
    ready, "") or (None, why). Closes the request. Never raises."""
    why = ask(pending, rowids)
    if why:
        return None, why
    return answer(pending, rowids, timeout)


def similarities(env, index_path: str, prompt: str, rowids: list[int], timeout: float) -> tuple[dict | None, str]:
    """The same in one request line: ({rowid: similarity} for the rowids whose vectors are ready, "")
    or (None, why). Never raises."""
    try:
        order = list(dict.fromkeys(int(r) for r in rowids))
        answer, why = _request(env, {"op": "sims", "index": index_path, "prompt": prompt,
                                     "rowids": order}, timeout)
        if answer is None:
            return None, why
        return _sims(answer, set(order))
    except (ValueError, TypeError):
        return None, "embedder answered garbage"
    except Exception as exc:  # why: the prompt hook must never fail because of the embedder
        return None, f"embedder: {type(exc).__name__}"


def warm(env, index_path: str, timeout: float) -> tuple[int | None, str]:
    """(number of entries ready, "") once the embedder has embedded every entry of the index, or
    (None, why). Never raises."""
    try:
        answer, why = _request(env, {"op": "warm", "index": index_path}, timeout)
        ready = answer.get("ready") if answer else None
        if answer is not None and (isinstance(ready, bool) or not isinstance(ready, int)):
            return None, "embedder answered garbage"
        return ready, why
    except Exception as exc:  # why: callers are hooks and lh commands: a word, never a traceback
        return None, f"embedder: {type(exc).__name__}"


def look(env, index_path: str, timeout: float = 0.5) -> str:
    """Tell a running embedder that the index changed, so it embeds the new entries in its next
    idle gaps rather than at the next prompt: "" or why not (none runs). Never starts one, never
    raises."""
    try:
        _, why = _request(env, {"op": "look", "index": index_path}, timeout)
        return why
    except Exception as exc:  # why: the worker must not fail a task because of the embedder
        return f"embedder: {type(exc).__name__}"


def ping(env, timeout: float) -> int | None:
    """The embedder's pid when one answers within ``timeout``, else None."""
    answer, _ = _request(env, {"op": "ping"}, timeout)
    pid = answer.get("pid") if answer else None
    return pid if isinstance(pid, int) and not isinstance(pid, bool) else None


def _listening(env) -> bool:
    """Whether a process listens on the socket: connecting succeeds even while it is busy."""
    try:
        sock = _connect(env, 0.05)
    except OSError:
        return False
    sock.close()
    return True


def _unavailable(env, now: float) -> str | None:
    """The reason in a fresh unavailable stamp written by this interpreter, else None."""
    path = os.path.join(paths.state_dir(env), UNAVAILABLE_NAME)
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            st = os.fstat(fh.fileno())
            lines = fh.read(8192).split("\n")
    except OSError:
        return None
    if now - st.st_mtime >= UNAVAILABLE_SECONDS or len(lines) < 2 or lines[1] != sys.executable:
        return None
    return lines[0].strip() or "unknown reason"


def _spawned_recently(env, now: float) -> bool:
    try:
        return now - os.stat(os.path.join(paths.state_dir(env), SPAWNED_NAME)).st_mtime < SPAWN_QUIET_SECONDS
    except OSError:
        return False


def _mark_spawned(env, now: float) -> None:
    path = os.path.join(paths.state_dir(env), SPAWNED_NAME)
    ensure_dir(os.path.dirname(path))
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT, FILE_MODE))
    os.utime(path, (now, now))


def spawn_server(env=None) -> int:
    """Start ``python -m lazy_harness.recall.embed_server`` detached (new session, stdin from
    /dev/null, output appended to ``<logs>/embedder.log``); returns its pid."""
    from lazy_harness import detach

    env = dict(os.environ if env is None else env)
    log = os.path.join(paths.logs_dir(env), LOG)
    try:
        if os.stat(log).st_size > LOG_MAX_BYTES:
            os.replace(log, log + ".1")
    except OSError:
        pass
    return detach.spawn([sys.executable, "-m", SERVER_MODULE], log, env)


def ensure_running(env, now: float) -> str:
    """Start the embedder unless it runs, was started in the last 30 s, or cannot run here (a fresh
    unavailable stamp from this interpreter). Returns a word for hooks.log; never raises."""
    try:
        if _listening(env):
            return "running"
        reason = _unavailable(env, now)
        if reason is not None:
            return f"unavailable: {reason}"
        if _spawned_recently(env, now):
            return "recently spawned"
        _mark_spawned(env, now)
        spawn_server(env)
        return "spawned"
    except OSError as exc:
        return f"not started: {_why(exc)}"
    except Exception as exc:  # why: a hook must never fail because of the embedder
        return f"not started: {type(exc).__name__}"
