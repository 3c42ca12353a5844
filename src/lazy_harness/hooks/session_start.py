"""SessionStart: reads the project's memory back into the new session.

Runs on every start, resume, clear and compaction (the same text each time, so context survives a
compaction). Independent of the compound loop: only ``context.enabled`` switches it off. Prints one
JSON object when there is something to say and nothing otherwise; errors are caught and logged by
hooks/entry.py, which always exits 0.
"""

import json
import os

from lazy_harness import config
from lazy_harness.memory import recall


def run(payload: dict, env, now: float) -> tuple[str, str | None]:
    """Returns (decision for hooks.log, the JSON line for stdout or None)."""
    source = str(payload.get("source") or "?")
    cfg = config.load_fast(env)
    if not cfg["context"]["enabled"]:
        return f"source={source} skipped: context disabled", None
    cwd = str(payload.get("cwd") or env.get("CLAUDE_PROJECT_DIR") or os.getcwd())
    text, stats = recall.build_context(cwd, cfg, env, now, source)
    if text is None:
        errors = f" errors: {'; '.join(stats['errors'])}" if stats["errors"] else ""
        return f"source={source} no memory for {stats['project']}{errors}", None
    out = {"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": text}}
    return f"source={source} {recall.describe(stats)}", json.dumps(out) + "\n"
