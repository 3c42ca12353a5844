"""Sessions the queue still watches: noted by every hook, swept into the queue once they have gone
idle without being checked, forgotten once they are old. Hot path (the Stop hook notes its session
here): only ``os``, ``errno``, ``fcntl`` and the spool.

    queue/state/open/<session>   a session the sweep still watches: its transcript, cwd, agent and
                                 the folder its agent keeps transcripts in
    queue/state/.sweep           the sweep's throttle stamp (mtime) and rotation cursor

A session killed without SessionEnd, or whose last Stops were gated, is queued by :func:`sweep`,
which SessionStart and the worker run (at most once a minute). See docs/adr/0010.
"""

from __future__ import annotations

import errno
import fcntl
import os

from lazy_harness import paths
from lazy_harness import queue as spool
from lazy_harness.atomic import atomic_write, named, try_lock
from lazy_harness.regular_file import read_regular, rewrite_regular
from lazy_harness.queue.task import AGENT, CODEX, PAYLOAD_AGENT, TRANSCRIPTS, agent_of, transcripts_folder

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

SWEEP_EVERY = 60.0  # seconds between two sweeps, whoever runs them
SWEEP_CAP = 100  # open sessions examined per sweep (the next sweep goes on where this one stopped)
GONE_AFTER = 86400.0  # an open session whose transcript is missing this long is forgotten
WHOLE_DISK = (errno.ENOSPC, errno.EDQUOT, errno.EROFS)  # errors no other session's task escapes


def _open_file(queue: str, sid: str) -> str:
    return os.path.join(queue, spool.OPEN, paths.safe_session_id(sid))


def watch(queue: str, payload: dict, env: Mapping[str, str] | None = None, start: bool = False) -> bool:
    """Make sure the sweep knows the session (its transcript, cwd, and the folder its agent keeps
    transcripts in as ``env``, the hook's environment, names it). Returns True when it wrote.

    Costs one ``stat`` when the session is already known, so the Stop hook may call it every turn.
    ``start`` (SessionStart): a known session's record is read, and written again when it names
    another folder.
    """
    sid = str(payload.get("session_id") or "")
    transcript = str(payload.get("transcript_path") or "")
    if not sid or not transcript:
        return False
    path = _open_file(queue, sid)
    cwd = str(payload.get("cwd") or os.getcwd())
    # why start: a Codex session resumed in another folder (``codex resume``, "Use current directory")
    # runs there from then on, and its Stop tasks go to that folder's memory; the record kept the first
    # folder, so the turns no Stop queued were swept into the memory of the folder it had left
    if os.path.exists(path) and (not start or _recorded_cwd(path) in (cwd, None)):
        return False
    record = {"session_id": sid, "transcript": os.path.abspath(transcript), "cwd": cwd}
    if agent_of(payload) == CODEX:
        record[AGENT] = CODEX  # the task the sweep queues for it names the agent too
    # why: the hook that sweeps the session later may be the other agent's, or run with another
    # CODEX_HOME or CLAUDE_CONFIG_DIR: the task names the folder this session's own hook saw
    record[TRANSCRIPTS] = transcripts_folder(payload, env)
    atomic_write(path, spool.format_task(record))
    return True



def _recorded_cwd(path: str) -> str | None:
    """The folder the sweep's record at ``path`` names; None when it cannot be read (left as it is)."""
    try:
        return str(spool.read_task(path).get("cwd") or "")
    except OSError:
        return None


def _sweep_due(stamp: str, now: float, every: float) -> tuple[bool, str]:
    """(whether a sweep is due, the rotation cursor the last sweep left)."""
    try:
        st = os.stat(stamp)
    except OSError:
        return True, ""
    if 0 <= now - st.st_mtime < every:
        return False, ""
    try:  # why read_regular: a FIFO in the stamp's place held every sweeping hook in open() for good
        return True, read_regular(stamp).decode("utf-8", "replace").strip()
    except OSError:
        return True, ""


