"""Keep a waiting task's transcript alive: Claude Code deletes transcripts older than
``cleanupPeriodDays`` (default 30), and a task may wait longer than that behind a spend cap.

When a task is queued, :func:`hold` makes a hard link to its transcript in ``<queue>/kept/`` (a copy
where a link cannot be made, e.g. another filesystem); the link shares the file's inode, so it costs
no space and sees every later append. :func:`release` removes it when the session has no task left
waiting; the pipeline reads the kept name only when the original is gone (:func:`source`).

Hot path (the Stop hook queues): only ``os`` at import time.
"""

import os

from lazy_harness import paths
from lazy_harness.atomic import ensure_dir

KEPT = "kept"


def kept_path(queue: str, session_id: str) -> str:
    return os.path.join(queue, KEPT, f"{paths.safe_session_id(session_id)}.jsonl")


def hold(queue: str, session_id: str, transcript: str) -> str | None:
    """Link (else copy) ``transcript`` into the queue's kept folder; returns the kept path, or None
    when the transcript is not a regular file or nothing could be kept. Never raises."""
    import stat

    try:
        st = os.stat(transcript)
        if not stat.S_ISREG(st.st_mode):
            return None
        dest = kept_path(queue, session_id)
        try:
            if os.path.samefile(dest, transcript):
                return dest  # already linked: appends show through the link
        except OSError:
            pass
        ensure_dir(os.path.dirname(dest))
        tmp = f"{dest}.{os.getpid()}.tmp"
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        try:
            os.link(transcript, tmp)
        except OSError:
            import shutil  # why: the rare path (no hard links across filesystems): a snapshot copy

            shutil.copyfile(transcript, tmp)
        os.replace(tmp, dest)
        return dest
    except (OSError, ValueError):  # ValueError: a path with a NUL
        return None


def release(queue: str, session_id: str) -> None:
    """Drop the kept transcript of a session that has no task waiting any more."""
    from lazy_harness.queue.state import pending_of

    if pending_of(queue, session_id) is not None:
        return
    try:
        os.unlink(kept_path(queue, session_id))
    except OSError:
        pass


def source(queue: str, session_id: str, transcript: str) -> str:
    """The file to read for a task: its transcript, or the kept link when the original was deleted."""
    if os.path.exists(transcript):
        return transcript
    kept = kept_path(queue, session_id)
    return kept if os.path.exists(kept) else transcript
