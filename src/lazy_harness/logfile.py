"""One-line log records, rotated by size. Hot path: only ``os``, ``time``, ``fcntl``.

``hooks.log`` gets one line per hook run; ``worker.log`` one per worker step. A file past
``MAX_BYTES`` is renamed to ``<name>.1`` (the previous ``.1`` is dropped) before the next write.
"""

import fcntl
import os
import time

from lazy_harness import paths
from lazy_harness.atomic import FILE_MODE, ensure_dir

MAX_BYTES = 1_000_000
HOOKS = "hooks.log"
WORKER = "worker.log"
SPAWN = "compound-loop.log"


def log_path(name: str, env=None) -> str:
    return os.path.join(paths.logs_dir(env), name)


def stamp(now: float | None = None) -> str:
    t = time.time() if now is None else now
    lt = time.localtime(t)
    off = lt.tm_gmtoff or 0
    sign = "+" if off >= 0 else "-"
    off = abs(off)
    return time.strftime("%Y-%m-%dT%H:%M:%S", lt) + f"{sign}{off // 3600:02d}:{off % 3600 // 60:02d}"


def write(name: str, message: str, env=None, now: float | None = None) -> None:
    """Append ``<timestamp> <message>`` to the named log; never raises."""
    try:
        path = log_path(name, env)
        ensure_dir(os.path.dirname(path))
        line = f"{stamp(now)} {message.replace(chr(10), ' ').replace(chr(13), ' ')}\n".encode("utf-8", "replace")
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, FILE_MODE)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            if os.fstat(fd).st_size + len(line) > MAX_BYTES:
                _rotate(path)
                os.close(fd)
                fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, FILE_MODE)
                fcntl.flock(fd, fcntl.LOCK_EX)
            os.write(fd, line)
        finally:
            os.close(fd)
    except OSError:
        pass


def _rotate(path: str) -> None:
    try:
        os.replace(path, path + ".1")
    except OSError:
        pass
