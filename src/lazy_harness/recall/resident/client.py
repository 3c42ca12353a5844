"""The resident answerer's client side (ADR 0029, 0031; docs/how/recall.md, "The resident answerer"): one
process per user keeps the index open and answers the prompt hook over a socket, an optimisation only. One
question per connection: the hook sends ``{"stamp", "env", "payload", "now"}`` and shuts its side; the
answerer sends ``{"decision", "out"}``, ``{"stale": true}`` or ``{"error": <line>}``. Hot path: ``ask``
imports only ``os``, ``sys``, ``_socket`` and ``memory.fence`` at call time."""

from __future__ import annotations

import os
import sys

from lazy_harness import jsonload, paths, private
from lazy_harness.regular_file import open_regular, rewrite_regular

# why not ``typing.TYPE_CHECKING``: the prompt hook loads this module, and never ``typing`` (house style 3)
TYPE_CHECKING = False
if TYPE_CHECKING:
    import _socket
    from collections.abc import Callable

    from lazy_harness.config.typed import Config
    from lazy_harness.memory.shapes import Env, Record

SOCKET_NAME = "resident.sock"
LOCK_NAME = "resident.lock"
PID_NAME = "resident.pid"
LOG = "resident.log"
SERVE_FROM = 3000  # entries in the index from which the hook starts an answerer (below: fast enough alone)
ASK_TIMEOUT = 3.0  # seconds the hook waits for an answer before doing the work itself
READ_FLOOR = 0.05  # seconds the reply is read for at least, whatever the exchange's steps before took
MAX_ANSWER = 1 << 20
MAX_QUESTION = 4 << 20
MAX_SOCKET_PATH = 100  # why: sun_path holds 108 bytes on Linux, 104 on macOS, with its final NUL
WAKE_SECONDS = 1.0  # how often an idle answerer looks at its setting again (a stat of the config)
READ_SECONDS = 0.5  # the most the answerer waits for a caller's whole question (the hook sends it at once)
ANSWERER = "lazy_harness.recall.resident.answerer"
# why: an answerer of before ADR 0047 may still run during an upgrade: recognised, stopped and replaced
ANSWERER_BEFORE = "lazy_harness.recall.answerer"
BACKOFF_NAME = "resident.backoff"
# why 5 minutes: a replacement that answers removes the marker; one that fails costs a slow prompt in 5
BACKOFF_SECONDS = 300.0
NO_ANSWER = "no answer in time"
NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
# what of the hook's environment the answerer's process and a question get; never a key or token
PROCESS_ENV = ("PATH", "PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "LANG", "LC_ALL", "LC_CTYPE")
QUESTION_ENV = ("HOME", "CLAUDE_CONFIG_DIR", "CLAUDE_PROJECT_DIR", "LH_CONFIG", "XDG_CONFIG_HOME", "XDG_DATA_HOME",
                "XDG_CACHE_HOME", "XDG_STATE_HOME", "USER", "LOGNAME", "USERNAME", "TMPDIR", "TZ")
folder = paths.recall_dir  # where the answerer's socket, lock and pid file are: beside the index


def code_stamp() -> str:
    """The version and a checksum of this file and ``answerer.py``: an answerer of other code leaves. why
    the bytes: two installs of one version sharing a HOME would stop each other's; why ``hash`` of an int:
    not salted per process, and zlib cost the hook 0.2 ms."""
    from lazy_harness import __version__

    h = 0
    for name in (__file__, os.path.join(os.path.dirname(__file__), "answerer.py")):
        try:
            with open(name, "rb") as fh:
                h = hash((h, int.from_bytes(fh.read(), "little")))
        except OSError:
            pass
    return f"{__version__}:{h & 0xFFFFFFFFFFFF:012x}"


def _connect(sock: _socket.socket, where: str) -> None:
    """Connect ``sock`` to ``<where>/resident.sock``, from its folder when the path is too long."""
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


def ask(payload: Record, env: Env, now: float, timeout: float = ASK_TIMEOUT, cfg: Config | None = None,
        meanwhile: Callable[[], object] | None = None) -> tuple[tuple[str, str | None] | None, str]:
    """(the answerer's (decision, stdout text), "") or (None, why not). ``meanwhile``: the hook's own work,
    run once the question is sent. Nothing is sent unless the folder and socket are the user's own and the
    listener runs as the user."""
    where = folder(env)
    sock_path = os.path.join(where, SOCKET_NAME)
    # why: no socket file, no answerer: one lstat instead of loading the socket module (0.4 to 0.8 ms)
    try:
        os.lstat(sock_path)
    except OSError:
        return None, "none running"
    why = folder_problem(env) or private.file_problem(sock_path)
    if why:
        return None, f"not asked: {why}"
    try:  # why: a recent question found no answer in time (the marker's mtime is when to ask again)
        if os.stat(os.path.join(where, BACKOFF_NAME)).st_mtime > now:
            return None, "not asked: backing off after one that did not answer"
    except OSError:
        pass
    if not payload.get("cwd"):  # why: the answerer's own working directory is its folder, not the session's
        payload = dict(payload, cwd=env.get("CLAUDE_PROJECT_DIR") or os.getcwd())
    question: dict[str, object] = {"stamp": code_stamp(), "env": question_env(env, cfg), "payload": payload,
                                   "now": repr(now)}
    answer, why = _exchange(where, question, timeout, None, meanwhile)
    if why == NO_ANSWER:
        back_off(where, now)
    return (None, why) if answer is None else checked(answer)


def _exchange(where: str, question: dict[str, object], timeout: float, uid: int | None,
              meanwhile: Callable[[], object] | None = None) -> tuple[object, str]:
    """One question to a listener running as ``uid`` (default: the user): (the decoded answer, "") or
    (None, why not); ``timeout`` bounds the whole exchange, ``meanwhile`` included."""
    import time

    deadline = time.monotonic() + timeout
    # why: ``import socket`` loads enum and selectors: 25.6 against 13.2 ms (benchmarks/bench_user_prompt.py)
    import _socket as s

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
        peer, me = peer_uid(sock), (os.geteuid() if uid is None else uid)
        if peer != me:  # why: before a byte leaves: another user's listener gets nothing
            return None, f"not asked: the socket's listener runs as uid {peer}, not {me}"
        sock.settimeout(max(deadline - time.monotonic(), 0.001))  # why: a long prompt a listener does not read
        # why the time as text (``repr(now)``): the answerer reads it so
        sock.sendall((jsonload.dumps(question) + "\n").encode("utf-8", "surrogatepass"))
        sock.shutdown(s.SHUT_WR)
        if meanwhile is not None:
            meanwhile()
        # why ``seconds``: an answer trickled a byte at a time held the prompt for MAX_ANSWER reads; the
        # floor: an answer already sent is read even when ``meanwhile`` took the time left
        got = read_all(sock, MAX_ANSWER, seconds=max(deadline - time.monotonic(), READ_FLOOR))
        return (jsonload.loads(got) if got else None), "no answer"
    except TimeoutError:
        return None, NO_ANSWER
    except OSError as exc:
        return None, f"socket: {exc.strerror or type(exc).__name__}"
    except (ValueError, RecursionError):
        return None, "unreadable answer"
    finally:
        sock.close()


def checked(answer: object) -> tuple[tuple[str, str | None] | None, str]:
    """The answer as the hook uses it (what is printed: :func:`fenced`), or (None, why not)."""
    if not isinstance(answer, dict):
        return None, "no answer"
    if answer.get("stale"):
        return None, "stale (other code): left"
    if "error" in answer:
        return None, f"error: {' '.join(str(answer['error']).split())[:200]}"
    decision, out = answer.get("decision"), answer.get("out")
    if not isinstance(decision, str) or not (out is None or isinstance(out, str)):
        return None, "unreadable answer"
    if out is not None and (out := fenced(out)) is None:
        return None, "unfenced answer"
    return (" ".join(decision.split())[:2000], out), ""


def fenced(out: str) -> str | None:
    """``out`` written again from its parts when it is the prompt hook's fenced output, else None."""
    from lazy_harness.memory.fence import FENCE

    try:
        data = jsonload.loads(out)
        text = data["hookSpecificOutput"]["additionalContext"]
    except (ValueError, RecursionError, TypeError, KeyError):
        return None
    want = {"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": text}}
    if not isinstance(text, str) or not text.startswith(FENCE + "\n") or data != want:
        return None
    return jsonload.dumps(want) + "\n"


