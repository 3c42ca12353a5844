"""A full disk, an exceeded quota, a failing disk (ADR 0021): the task waits, it is never failed.

A persist that fails for lack of room or with an I/O error has rolled itself back (memory.intent).
The worker puts its task back in the queue, tells the person (``notice.storage_paused``: shown once
at the next SessionStart) and claims nothing more until a probe write works in every folder it
writes (the queue, the memory root, the learnings): no model call is spent on an answer that could
not be kept. A lingering worker probes with a doubling delay; any other worker probes before it
claims. The first probe that works clears the notice and the queue drains.
"""

from __future__ import annotations

import errno
import os
from typing import TYPE_CHECKING

from lazy_harness import paths

if TYPE_CHECKING:
    from collections.abc import Callable

    from lazy_harness.config.typed import Config
    from lazy_harness.memory.shapes import Env

CAUSES = {errno.ENOSPC: "no space left on the device", errno.EDQUOT: "the disk quota is exceeded",
          errno.EIO: "an I/O error", errno.EROFS: "the file system is read-only"}
PROBE_BYTES = 64 * 1024  # about what one persist writes; a probe smaller than that would pass in vain


def cause(exc: BaseException | None) -> str | None:
    """What a storage failure was, in words (with the path), or None for any other error."""
    seen = 0
    while exc is not None and seen < 10:
        if isinstance(exc, OSError) and exc.errno in CAUSES:
            # why not "writing" for EIO: a failing disk fails reads too, and the error does not say which
            verb = " on" if exc.errno == errno.EIO else " writing"
            where = f"{verb} {exc.filename}" if exc.filename else ""
            return f"{CAUSES[exc.errno]} ({errno.errorcode[exc.errno]}){where}"
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return None


def folders(cfg: Config, env: Env | None) -> list[str]:
    """Every folder a task writes: the queue, the memory root, the learnings folder."""
    out = []
    for folder in (paths.queue_dir(env), paths.memory_root(cfg["memory"]["path"] or None, env),
                   paths.learnings_dir(cfg["knowledge"]["path"] or None, env)):
        while folder and not os.path.isdir(folder):
            folder = os.path.dirname(folder)  # why: not made yet; its parent is on the same device, or will be
        if folder and folder not in out:
            out.append(folder)
    return out


def probe(dirs: list[str]) -> str | None:
    """Write, fsync and remove ``PROBE_BYTES`` in each folder: None when all worked, else why not."""
    block = b"\0" * PROBE_BYTES
    for folder in dirs:
        path = os.path.join(folder, f".lh-probe.{os.getpid()}.{os.urandom(4).hex()}.tmp")  # a sweep's name
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            try:
                view = memoryview(block)
                while view:
                    view = view[os.write(fd, view):]
                os.fsync(fd)
            finally:
                os.close(fd)
        except OSError as exc:
            return cause(exc) or f"{type(exc).__name__}: {exc}"
        finally:
            try:
                os.unlink(path)
            except OSError:
                pass
    return None


def message(reason: str, env: Env | None) -> str:
    head, _, where = reason.partition(" writing ")
    return (f"lazy-harness: memory writing is paused: {head}. Sessions stay queued and are written by "
            "themselves once writing works again (lh queue)" + (f"; it failed writing {where}" if where else ""))


def stop(env: Env | None, why: str) -> None:
    """Tell the next session (once) that memory writing waits for room."""
    from lazy_harness import notice

    notice.storage_paused(message(why, env), env)


def room(cfg: Config, env: Env | None, log: Callable[[str], object]) -> str | None:
    """Why writing does not work now, or None. A probe write only after a storage failure (the notice
    is up) or when a folder's device is nearly full: otherwise three ``statvfs``."""
    from lazy_harness import notice

    dirs = folders(cfg, env)
    if not notice.storage_waiting(env) and all(_free(d) >= PROBE_BYTES for d in dirs):
        return None
    why = probe(dirs)
    if why is None and notice.storage_waiting(env):
        notice.storage_resumed(env)
        log("writing works again; the queue goes on")
    return why


def _free(folder: str) -> int:
    try:
        st = os.statvfs(folder)
    except OSError:
        return 0
    return st.f_bavail * st.f_frsize
