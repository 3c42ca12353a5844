"""Before any search: whether a typed prompt gets one at all (first on the prompt hook's path; no imports)."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from lazy_harness.config.typed import RecallConfig


def skip_reason(prompt: object, settings: RecallConfig) -> str | None:
    """Why this prompt (the payload's field, of any type) gets nothing before any search, or None."""
    text = prompt.strip() if isinstance(prompt, str) else ""
    if not text:
        return "no prompt"
    if text.startswith("/"):
        return "slash command"
    least = int(settings["min_prompt_chars"])
    return f"prompt under {least} characters" if len(text) < least else None


# why: a pasted log of 5 MB took the search 4.5 s; a prompt's question sits at its start or its end
SEARCHED_CHARS = 16384


def searched_part(prompt: str) -> str:
    """What of ``prompt`` the search reads: up to ``SEARCHED_CHARS``, else its start and its end."""
    if len(prompt) <= SEARCHED_CHARS:
        return prompt
    half = (SEARCHED_CHARS - 1) // 2
    return f"{prompt[:half]}\n{prompt[-half:]}"
