"""The resident answerer: one process per user that keeps the index open and answers the prompt
hook, so a prompt pays for a bare interpreter and a socket round trip instead of opening SQLite,
importing recall and reading cold pages each time (ADR 0029).

It is an optimisation only. The hook asks it first (``ask``); with no answerer, a stale one, an
error or a slow answer, the hook does the same work itself (``recall.prompt.answer``), and then
starts one (``start``) when the memory is large enough for it to pay (``SERVE_FROM`` entries) and
``recall.resident_minutes`` is not 0. The answerer runs the very function the hook would run, with
the hook's environment, so what a prompt gets does not depend on which of them answered.

It holds nothing that is not in the files: no vectors in memory (they are in the index), no state
to lose. It leaves after ``recall.resident_minutes`` without a question (read again from the config
at every wake-up, so a changed setting applies without a restart), when the installed code changes
(the hook sends its ``code_stamp``; another one makes it leave), and when ``lh hooks uninstall``
stops it. ``lh doctor`` lists it. One at a time: it answers only after winning a lock on
``<index dir>/resident.lock``; the socket and the pid file sit beside it, private to the user.

Protocol (one question per connection): the hook sends one JSON line ``{"stamp", "env", "payload",
"now"}`` and shuts its side; the answerer sends one JSON line ``{"decision", "out"}``, or
``{"stale": true}`` (and leaves), or ``{"error": <line>}``.

Hot path: the client half (``ask`` and what it calls) imports only ``os``, ``sys`` and ``_socket``
at call time; the server half imports what it needs inside its functions.
"""

import os
import sys

from lazy_harness import jsonload, paths

SOCKET_NAME = "resident.sock"
LOCK_NAME = "resident.lock"
PID_NAME = "resident.pid"
LOG = "resident.log"
SERVE_FROM = 3000  # entries in the index from which the hook starts an answerer (below: fast enough alone)
ASK_TIMEOUT = 3.0  # seconds the hook waits for an answer before doing the work itself
MAX_ANSWER = 1 << 20
MAX_QUESTION = 4 << 20
MAX_SOCKET_PATH = 100  # why: sun_path holds 108 bytes on Linux, 104 on macOS, with its final NUL
WAKE_SECONDS = 1.0  # how often an idle answerer looks at its setting again (a stat of the config)


def _socket():
    # why: ``import socket`` loads enum and selectors: a start without site that imports it took
    # 25.6 ms against 13.2 ms for the C module it wraps (13.4 ms for nothing), which has all a client
    # needs (benchmarks/bench_user_prompt.py prints both)
    import _socket

    return _socket


def folder(env=None) -> str:
    """Where the answerer's socket, lock and pid file are: beside the index."""
    return paths.recall_dir(env)


def code_stamp() -> str:
    """The installed code's identity: the version and a checksum of the two files of the answerer's
    protocol (this one and ``answerer.py``). An answerer started from other code leaves instead of
    answering.

    why the bytes, not the files' mtimes: two installs of one version sharing a HOME (an editable one
    and the plugin's) would each take the other's answerer for stale and stop it at every prompt."""
    import zlib

    from lazy_harness import __version__

    crc = 0
    for name in (__file__, os.path.join(os.path.dirname(__file__), "answerer.py")):
        try:
            with open(name, "rb") as fh:
                crc = zlib.crc32(fh.read(), crc)
        except OSError:
            pass
    return f"{__version__}:{crc:08x}"


def _connect(sock, where: str) -> None:
    """Connect ``sock`` to ``<where>/resident.sock``; a path too long for a Unix socket is reached
    from inside its folder (the working directory is put back at once)."""
    path = os.path.join(where, SOCKET_NAME)
    if len(path.encode("utf-8", "surrogatepass")) <= MAX_SOCKET_PATH:
        sock.connect(path)
        return
    here = os.open(".", os.O_RDONLY)
    try:
        os.chdir(where)
        sock.connect(SOCKET_NAME)
    finally:
        os.fchdir(here)
        os.close(here)


