"""Crash-safe file writes. Hot path: only ``os`` and ``fcntl``.

Whole files: temp file in the same folder, write, fsync, ``os.replace``; a reader sees the old file
or the new one, never a torn one. JSONL: a whole line written on an ``O_APPEND`` descriptor under an
exclusive lock, then fsync. ``os.write`` may write fewer bytes than asked (a signal, a full disk, a
pipe); both writers loop until every byte is written or the write fails. A SIGKILL can still cut a
large line: readers of our JSONL files skip a line that does not parse.
"""

from __future__ import annotations

import fcntl
import os

from lazy_harness.regular_file import NotRegularFile, open_regular, read_regular

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

FILE_MODE = 0o600
DIR_MODE = 0o700


def try_lock(path: str) -> int | None:
    """Take the exclusive ``flock`` of the lock file ``path`` (created 0600, never deleted) without
    waiting: its descriptor, to close to release it, or None when another process holds it."""
    fd = _lock_file(path)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd


def lock(path: str) -> int:
    """The same lock, waiting for another process to release it: for a read-change-write of a small
    shared file that takes milliseconds. Raises OSError when the file cannot be opened."""
    fd = _lock_file(path)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
    except OSError:
        os.close(fd)
        raise
    return fd


def write_locked(path: str, data: bytes) -> int:
    """Write ``data`` as ``path`` whole and already locked: a temp file named as :func:`atomic_write`
    names its own (a killed writer's is swept), its exclusive ``flock`` taken before the rename (no
    reader ever sees the file unlocked), fsynced, renamed, the folder fsynced. Returns the locked
    descriptor: the lock lasts until it is closed (or the process dies)."""
    folder = os.path.dirname(path) or "."
    tmp = os.path.join(folder, f".{os.path.basename(path)}.{os.getpid()}.{os.urandom(4).hex()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), FILE_MODE)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            write_all(fd, data)
            os.fsync(fd)
        except OSError as exc:
            raise named(exc, path) from None
        os.replace(tmp, path)
    except BaseException:
        os.close(fd)
        _unlink_quiet(tmp)
        raise
    fsync_dir(folder)
    return fd


def _lock_file(path: str) -> int:
    return os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o600)


def held(path: str) -> bool:
    """Whether another process holds the ``flock`` of the lock file ``path`` now (a missing file:
    nobody). Takes nothing: a shared lock tried without waiting and dropped at once."""
    try:  # why open_regular: a FIFO in the lock file's place held lh status and lh doctor in open()
        fd = open_regular(path)[0]
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        return False
    except OSError:
        return True
    finally:
        os.close(fd)


def ensure_dir(path: str) -> str:
    """Create ``path`` and any missing parents private to the user (0700); existing folders are left
    as they are."""
    if os.path.isdir(path):
        return path
    parent = os.path.dirname(path)
    if parent and parent != path:
        ensure_dir(parent)
    try:
        os.mkdir(path, DIR_MODE)
    except FileExistsError:
        pass
    return path


def fsync_dir(folder: str) -> None:
    """Make a rename or link into ``folder`` durable."""
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def read_bytes(path: str) -> bytes | None:
    """A file's bytes, None when it does not exist. A FIFO, a device or a socket in its place raises
    ``regular_file.NotRegularFile`` at once (a plain open waited there for a writer that never came)."""
    try:
        return read_regular(path)
    except FileNotFoundError:
        return None


def write_all(fd: int, data: bytes) -> None:
    """Write every byte of ``data`` to ``fd``, looping over short writes."""
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        if n <= 0:
            # why: a write that makes no progress would loop forever
            raise OSError(f"write made no progress on fd {fd} ({len(view)} bytes left)")
        view = view[n:]


class FileChanged(Exception):
    """``atomic_write(unchanged=...)`` found its target no longer the file that was read: nothing written."""

    def __init__(self, path: str) -> None:
        super().__init__(f"{path}: changed since it was read; not written")
        self.path = path


MISSING = (0, -1, 0)  # the key of a file that does not exist


def file_key(path: str) -> tuple[int, int, int]:
    """``(st_ino, st_size, st_mtime_ns)`` of ``path`` (``MISSING`` when it does not exist): taken before a
    file is read, then given to ``atomic_write(unchanged=...)``. An editor's save (a temp file renamed
    over it, or a write in place) changes it."""
    try:
        st = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return MISSING
    return (st.st_ino, st.st_size, st.st_mtime_ns)


