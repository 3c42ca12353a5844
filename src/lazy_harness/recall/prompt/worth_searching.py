"""Before any search: whether a typed prompt gets one at all. Hot path, and first on it: the prompt
hook calls this before it imports the index and the ranking. Nothing imported at top level.
"""


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
