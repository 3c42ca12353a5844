"""The producers' common step: enqueue a task for the session and spawn the worker."""

import os

from lazy_harness import paths, queue
from lazy_harness.worker.spawn import spawn_worker


def submit(payload: dict, event: str, forced: bool, env, now: float) -> tuple[str, str]:
    """Queue the session and start a worker. Returns (task name, decision text)."""
    if not payload.get("session_id") or not payload.get("transcript_path"):
        return "", "skipped: payload has no session_id or transcript_path"
    q = paths.queue_dir(env)
    name = queue.enqueue(q, queue.task_fields(payload, event, forced, env), now)
    try:
        pid = spawn_worker(env)
        spawned = f"worker pid {pid}"
    except OSError as exc:
        spawned = f"worker not started: {exc.strerror or exc}"
    return name, f"queued {queue.task_id(name)} ({spawned})"


def loop_enabled(env) -> dict | None:
    """The config when the compound loop is on, else None."""
    from lazy_harness import config

    cfg = config.load_fast(env)
    return cfg if cfg["compound_loop"]["enabled"] else None


def off_reason(env) -> str:
    """Why the loop is off, for hooks.log: an invalid config.toml is not a switched-off loop."""
    from lazy_harness import config

    problem = config.invalid(config.load_fast(env))
    return f"config invalid: lh config validate ({problem})" if problem else "compound loop disabled"


def transcript_of(payload: dict) -> str:
    return os.path.abspath(str(payload.get("transcript_path") or ""))
