"""Before any search: whether a typed prompt gets one at all. Hot path, and first on it: the prompt
hook calls this before it imports the index and the ranking. Nothing imported at top level.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from lazy_harness.config.typed import RecallConfig


def skip_reason(prompt, settings: RecallConfig) -> str | None:
    """Why this prompt gets nothing before any search, or None."""
    if not isinstance(prompt, str) or not prompt.strip():
        return "no prompt"
    text = prompt.strip()
    if text.startswith("/"):
        return "slash command"
    if len(text) < int(settings["min_prompt_chars"]):
        return f"prompt under {int(settings['min_prompt_chars'])} characters"
    return None
