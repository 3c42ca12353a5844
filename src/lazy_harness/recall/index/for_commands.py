"""The index as commands read it (``lh memory search``, ``lh memory show --prompt``): brought up to
date by the writer first unless another writer holds it (then what is there is read), built again
from the files when found damaged. Not on the prompt hook's path (``recall.prompt.recall``).
"""

from __future__ import annotations

from lazy_harness.recall.index import store, writer

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from sqlite3 import Connection
    from typing import TypeVar

    T = TypeVar("T")


def read_current(path: str, mdirs: list[str], ldir: str | None, read: Callable[[Connection], T],
                 deep: bool | int = False) -> tuple[T, int | None]:
    """``writer.update`` (without waiting), then ``read(conn)``: (what ``read`` returned, entries
    indexed, or None when another writer was writing). An index found damaged on the way, the read
    included, is removed and built again from the files, once. why not SQLite's ``quick_check`` first:
    at 100,000 entries it read the whole 593 MB file (800 ms, 397 MB resident)."""
    def current() -> tuple[T, int | None]:
        got = writer.update(path, mdirs, ldir, deep=deep)
        conn = store.connect(path)
        try:
            return read(conn), None if got is None else got[0]
        finally:
            conn.close()

    return store.rebuilt_once(path, current)
