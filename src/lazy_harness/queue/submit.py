"""The producer's whole step: queue a session's task, then start a worker to consume it. Shared by
the Stop and SessionEnd hooks and ``lh knowledge handoff-now``, so none of them imports the worker:
the worker is started as a program (``python -m lazy_harness.worker``), detached by
:mod:`lazy_harness.detach`, its output appended to ``<logs>/compound-loop.log``.

Hot path: only ``os`` and ``sys`` (and our own hot-path modules).
"""

from __future__ import annotations

import os

from lazy_harness import detach, logfile, paths
from lazy_harness.queue.produce import enqueue, task_fields
from lazy_harness.queue.task import task_id

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from lazy_harness.config.typed import Config

WORKER_MODULE = "lazy_harness.worker"


def worker_argv(python: str | None = None) -> list[str]:
    return detach.module_argv(WORKER_MODULE, python=python)


def spawn_worker(env: Mapping[str, str] | None = None) -> int:
    """Start ``python -m lazy_harness.worker`` detached; returns its pid."""
    env = dict(os.environ if env is None else env)
    return detach.spawn(worker_argv(), logfile.log_path(logfile.SPAWN, env), env)


def submit(payload: dict, event: str, forced: bool, env: Mapping[str, str] | None, now: float,
           cfg: Config | None = None, extra: Mapping[str, str] | None = None) -> tuple[str, str]:
    """Queue the session and start a worker. Returns (task name, decision text).

    ``payload`` holds ``session_id``, ``transcript_path`` and ``cwd`` (the session's own project
    folder). ``cfg``: the config the caller already loaded (``config.load_fast``); None loads it.
    ``extra``: fields added to the task (``queue.AGAIN`` for ``lh knowledge handoff-now --again``).
    """
    if not payload.get("session_id") or not payload.get("transcript_path"):
        return "", "skipped: payload has no session_id or transcript_path"
    memory_path = None if cfg is None else (cfg["memory"]["path"] or "")
    q = paths.queue_dir(env)
    name = enqueue(q, {**task_fields(payload, event, forced, env, memory_path), **(extra or {})}, now)
    try:
        spawned = f"worker pid {spawn_worker(env)}"
    except OSError as exc:
        spawned = f"worker not started: {exc}"  # why whole: it names the file (the log it could not open)
    return name, f"queued {task_id(name)} ({spawned})"