def folder_problem(env: Env | None = None) -> str | None:
    """Why the answerer's folder (or the cache folder holding it) may not be used, or None."""
    return private.problem(paths.cache_dir(env)) or private.problem(folder(env), True)


def question_env(env: Env, cfg: Config | None = None) -> dict[str, str]:
    """What of ``env`` the answer needs: :data:`QUESTION_ENV` and the variables the paths set name."""
    # why handed_on: the answerer reads a relative CLAUDE_CONFIG_DIR in its own folder, not the hook's
    keep = {k: v for k, v in paths.handed_on(env).items() if k in QUESTION_ENV}
    if cfg is None:
        from lazy_harness import config

        cfg = config.load_fast(env)
    for value in (cfg["memory"]["path"], cfg["knowledge"]["path"]):
        if isinstance(value, str) and "$" in value:
            keep |= {name: env[name] for name in paths.variable_names(value) if name in env}
    return keep


def peer_uid(sock: _socket.socket) -> int | None:
    """The uid of the process at the other end of ``sock``, or None (then nothing is trusted)."""
    import _socket as s  # why: not ``socket``, see :func:`_exchange`

    try:
        if hasattr(s, "SO_PEERCRED"):  # Linux: struct ucred {pid_t pid; uid_t uid; gid_t gid}
            raw = sock.getsockopt(s.SOL_SOCKET, s.SO_PEERCRED, 12)
        elif sys.platform == "darwin":  # SOL_LOCAL, LOCAL_PEERCRED: struct xucred {u_int version; uid_t uid; ...}
            raw = sock.getsockopt(0, 0x001, 76)
        else:
            return None
    except OSError:
        return None
    return int.from_bytes(raw[4:8], sys.byteorder) if len(raw) >= 8 else None


