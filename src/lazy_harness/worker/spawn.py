"""Start the worker fully detached, and :func:`submit`: enqueue a session then start the worker.
Hot path: only ``os`` and ``sys`` (and our own hot-path modules).

Detached by :func:`lazy_harness.detach.spawn` (new session, stdin from /dev/null), stdout and stderr
appended to ``<logs>/compound-loop.log``; the worker closes anything else it inherited as its first
step.
"""

import os
import sys

from lazy_harness import detach, logfile, paths, queue
from lazy_harness.atomic import FILE_MODE, ensure_dir

WORKER_MODULE = "lazy_harness.worker"


def worker_argv(python: str | None = None) -> list[str]:
    return [python or sys.executable, "-m", WORKER_MODULE]


def spawn_worker(env=None) -> int:
    """Spawn ``python -m lazy_harness.worker`` detached; returns its pid."""
    env = dict(os.environ if env is None else env)
    return detach.spawn(worker_argv(), logfile.log_path(logfile.SPAWN, env), env)


def submit(payload: dict, event: str, forced: bool, env, now: float) -> tuple[str, str]:
    """Queue the session and start a worker. Returns (task name, decision text).

    Shared by the producer hooks and ``lh knowledge handoff-now``; ``payload`` holds
    ``session_id``, ``transcript_path`` and ``cwd`` (the session's own project folder).
    """
    if not payload.get("session_id") or not payload.get("transcript_path"):
        return "", "skipped: payload has no session_id or transcript_path"
    q = paths.queue_dir(env)
    name = queue.enqueue(q, queue.task_fields(payload, event, forced, env), now)
    try:
        spawned = f"worker pid {spawn_worker(env)}"
    except OSError as exc:
        spawned = f"worker not started: {exc.strerror or exc}"
    return name, f"queued {queue.task_id(name)} ({spawned})"


def spawn_pull(env=None) -> tuple[int, int]:
    """Start ``python -m lazy_harness.sync pull`` detached; returns (pid, read end of its stdout).

    The caller may wait on the pipe for a bounded time (it reaches end-of-file when the pull ends)
    and then close it: the pull goes on by itself and never writes after its one status line.
    """
    env = dict(os.environ if env is None else env)
    log = logfile.log_path(logfile.SPAWN, env)
    ensure_dir(os.path.dirname(log))
    argv = [sys.executable, "-m", "lazy_harness.sync", "pull"]
    r, w = os.pipe()
    actions = [
        (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
        (os.POSIX_SPAWN_DUP2, w, 1),
        (os.POSIX_SPAWN_OPEN, 2, log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, FILE_MODE),
    ]
    try:
        pid = os.posix_spawn(argv[0], argv, env, file_actions=actions, setsid=True)
    except OSError:
        os.close(r)
        raise
    finally:
        os.close(w)
    return pid, r
