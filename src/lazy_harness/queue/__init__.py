"""The spool between hooks and worker, Maildir-style. Hot path: only ``os``, ``time``, ``fcntl``.

    queue/<unix_ns>-<short_id>.task   pending (the rename into this folder is the enqueue)
    queue/tmp/                        tasks being written
    queue/processing/                 claimed by the worker
    queue/done/  queue/failed/        finished (failed/ also holds <name>.error)
    queue/state/<session>.pending     newest pending task of a session and when it was queued
    queue/state/<session>.done        transcript mtime when the session was last checked, and how
                                      that check ended: distilled, skipped (too short, empty...) or error
    queue/state/<session>.lock        serialises enqueues of one session
    queue/state/open/<session>        a session the sweep still watches: its transcript and cwd
    queue/state/.sweep                the sweep's throttle stamp (mtime) and rotation cursor
    queue/.worker.lock                the worker's single-instance lock (never deleted)

Gates read only the small state files of one session, so they cost the same with any history.
The sweep (``queue.sweep``) finds sessions that grew, went idle and were never checked since: a
session killed without SessionEnd, or whose last Stops were gated. See docs/adr/0010.
"""

import fcntl
import os
import time

from lazy_harness import paths, retain
from lazy_harness.atomic import atomic_write, ensure_dir, fsync_dir

# why: here, below both the hooks and the worker: the worker sets it in the environment of its own
# ``claude -p`` call, and the hooks that call fires see it and do nothing
WORKER_MARKER = "LH_WORKER_CALL"
PENDING, TMP, PROCESSING, DONE, FAILED, STATE = "", "tmp", "processing", "done", "failed", "state"
OPEN = os.path.join(STATE, "open")
SUFFIX = ".task"
MAX_INTERRUPTIONS = 5
LOCK_NAME = ".worker.lock"
DISTILLED, SKIPPED, ERROR = "distilled", "skipped", "error"  # how a session's last check ended
TURN = "turn"  # task field: a digest of the start of the turn's last assistant message (worker/turn.py)
TURN_CHARS = 120
TURN_DIGEST = "sha256:"  # how a digest in TURN starts; the previous release wrote the text itself
REQUIRED = ("session_id", "session_jsonl")  # what a task must name for the worker to process it


def folder(queue: str, which: str) -> str:
    return os.path.join(queue, which) if which else queue


def ensure_layout(queue: str) -> None:
    for which in (PENDING, TMP, PROCESSING, DONE, FAILED, STATE, OPEN):
        ensure_dir(folder(queue, which))


def safe_session_id(session_id: str) -> str:
    """Session ids are UUIDs; anything else is cut down to a file-name-safe form."""
    clean = "".join(c for c in str(session_id) if c.isascii() and (c.isalnum() or c in "-_"))[:80]
    return clean or "unknown"


# --- task file format: key=value lines, values escaped so a path can hold any character ---------

def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r")


def _unescape(value: str) -> str:
    out, i = [], 0
    while i < len(value):
        c = value[i]
        if c == "\\" and i + 1 < len(value):
            nxt = value[i + 1]
            out.append({"n": "\n", "r": "\r", "\\": "\\"}.get(nxt, nxt))
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def format_task(fields: dict) -> str:
    return "".join(f"{k}={_escape(str(v))}\n" for k, v in fields.items())


def parse_task(text: str) -> dict:
    fields = {}
    # why: split on "\n" only, the one line end format_task writes; splitlines() also breaks at
    # \x0c, \x85, U+2028..., which a value (a path, the model-written turn) may hold unescaped
    for line in text.split("\n"):
        if "=" in line and not line.startswith("#"):
            key, _, value = line.partition("=")
            fields[key.strip()] = _unescape(value)
    return fields


def read_task(path: str) -> dict:
    with open(path, encoding="utf-8", errors="replace") as fh:
        return parse_task(fh.read())


