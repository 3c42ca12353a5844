"""The checks a persist still owes what it wrote: the hold check by the rules and the learned check,
the holds of what came past an answer's cap, and the model check (worker/hold_checks.py, worker/persist.py).

    <queue>/state/owed/<task id>.json
    {"memory_dir", "learnings_dir", "meta", "written": [[kind, id, path, record, kind]],
     "texts": [[kind, id, path, text]], "over": [[kind, id, path, reason]],
     "cursor": {"session_id", "path", "offset", "check", "at", "last", "task"} | null, "intent": path,
     "usage": {"session_id", "path", "failures", "at"}}

They run after the persist, whose entries are in the files by then. A worker killed between the two
left those entries unchecked for good: its task, run again, found every entry already recorded, so
the entries past the cap and what only the learned or model check would hold reached every session.
The record is the persist's promise: it is written inside the persist, after its last write and
before its commit (memory/apply.py ``before_commit``), and its undo record names it first
(memory/intent.py ``promising``), so a rollback of that persist, at once or by ``recover`` after a
kill, removes it too. It therefore exists exactly when the persist committed, or while its undo
record (``intent``) still names it, and such a record is left to that rollback. It carries the move
of the session's cursor (``cursor``, worker/cursor.py ``position``): the next worker settles any
left over before it drains the queue, moving the cursor (never backwards) and running the checks,
so the task a killed worker left finds nothing new to distill and makes no second model call. It
carries the session's usage accounting too (``usage``: what worker/usage.py reads, the answer's
failures among it), counted before the cursor moves (worker/persist.py), or by that settler: the
task, skipped as nothing new, would never count it (a line already written counts once). A persist
that wrote nothing saves no record: its usage, counted before the cursor moves, is counted again by
its task's next run when a kill came first. It is removed once the checks and the accounting ran.
Machine-local, never synced.

The process running a record's checks holds an ``flock`` on it from its write (or its claim) to its
removal, as a model call holds its marker (cost/budget.py); the kernel drops the lock when the process
dies. So a record whose lock is held is a live process's (``lh distill`` inside its model-check call,
or another worker settling it) and is left to it; one nobody holds is a killed writer's, and the one
settler that takes its lock runs its checks.
"""

from __future__ import annotations

import fcntl
import json
import os
from contextlib import contextmanager
from typing import TYPE_CHECKING, NamedTuple

from lazy_harness import paths
from lazy_harness.atomic import ensure_dir, same_file, write_locked

if TYPE_CHECKING:
    from collections.abc import Iterator

    from lazy_harness.memory.shapes import Env

FOLDER = "owed"


def folder(env: Env | None = None) -> str:
    return os.path.join(paths.state_dir(env), FOLDER)


class Owing(NamedTuple):
    """A record this process holds the lock of: ``path`` and the locked descriptor ``fd``."""

    path: str
    fd: int


def path_for(env: Env | None, task_id: str) -> str:
    """Where the record of ``task_id`` is saved."""
    # why: a task id is the queue's own name, but never a path of the record's choosing
    return os.path.join(folder(env), os.path.basename(task_id or "task") + ".json")


def save(env: Env | None, task_id: str, record: dict) -> Owing:
    """Write ``record`` for ``task_id`` already locked (temp file, lock, write, fsync, rename); the
    lock stays held until :func:`done`."""
    ensure_dir(folder(env))
    path = path_for(env, task_id)
    # why ASCII: a lone surrogate in a model's text is written escaped, never an encoding error
    return Owing(path, write_locked(path, json.dumps(record).encode("ascii")))


def done(owing: Owing | None, remove: bool = True) -> None:
    """Forget a record once its checks ran, then drop its lock (None: none was written). ``remove``
    False only drops the lock: the record is left to the next worker, as a killed process's."""
    if owing is None:
        return
    try:
        if remove and same_file(owing.fd, owing.path):  # why: never a record of the same name made since
            os.unlink(owing.path)
    except OSError:  # why: gone already, or not a file of ours to remove; never the queue's end
        pass
    finally:
        os.close(owing.fd)


@contextmanager
def holding(owing: Owing | None) -> Iterator[None]:
    """Run the checks of a record this process holds: removed (:func:`done`) once they ran; left in
    place, its lock dropped, when they were cut short (an exception, SIGTERM): the next worker runs them."""
    try:
        yield
    except BaseException:
        done(owing, remove=False)
        raise
    done(owing)


def left_over(env: Env | None = None) -> list[str]:
    """The path of every record there, each left by a killed process or held by a live one (``claim``)."""
    try:
        names = sorted(n for n in os.listdir(folder(env)) if n.endswith(".json"))
    except OSError:
        return []
    return [os.path.join(folder(env), name) for name in names]


def claim(path: str) -> Owing | None:
    """Take the lock of the record at ``path`` without waiting: None when a live process holds it
    (its checks are under way) or it is gone (settled meanwhile)."""
    try:  # why O_NONBLOCK: a FIFO put there by hand must not stop the worker's start
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    if not same_file(fd, path):  # why: settled and removed between the open and the lock
        os.close(fd)
        return None
    return Owing(path, fd)


def read(owing: Owing) -> dict | None:
    """The claimed record, or None when it cannot be read or is not one."""
    try:
        with os.fdopen(os.dup(owing.fd), "rb") as fh:
            fh.seek(0)
            data = json.loads(fh.read())
    except (OSError, ValueError, RecursionError):
        return None
    lists = isinstance(data, dict) and all(isinstance(data.get(k), list) for k in ("written", "texts", "over"))
    return data if lists and isinstance(data.get("meta"), dict) else None
