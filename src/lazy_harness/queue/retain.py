"""Keep a waiting task's transcript alive: Claude Code deletes transcripts older than
``cleanupPeriodDays`` (default 30), and a task may wait longer than that behind a spend cap.

When a task is queued, :func:`hold` makes a hard link to its transcript in ``<queue>/kept/``; the link
shares the file's inode, so it costs no space and sees every later append. Where a link cannot be
made (another filesystem) the hook keeps nothing, and the worker copies the transcript of each task
left waiting after its run (:func:`keep_waiting`): a copy costs time in proportion to the file.
:func:`release` removes it when the session has no task left waiting; the pipeline reads the kept
name only when the original is gone (:func:`source`).

Hot path (the Stop hook queues): only ``os`` at import time.
"""

import os

from lazy_harness import paths
from lazy_harness.atomic import ensure_dir
from lazy_harness.queue.task import KEPT



def kept_path(queue: str, session_id: str) -> str:
    return os.path.join(queue, KEPT, f"{paths.safe_session_id(session_id)}.jsonl")


def hold(queue: str, session_id: str, transcript: str, copy: bool = False) -> str | None:
    """Link ``transcript`` into the queue's kept folder (with ``copy``, else copy it: the worker's
    part, never a hook's, where the transcript is on another filesystem); returns the kept path, or
    None when the transcript is not a regular file or nothing could be kept. Never raises."""
    import stat

    try:
        st = os.stat(transcript)
        if not stat.S_ISREG(st.st_mode):
            return None
        dest = kept_path(queue, session_id)
        try:
            kept = os.stat(dest)
            if os.path.samestat(kept, st) or (copy and kept.st_size == st.st_size and kept.st_mtime >= st.st_mtime):
                return dest  # linked (appends show through the link), or a copy as new as the original
        except OSError:
            pass
        ensure_dir(os.path.dirname(dest))
        # why this name: the one a later sweep knows (``atomic.sweep_stale_temps``) once this pid is dead
        tmp = os.path.join(os.path.dirname(dest), f".{os.path.basename(dest)}.{os.getpid()}.{os.urandom(4).hex()}.tmp")
        try:
            os.link(transcript, tmp)
        except OSError:
            if not copy:  # why: a hook: a copy of a 300 MB transcript took it a second
                return None
            import shutil  # why: the rare path (no hard links across filesystems): a snapshot copy

            try:
                shutil.copyfile(transcript, tmp)
            except BaseException:
                _unlink_quiet(tmp)
                raise
        os.replace(tmp, dest)
        return dest
    except (OSError, ValueError):  # ValueError: a path with a NUL
        return None


def _unlink_quiet(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def keep_waiting(queue: str) -> list[str]:
    """For each task still waiting (behind a spend cap, say), its transcript kept: linked, or copied
    where the hook could not link it (another filesystem); the sessions copied now. The worker's."""
    from lazy_harness.queue.consume import pending
    from lazy_harness.queue.task import read_task

    copied = []
    for name in pending(queue):
        try:
            task = read_task(os.path.join(queue, name))
        except (OSError, ValueError):
            continue
        sid, transcript = str(task.get("session_id") or ""), str(task.get("session_jsonl") or "")
        if not sid or not transcript:
            continue
        dest = kept_path(queue, sid)
        before = _identity(dest)
        if hold(queue, sid, transcript, copy=True) and _identity(dest) != before:
            copied.append(sid)
    return copied


def _identity(path: str) -> tuple[int, int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_ino, st.st_size, st.st_mtime_ns


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