def back_off(where: str, now: float) -> None:
    """Ask no answerer for ``BACKOFF_SECONDS``; the marker names the one that did not answer."""
    hung = pid_in(where)
    try:
        fd = rewrite_regular(os.path.join(where, BACKOFF_NAME), flags=NOFOLLOW)  # why: a FIFO held the prompt
        try:
            os.write(fd, f"{hung or 0}\n".encode())
            os.utime(fd, (now + BACKOFF_SECONDS, now + BACKOFF_SECONDS))
        finally:
            os.close(fd)
    except OSError:
        pass


def read_all(sock: _socket.socket, limit: int, seconds: float) -> bytes:
    """What ``sock`` sends until it shuts its side (up to ``limit``), within ``seconds`` (TimeoutError)."""
    import time

    deadline = time.monotonic() + seconds
    got = bytearray()
    while len(got) <= limit:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("nothing whole in time")
        sock.settimeout(left)
        if not (chunk := sock.recv(65536)):
            break
        got += chunk
    return bytes(got)


def running(env: Env | None = None) -> bool:
    """Whether an answerer holds the lock now."""
    from lazy_harness.atomic import held

    return held(os.path.join(folder(env), LOCK_NAME))


def start(env: Env, replace: bool = False) -> int | None:
    """Start an answerer detached unless one runs (``replace``: one that did not answer); its pid or None."""
    from lazy_harness import detach

    if folder_problem(env) is not None or (running(env) and not replace):
        return None
    argv = detach.module_argv(ANSWERER, *(["--replace"] if replace else []))
    # why nothing else: a long-lived process keeps no API key it does not use
    process_env = {k: env[k] for k in PROCESS_ENV if k in env} | question_env(env)
    return detach.spawn(argv, os.path.join(paths.logs_dir(env), LOG), process_env)