def atomic_write(path: str, data: str | bytes, mode: int = FILE_MODE, exclusive: bool = False,
                 before_replace: Callable[[], object] | None = None,
                 durable: bool = True, unchanged: tuple[int, int, int] | None = None) -> bool:
    """Replace ``path`` with ``data`` (str or bytes) atomically.

    With ``exclusive`` the file is only created, never replaced: returns False when it already exists.
    ``before_replace()`` runs once the new bytes are on disk, just before the rename: what it raises
    leaves ``path`` as it was. ``durable=False`` skips both fsyncs (the file's and its folder's): a
    reader still sees the old file or the new one whole, but a power loss may bring back the old one or
    an empty one; only for records whose loss costs nothing (the shown record). ``unchanged``: the
    :func:`file_key` of ``path`` taken before the caller read it; when the file is no longer that one,
    :class:`FileChanged` is raised and ``path`` is left as it is (the caller reads it again and redoes).
    """
    if isinstance(data, str):
        data = data.encode("utf-8")
    folder = os.path.dirname(path) or "."
    ensure_dir(folder)
    tmp = os.path.join(folder, f".{os.path.basename(path)}.{os.getpid()}.{os.urandom(4).hex()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        write_all(fd, data)
        if durable:
            os.fsync(fd)
    except OSError as exc:
        os.close(fd)
        _unlink_quiet(tmp)
        raise named(exc, path) from None
    except BaseException:
        os.close(fd)
        _unlink_quiet(tmp)
        raise
    os.close(fd)
    try:
        if exclusive:
            # why: link() fails when the target exists, so a write-once file is never overwritten
            try:
                os.link(tmp, path)
            except FileExistsError:
                return False
            finally:
                _unlink_quiet(tmp)
        else:
            if before_replace is not None:
                before_replace()
            # why here, after the write and the fsync: the window between this look and the rename is
            # microseconds, not the milliseconds of an fsync. It narrows the race with an editor's save,
            # it cannot close it: an editor takes no lock we could wait for
            if unchanged is not None and file_key(path) != tuple(unchanged):
                raise FileChanged(path)
            os.replace(tmp, path)
    except BaseException:
        _unlink_quiet(tmp)
        raise
    if durable:
        fsync_dir(folder)
    return True


def same_file(fd: int, path: str) -> bool:
    """Whether ``path`` is still the file open at ``fd`` (not removed, nor replaced by another)."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return False
    mine = os.fstat(fd)
    return (mine.st_dev, mine.st_ino) == (st.st_dev, st.st_ino)


def open_append(path: str, mode: int = FILE_MODE) -> int:
    """``path`` opened to append (made when missing), never through a symbolic link: a memory file
    that is a link (``marks.jsonl`` -> ``~/.bashrc``) would take the line outside the memory folders,
    which the worker's own writes refuse too (memory/plan.py). A link raises OSError naming the file;
    anything but a regular file (a FIFO) NotRegularFile. why: O_RDWR never waits on a FIFO, but a line
    written there went into the pipe, never to disk, and one longer than its buffer waited for good."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT | getattr(os, "O_CLOEXEC", 0)
                     | getattr(os, "O_NOFOLLOW", 0), mode)
    except OSError as exc:
        if os.path.islink(path):
            raise OSError(exc.errno, "a symbolic link: lh writes no memory through a link (remove it, keep "
                          "its file's lines in a plain file)", path) from None
        raise
    if os.fstat(fd).st_mode & 0o170000 != 0o100000:  # stat.S_ISREG without importing stat
        os.close(fd)
        raise NotRegularFile(6, "not a regular file", path)  # ENXIO, as regular_file says it
    return fd


def append_line(path: str, line: str, mode: int = FILE_MODE, heal: bool = False) -> None:
    """Append one whole line (a newline is added) under an exclusive lock, then fsync. A file that
    ``rewrite`` replaced while this waited for the lock is opened again: the line lands in the new one.
    ``heal``: a file whose last line lacks its newline gets one first (the memory stores heal theirs
    themselves: ``entries.heal_tail``, which their undo records count on). A file removed while this
    waited (a sync merge) is made again, and its folder with it if the merge removed that too."""
    if "\n" in line:
        raise ValueError("append_line takes exactly one line")
    folder = os.path.dirname(path) or "."
    data = (line + "\n").encode("utf-8")
    while True:
        ensure_dir(folder)  # why in the loop: a merge that removed the file removes the folder it empties
        fd = open_append(path, mode)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            if not same_file(fd, path):
                continue  # why: replaced under us; appending to the old inode would lose the line
            try:
                if heal:
                    size = os.fstat(fd).st_size
                    # why: a last line saved without its newline (an editor) would take this one into
                    # it, and both would be lost to every reader
                    data = b"\n" + data if size and os.pread(fd, 1, size - 1) != b"\n" else data
                    heal = False
                write_all(fd, data)
                os.fsync(fd)
            except OSError as exc:
                raise named(exc, path) from None
            return
        finally:
            os.close(fd)


def named(exc: OSError, path: str) -> OSError:
    """A write's error with the file it was writing (``os.write`` and ``os.fsync`` name none): a full
    disk's message then says where."""
    if exc.filename or exc.errno is None:
        return exc
    return type(exc)(exc.errno, exc.strerror, path)


def rewrite(path: str, change: Callable[[bytes], bytes | None]) -> bytes | None:
    """Replace an append-only file with ``change(its bytes)`` (atomically), holding the lock that
    ``append_line`` takes, so no line appended meanwhile is lost. Returns the new bytes; None (and
    nothing written) when the file is missing or ``change`` returns None or the same bytes."""
    while True:
        try:  # why open_regular: a FIFO in the file's place held the command or the worker in open() for good
            fd, _ = open_regular(path)
        except FileNotFoundError:
            return None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            if not same_file(fd, path):
                continue
            chunks = []
            while True:
                chunk = os.read(fd, 1 << 20)
                if not chunk:
                    break
                chunks.append(chunk)
            old = b"".join(chunks)
            new = change(old)
            if new is None or new == old:
                return None
            atomic_write(path, new)
            return new
        finally:
            os.close(fd)


def _unlink_quiet(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def sweep_stale_temps(folder: str) -> int:
    """Remove temp files that ``atomic_write`` left behind when its process was killed.

    Their names are ``.<target>.<pid>.<random>.tmp``; a file whose pid is no longer alive is stale.
    """
    removed = 0
    try:
        names = os.listdir(folder)
    except OSError:
        return 0
    for name in names:
        if not (name.startswith(".") and name.endswith(".tmp")):
            continue
        parts = name.rsplit(".", 3)
        if len(parts) != 4 or not parts[1].isdigit():
            continue
        if not _pid_alive(int(parts[1])):
            _unlink_quiet(os.path.join(folder, name))
            removed += 1
    return removed
