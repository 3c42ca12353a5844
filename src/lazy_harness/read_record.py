"""What a run read, and whether it would read the same now: a result kept while every file, folder and
``stat`` it was made from is as it was (the start's read-back: recall/readback/prepared.py, ADR 0084).

:func:`record` runs a function with what it touches recorded, so no reader has to declare what it reads
and a reader added later is covered too: an audit hook (``sys.addaudithook``) sees each ``open`` for
reading, ``os.listdir`` and ``os.scandir``; ``os.stat`` and ``os.lstat`` are watched for the run (the
ones in place then, so a caller's own still runs). Each path is stamped as found *before* it was read
(a change made while the run read it is a change): mode, size, mtime, ctime, inode, device; a folder only
looked at (a ``stat``, not a listing) by what it is (mode, inode, device), since its times move with
every file written in it; a missing path as missing. The environment the run is given records the
variables it reads. A path the record cannot name (relative, or a ``stat`` relative to a folder's
descriptor) makes the record ``blind``: nothing may be kept from it. :func:`unchanged` is the check.

Hot path: only ``os`` and ``sys`` (SessionStart checks a kept read-back with it).
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, ItemsView, Iterator, Mapping, ValuesView
    from typing import Any

Stamp = list  # [mode, size, mtime_ns, ctime_ns, inode, device], or [mode, inode, device] of a folder looked at

_WRITING = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
_FOLDER_FLAG = getattr(os, "O_DIRECTORY", 0)
_STAT, _LSTAT = os.stat, os.lstat  # the interpreter's own: the record's stamps, whoever swapped them since


def stamp(st: os.stat_result, whole: bool = True) -> list[int]:
    """What tells a file from its earlier self; of a folder only looked at (not ``whole``), what it is."""
    if not whole and st.st_mode & 0o170000 == 0o040000:
        return [st.st_mode, st.st_ino, st.st_dev]
    return [st.st_mode, st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev]


def unchanged(seen: list) -> bool:
    """Whether every path of ``seen`` (``[key, stamp]`` pairs of :attr:`Record.seen`) is as it was
    (still missing where it was missing); False for anything not so shaped."""
    try:
        for key, was in seen:
            try:
                st = os.lstat(key[1:]) if key[0] == "l" else os.stat(key[1:])
            except OSError:
                if was is not None:
                    return False
                continue
            if was is None or was != stamp(st, len(was) != 3):
                return False
    except (TypeError, ValueError, IndexError):
        return False
    return True


class Record:
    """What one run touched: ``seen`` (``s`` or ``l``, for a ``stat`` or an ``lstat``, then the path:
    its stamp before it was read, None when it was not there), ``read`` (the variables read, with their
    values, ``always`` among them), ``env`` (the environment to give the run) and ``blind`` (why not
    everything could be named, or '')."""

    def __init__(self, env: Mapping[str, str], always: tuple[str, ...] = ()) -> None:
        self.seen: dict[str, list[int] | None] = {}
        self.read: dict[str, str | None] = {k: env.get(k) for k in always}
        self.env = _Watched(env, self.read)
        self.blind = ""

    def note(self, path: object, follow: bool = True, st: os.stat_result | None = None,
             missing: bool = False, read: bool = True) -> None:
        """``path`` as it is now (``st``: as just found; ``missing``: not there), before it is read
        (``read``: opened or listed; else only looked at, which of a folder asks what it is)."""
        if isinstance(path, os.PathLike):
            path = os.fspath(path)
        if isinstance(path, bytes):
            path = os.fsdecode(path)
        if not isinstance(path, str) or not os.path.isabs(path):
            self.blind = self.blind or f"not named by a path: {path!r}"
            return
        key = ("s" if follow else "l") + path
        was = self.seen.get(key, ())
        if was != () and not (read and was is not None and len(was) == 3):
            return  # why: the first stamp, taken before the first read, is the one that counts
        if st is None and not missing:
            try:
                st = _STAT(path) if follow else _LSTAT(path)
            except OSError:
                st = None
        self.seen[key] = None if st is None else stamp(st, read)


class _Watched(dict):
    """The environment, recording each variable read. A dict, as the hooks' and the worker's are used."""

    def __init__(self, env: Mapping[str, str], read: dict[str, str | None]) -> None:
        super().__init__(env)
        self._read = read

    def __getitem__(self, key: str) -> str:
        self._read[key] = super().get(key)
        return super().__getitem__(key)

    def get(self, key: str, default: object = None) -> object:
        self._read[key] = super().get(key)
        return super().get(key, default)

    def __contains__(self, key: object) -> bool:
        if isinstance(key, str):
            self._read[key] = super().get(key)
        return super().__contains__(key)

    def __iter__(self) -> Iterator[str]:
        self._read.update(self)  # why: a reader of every variable depends on every one
        return super().__iter__()

    def items(self) -> ItemsView[str, str]:  # type: ignore[override]
        self._read.update(self)
        return super().items()

    def values(self) -> ValuesView[str]:  # type: ignore[override]
        self._read.update(self)
        return super().values()


_active: list[Record] = []
_hooked = False


def _audit(event: str, args: tuple) -> None:
    if not _active:
        return
    rec = _active[-1]
    if event == "open":
        path, _mode, flags = args
        if isinstance(flags, int) and flags & _WRITING:
            return  # why: what the run writes (a cache) is not what it was made from
        if isinstance(path, int):
            return  # why: a descriptor already opened by name (``open(fd)``) was recorded then
        # why: a folder opened as such is synced or locked (atomic.py, files.FolderLock); listed, it is noted
        rec.note(path, read=not (isinstance(flags, int) and flags & _FOLDER_FLAG))
    elif event in ("os.listdir", "os.scandir"):
        rec.note(args[0] if args[0] is not None else ".")


def _watching(real: Callable[..., os.stat_result], follow: bool) -> Callable[..., os.stat_result]:
    def watched(path: object, *args: object, **kwargs: object) -> os.stat_result:
        if _active and (args or kwargs.get("dir_fd") is not None):
            _active[-1].blind = _active[-1].blind or "a stat relative to a folder"
        try:
            st = real(path, *args, **kwargs)
        except OSError:
            if _active and not isinstance(path, int):
                _active[-1].note(path, follow, missing=True, read=False)
            raise
        if _active and not isinstance(path, int):
            _active[-1].note(path, follow, st, read=False)
        return st

    return watched


def record(env: Mapping[str, str], run: Callable[[Mapping[str, str]], Any],
           always: tuple[str, ...] = ()) -> tuple[Any, Record]:
    """``run(env)`` with what it touches recorded (the environment it gets records what it reads;
    ``always``: variables recorded whether read or not). The audit hook stays (it cannot be taken
    off) but does nothing outside a run."""
    global _hooked
    if not _hooked:
        sys.addaudithook(_audit)
        _hooked = True
    rec = Record(env, always)
    _active.append(rec)
    outer = os.stat, os.lstat  # why these, not the originals: whoever set them (a test's fault) still runs
    os.stat, os.lstat = _watching(outer[0], True), _watching(outer[1], False)
    try:
        got = run(rec.env)
    finally:
        _active.remove(rec)
        os.stat, os.lstat = outer
    return got, rec
