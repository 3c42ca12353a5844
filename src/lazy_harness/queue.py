"""The spool between hooks and worker, Maildir-style. Hot path: only ``os``, ``time``, ``fcntl``.

    queue/<unix_ns>-<short_id>.task   pending (the rename into this folder is the enqueue)
    queue/tmp/                        tasks being written
    queue/processing/                 claimed by the worker
    queue/done/  queue/failed/        finished (failed/ also holds <name>.error)
    queue/state/<session>.pending     newest pending task of a session and when it was queued
    queue/state/<session>.done        transcript mtime when the session last finished
    queue/.worker.lock                the worker's single-instance lock (never deleted)

Gates read only the two small state files of one session, so they cost the same with any history.
"""

import fcntl
import os
import time

from lazy_harness import paths, retain
from lazy_harness.atomic import atomic_write, ensure_dir, fsync_dir

PENDING, TMP, PROCESSING, DONE, FAILED, STATE = "", "tmp", "processing", "done", "failed", "state"
SUFFIX = ".task"
REQUIRED = ("cwd", "session_jsonl", "session_id", "memory_dir", "timestamp", "event", "forced")
MAX_INTERRUPTIONS = 5


def folder(queue: str, which: str) -> str:
    return os.path.join(queue, which) if which else queue


def ensure_layout(queue: str) -> None:
    for which in (PENDING, TMP, PROCESSING, DONE, FAILED, STATE):
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
    for line in text.splitlines():
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

def _state_file(queue: str, sid: str, kind: str) -> str:
    return os.path.join(queue, STATE, f"{safe_session_id(sid)}.{kind}")


def _read_state(queue: str, sid: str, kind: str) -> list[str]:
    try:
        with open(_state_file(queue, sid, kind), encoding="utf-8") as fh:
            return fh.read().split("\n")
    except OSError:
        return []


def pending_of(queue: str, sid: str) -> tuple[str, float] | None:
    """The session's pending task (name, queued_at) when it is still in the queue."""
    parts = _read_state(queue, sid, "pending")
    if len(parts) < 2 or not parts[0]:
        return None
    if not os.path.exists(os.path.join(queue, parts[0])):
        return None
    try:
        return parts[0], float(parts[1])
    except ValueError:
        return None


def last_done_mtime(queue: str, sid: str) -> float | None:
    parts = _read_state(queue, sid, "done")
    try:
        return float(parts[0])
    except (IndexError, ValueError):
        return None


def mark_done(queue: str, sid: str, transcript_mtime: float, now: float) -> None:
    """Record that the session finished with the transcript as of ``transcript_mtime``."""
    atomic_write(_state_file(queue, sid, "done"), f"{transcript_mtime!r}\n{now!r}\n")


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
    done = last_done_mtime(queue, sid)
    if done is not None and mtime < done + growth:
        return "no growth"
    return None


# --- enqueue --------------------------------------------------------------------------------------

def enqueue(queue: str, fields: dict, now: float | None = None) -> str:
    """Write a task atomically and make it the session's only pending task. Returns its name.

    ``fields`` needs at least the keys in REQUIRED except timestamp (filled in here).
    """
    now = time.time() if now is None else now
    sid = safe_session_id(fields["session_id"])
    ensure_layout(queue)
    lock_fd = os.open(_state_file(queue, sid, "lock"), os.O_RDWR | os.O_CREAT, 0o600)
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
                data["replaces"] = task_id(previous[0])
            except OSError:
                previous = None
        ns = int(now * 1e9)
        while True:
            name = f"{ns}-{sid[:8]}{SUFFIX}"
            tmp = os.path.join(queue, TMP, name)
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
        atomic_write(_state_file(queue, sid, "pending"), f"{name}\n{now!r}\n")
        return name
    finally:
        os.close(lock_fd)


def task_fields(payload: dict, event: str, forced: bool, env=None) -> dict:
    cwd = str(payload.get("cwd") or os.getcwd())
    return {
        "cwd": cwd,
        "session_jsonl": str(payload.get("transcript_path") or ""),
        "session_id": str(payload.get("session_id") or ""),
        "memory_dir": paths.memory_dir(cwd, env),
        "event": event,
        "forced": "1" if forced else "0",
    }


def needs_worker(queue: str) -> bool:
    """True when tasks wait (pending, or claimed by a worker that died) and no worker holds the lock.

    Cheap enough for a hook: one listdir of the queue (pending tasks only), at most one of
    processing/, and a non-blocking probe of the lock.
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
        fd = os.open(os.path.join(queue, ".worker.lock"), os.O_RDWR)
    except OSError:
        return True  # no worker ever ran here
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False  # a worker holds it and will drain the queue
    finally:
        os.close(fd)  # closing drops the probe's lock at once
    return True


# --- worker side ----------------------------------------------------------------------------------

def pending(queue: str) -> list[str]:
    try:
        return sorted(n for n in os.listdir(queue) if n.endswith(SUFFIX) and not n.startswith("."))
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


def finish(queue: str, name: str, fields: dict, outcome: str, reason: str, error_text: str | None = None) -> str:
    """Move a claimed task to done/ (processed or skipped) or failed/ (with ``<name>.error``)."""
    target = FAILED if outcome == "failed" else DONE
    record = dict(fields)
    record["outcome"] = outcome
    record["reason"] = reason
    record["finished"] = iso_now(time.time())
    dest = os.path.join(queue, target, name)
    if error_text is not None:
        atomic_write(dest + ".error", error_text if error_text.endswith("\n") else error_text + "\n")
    atomic_write(dest, format_task(record))
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


def recover(queue: str) -> list[tuple[str, str]]:
    """Return the claims of a worker that died. Call only while holding the worker lock.

    Each interrupted task goes back to the queue with ``interruptions`` counted up; at
    MAX_INTERRUPTIONS it is poison and goes to failed/. Returns (name, what happened) pairs.
    """
    from lazy_harness.atomic import sweep_stale_temps

    out = []
    for which in (TMP, STATE, PROCESSING, DONE, FAILED):
        sweep_stale_temps(folder(queue, which))
    _sweep_unlinked_tasks(queue, time.time())
    proc = os.path.join(queue, PROCESSING)
    try:
        names = sorted(n for n in os.listdir(proc) if n.endswith(SUFFIX))
    except FileNotFoundError:
        return out
    for name in names:
        path = os.path.join(proc, name)
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
        atomic_write(os.path.join(queue, TMP, name), format_task(fields))
        os.replace(os.path.join(queue, TMP, name), os.path.join(queue, name))
        os.unlink(path)
        out.append((name, "requeued"))
    return out
