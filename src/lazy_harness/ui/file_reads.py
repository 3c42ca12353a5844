"""How the page reads a file: the end of one (hooks.log, a task's error), a file's parse kept while
its mtime, size and inode stay the same, and those stamps for a folder's files (what a kept listing
compares before it reads again)."""

from __future__ import annotations

import os
import threading

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import TypeVar
    T = TypeVar("T")


def tail(path: str, size: int) -> bytes:
    from lazy_harness.regular_file import open_regular

    try:
        # why not a plain open: a FIFO in the file's place held it, and the page's thread, until a writer came
        with open(open_regular(path)[0], "rb") as fh:
            fh.seek(0, os.SEEK_END)
            end = fh.tell()
            fh.seek(max(0, end - size))
            data = fh.read()
    except OSError:
        return b""
    return data if end <= size else data.partition(b"\n")[2]  # a cut first line is dropped


_PARSED: dict[tuple[str, object], tuple[tuple[int, int, int], object]] = {}
LOCK = threading.Lock()  # of every cache of the page's readings (the page serves from threads)


def parsed(path: str, parse: Callable[[str], T]) -> T | None:
    """``parse(path)``, kept while the file's mtime, size and inode stay the same (a page reload then
    reads only what changed); None for a missing file."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    key = (st.st_mtime_ns, st.st_size, st.st_ino)
    with LOCK:
        hit = _PARSED.get((path, parse))
    if hit is not None and hit[0] == key:
        return hit[1]  # type: ignore[return-value]  # why: stored under (path, parse) by this same parse below
    value = parse(path)
    with LOCK:
        _PARSED[(path, parse)] = (key, value)
    return value


def stamps(folder: str, names: list[str] | None = None) -> tuple:
    """(name, mtime_ns, size, inode) of each file of ``folder`` (of ``names`` in it, when given)."""
    import stat

    out = []
    try:
        listed = sorted(os.listdir(folder)) if names is None else names
    except OSError:
        return ()
    for name in listed:
        try:
            st = os.stat(os.path.join(folder, name))
        except OSError:
            continue
        if not stat.S_ISDIR(st.st_mode):
            out.append((name, st.st_mtime_ns, st.st_size, st.st_ino))
    return tuple(out)
