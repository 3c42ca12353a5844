"""Before any search: whether a typed prompt gets one at all, and the prompt sent ahead to the
embedder. Hot path, and first on it: the prompt hook calls this before it imports the index and the
ranking, so the embedder embeds the prompt while they load and search (ADR 0020). Only ``os`` and
our hot-path modules at top level.
"""

import os

from lazy_harness import paths


def skip_reason(prompt, settings: dict) -> str | None:
    """Why this prompt gets nothing before any search, or None."""
    if not isinstance(prompt, str) or not prompt.strip():
        return "no prompt"
    text = prompt.strip()
    if text.startswith("/"):
        return "slash command"
    if len(text) < int(settings["min_prompt_chars"]):
        return f"prompt under {int(settings['min_prompt_chars'])} characters"
    return None


def send_ahead(prompt: str, settings: dict, env) -> tuple:
    """With ``recall.semantic``, the prompt sent to the embedder before the index is searched:
    (pending request or None, why none). Never raises."""
    if not settings.get("semantic"):
        return None, ""
    try:
        from lazy_harness.recall import embed_client

        return embed_client.send_prompt(env, os.path.abspath(paths.recall_index_file(env)), prompt,
                                        int(settings["semantic_timeout_ms"]) / 1000)
    except Exception as exc:  # why: it never raises by contract; if it did, words still decide
        return None, f"embedder client: {type(exc).__name__}: {exc}"