def task_id(name: str) -> str:
    return name[: -len(SUFFIX)] if name.endswith(SUFFIX) else name


def iso_now(now: float) -> str:
    from lazy_harness.logfile import stamp

    return stamp(now)


# --- per-session state ----------------------------------------------------------------------------

def state_file(queue: str, sid: str, kind: str) -> str:
    return os.path.join(queue, STATE, f"{safe_session_id(sid)}.{kind}")


def read_state(queue: str, sid: str, kind: str) -> list[str]:
    try:
        with open(state_file(queue, sid, kind), encoding="utf-8") as fh:
            return fh.read().split("\n")
    except OSError:
        return []


def has_task(queue: str, sid: str) -> bool:
    """Whether the session's newest task is pending or being processed."""
    pend = read_state(queue, sid, "pending")
    return bool(pend and pend[0] and (os.path.exists(os.path.join(queue, pend[0]))
                                      or os.path.exists(os.path.join(queue, PROCESSING, pend[0]))))


def pending_of(queue: str, sid: str) -> tuple[str, float] | None:
    """The session's pending task (name, queued_at) when it is still in the queue."""
    parts = read_state(queue, sid, "pending")
    if len(parts) < 2 or not parts[0]:
        return None
    if not os.path.exists(os.path.join(queue, parts[0])):
        return None
    try:
        return parts[0], float(parts[1])
    except ValueError:
        return None


def last_check(queue: str, sid: str) -> tuple[float, str] | None:
    """(transcript mtime, how it ended) of the session's last check; None when never checked.

    Files written before the kind was recorded hold two lines: they count as distilled.
    """
    parts = read_state(queue, sid, "done")
    try:
        mtime = float(parts[0])
    except (IndexError, ValueError):
        return None
    kind = parts[2] if len(parts) > 2 and parts[2] in (DISTILLED, SKIPPED, ERROR) else DISTILLED
    return mtime, kind


def last_done_mtime(queue: str, sid: str) -> float | None:
    check = last_check(queue, sid)
    return None if check is None else check[0]


def mark_done(queue: str, sid: str, transcript_mtime: float, now: float, kind: str = DISTILLED) -> None:
    """Record that the session was checked with the transcript as of ``transcript_mtime``.

    ``kind`` says how: distilled, skipped (too short, empty, not interactive, unreadable) or error.
    """
    atomic_write(state_file(queue, sid, "done"), f"{transcript_mtime!r}\n{now!r}\n{kind}\n")


# --- gates ----------------------------------------------------------------------------------------

def gate(queue: str, sid: str, transcript: str, now: float, debounce: float, growth: float) -> str | None:
    """The Stop hook's gates, in order. Returns the reason to skip, or None to enqueue."""
    pend = pending_of(queue, sid)
    if pend is not None and now - pend[1] < debounce:
        return "debounced"
    try:
        mtime = os.stat(transcript).st_mtime
    except OSError:
        return "transcript missing"
    check = last_check(queue, sid)
    if check is None:
        return None
    # why: a skip (too short, not yet flushed) must not hold the session back until it grows a
    # whole growth window: any growth re-queues it; a distillation or an error waits for real growth
    if check[1] == SKIPPED:
        return "no growth" if mtime <= check[0] else None
    return "no growth" if mtime < check[0] + growth else None


# --- enqueue --------------------------------------------------------------------------------------