def sweep(queue: str, now: float, idle_seconds: float, env: Mapping[str, str] | None = None, every: float = SWEEP_EVERY,
          cap: int = SWEEP_CAP, failures: list[OSError] | None = None) -> list[str]:
    """Queue the open sessions that grew since their last check and have been idle ``idle_seconds``.

    Throttled: runs at most once per ``every`` seconds (the stamp file's mtime), examines at most
    ``cap`` open sessions (the next run goes on after the last one examined). A session is forgotten
    (its open file removed) once it is idle and checked as it is now; the next Stop or SessionStart
    of that session makes it open again. Returns the names of the tasks queued.

    A session whose task cannot be written (a full disk, a state file it may not open) stays open for
    the next sweep, and the others are still examined: each error goes into ``failures``, or without
    it the first is raised once the round is done.
    """
    if idle_seconds <= 0:
        return []
    stamp = os.path.join(queue, spool.STATE, ".sweep")
    due, cursor = _sweep_due(stamp, now, every)
    if not due:
        return []
    spool.ensure_layout(queue)
    _stamp(stamp, "", now)  # claim this round first, so hooks starting together sweep once
    try:
        names = sorted(n for n in os.listdir(spool.folder(queue, spool.OPEN)) if not n.startswith("."))
    except OSError:
        return []
    start = next((i for i, n in enumerate(names) if n > cursor), 0) if cursor else 0
    order = (names[start:] + names[:start])[: max(cap, 1)]
    queued: list[str] = []
    failed: list[OSError] = [] if failures is None else failures
    for name in order:
        try:
            task = _examine(queue, name, now, idle_seconds, env)
        except OSError as exc:
            # why: raised out of the loop, one session whose task could not be written stopped every
            # round there, and the sessions after it in the rotation were never queued
            failed.append(exc)
            if exc.errno in WHOLE_DISK:
                break  # why: the next session's task would meet the same full or read-only disk
            continue
        if task:
            queued.append(task)
    if len(order) < len(names):
        _stamp(stamp, order[-1], now)
    if failed and failures is None:
        raise failed[0]
    return queued


def _stamp(path: str, cursor: str, now: float) -> None:
    # why: not atomic_write: the stamp is a hint (its fsync cost more than the sweep); a torn or
    # lost stamp only makes the next sweep come early or start its rotation from the beginning
    try:  # why rewrite_regular: a FIFO in the stamp's place held the hook in open() until a reader came
        fd = rewrite_regular(path)
    except OSError as exc:
        raise named(exc, path) from None
    try:
        os.write(fd, (cursor + "\n").encode())
    except OSError as exc:
        raise named(exc, path) from None
    finally:
        os.close(fd)
    os.utime(path, (now, now))


def _examine(queue: str, name: str, now: float, idle_seconds: float, env: Mapping[str, str] | None) -> str | None:
    path = os.path.join(queue, spool.OPEN, name)
    try:
        record = spool.read_task(path)
        marked = os.stat(path).st_mtime
    except OSError:
        return None
    sid = record.get("session_id") or name
    transcript = record.get("transcript", "")
    try:
        mtime = os.stat(transcript).st_mtime
    except ValueError:  # why: a NUL in a record an earlier version kept: it names no file, ever
        _unlink_quiet(path)
        return None
    except OSError:
        if now - marked > GONE_AFTER:
            _unlink_quiet(path)  # never flushed, or deleted (cleanupPeriodDays): nothing to distill
        return None
    if now - mtime < idle_seconds:
        return None  # still in use: its own Stop hooks and SessionEnd come first
    if spool.has_task(queue, sid):
        return None  # a task for it is waiting or running
    check = spool.last_check(queue, sid)
    if check is not None and mtime <= check[0]:
        _unlink_quiet(path)  # checked as it is now: nothing left to do until it grows again
        return None
    payload = {"session_id": sid, "transcript_path": transcript, "cwd": record.get("cwd") or ""}
    if record.get(AGENT) == CODEX:
        payload[PAYLOAD_AGENT] = CODEX
    fields = spool.task_fields(payload, "sweep", False, env)
    if record.get(TRANSCRIPTS):  # absent from a record an older version wrote: the sweeping hook's folder
        fields[TRANSCRIPTS] = record[TRANSCRIPTS]
    return spool.enqueue(queue, fields, now)


