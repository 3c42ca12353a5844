"""Index tasks: "bring the search index up to date with this memory folder", asked by a reader (the
SessionStart hook that found a file changed by hand, the prompt hook that found no index, a command
that could not take the index's lock) and done by the worker, the index's one writer (ADR 0042).

    queue/index/<unix_ns>-<pid>.task   memory_dir=... (the key=value task format); the learnings
                                       folder is the worker's own, from its config

Not a session's task: no transcript, no check mark, no model call, no spend cap. A task is removed
only once the index holds what it asked for, so a worker killed mid-build leaves it for the next
worker, which goes on from the last part committed. Two tasks for one folder cost one refresh and
a second one that finds nothing to do. Hot path: only ``os`` and ``time``.
"""

from __future__ import annotations

import os
import time

from lazy_harness.atomic import atomic_write, ensure_dir
from lazy_harness.queue.task import INDEX, SUFFIX, format_task, read_task

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping


def folder(queue: str) -> str:
    return os.path.join(queue, INDEX)


def ask(queue: str, memory_dir: str, now: float | None = None) -> str:
    """Queue an index task for ``memory_dir`` (and the learnings); returns its name."""
    where = ensure_dir(folder(queue))
    ns = int((time.time() if now is None else now) * 1e9)
    fields = {"memory_dir": memory_dir}
    while True:
        name = f"{ns}-{os.getpid()}{SUFFIX}"
        if atomic_write(os.path.join(where, name), format_task(fields), exclusive=True):
            return name
        ns += 1


def waiting(queue: str) -> list[str]:
    """The index tasks waiting, oldest first (their paths)."""
    where = folder(queue)
    try:
        names = sorted(n for n in os.listdir(where) if n.endswith(SUFFIX) and not n.startswith("."))
    except OSError:
        return []
    return [os.path.join(where, n) for n in names]


def read(path: str) -> str | None:
    """The memory folder the task at ``path`` names; None when it is gone or names none."""
    try:
        return read_task(path).get("memory_dir") or None
    except (OSError, UnicodeDecodeError):
        return None


def done(path: str) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def ask_worker(env: Mapping[str, str] | None, memory_dir: str, queued: bool = False) -> str:
    """Queue an index task (unless ``queued``: one waits already) and start a worker when none holds
    its lock; a few words for a log."""
    from lazy_harness import paths
    from lazy_harness.queue.probe import needs_worker

    q = paths.queue_dir(env)
    if not queued:
        ask(q, memory_dir)
    said = "index task " + ("waiting" if queued else "queued")
    if not needs_worker(q):
        return f"{said} for the running worker"
    from lazy_harness.queue.submit import spawn_worker

    return f"{said}, worker pid {spawn_worker(env)}"
