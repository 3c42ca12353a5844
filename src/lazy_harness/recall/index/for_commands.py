"""The index as commands read it: brought up to date first unless another writer holds it."""

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
    """``writer.update`` without waiting, then (``read(conn)``, entries indexed or None), rebuilt once if
    damaged. why not ``quick_check`` first: 800 ms at 100,000 entries."""
    def current() -> tuple[T, int | None]:
        got = writer.update(path, mdirs, ldir, deep=deep)
        conn = store.connect(path)
        try:
            return read(conn), None if got is None else got[0]
        finally:
            conn.close()

    return store.rebuilt_once(path, current)