def enqueue(queue: str, fields: dict, now: float | None = None) -> str:
    """Write a task atomically and make it the session's only pending task. Returns its name.

    ``fields``: what :func:`task_fields` makes (``timestamp`` is filled in here). Raises TaskError
    when it names no session or no transcript: the worker could never process such a task.
    """
    missing = [key for key in REQUIRED if not fields.get(key)]
    if missing:
        from lazy_harness.errors import TaskError

        raise TaskError(f"not a task: no {' and no '.join(missing)}")
    now = time.time() if now is None else now
    sid = safe_session_id(fields["session_id"])
    ensure_layout(queue)
    lock_fd = os.open(state_file(queue, sid, "lock"), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(lock_fd, fcntl.LOCK_EX)
        previous = pending_of(queue, sid)
        data = dict(fields)
        data.setdefault("timestamp", iso_now(now))
        if previous is not None:
            try:
                old = read_task(os.path.join(queue, previous[0]))
                if old.get("forced") == "1":
                    data["forced"] = "1"
                if not data.get(TURN) and old.get(TURN):  # SessionEnd after a pending Stop: the
                    data[TURN] = old[TURN]  # turn Stop saw may still be on its way to the transcript
                data["replaces"] = task_id(previous[0])
            except OSError:
                previous = None
        ns = int(now * 1e9)
        while True:
            name = f"{ns}-{sid[:8]}{SUFFIX}"
            tmp = _tmp_path(queue, name)
            atomic_write(tmp, format_task(data))
            try:
                os.link(tmp, os.path.join(queue, name))
                break
            except FileExistsError:
                ns += 1
            finally:
                os.unlink(tmp)
        fsync_dir(queue)  # the link is the enqueue: make it survive a power cut
        retain.hold(queue, sid, data.get("session_jsonl", ""))  # outlive cleanupPeriodDays (ADR 0013)
        if previous is not None:
            try:
                os.unlink(os.path.join(queue, previous[0]))
            except FileNotFoundError:
                pass  # the worker claimed it meanwhile; the new task covers what came after
        atomic_write(state_file(queue, sid, "pending"), f"{name}\n{now!r}\n")
        return name
    finally:
        os.close(lock_fd)


def _tmp_path(queue: str, name: str) -> str:
    """A name in tmp/ no other writer uses (two producers may try the same task name at once)."""
    return os.path.join(queue, TMP, f"{task_id(name)}.{os.getpid()}-{os.urandom(4).hex()}{SUFFIX}")


def task_fields(payload: dict, event: str, forced: bool, env=None, memory_path: str | None = None) -> dict:
    """A task for the session in ``payload``. ``memory_path``: ``[memory] path`` of the config; None
    reads it from the compiled snapshot (``config.load_fast``)."""
    cwd = str(payload.get("cwd") or os.getcwd())
    if memory_path is None:
        from lazy_harness import config

        memory_path = config.load_fast(env)["memory"]["path"]
    fields = {
        "cwd": cwd,
        "session_jsonl": str(payload.get("transcript_path") or ""),
        "session_id": str(payload.get("session_id") or ""),
        "memory_dir": paths.memory_dir(cwd, env, memory_path or None),
        "event": event,
        "forced": "1" if forced else "0",
    }
    turn = turn_fingerprint(payload)
    if turn:
        fields[TURN] = turn_digest(turn)  # why: the model's words (a key it quoted) stay out of the task file
    return fields


def turn_fingerprint(payload: dict) -> str:
    """The start of the payload's ``last_assistant_message`` (only Stop carries one) as
    :func:`turn_start` cuts it; "" when there is none. Claude Code may run Stop before the turn is in
    the transcript: the task keeps its :func:`turn_digest` and the worker waits until an assistant
    text of the transcript has the same (worker/turn.py). Never written anywhere as it is."""
    text = payload.get("last_assistant_message")
    return turn_start(text) if isinstance(text, str) else ""


def turn_start(text: str) -> str:
    """The first TURN_CHARS characters of ``text``, stripped, cut before a lone surrogate: what the
    Stop hook takes of its message and the worker of each assistant text it compares."""
    turn = text.strip()[:TURN_CHARS]
    try:
        turn.encode("utf-8")
    except UnicodeEncodeError as exc:  # why: a lone surrogate has no UTF-8 bytes to digest
        turn = turn[:exc.start]
    return turn


def turn_digest(start: str) -> str:
    """``sha256:<hex>`` of ``start`` (a :func:`turn_start`) in UTF-8."""
    return TURN_DIGEST + _sha256()(start.encode("utf-8")).hexdigest()


def is_turn_digest(value: str) -> bool:
    """Whether a task's TURN holds a digest (anything else is the text an older release wrote)."""
    hexpart = value[len(TURN_DIGEST):]
    return value.startswith(TURN_DIGEST) and len(hexpart) == 64 and all(c in "0123456789abcdef" for c in hexpart)


def _sha256():
    # why: ``import hashlib`` loads OpenSSL's ``_hashlib`` (2.6 to 3.1 ms measured, on the Stop that
    # enqueues); the interpreter's own SHA-256 module (``_sha2`` from 3.12, ``_sha256`` before) takes
    # 0.25 ms and gives the same digest. hashlib stays the fallback for a build without them.
    for name in ("_sha2", "_sha256"):
        try:
            return __import__(name).sha256
        except (ImportError, AttributeError):
            continue
    import hashlib

    return hashlib.sha256


def needs_worker(queue: str) -> bool:
    """True when tasks wait (pending, or claimed by a worker that died) and no worker holds the lock.

    Cheap enough for a hook: one listdir of the queue (pending tasks only), at most one of
    processing/, and a non-blocking probe of the lock (the same ``flock`` the worker takes).
    """
    try:
        waiting = any(n.endswith(SUFFIX) for n in os.listdir(queue))
        if not waiting:
            waiting = bool(os.listdir(os.path.join(queue, PROCESSING)))
    except OSError:
        return False
    if not waiting:
        return False
    try:
        fd = os.open(os.path.join(queue, LOCK_NAME), os.O_RDWR)
    except OSError:
        return True  # no worker ever ran here
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False  # a worker holds it and will drain the queue
    finally:
        os.close(fd)  # closing drops the probe's lock at once
    return True


def acquire_worker_lock(queue: str) -> int | None:
    """Take the worker's single-instance lock without waiting: its descriptor, or None when held.

    # why: one mechanism (``flock`` on ``.worker.lock``) for the worker and the hooks' probe; a
    library lock that may fall back to a soft lock file would not be seen by the probe.
    The file is never deleted; release by :func:`release_worker_lock` (or by dying).
    """
    ensure_dir(queue)
    fd = os.open(os.path.join(queue, LOCK_NAME), os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd


def release_worker_lock(fd: int) -> None:
    try:
        fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


# --- worker side ----------------------------------------------------------------------------------

def pending(queue: str) -> list[str]:
    """Names of the pending tasks, oldest first. A folder named ``*.task`` is not a task (``lh queue``
    names it; claiming it would stop the worker); a link is one, and fails as an untrusted task."""
    try:
        with os.scandir(queue) as it:
            return sorted(e.name for e in it if e.name.endswith(SUFFIX) and not e.name.startswith(".")
                          and not e.is_dir(follow_symlinks=False))
    except FileNotFoundError:
        return []


def claim(queue: str, name: str) -> str | None:
    """Move a pending task into processing/; None when another process took it first."""
    dest = os.path.join(queue, PROCESSING, name)
    try:
        os.rename(os.path.join(queue, name), dest)
    except FileNotFoundError:
        return None
    return dest


def finish(queue: str, name: str, fields: dict, outcome: str, reason: str, error_text: str | None = None,
           mark: tuple[float, str] | None = None) -> str:
    """Move a claimed task to done/ (processed or skipped) or failed/ (with ``<name>.error``).

    ``mark`` (transcript mtime, check kind) is the session's check mark, written after the record
    and before the claim goes: whoever sees the claim gone (a test, ``lh queue``) also sees the
    mark, and a kill in between leaves record and claim, which recover() turns into the mark.
    """
    target = FAILED if outcome == "failed" else DONE
    record = dict(fields)
    record["outcome"] = outcome
    record["reason"] = reason
    record["finished"] = iso_now(time.time())
    dest = os.path.join(queue, target, name)
    if error_text is not None:
        atomic_write(dest + ".error", error_text if error_text.endswith("\n") else error_text + "\n")
    atomic_write(dest, format_task(record))
    if mark is not None:
        mark_done(queue, fields.get("session_id", ""), mark[0], time.time(), mark[1])
    try:
        os.unlink(os.path.join(queue, PROCESSING, name))
    except FileNotFoundError:
        pass
    return dest


def _sweep_unlinked_tasks(queue: str, now: float, age: float = 3600) -> None:
    """Tasks left in tmp/ by a producer that died before linking them in were never enqueued."""
    tmp = folder(queue, TMP)
    try:
        names = os.listdir(tmp)
    except OSError:
        return
    for name in names:
        path = os.path.join(tmp, name)
        try:
            if name.endswith(SUFFIX) and now - os.stat(path).st_mtime > age:
                os.unlink(path)
        except OSError:
            pass


def _finished_record(queue: str, name: str) -> dict | None:
    """The done/ or failed/ record of ``name``, when the worker wrote one."""
    for which in (DONE, FAILED):
        path = os.path.join(queue, which, name)
        try:
            return read_task(path)
        except OSError:
            continue
    return None


def recover(queue: str) -> list[tuple[str, str]]:
    """Return the claims of a worker that died. Call only while holding the worker lock.

    A claim whose done/ or failed/ record exists was finished (the worker died between writing
    the record and removing the claim): the claim is dropped and the session's check mark
    restored from the record, never processed again (that would be a second paid call). Each
    other interrupted task goes back to the queue with ``interruptions`` counted up; at
    MAX_INTERRUPTIONS it is poison and goes to failed/. Returns (name, what happened) pairs.
    """
    from lazy_harness.atomic import sweep_stale_temps

    out = []
    for which in (TMP, STATE, OPEN, PROCESSING, DONE, FAILED):
        sweep_stale_temps(folder(queue, which))
    _sweep_unlinked_tasks(queue, time.time())
    proc = os.path.join(queue, PROCESSING)
    try:
        names = sorted(n for n in os.listdir(proc) if n.endswith(SUFFIX))
    except FileNotFoundError:
        return out
    for name in names:
        path = os.path.join(proc, name)
        record = _finished_record(queue, name)
        if record is not None:
            _restore_mark(queue, record)
            try:
                os.unlink(path)
            except FileNotFoundError:
                pass
            out.append((name, "already finished"))
            continue
        try:
            fields = read_task(path)
        except OSError:
            continue
        raw = fields.get("interruptions", "0")
        count = (int(raw) if raw.isdigit() else 0) + 1
        fields["interruptions"] = str(count)
        if count >= MAX_INTERRUPTIONS:
            finish(queue, name, fields, "failed", "poison",
                   f"interrupted {count} times: the worker died while processing this task\n")
            out.append((name, "poison"))
            continue
        newer = pending_of(queue, fields.get("session_id", ""))
        if newer is not None and newer[0] != name:
            finish(queue, name, fields, "skipped", f"superseded by {task_id(newer[0])}")
            out.append((name, "superseded"))
            continue
        tmp = _tmp_path(queue, name)
        atomic_write(tmp, format_task(fields))
        os.replace(tmp, os.path.join(queue, name))
        os.unlink(path)
        out.append((name, "requeued"))
    return out


def _restore_mark(queue: str, record: dict) -> None:
    """Write the check mark a finished record carries, unless a newer mark is already there."""
    sid = record.get("session_id", "")
    try:
        mtime = float(record.get("transcript_mtime", ""))
    except ValueError:
        return
    kind = record.get("check", DISTILLED)
    current = last_done_mtime(queue, sid)
    if sid and (current is None or current < mtime):
        mark_done(queue, sid, mtime, time.time(), kind if kind in (DISTILLED, SKIPPED, ERROR) else DISTILLED)
