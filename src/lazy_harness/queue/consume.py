"""The consumer side: the worker's single-instance lock and the hooks' probe of it, then the moves
of a task: claim into processing/, finish into done/ or failed/, recover a dead worker's claims.
Hot path (a hook probes the lock with :func:`needs_worker`): only ``os``, ``time``, ``fcntl``.
"""

from __future__ import annotations

import fcntl
import os
import time

from lazy_harness import paths
from lazy_harness.atomic import atomic_write, ensure_dir, held, lock, try_lock
from lazy_harness.queue.state import DISTILLED, ERROR, SKIPPED, last_done_mtime, mark_done, pending_of, state_file
# why LOCK_NAME in task.py: the hooks' probe of the lock (queue/probe.py) needs it without this module
from lazy_harness.queue.task import (DONE, FAILED, INDEX, KEPT, LOCK_NAME, OPEN, PENDING, PROCESSING, STATE, SUFFIX,
                                     TMP, folder, format_task, hand_over_ask, hand_over_run, iso_now, read_task,
                                     task_id, tmp_path_for)
from lazy_harness.regular_file import open_regular

MAX_INTERRUPTIONS = 5
STOPPED = "stopped_by"  # a claim's field: the signal that stopped its worker while the task ran


# --- the worker lock: one flock for the worker and the hooks' probe -------------------------------

def acquire_worker_lock(queue: str) -> int | None:
    """Take the worker's single-instance lock without waiting: its descriptor, or None when held.

    # why: one mechanism (``flock`` on ``.worker.lock``) for the worker and the hooks' probe; a
    library lock that may fall back to a soft lock file would not be seen by the probe.
    The file is never deleted; release by :func:`release_worker_lock` (or by dying).
    """
    ensure_dir(queue)
    return try_lock(os.path.join(queue, LOCK_NAME))


OWNER = os.path.join(STATE, "worker.owner")  # "<pid> <its start>" of the worker holding the lock


def _start_of(pid: int) -> str | None:
    """When process ``pid`` started, as the system says it (None: no such process, or unknown): a
    recycled pid has another start. Linux: the start in clock ticks of /proc/<pid>/stat; elsewhere ps."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            fields = fh.read().rsplit(b")", 1)[1].split()
        return None if fields[0] in (b"Z", b"X") else fields[19].decode()  # a zombie has exited
    except FileNotFoundError:
        if os.path.isdir("/proc/self"):
            return None  # why: a /proc without this pid: the process is gone
    except (OSError, IndexError, UnicodeDecodeError):
        return None
    import subprocess

    try:
        out = subprocess.run(["ps", "-o", "stat=,lstart=", "-p", str(pid)], capture_output=True, text=True, timeout=5)
    except (OSError, subprocess.SubprocessError):
        return None
    state, _, start = out.stdout.strip().partition(" ")
    return None if not start or state.startswith("Z") else start.strip()


def claim_queue(queue: str) -> int | None:
    """After the lock: the pid of another worker still running, which holds the lock of a lock file
    someone removed (a new file was made at its name, which this one locked), or None when the queue
    is this process's: then it is recorded as the holder. Without it two workers drained the queue,
    and the second took the first one's task in processing/ for a dead worker's and distilled it again."""
    path = os.path.join(queue, OWNER)
    try:  # why open_regular: a FIFO in the record's place held the worker in open(), the queue's lock with it
        with open(open_regular(path)[0], encoding="utf-8") as fh:
            pid_text, _, start = fh.read().strip().partition(" ")
        pid = int(pid_text)
    except (OSError, ValueError):
        pid, start = 0, ""
    if pid > 0 and pid != os.getpid() and start and _start_of(pid) == start:
        return pid
    atomic_write(path, f"{os.getpid()} {_start_of(os.getpid()) or ''}\n", durable=False)
    return None


def holder(queue: str) -> tuple[bool, int | None, float | None]:
    """(whether a worker holds the queue's lock now, the pid the last worker to take the queue recorded,
    when it took it): the lock probed as the hooks probe it (``atomic.held``), never waited for or taken.
    A recorded pid with the lock free: that worker died holding the queue (a SIGKILL, the OOM killer),
    as a worker removes its record before it lets the lock go."""
    lock = os.path.join(queue, LOCK_NAME)
    running = held(lock)
    try:  # why open_regular: a FIFO in the record's place held lh status and lh doctor in open()
        with open(open_regular(os.path.join(queue, OWNER))[0], encoding="utf-8") as fh:
            pid: int | None = int(fh.read().split()[0])
            since: float | None = os.fstat(fh.fileno()).st_mtime  # why: written when the worker took the queue
    except (OSError, ValueError, IndexError):
        pid = since = None
    if pid is not None and pid <= 0:
        pid = since = None
    # why the lock again: a worker that took the queue since the probe wrote that record
    return running or (pid is not None and held(lock)), pid, since


def release_queue(queue: str) -> None:
    """The holder's record goes before the lock does (see :func:`claim_queue`)."""
    try:
        os.unlink(os.path.join(queue, OWNER))
    except OSError:
        pass


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

    out: list[tuple[str, str]] = []
    # why the pending folder, index/ and kept/ too: a waiting task's ask is written over a pending task
    # in place, an index task is written whole, a transcript is linked in; a killed writer's temp stayed
    for which in (PENDING, TMP, STATE, OPEN, PROCESSING, DONE, FAILED, INDEX, KEPT):
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
        except OSError as exc:
            out += _fail_unreadable(queue, name, exc)
            continue
        stopped, count = _interruptions(fields)
        if count >= MAX_INTERRUPTIONS:
            finish(queue, name, fields, "failed", "poison",
                   f"interrupted {count} times: the worker died while processing this task\n",
                   _poison_mark(queue, fields, path))
            _release_kept(queue, fields.get("session_id", ""))
            out.append((name, "poison"))
            continue
        newer = pending_of(queue, fields.get("session_id", ""))
        if newer is not None and newer[0] != name:
            _hand_over(queue, newer[0], fields, task_id(name))
            finish(queue, name, fields, "skipped", f"superseded by {task_id(newer[0])}")
            out.append((name, "superseded"))
            continue
        hand_over_run(fields, fields, task_id(name))  # why: a task that replaces it carries its id on
        tmp = tmp_path_for(queue, name)
        atomic_write(tmp, format_task(fields))
        os.replace(tmp, os.path.join(queue, name))
        os.unlink(path)
        out.append((name, "requeued (its worker was stopped by SIGTERM)" if stopped else "requeued"))
    return out


