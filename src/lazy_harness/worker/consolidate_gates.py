"""When an automatic consolidation may run, and the lock that keeps runs of one project apart.

Automatic runs (the worker, after it drained the queue) pass four gates per project, cheapest
first: ``min_hours`` since the last run (the lock file's mtime), a scan throttle (the session count
is taken at most every ``scan_throttle_minutes``), ``min_sessions`` sessions that wrote memory since
the last run (the person's own records are no session: :func:`sessions_since`), and the lock (held
by another run unless it is older than ``lock_stale_minutes``).
"""

from __future__ import annotations

import os

from lazy_harness import jsonload
from lazy_harness.atomic import atomic_write, ensure_dir, lock
from lazy_harness.memory import files
from lazy_harness.regular_file import open_regular, read_regular

TYPE_CHECKING = False
if TYPE_CHECKING:
    from lazy_harness.config.typed import ConsolidateConfig

LOCK = "consolidate.lock"
SCAN = "consolidate.scan"


class Lock:
    """``consolidate.lock`` in the memory folder: holder ``pid start`` while a run holds it, empty
    after; its mtime is the start of the last run that completed. A holder older than ``stale``
    seconds (a run that hung) is taken over. Check-and-take happens under a flock of the file."""

    def __init__(self, memory_dir: str, stale: float) -> None:
        self.path = os.path.join(memory_dir, LOCK)
        self.stale = stale
        self.previous_mtime: float | None = None
        self.held = False

    def last_run(self) -> float | None:
        try:
            st = os.stat(self.path)
        except OSError:
            return None
        if st.st_mtime <= 0:
            return None
        return st.st_mtime if st.st_size == 0 or self._holder() is None else None

    def _holder(self) -> tuple[int, float] | None:
        try:  # why read_regular: a FIFO in its place held the worker in open() for good
            parts = read_regular(self.path).decode("ascii", "replace").split()
            return int(parts[0]), float(parts[1])
        except (OSError, ValueError, IndexError):
            return None

    def acquire(self, now: float) -> str | None:
        """None when taken; else why not."""
        ensure_dir(os.path.dirname(self.path))
        existed = os.path.exists(self.path)
        fd = lock(self.path)
        try:
            st = os.fstat(fd)
            holder = self._holder() if st.st_size else None
            if holder is not None:
                pid, started = holder
                from lazy_harness.atomic import _pid_alive

                if _pid_alive(pid) and now - started < self.stale:
                    return f"another consolidation (pid {pid}) holds {self.path}"
            # why: a failed run must not count as a run; mtime 0 means "never completed"
            self.previous_mtime = st.st_mtime if existed and st.st_size == 0 else 0.0
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()} {now!r}\n".encode("ascii"), 0)
            os.fsync(fd)
            self.held = True
            return None
        finally:
            os.close(fd)

    def release(self, completed: bool, now: float) -> None:
        """Empty the file; its mtime becomes ``now`` when the run completed, else what it was."""
        if not self.held:
            return
        with open(self.path, "w", encoding="ascii"):
            pass
        when = now if completed else self.previous_mtime
        if when is not None:
            os.utime(self.path, (when, when))
        self.held = False


def sessions_since(memory_dir: str, since: float | None) -> int:
    """Distinct sessions that wrote decisions, failures or handoff items after ``since``. A record the
    person made is no session: ``lh memory close`` (``by hand``), a hand edit of handoff.md
    (``hand-edit``), ``lh memory forget`` and consolidation's own closes carry those words in their
    session field, and counting them started model calls after fewer sessions than ``min_sessions``."""
    from lazy_harness.memory.files import iso_epoch

    found: set[str] = set()
    for name in (files.DECISIONS, files.FAILURES, "handoff.jsonl"):
        try:
            # why open_regular: a FIFO in its place held the worker, and the whole queue, in open() for good
            with open(open_regular(os.path.join(memory_dir, name))[0], encoding="utf-8-sig", errors="replace") as fh:
                for line in fh:
                    rec = jsonload.line_object(line)
                    if rec is None or not rec.get("session_id") or not _a_session(rec["session_id"]):
                        continue
                    if rec.get("op") == "restate":  # why: listing an item still open is no new work
                        continue
                    when = iso_epoch(rec.get("ts"))
                    if since is None or (when is not None and when > since):
                        found.add(str(rec["session_id"]))
        except OSError:
            continue
    return len(found)


def _a_session(session_id: object) -> bool:
    """Whether a record's session field names a session, not another writer. why by_whom: the one table
    of the writers that are no session (handoff_log), which names them so in ``lh memory show``."""
    from lazy_harness.memory.handoff_log import by_whom

    return by_whom(session_id).startswith("by session ")


def gates(memory_dir: str, ccfg: ConsolidateConfig, now: float) -> str | None:
    """Why an automatic run must not happen now (cheapest gate first), or None."""
    if not ccfg["enabled"]:
        return "consolidate.enabled is false"
    last = Lock(memory_dir, ccfg["lock_stale_minutes"] * 60).last_run()
    if last is not None and now - last < ccfg["min_hours"] * 3600:
        return f"last run {(now - last) / 3600:.1f} h ago < {ccfg['min_hours']} h"
    scan = os.path.join(memory_dir, SCAN)
    try:
        scanned = os.stat(scan).st_mtime
    except OSError:
        scanned = None
    if scanned is not None and now - scanned < ccfg["scan_throttle_minutes"] * 60:
        return "session count taken recently (scan throttle)"
    atomic_write(scan, "")
    os.utime(scan, (now, now))
    n = sessions_since(memory_dir, last)
    if n < ccfg["min_sessions"]:
        return f"{n} session(s) since the last run < {ccfg['min_sessions']}"
    return None
