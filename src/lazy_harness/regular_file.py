"""Opening a file that must be a regular file, without waiting: the one rule of every reader of a file
someone else could have put something else in place of (a memory file, a transcript, a task, a settings
file, git's files).

why O_NONBLOCK: a FIFO named like the file held a plain ``open`` until a writer came, and with it a
session's start, a prompt, the worker or a command, until it was killed; on a regular file the flag
changes nothing. The descriptor is judged by its own ``fstat`` (what is checked is what is read): a
folder in the file's place raises IsADirectoryError, anything else that is not a regular file (a FIFO, a
device, a socket) :class:`NotRegularFile` naming it; a failed open raises its own OSError.

Hot path: only ``os`` (the stat module's test is a mask here), nothing of ours: the bottom of the layers.
"""

from __future__ import annotations

import os

_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
_APPEND = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
_WRITE = os.O_WRONLY | os.O_CREAT | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
_KIND, _FOLDER, _REGULAR = 0o170000, 0o040000, 0o100000  # stat.S_IFMT, S_IFDIR, S_IFREG without ``stat``


class NotRegularFile(OSError):
    """What :func:`open_regular` raises for a FIFO, a device or a socket in a file's place."""


def open_regular(path: str, flags: int = 0, mode: int = 0o600) -> tuple[int, os.stat_result]:
    """A descriptor open for reading on the regular file ``path``, and its stat. ``flags``: more to open
    with (``os.O_NOFOLLOW``: a link in the file's place is refused, ELOOP; ``os.O_CREAT``: made with
    ``mode`` when missing)."""
    fd = os.open(path, _FLAGS | flags, mode)
    return fd, _judged(fd, path)


def append_regular(path: str, mode: int = 0o600, flags: int = 0) -> int:
    """A descriptor open for appending to the regular file ``path`` (made with ``mode`` when missing).
    why: a plain open for writing waited, as one for reading does, for a reader of a FIFO in the file's
    place (a log, a session's record of what it was shown): with the flag it fails at once (ENXIO) when
    nobody reads the FIFO, and :class:`NotRegularFile` is raised when somebody does."""
    fd = os.open(path, _APPEND | flags, mode)
    _judged(fd, path)
    return fd


def rewrite_regular(path: str, mode: int = 0o600, flags: int = 0) -> int:
    """A descriptor open for writing on the regular file ``path`` (made with ``mode`` when missing),
    emptied once judged. why not O_TRUNC: what is judged must not be cut first; the open for writing
    waits for a FIFO's reader as :func:`append_regular`'s would."""
    fd = os.open(path, _WRITE | flags, mode)
    _judged(fd, path)
    try:
        os.ftruncate(fd, 0)
    except OSError:
        os.close(fd)
        raise
    return fd


def _judged(fd: int, path: str) -> os.stat_result:
    """The stat of ``fd``, which must be a regular file's (else closed, and the error raised)."""
    try:
        st = os.fstat(fd)
        kind = st.st_mode & _KIND
        if kind == _FOLDER:
            raise IsADirectoryError(21, "Is a directory", path)  # EISDIR
        if kind != _REGULAR:
            raise NotRegularFile(6, "not a regular file", path)  # ENXIO
    except OSError:
        os.close(fd)
        raise
    return st


def read_regular(path: str, limit: int = -1, offset: int = 0, flags: int = 0) -> bytes:
    """Up to ``limit`` bytes (-1: all) of the regular file ``path`` from byte ``offset``
    (:func:`open_regular` says what else is raised)."""
    fd, _ = open_regular(path, flags)
    with open(fd, "rb") as fh:
        if offset:
            fh.seek(offset)
        return fh.read(limit)
