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
The sweep (:func:`sweep`) finds sessions that grew, went idle and were never checked since: a
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
SWEEP_EVERY = 60.0  # seconds between two sweeps, whoever runs them
SWEEP_CAP = 100  # open sessions examined per sweep (the next sweep goes on where this one stopped)
GONE_AFTER = 86400.0  # an open session whose transcript is missing this long is forgotten


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


def last_check(queue: str, sid: str) -> tuple[float, str] | None:
    """(transcript mtime, how it ended) of the session's last check; None when never checked.

    Files written before the kind was recorded hold two lines: they count as distilled.
    """
    parts = _read_state(queue, sid, "done")
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
    atomic_write(_state_file(queue, sid, "done"), f"{transcript_mtime!r}\n{now!r}\n{kind}\n")


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

    ``fields``: what :func:`task_fields` makes (``timestamp`` is filled in here).
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
        atomic_write(_state_file(queue, sid, "pending"), f"{name}\n{now!r}\n")
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
    return {
        "cwd": cwd,
        "session_jsonl": str(payload.get("transcript_path") or ""),
        "session_id": str(payload.get("session_id") or ""),
        "memory_dir": paths.memory_dir(cwd, env, memory_path or None),
        "event": event,
        "forced": "1" if forced else "0",
    }


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


# --- the sweep: sessions that went quiet without being checked ------------------------------------

def _open_file(queue: str, sid: str) -> str:
    return os.path.join(queue, OPEN, safe_session_id(sid))


def watch(queue: str, payload: dict) -> bool:
    """Make sure the sweep knows the session (its transcript and cwd). Returns True when it wrote.

    Costs one ``stat`` when the session is already known, so the Stop hook may call it every turn.
    """
    sid = str(payload.get("session_id") or "")
    transcript = str(payload.get("transcript_path") or "")
    if not sid or not transcript:
        return False
    path = _open_file(queue, sid)
    if os.path.exists(path):
        return False
    record = {"session_id": sid, "transcript": os.path.abspath(transcript),
              "cwd": str(payload.get("cwd") or os.getcwd())}
    atomic_write(path, format_task(record))
    return True


def _sweep_due(stamp: str, now: float, every: float) -> tuple[bool, str]:
    """(whether a sweep is due, the rotation cursor the last sweep left)."""
    try:
        st = os.stat(stamp)
    except OSError:
        return True, ""
    if 0 <= now - st.st_mtime < every:
        return False, ""
    try:
        with open(stamp, encoding="utf-8") as fh:
            return True, fh.read().strip()
    except OSError:
        return True, ""


def sweep(queue: str, now: float, idle_seconds: float, env=None, every: float = SWEEP_EVERY,
          cap: int = SWEEP_CAP) -> list[str]:
    """Queue the open sessions that grew since their last check and have been idle ``idle_seconds``.

    Throttled: runs at most once per ``every`` seconds (the stamp file's mtime), examines at most
    ``cap`` open sessions (the next run goes on after the last one examined). A session is forgotten
    (its open file removed) once it is idle and checked as it is now; the next Stop or SessionStart
    of that session makes it open again. Returns the names of the tasks queued.
    """
    if idle_seconds <= 0:
        return []
    stamp = os.path.join(queue, STATE, ".sweep")
    due, cursor = _sweep_due(stamp, now, every)
    if not due:
        return []
    ensure_layout(queue)
    _stamp(stamp, "", now)  # claim this round first, so hooks starting together sweep once
    try:
        names = sorted(n for n in os.listdir(folder(queue, OPEN)) if not n.startswith("."))
    except OSError:
        return []
    start = next((i for i, n in enumerate(names) if n > cursor), 0) if cursor else 0
    order = (names[start:] + names[:start])[: max(cap, 1)]
    queued = []
    for name in order:
        task = _examine(queue, name, now, idle_seconds, env)
        if task:
            queued.append(task)
    if len(order) < len(names):
        _stamp(stamp, order[-1], now)
    return queued


def _stamp(path: str, cursor: str, now: float) -> None:
    # why: not atomic_write: the stamp is a hint (its fsync cost more than the sweep); a torn or
    # lost stamp only makes the next sweep come early or start its rotation from the beginning
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, (cursor + "\n").encode())
    finally:
        os.close(fd)
    os.utime(path, (now, now))


def _examine(queue: str, name: str, now: float, idle_seconds: float, env) -> str | None:
    path = os.path.join(queue, OPEN, name)
    try:
        record = read_task(path)
        marked = os.stat(path).st_mtime
    except OSError:
        return None
    sid = record.get("session_id") or name
    transcript = record.get("transcript", "")
    try:
        mtime = os.stat(transcript).st_mtime
    except OSError:
        if now - marked > GONE_AFTER:
            _unlink_quiet(path)  # never flushed, or deleted (cleanupPeriodDays): nothing to distill
        return None
    if now - mtime < idle_seconds:
        return None  # still in use: its own Stop hooks and SessionEnd come first
    pend = _read_state(queue, sid, "pending")
    if pend and pend[0] and (os.path.exists(os.path.join(queue, pend[0]))
                             or os.path.exists(os.path.join(queue, PROCESSING, pend[0]))):
        return None  # a task for it is waiting or running
    check = last_check(queue, sid)
    if check is not None and mtime <= check[0]:
        _unlink_quiet(path)  # checked as it is now: nothing left to do until it grows again
        return None
    payload = {"session_id": sid, "transcript_path": transcript, "cwd": record.get("cwd") or ""}
    return enqueue(queue, task_fields(payload, "sweep", False, env), now)


def _unlink_quiet(path: str) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


# --- purge ----------------------------------------------------------------------------------------

def purge_session_state(queue: str, cutoff: float) -> int:
    """Remove the state of sessions last touched before ``cutoff`` that have no task waiting or
    running. Returns how many sessions were forgotten.

    A forgotten session is simply new to the gates: a later Stop queues it again.
    """
    state = folder(queue, STATE)
    try:
        names = os.listdir(state)
    except OSError:
        return 0
    sessions: dict[str, float] = {}
    for name in names:
        sid, dot, kind = name.rpartition(".")
        if not dot or kind not in ("pending", "done", "lock") or name.startswith("."):
            continue
        try:
            mtime = os.stat(os.path.join(state, name)).st_mtime
        except OSError:
            continue
        sessions[sid] = max(sessions.get(sid, 0.0), mtime)
    removed = 0
    for sid, newest in sessions.items():
        if newest >= cutoff:
            continue
        lock = _state_file(queue, sid, "lock")
        try:
            fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError:
            continue
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                continue  # an enqueue of this session is under way: keep it
            pend = _read_state(queue, sid, "pending")
            if pend and pend[0] and (os.path.exists(os.path.join(queue, pend[0]))
                                     or os.path.exists(os.path.join(queue, PROCESSING, pend[0]))):
                continue
            for kind in ("pending", "done"):
                _unlink_quiet(_state_file(queue, sid, kind))
            _unlink_quiet(_open_file(queue, sid))
            # why: a lock file is otherwise never deleted; this one is removed while held, for a
            # session idle past the cutoff, so only an enqueue racing this very moment could miss it
            _unlink_quiet(lock)
            removed += 1
        finally:
            os.close(fd)
    return removed
