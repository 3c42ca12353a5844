"""SessionStart: reads the project's memory back into the new session.

Runs on every start, resume, clear and compaction (the same text each time, so context survives a
compaction). Independent of the compound loop: only ``context.enabled`` switches it off. Prints one
JSON object when there is something to say and nothing otherwise; errors are caught and logged by
hooks/entry.py, which always exits 0.
"""

import os

from lazy_harness import config, jsonload, paths, queue
from lazy_harness.memory import recall


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


def pull_memory(cfg: dict, env, now: float) -> str:
    """With a sync remote: start a pull and wait for it at most ``pull_budget_ms``, then go on.

    At most every ``interval_minutes`` (a stamp file's mtime); a slow or offline remote is logged
    and tried again at a later start. The hook never waits on the network beyond its budget."""
    s = cfg.get("sync") or {}
    if not s.get("remote") or not s.get("auto"):
        return ""
    stamp = os.path.join(paths.data_dir(env), ".sync-pull")
    try:
        if now - os.stat(stamp).st_mtime < int(s["interval_minutes"]) * 60:
            return ""
    except OSError:
        pass
    from lazy_harness.atomic import ensure_dir
    from lazy_harness.worker.spawn import spawn_pull

    ensure_dir(os.path.dirname(stamp))
    os.close(os.open(stamp, os.O_WRONLY | os.O_CREAT, 0o600))
    os.utime(stamp, (now, now))
    try:
        pid, fd = spawn_pull(env)
    except OSError as exc:
        return f" (pull not started: {exc})"
    import select

    budget = max(0, int(s["pull_budget_ms"])) / 1000
    try:
        ready = select.select([fd], [], [], budget)[0]
        said = os.read(fd, 512).decode("utf-8", "replace").strip() if ready else ""
    finally:
        os.close(fd)
    if not ready:
        return f" (pull pid {pid} still running after {budget:g} s: remote slow or offline; going on without it)"
    return f" ({said or 'pull ended without a word'})"


def run(payload: dict, env, now: float) -> tuple[str, str | None]:
    """Returns (decision for hooks.log, the JSON line for stdout or None)."""
    source = str(payload.get("source") or "?")
    cfg = config.load_fast(env)
    restarted = restart_stalled_worker(cfg, env) + pull_memory(cfg, env, now)
    if not cfg["context"]["enabled"]:
        return f"source={source} skipped: context disabled{restarted}", None
    cwd = str(payload.get("cwd") or env.get("CLAUDE_PROJECT_DIR") or os.getcwd())
    text, stats = recall.build_context(cwd, cfg, env, now, source)
    if text is None:
        errors = f" errors: {'; '.join(stats['errors'])}" if stats["errors"] else ""
        return f"source={source} no memory for {stats['project']}{errors}{restarted}", None
    out = {"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": text}}
    return f"source={source} {recall.describe(stats)}{restarted}", jsonload.dumps(out) + "\n"
