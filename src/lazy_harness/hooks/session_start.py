"""SessionStart: reads the project's memory back into the new session.

Runs on every start, resume, clear and compaction (the same text each time, so context survives a
compaction). Independent of the compound loop: only ``context.enabled`` switches it off. Prints one
JSON object when there is something to say and nothing otherwise; errors are caught and logged by
hooks/entry.py, which always exits 0.
"""

import os

from lazy_harness import config, jsonload, paths, queue
from lazy_harness.memory import migrate, recall


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


def migrate_old_files(cwd: str, cfg: dict, env, now: float) -> str:
    """Move this project's files out of Claude Code's auto-memory folder before Claude Code indexes
    them. Costs a few ``lstat`` when there is nothing to move (every start after the first)."""
    root = paths.project_root(cwd)
    key = paths.project_key(root)
    if not migrate.pending(key, root, env):
        return ""
    try:
        mdir = paths.project_memory_dir(root, env, cfg["memory"]["path"] or None)
        lines = migrate.migrate(mdir, key, root, env, now)
    except Exception as exc:  # why: a failed move leaves the files in place; the session still starts
        return f" (migration failed: {type(exc).__name__}: {exc})"
    return "".join(f" ({line})" for line in lines)


def run(payload: dict, env, now: float) -> tuple[str, str | None]:
    """Returns (decision for hooks.log, the JSON line for stdout or None)."""
    source = str(payload.get("source") or "?")
    cfg = config.load_fast(env)
    restarted = restart_stalled_worker(cfg, env)
    cwd = str(payload.get("cwd") or env.get("CLAUDE_PROJECT_DIR") or os.getcwd())
    restarted += migrate_old_files(cwd, cfg, env, now)
    if not cfg["context"]["enabled"]:
        return f"source={source} skipped: context disabled{restarted}", None
    text, stats = recall.build_context(cwd, cfg, env, now, source)
    if text is None:
        errors = f" errors: {'; '.join(stats['errors'])}" if stats["errors"] else ""
        return f"source={source} no memory for {stats['project']}{errors}{restarted}", None
    out = {"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": text}}
    return f"source={source} {recall.describe(stats)}{restarted}", jsonload.dumps(out) + "\n"