def ask(payload: dict, env, now: float, timeout: float = ASK_TIMEOUT) -> tuple[tuple[str, str | None] | None, str]:
    """(the answerer's (decision, stdout text), "") or (None, why not). Never raises."""
    where = folder(env)
    # why: no socket file, no answerer (below SERVE_FROM entries, or it left): one stat instead of
    # loading the socket module (0.4 to 0.8 ms) to be refused
    if not os.path.exists(os.path.join(where, SOCKET_NAME)):
        return None, "none running"
    if not payload.get("cwd"):  # why: the answerer's own working directory is its folder, not the session's
        payload = dict(payload, cwd=env.get("CLAUDE_PROJECT_DIR") or os.getcwd())
    s = _socket()
    try:
        sock = s.socket(s.AF_UNIX, s.SOCK_STREAM)
    except OSError as exc:
        return None, f"socket: {exc.strerror or exc}"
    try:
        sock.settimeout(timeout)
        try:
            _connect(sock, where)
        except (FileNotFoundError, ConnectionRefusedError):
            return None, "none running"
        # why: the time as text: a float would make jsonload.dumps import json (and re, enum)
        line = jsonload.dumps({"stamp": code_stamp(), "env": dict(env), "payload": payload, "now": repr(now)}) + "\n"
        sock.sendall(line.encode("utf-8", "surrogatepass"))
        sock.shutdown(s.SHUT_WR)
        got = read_all(sock, MAX_ANSWER)
        answer = jsonload.loads(got) if got else None
    except TimeoutError:
        return None, "no answer in time"
    except OSError as exc:
        return None, f"socket: {exc.strerror or type(exc).__name__}"
    except ValueError:
        return None, "unreadable answer"
    finally:
        sock.close()
    if not isinstance(answer, dict):
        return None, "no answer"
    if answer.get("stale"):
        return None, "stale (other code): left"
    if "error" in answer:
        return None, f"error: {answer['error']}"
    decision, out = answer.get("decision"), answer.get("out")
    if not isinstance(decision, str) or not (out is None or isinstance(out, str)):
        return None, "unreadable answer"
    return (decision, out), ""


def read_all(sock, limit: int) -> bytes:
    """What ``sock`` sends until it shuts its side (or past ``limit`` bytes: the rest is not read)."""
    chunks, size = [], 0
    while size <= limit:
        chunk = sock.recv(65536)
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def running(env=None) -> bool:
    """Whether an answerer holds the lock now."""
    from lazy_harness.atomic import held

    return held(os.path.join(folder(env), LOCK_NAME))


def start(env) -> int | None:
    """Start an answerer detached, unless one runs; its pid or None."""
    from lazy_harness import detach

    if running(env):
        return None
    argv = [sys.executable, "-m", "lazy_harness.recall.answerer"]
    return detach.spawn(argv, os.path.join(paths.logs_dir(env), LOG), dict(env))


def pid(env=None) -> int | None:
    """The running answerer's pid (from its pid file), or None when none runs."""
    if not running(env):
        return None
    try:
        with open(os.path.join(folder(env), PID_NAME), encoding="utf-8") as fh:
            return int(fh.read().strip())
    except (OSError, ValueError):
        return None


def resident_kb(pid_: int) -> int | None:
    """The resident set of process ``pid_`` in KB (Linux ``/proc``), or None."""
    try:
        with open(f"/proc/{pid_}/status", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return None


def stop(env=None, wait: float = 5.0) -> int | None:
    """Ask the running answerer to leave (SIGTERM) and wait until it has (its lock released); its pid,
    or None when none ran. A process still holding the lock after ``wait`` seconds is killed (its
    socket left behind costs a hook nothing: it finds no one listening and answers alone)."""
    import signal
    import time

    found = pid(env)
    if found is None:
        return None
    try:
        os.kill(found, signal.SIGTERM)
    except ProcessLookupError:
        return found
    deadline = time.monotonic() + wait
    while running(env):
        if time.monotonic() >= deadline:
            try:
                os.kill(found, signal.SIGKILL)
            except ProcessLookupError:
                pass
            break
        time.sleep(0.02)
    return found
