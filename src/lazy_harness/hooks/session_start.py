"""SessionStart: reads the project's memory back into the new session.

Runs on every start, resume, clear and compaction (the same text each time, so context survives a
compaction). Independent of the compound loop: only ``context.enabled`` switches it off. Prints one
JSON object when there is something to say and nothing otherwise; errors are caught and logged by
hooks/entry.py, which always exits 0.
"""

import os

from lazy_harness import config, jsonload, paths, queue
from lazy_harness.memory import recall


def sweep_sessions(payload: dict, cfg: dict, env, now: float) -> str:
    """Make the starting session known to the sweep, then queue the sessions that went idle
    without being checked (killed, or whose last Stops were gated). Throttled and capped in
    :func:`lazy_harness.queue.sweep`; the worker it needs is started by restart_stalled_worker."""
    loop = cfg["compound_loop"]
    if not loop["enabled"]:
        return ""
    q = paths.queue_dir(env)
    try:
        queue.watch(q, payload)
        queued = queue.sweep(q, now, float(loop.get("idle_minutes", 10)) * 60, env)
    except OSError as exc:
        return f" (sweep failed: {exc})"
    return f" (sweep queued {len(queued)} idle session(s))" if queued else ""


def restart_stalled_worker(cfg: dict, env) -> str:
    """Tasks left by a worker that died (or by a spawn that failed) would wait for the next Stop or
    SessionEnd; a new session is as good a moment as any to start a worker for them."""
    if not cfg["compound_loop"]["enabled"] or not queue.needs_worker(paths.queue_dir(env)):
        return ""
    from lazy_harness.worker.spawn import spawn_worker

    try:
        return f" (started worker pid {spawn_worker(env)} for waiting tasks)"
    except OSError as exc:
        return f" (worker for waiting tasks not started: {exc})"


def run(payload: dict, env, now: float) -> tuple[str, str | None]:
    """Returns (decision for hooks.log, the JSON line for stdout or None)."""
    source = str(payload.get("source") or "?")
    cfg = config.load_fast(env)
    restarted = sweep_sessions(payload, cfg, env, now) + restart_stalled_worker(cfg, env)
    if not cfg["context"]["enabled"]:
        return f"source={source} skipped: context disabled{restarted}", None
    cwd = str(payload.get("cwd") or env.get("CLAUDE_PROJECT_DIR") or os.getcwd())
    text, stats = recall.build_context(cwd, cfg, env, now, source)
    if text is None:
        errors = f" errors: {'; '.join(stats['errors'])}" if stats["errors"] else ""
        return f"source={source} no memory for {stats['project']}{errors}{restarted}", None
    out = {"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": text}}
    return f"source={source} {recall.describe(stats)}{restarted}", jsonload.dumps(out) + "\n"
