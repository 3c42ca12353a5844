"""SessionStart: reads the project's memory back into the new session.

Runs on every start, resume, clear and compaction (the same text each time, so context survives a
compaction). Independent of the compound loop: only ``context.enabled`` switches it off. Prints one
JSON object when there is something to say and nothing otherwise; errors are caught and logged by
hooks/entry.py, which always exits 0.
"""

import os

from lazy_harness import config, jsonload, notice, paths, queue
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


def run(payload: dict, env, now: float) -> tuple[str, str | None]:
    """Returns (decision for hooks.log, the JSON line for stdout or None)."""
    source = str(payload.get("source") or "?")
    cfg = config.load_fast(env)
    restarted = restart_stalled_worker(cfg, env)
    # why: a paused or failing distillation is the person's business: systemMessage is shown to
    # them and never sent to the model (ADR 0013)
    told = notice.for_person(cfg, env, now)
    said = {"systemMessage": told} if told else {}
    shown = " (told the person: distillation paused, failing or config invalid)" if told else ""
    if not cfg["context"]["enabled"]:
        return f"source={source} skipped: context disabled{restarted}{shown}", _out(said)
    cwd = str(payload.get("cwd") or env.get("CLAUDE_PROJECT_DIR") or os.getcwd())
    text, stats = recall.build_context(cwd, cfg, env, now, source)
    if text is None:
        errors = f" errors: {'; '.join(stats['errors'])}" if stats["errors"] else ""
        return f"source={source} no memory for {stats['project']}{errors}{restarted}{shown}", _out(said)
    out = {**said, "hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": text}}
    return f"source={source} {recall.describe(stats)}{restarted}{shown}", _out(out)


def _out(obj: dict) -> str | None:
    return jsonload.dumps(obj) + "\n" if obj else None
