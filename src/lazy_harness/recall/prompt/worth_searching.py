"""Before any search: whether a typed prompt gets one at all. Hot path, and first on it: the prompt
hook calls this before it imports the index and the ranking. Nothing imported at top level.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from lazy_harness.config.typed import RecallConfig


def skip_reason(prompt: object, settings: RecallConfig) -> str | None:
    """Why this prompt gets nothing before any search, or None. ``prompt``: the payload's field, of any
    type (a payload is parsed JSON)."""
    text = prompt.strip() if isinstance(prompt, str) else ""
    if not text:
        return "no prompt"
    if text.startswith("/"):
        return "slash command"
    least = int(settings["min_prompt_chars"])
    return f"prompt under {least} characters" if len(text) < least else None


# why: the search tokenises and embeds the whole prompt; a pasted log of 5 MB took 4.5 s, past the
# hook's own 5 s timeout at 50 MB. A prompt's question sits at its start or its end (the log pasted
# between): 16,384 characters of them is several screens of text
SEARCHED_CHARS = 16384


def searched_part(prompt: str) -> str:
    """What of ``prompt`` the search reads: all of it up to ``SEARCHED_CHARS``, else its first and last
    halves of that (cut once: the part is short enough to be its own part)."""
    if len(prompt) <= SEARCHED_CHARS:
        return prompt
    half = (SEARCHED_CHARS - 1) // 2
    return f"{prompt[:half]}\n{prompt[-half:]}"