def _unlink_quiet(path: str) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


# --- purge ----------------------------------------------------------------------------------------

# what a session leaves in queue/state/, as ``<session>.<kind>``: the gates' (pending, done, lock),
# what it was shown (memory/usage.py: seen; recall/prompt/already_shown.py: shown) and the worker's
# distillation lock (worker/cursor.py: distilling). why named here: the queue imports neither the
# worker nor the store
STATE_KINDS = ("pending", "done", "lock", "seen", "shown", "distilling")
# why not the cursor: a forgotten session resumed later is queued anew, and its cursor keeps the
# distillation to what is new (read whole, the model words the old part afresh: near-duplicates, paid)
# why not a fork's parents (memory/lineage.py: ``<session>.lineage``): the hooks read the fork's
# transcript only while the lineage says ``?``, so a fork resumed after the purge was told its parents'
# entries as notes from earlier sessions; a few bytes per fork, kept as the cursor is (and not in
# STATE_KINDS, so a lineage left alone is no session the next purge forgets again)
FORGOTTEN = ("pending", "done", "seen", "shown")  # the lock files go last


def purge_session_state(queue: str, cutoff: float) -> int:
    """Remove the state of sessions last touched before ``cutoff`` that have no task waiting or
    running and whose distillation lock no one holds. Returns how many sessions were forgotten.

    A forgotten session is simply new to the gates: a later Stop queues it again; its cursor is kept,
    so that distillation reads only what came after the last one.
    """
    removed = 0
    for sid, newest in _last_touched(spool.folder(queue, spool.STATE)).items():
        if newest < cutoff and _forget(queue, sid):
            removed += 1
    return removed


def _last_touched(state: str) -> dict[str, float]:
    """Each session with state in ``state``: the newest mtime of its files."""
    try:
        names = os.listdir(state)
    except OSError:
        return {}
    sessions: dict[str, float] = {}
    for name in names:
        sid, dot, kind = name.rpartition(".")
        # why the id's own form: other files' locks live here too (``approvals-adopted.json.lock``)
        if not dot or not sid or kind not in STATE_KINDS or paths.safe_session_id(sid) != sid:
            continue
        try:
            mtime = os.stat(os.path.join(state, name)).st_mtime
        except OSError:
            continue
        sessions[sid] = max(sessions.get(sid, 0.0), mtime)
    return sessions


def _forget(queue: str, sid: str) -> bool:
    """Remove one session's state, holding its enqueue lock and its distillation lock; False (nothing
    removed) when an enqueue or a distillation of it is under way, or a task of it waits or runs."""
    lock = spool.state_file(queue, sid, "lock")
    try:
        fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError:
        return False
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return False  # an enqueue of this session is under way: keep it
        if spool.has_task(queue, sid):
            return False
        distilling = spool.state_file(queue, sid, "distilling")
        held = _try_hold(distilling)
        if held is None:
            return False  # a distillation (the worker, lh distill) reads or moves its cursor now
        try:
            # why seen and shown too: what a session was shown (usage.note, already_shown) is written
            # for every session that got memory, and was otherwise kept for ever
            for kind in FORGOTTEN:
                _unlink_quiet(spool.state_file(queue, sid, kind))
            _unlink_quiet(_open_file(queue, sid))
            # why: lock files are otherwise never deleted; these are removed while held, for a session
            # idle past the cutoff, so only an enqueue or a distillation starting this very moment
            # could miss them
            _unlink_quiet(distilling)
            _unlink_quiet(lock)
        finally:
            if held >= 0:
                os.close(held)
        return True
    finally:
        os.close(fd)


def _try_hold(path: str) -> int | None:
    """The lock file ``path`` held without waiting: its descriptor; -1 when there is none (never
    created here: only a distillation makes it); None when another process holds it."""
    if not os.path.lexists(path):
        return -1
    try:
        return try_lock(path)
    except OSError:
        return None
