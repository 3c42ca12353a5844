"""Which journals were made on this machine: what a plain ``lh memory undo`` may take.

Journals are synced, so a journal's own fields cannot say where it was made: one that came with
synced memory can name any machine and any run (its run name sorts it first). So each run is also
noted where nothing syncs, the state folder beside the queue::

    <state dir>/journal-runs      one run id a line, as each run starts

A journal is this machine's when its run is listed there; one of an earlier version, listed nowhere,
is undone by name.
"""

from __future__ import annotations

import os

from lazy_harness.regular_file import append_regular, open_regular

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

RUNS_FILE = "journal-runs"


def _state(name: str) -> str:
    from lazy_harness import paths

    return os.path.join(paths.state_dir(), name)


def note(run: str) -> None:
    """List ``run`` as made here: one line appended (no header, so two processes starting the list at
    once both keep their run)."""
    from lazy_harness.atomic import ensure_dir

    path = _state(RUNS_FILE)
    try:
        ensure_dir(os.path.dirname(path))
        fd = append_regular(path, 0o600, getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return  # why: a state folder that cannot be written: the run is undone by name (lh memory history)
    with os.fdopen(fd, "a", encoding="ascii") as fh:
        fh.write(run + "\n")


def made_here() -> Callable[[dict], bool]:
    """Whether a journal (as stored) was made on this machine: its run is listed here. A journal of an
    earlier version, which no list names, is not: a plain undo passes over it with a line naming it,
    and ``lh memory undo RUN`` undoes it (a journal synced in before the first run of this version
    could otherwise pass for one made here)."""
    try:
        # why open_regular: a FIFO in the list's place held lh memory undo in open() for good
        with open(open_regular(_state(RUNS_FILE))[0], encoding="ascii", errors="replace") as fh:
            listed = {line.strip() for line in fh}
    except OSError:
        listed = set()
    return lambda data: data.get("run") in listed
