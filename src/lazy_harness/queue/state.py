"""Per-session state: the newest pending task of a session, how its last check ended, and the Stop
hook's gates. Gates read only these small files of one session, so they cost the same with any
history. Hot path: only ``os``.
"""

import os

from lazy_harness.atomic import atomic_write
from lazy_harness.paths import safe_session_id
from lazy_harness.queue.task import PROCESSING, STATE
from lazy_harness.regular_file import open_regular

DISTILLED, SKIPPED, ERROR = "distilled", "skipped", "error"  # how a session's last check ended


# --- per-session state ----------------------------------------------------------------------------

def state_file(queue: str, sid: str, kind: str) -> str:
    return os.path.join(queue, STATE, f"{safe_session_id(sid)}.{kind}")


def read_state(queue: str, sid: str, kind: str) -> list[str]:
    try:  # why open_regular: a FIFO in the file's place held the hooks in open() for good
        with open(open_regular(state_file(queue, sid, kind))[0], encoding="utf-8") as fh:
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
    # why also while it is being distilled: a free worker claims a task within a second, and each Stop
    # after that (no check recorded until it finishes) queued another for the turns of that second
    parts = read_state(queue, sid, "pending")
    if len(parts) >= 2 and parts[0]:
        try:
            age = now - float(parts[1])
        except ValueError:
            age = debounce
        if age < debounce:
            where = ("still waits" if os.path.exists(os.path.join(queue, parts[0])) else "is being distilled"
                     if os.path.exists(os.path.join(queue, PROCESSING, parts[0])) else "")
            if where:
                return (f"debounced: this session's task queued {age:.0f} s ago {where} "
                        f"(debounce_seconds = {debounce:g})")
    try:
        mtime = os.stat(transcript).st_mtime
    except OSError:
        return "no transcript file (not written yet, or the session keeps none)"
    check = last_check(queue, sid)
    if check is None:
        return None
    # why: a skip (too short, not yet flushed) must not hold the session back until it grows a
    # whole growth window: any growth re-queues it; a distillation or an error waits for real growth
    if mtime <= check[0]:
        return "not queued: the transcript has not changed since its last check"
    if check[1] == SKIPPED or mtime >= check[0] + growth:
        return None
    return (f"not queued yet: the transcript was written to for {mtime - check[0]:.0f} s since its last "
            f"distillation, less than reprocess_min_growth_seconds = {growth:g}; the session's end or the idle "
            "sweep queues the rest")
