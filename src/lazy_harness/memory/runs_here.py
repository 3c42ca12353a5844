"""Which journals were made on this machine: what a plain ``lh memory undo`` may take.

Journals are synced, so a journal's own fields cannot say where it was made: one that came with
synced memory can name any machine and any run (its run name sorts it first). So each run is also
noted where nothing syncs, the state folder beside the queue::

    <state dir>/journal-runs      "since <epoch>" once, then one run id a line, as each run starts

A journal is this machine's when its run is listed there, or, for a journal of an earlier version
(which names no machine), when its file was there before the list began. ``machine()`` is this
machine's id, recorded in each journal for the person's reading (``lh memory history``).
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

MACHINE_FILE = "machine-id"
RUNS_FILE = "journal-runs"
SINCE = "since "


def _state(name: str) -> str:
    from lazy_harness import paths

    return os.path.join(paths.state_dir(), name)


def note(run: str) -> None:
    """List ``run`` as made here (the list begun first, with its time, when there is none)."""
    _begin()
    try:
        fd = os.open(_state(RUNS_FILE), os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600)
    except OSError:
        return  # why: a state folder that cannot be written: the run is undone by name (lh memory history)
    with os.fdopen(fd, "a", encoding="ascii") as fh:
        fh.write(run + "\n")


def _begin() -> float | None:
    """The time the list began, begun now when there is none; None when it cannot be written."""
    path = _state(RUNS_FILE)
    for _ in range(2):
        since = _since(path)
        if since is not None:
            return since
        try:
            from lazy_harness.atomic import ensure_dir
            import time

            ensure_dir(os.path.dirname(path))
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            continue  # why: another process began it meanwhile
        except OSError:
            return None
        with os.fdopen(fd, "w", encoding="ascii") as fh:
            fh.write(f"{SINCE}{time.time():.6f}\n")
    return _since(path)


def _since(path: str) -> float | None:
    try:
        with open(path, encoding="ascii", errors="replace") as fh:
            first = fh.readline()
    except OSError:
        return None
    try:
        return float(first[len(SINCE):]) if first.startswith(SINCE) else None
    except ValueError:
        return None


def made_here(journals: str) -> Callable[[dict], bool]:
    """Whether a journal (as stored, of the folder ``journals``) was made on this machine."""
    since = _begin()
    try:
        with open(_state(RUNS_FILE), encoding="ascii", errors="replace") as fh:
            listed = {line.strip() for line in fh}
    except OSError:
        listed = set()

    def mine(data: dict) -> bool:
        run = data.get("run")
        if run in listed:
            return True
        if since is None or "machine" in data:
            return since is None and "machine" not in data  # why: no list can be kept: as before it
        try:
            return os.stat(os.path.join(journals, f"{run}.json")).st_mtime < since
        except OSError:
            return False

    return mine


def machine() -> str:
    """This machine's id (16 hex characters, made once, kept in the state folder, which is never
    synced), which each journal records for the person's reading; "" when the folder cannot be
    written."""
    path = _state(MACHINE_FILE)
    for _ in range(2):
        try:
            with open(path, encoding="ascii") as fh:
                got = fh.read().strip()
            if len(got) == 16 and all(c in "0123456789abcdef" for c in got):
                return got
            return ""
        except FileNotFoundError:
            pass
        except (OSError, ValueError):
            return ""
        try:
            from lazy_harness.atomic import ensure_dir

            ensure_dir(os.path.dirname(path))
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            continue  # why: another process made it meanwhile: read its id
        except OSError:
            return ""
        with os.fdopen(fd, "w", encoding="ascii") as fh:
            fh.write(os.urandom(8).hex() + "\n")
    return ""
