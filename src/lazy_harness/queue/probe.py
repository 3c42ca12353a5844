"""What hooks ask of the queue without taking part in it: whether tasks wait for a worker
(:func:`needs_worker`: SessionStart, the worker's own start, an index task), and whether distillation
is failing (:func:`distill_trouble`: the read-back's line, ``lh memory show``, ``lh doctor``).

why a module of its own: SessionStart asks both at every start, and the consumer (queue/consume.py:
the lock taken, claims, finishes, recovery) with the gates' state files (queue/state.py) cost it about
0.4 ms to load for these two questions. Hot path: ``os`` only.
"""

from __future__ import annotations

import os

from lazy_harness.atomic import held
from lazy_harness.queue.task import DONE, FAILED, INDEX, LOCK_NAME, PROCESSING, SUFFIX, folder, read_task
from lazy_harness.regular_file import open_regular

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable


def needs_worker(queue: str) -> bool:
    """True when tasks wait (pending, claimed by a worker that died, or index tasks) and no worker holds the lock.

    Cheap enough for a hook: one listdir of the queue (pending tasks only), at most one of
    processing/ and one of index/, and a non-blocking probe of the lock (the same ``flock`` the worker takes).
    """
    # pending tasks, claims of a dead worker, index tasks (queue/index_task.py: the worker writes the index)
    waiting = (_holds(queue, lambda n: n.endswith(SUFFIX)) or _holds(os.path.join(queue, PROCESSING), lambda n: True)
               or _holds(os.path.join(queue, INDEX), lambda n: n.endswith(SUFFIX) and not n.startswith(".")))
    # a worker that holds the lock drains the queue; a missing lock file: no worker ever ran here
    return waiting and not held(os.path.join(queue, LOCK_NAME))


def _holds(where: str, wanted: Callable[[str], bool]) -> bool:
    try:
        return any(wanted(n) for n in os.listdir(where))
    except OSError:
        return False


def distill_trouble(queue: str, worker_state: str, parse_time: Callable[[object], float | None]
                    ) -> tuple[int, str | None]:
    """(tasks in ``failed/`` since the worker's last success, that success's time): what the read-back's
    "distillation is failing" line says (``recall.readback.digest``), read by the callers above both the queue
    and the store (the SessionStart hook, ``lh memory show``). ``worker_state``: the worker's state
    file (``paths.worker_state_file``); ``parse_time``: ISO time to epoch (``memory.files.iso_epoch``).
    Cheap: the folder's mtime rules out the common case; otherwise names are listed and only task
    files are stat'ed. May raise OSError."""
    from lazy_harness import jsonload
    from lazy_harness.logfile import stamp

    failed = folder(queue, FAILED)
    try:
        folder_mtime = os.stat(failed).st_mtime
    except OSError:
        return 0, None
    last = None
    try:  # why open_regular: a FIFO in worker.json's place held the session start in open()
        with open(open_regular(worker_state)[0], encoding="utf-8") as fh:
            state = jsonload.loads(fh.read())
        last = state.get("last_success") if isinstance(state, dict) else None
    except (OSError, ValueError):
        pass
    since = parse_time(last)
    if since is not None and folder_mtime <= since:
        return 0, last
    # why: worker.json is saved when a drain ends (a lingering worker's, minutes later) and never by a
    # foreground lh distill: the done/ folder says which distillations succeeded since
    done_at = _last_processed(folder(queue, DONE), since)
    if done_at is not None:
        since, last = done_at, stamp(done_at)
        if folder_mtime <= since:
            return 0, last
    count = 0
    with os.scandir(failed) as it:
        for entry in it:
            if entry.name.endswith(SUFFIX):
                try:
                    count += (since is None or entry.stat().st_mtime > since) and not _redo(failed, entry.path)
                except OSError:
                    pass
    return count, last if since is not None else None


DONE_LOOKED_AT = 50  # newest done/ tasks read for a success worker.json has not recorded yet


def _last_processed(done: str, after: float | None) -> float | None:
    """When the newest processed task in ``done/`` finished (its file's mtime), if later than ``after``;
    None otherwise. Reads the newest :data:`DONE_LOOKED_AT` task files at most (names sort by time)."""
    try:
        names = sorted((n for n in os.listdir(done) if n.endswith(SUFFIX)), reverse=True)
    except OSError:
        return None
    best = None
    for name in names[:DONE_LOOKED_AT]:
        path = os.path.join(done, name)
        try:
            mtime = os.stat(path).st_mtime
            if (after is not None and mtime <= after) or (best is not None and mtime <= best):
                continue
            if read_task(path).get("outcome") == "processed":
                best = mtime
        except OSError:
            continue
    return best


def _redo(failed: str, path: str) -> bool:
    """Whether a failed task redid what memory already holds: its session is marked distilled at or
    after the transcript it failed on (a failed ``lh knowledge handoff-now`` of a distilled session)."""
    try:
        task = read_task(path)
        mtime = float(task.get("transcript_mtime") or "nan")
    except (OSError, ValueError):
        return False
    # why here: a failed task newer than the last success is rare; the gates' module is the worker's and Stop's
    from lazy_harness.queue.state import DISTILLED, last_check

    last = last_check(os.path.dirname(failed), task.get("session_id", "")) if task.get("session_id") else None
    return last is not None and last[1] == DISTILLED and last[0] >= mtime
