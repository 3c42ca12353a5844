"""Start a program fully detached from the hook that starts it: a new session (so Claude Code's
teardown of a ``-p`` run cannot kill it), stdin from /dev/null, stdout and stderr appended to a log.
Hot path: only ``os`` and our base modules. Python's own descriptors are close-on-exec.
"""

import os

from lazy_harness.atomic import FILE_MODE, ensure_dir


def spawn(argv: list[str], log: str, env: dict) -> int:
    """``argv`` started detached, its output appended to ``log``; returns its pid."""
    ensure_dir(os.path.dirname(log))
    actions = [
        (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
        (os.POSIX_SPAWN_OPEN, 1, log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, FILE_MODE),
        (os.POSIX_SPAWN_DUP2, 1, 2),
    ]
    return os.posix_spawn(argv[0], argv, env, file_actions=actions, setsid=True)
