"""UserPromptSubmit: give the model the memory entries that match what the user just typed.

Runs before every prompt the user types, so it stays cheap: nothing for a slash command or a prompt
under ``recall.min_prompt_chars``; otherwise the index is brought up to date (a ``stat`` per memory
file) and searched (``lazy_harness.recall``; with ``recall.semantic`` the candidates' kept vectors are
compared with the prompt's; a large catch-up is left to the index builder). Prints one JSON object when an entry passes
the bar and was not shown to this session yet, nothing otherwise; the decision goes to hooks.log
through hooks/entry.py, which also catches and logs any error (the hook always exits 0).

It also makes sure the sweep knows the session (one ``stat``), as Stop does: a session the sweep
forgot while it sat idle is watched again from the next prompt, so a turn killed mid-way after a
long pause is still distilled (docs/adr/0010).
"""

import os

from lazy_harness import config, jsonload, paths


def _watch(payload: dict, cfg: dict, env) -> None:
    if not cfg["compound_loop"]["enabled"] and config.invalid(cfg) is None:
        return  # distillation off: nothing to sweep (paused by an invalid config: watched, as Stop does)
    from lazy_harness.queue import sweep

    try:
        sweep.watch(paths.queue_dir(env), payload)
    except OSError:
        pass  # why: the sweep is a safety net; the prompt's recall still runs


def run(payload: dict, env, now: float) -> tuple[str, str | None]:
    """Returns (decision for hooks.log, the JSON line for stdout or None)."""
    from lazy_harness.recall import gate

    cfg = config.load_fast(env)
    text = payload.get("prompt")
    why = "recall disabled" if not cfg["recall"]["enabled"] else gate.skip_reason(text, cfg["recall"])
    if why:
        _watch(payload, cfg, env)
        return f"skipped: {why}", None
    cwd = str(payload.get("cwd") or env.get("CLAUDE_PROJECT_DIR") or os.getcwd())
    sid = str(payload.get("session_id") or "")
    from lazy_harness.recall import prompt as recall_prompt
    from lazy_harness.recall import shown

    try:
        out_text, info = recall_prompt.context_for(text, cwd, cfg, env, shown.read(env, sid), now=now)
    finally:
        _watch(payload, cfg, env)  # why: also when the search failed: the session must still be swept
    decision = recall_prompt.describe(info)
    if not out_text:
        return decision, None
    shown.add(env, sid, [c["id"] for c in info["kept"]])
    out = {"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": out_text}}
    return decision, jsonload.dumps(out) + "\n"