def pid_in(where: str, name: str = PID_NAME) -> int | None:
    """The pid written in ``<where>/<name>`` when that file is the user's own (not a link), or None."""
    try:
        fd, _ = open_regular(os.path.join(where, name), NOFOLLOW)  # why: a FIFO there held the prompt hook
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if st.st_uid != os.geteuid() or st.st_mode & private.GROUP_OTHER_WRITE:
            return None
        return int(os.read(fd, 64).decode("ascii", "replace").strip())
    except (OSError, ValueError):
        return None
    finally:
        os.close(fd)


def pid(env: Env | None = None) -> int | None:
    """The running answerer's pid, or None (none runs, or the pid file names no answerer of this user)."""
    if folder_problem(env) is not None or not running(env):
        return None
    found = pid_in(folder(env))
    return found if found is not None and is_answerer(found) else None


def is_answerer(pid_: int) -> bool:
    """Whether process ``pid_`` runs as this user and its command line is the answerer's."""
    if pid_ <= 1 or pid_ == os.getpid():
        return False
    if os.path.isdir("/proc/self"):
        try:
            if os.stat(f"/proc/{pid_}").st_uid != os.geteuid():
                return False
            with open(f"/proc/{pid_}/cmdline", "rb") as fh:
                argv = fh.read().decode("utf-8", "replace").split("\0")
        except (OSError, ValueError):
            return False
        return _answerer_argv(argv)
    return _answerer_by_ps(pid_, os.geteuid())


def _answerer_argv(argv: list[str]) -> bool:
    """Whether ``argv`` is an interpreter running the answerer: options, then ``-m`` and its module."""
    for i, arg in enumerate(argv[1:], 1):
        if arg == "-m":
            return argv[i + 1:i + 2] in ([ANSWERER], [ANSWERER_BEFORE])
        if arg == "-c" or not arg.startswith("-"):
            return False
    return False


def _answerer_by_ps(pid_: int, me: int) -> bool:
    """``is_answerer`` without /proc: ``ps`` shows ``<python> [options] -m <answerer> [--replace]``."""
    from lazy_harness import proc

    try:
        got = proc.run(["ps", "-o", "uid=,command=", "-p", str(pid_)], timeout=5)
    except Exception:
        return False
    fields = got.stdout.split(None, 1)
    if got.code != 0 or len(fields) != 2 or fields[0] != str(me):
        return False
    words = fields[1].strip().split(" ")
    if words[-1] == "--replace":
        words.pop()
    if words[-2:] not in (["-m", ANSWERER], ["-m", ANSWERER_BEFORE]):
        return False
    before = words[:-2]
    while before and before[-1].startswith("-") and before[-1] not in ("-c", "-m"):
        before.pop()  # the interpreter's options (-S, -E)
    program = " ".join(before).rsplit("/", 1)[-1]
    return program.lower().startswith("python") and " " not in program


def resident_kb(pid_: int) -> int | None:
    """The resident set of process ``pid_`` in KB (Linux ``/proc``), or None."""
    try:
        with open(f"/proc/{pid_}/status", encoding="utf-8") as fh:
            return next((int(line.split()[1]) for line in fh if line.startswith("VmRSS:")), None)
    except (OSError, ValueError, IndexError):
        return None


def stop(env: Env | None = None, wait: float = 5.0) -> int | None:
    """SIGTERM to the running answerer, SIGKILL if it holds its lock after ``wait`` s; its pid or None."""
    import signal
    import time
    from contextlib import suppress

    found = pid(env)  # only an answerer of this user's
    if found is None:
        return None
    try:
        os.kill(found, signal.SIGTERM)
    except ProcessLookupError:
        return found
    deadline = time.monotonic() + wait
    while running(env) and time.monotonic() < deadline:
        time.sleep(0.02)
    if running(env) and is_answerer(found):  # why again: the pid may have been given to another process
        with suppress(ProcessLookupError):
            os.kill(found, signal.SIGKILL)
    return found
