"""The queue's task files as ``lh queue``, ``lh status`` and ``lh doctor`` find them: the files of
each folder (a folder named like a task is skipped with a notice), a task by the start of its id, when
it was queued, the claims a dead worker left, and a file in the queue that is not a task at all."""

from __future__ import annotations

import os

import click

from lazy_harness import queue as spool
from lazy_harness.atomic import held
from lazy_harness.errors import LhError
from lazy_harness.logfile import terminal_safe

STATES = (("pending", spool.PENDING), ("processing", spool.PROCESSING), ("done", spool.DONE), ("failed", spool.FAILED))


def task_names(q: str, which: str) -> list[str]:
    """The task files of one folder; anything else named like a task is skipped with a notice."""
    try:
        entries = sorted(os.scandir(spool.folder(q, which)), key=lambda e: e.name)
    except FileNotFoundError:
        return []
    except NotADirectoryError:  # why: a file in a folder's place stopped lh doctor, status and queue there
        stray(spool.folder(q, which), "not a folder")
        return []
    names = []
    for entry in entries:
        if not entry.name.endswith(spool.SUFFIX):
            continue
        if entry.is_file():
            names.append(entry.name)
        else:
            stray(entry.path)
    return names


def stray(path: str, why: str = "not a regular file") -> None:
    """A folder (or a dangling link) named like a task, or a file in one of the queue's folders' place:
    not ours to read or delete. Said once per command.

    why the context's meta: lh status lists each folder two or three times (its sessions, its counts),
    and named the same folder as often; a set of the process's own would silence the next command run
    in it (the tests run several)."""
    ctx = click.get_current_context(silent=True)
    told: set[str] = ctx.find_root().meta.setdefault("lh.queue.strays", set()) if ctx else set()
    if path not in told:
        told.add(path)
        click.echo(terminal_safe(f"lh: skipped {path}: {why}"), err=True)


def _matches(name: str, ident: str) -> bool:
    """A task id (``<ns>-<short session id>``) is found by its start or by its short session id."""
    tid = spool.task_id(name)
    return tid.startswith(ident) or tid.partition("-")[2].startswith(ident)


def find_task(q: str, ident: str, prefer: str | None = None) -> tuple[str, str]:
    """(state, path) of the task whose id, or whose 8-character session part, starts with ``ident``;
    of several, the only one in state ``prefer`` when there is one (a session's failed task beside
    the ones it got done)."""
    ident = ident.strip()
    hits = [(state, os.path.join(spool.folder(q, which), n))
            for state, which in STATES for n in task_names(q, which) if ident and _matches(n, ident)]
    if not hits:
        raise LhError(f"no task matches {ident!r} in {q}", hint="lh queue")
    preferred = [hit for hit in hits if hit[0] == prefer]
    if len(hits) > 1 and len(preferred) == 1:
        return preferred[0]
    if len(hits) > 1:
        listed = ", ".join(f"{spool.task_id(os.path.basename(p))} ({state})" for state, p in hits[:10])
        more = f" and {len(hits) - 10} more" if len(hits) > 10 else ""
        raise LhError(terminal_safe(f"{len(hits)} tasks match {ident!r}: {listed}{more}; give the whole id"),
                      hint="lh queue")
    return hits[0]


INTERRUPTED = "interrupted: resumes when the next session starts a worker, or run lh worker run --once"


def dead_claims(q: str) -> set[str]:
    """The claims in processing/ no worker is at: the worker that took them was killed (out of memory,
    a closed laptop) and none holds the worker lock now. The next worker returns them to the queue.

    Read-only: the lock is probed as the hooks probe it (``queue.needs_worker``: a shared lock tried
    without waiting and dropped at once), never taken, and its file never created.
    """
    before = _claims(q)
    if not before or held(os.path.join(q, spool.LOCK_NAME)):
        return set()
    # why listed again: a claim there both before and after the probe, while no worker held the lock,
    # is a dead worker's; a worker that finished its task and left in between took its claim with it
    return before & _claims(q)


def _claims(q: str) -> set[str]:
    try:
        return {n for n in os.listdir(spool.folder(q, spool.PROCESSING)) if n.endswith(spool.SUFFIX)}
    except OSError:
        return set()


# why: the state column of the listing is as wide as its longest word ("interrupted")
STATE_WIDTH = max(len(word) for word in (*(state for state, _ in STATES), "interrupted", "skipped"))


def shown_state(state: str, fields: dict) -> str:
    """A finished task's state as the person reads it: done/ holds the skipped ones too (issue 26)."""
    if state == "done" and fields.get("outcome") == "skipped":
        return "skipped"
    return state


def not_a_task(path: str, fields: dict) -> str:
    """Why the file at ``path`` (its ``fields`` as read) is not a task a hook wrote ("" when it is one):
    a symbolic link (never read through: what it points at is not ours), or a file that names no
    session (garbage, a file cut short; the worker moves whatever lands in the queue to failed/)."""
    from lazy_harness.queue.produce import REQUIRED

    if os.path.islink(path):
        try:
            target = os.readlink(path)
        except OSError:
            target = "?"
        return f"not a task: a symbolic link to {target}, which no hook writes"
    missing = [key for key in REQUIRED if not fields.get(key)]
    return f"not a task: no {' or '.join(missing)} in it (damaged, or not written by a hook)" if missing else ""