def _interruptions(fields: dict) -> tuple[bool, int]:
    """(whether SIGTERM stopped the claim's worker, the task's interruptions now): a stop is not counted,
    a worker stopped that way was well and said so (worker/one_task.py ``_stopped``); a death is."""
    raw = fields.get("interruptions", "0")
    stopped = bool(fields.pop(STOPPED, ""))
    count = (int(raw) if raw.isdigit() else 0) + (0 if stopped else 1)
    if count:
        fields["interruptions"] = str(count)
    return stopped, count


def _hand_over(queue: str, newer: str, fields: dict, tid: str) -> None:
    """What the interrupted task ``fields`` (id ``tid``) gives the session's newer pending task ``newer``
    that supersedes it, as ``enqueue`` does for a task it replaces (queue/produce.py ``_merged``): the event
    the person asked for (``ASKED_EVENTS``: a whole re-read, a retry), and its id among the tasks whose
    run was cut short (``TOOK_OVER``). why the event: superseded by a plain Stop or SessionEnd queued while
    it ran, the whole re-read was lost: that task read on from the cursor and found nothing new. why the
    id: its run may have persisted and moved the cursor before it died; ``newer``, finding nothing new
    past it, then finished as a skip, and no success was ever recorded for what memory holds. Under the
    session's lock, which every writer of its pending task takes."""
    fd = lock(state_file(queue, paths.safe_session_id(fields.get("session_id", "")), "lock"))
    try:
        path = os.path.join(queue, newer)
        try:
            data = read_task(path)
        except OSError:
            return  # gone meanwhile: replaced by a newer enqueue, which found no asked event to carry
        before = dict(data)
        hand_over_ask(fields, data)
        hand_over_run(fields, data, tid)
        if data != before:
            atomic_write(path, format_task(data))
    finally:
        os.close(fd)


def _release_kept(queue: str, sid: str) -> None:
    """``retain.release`` for a poison task, as every other finished task has (worker/one_task.py): its
    kept transcript goes unless a newer task of its session waits. why not a call: queue/retain.py
    imports this module (``keep_waiting`` lists the pending tasks), and a cycle is refused even lazily."""
    if not sid or pending_of(queue, sid) is not None:
        return
    try:
        os.unlink(os.path.join(queue, KEPT, f"{paths.safe_session_id(sid)}.jsonl"))
    except OSError:
        pass


def _poison_mark(queue: str, fields: dict, claim: str) -> tuple[float, str] | None:
    """The check mark a poison task leaves, as a failed model call does (error, at the transcript it
    read), also kept in its record for :func:`_restore_mark`; None when it read no transcript or the
    session holds a mark as new already. why: without one the idle sweep took the session for never
    checked and queued it again every ``idle_minutes``, for another round of killed (charged) calls.
    The transcript's mtime is capped at the claim's (written when the task was queued or put back,
    before the last attempt took it): a turn written since (after the worker died, say) is still new."""
    sid = fields.get("session_id", "")
    try:
        mtime = min(os.stat(fields.get("session_jsonl", "")).st_mtime, os.stat(claim).st_mtime)
    except (OSError, ValueError):  # ValueError: a path with a NUL
        return None
    current = last_done_mtime(queue, sid) if sid else None
    if not sid or (current is not None and current >= mtime):
        return None
    fields["transcript_mtime"] = repr(mtime)
    fields["check"] = ERROR
    return mtime, ERROR


def _fail_unreadable(queue: str, name: str, exc: OSError) -> list[tuple[str, str]]:
    """A claim whose file cannot be read goes to failed/ with the error: left in processing/, it was
    passed over at every start and shown as being distilled for good."""
    why = f"task file unreadable: {exc.strerror or exc}"
    try:
        finish(queue, name, {"task_id": task_id(name)}, "failed", why, why)
    except OSError:
        return []
    return [(name, why)]


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
