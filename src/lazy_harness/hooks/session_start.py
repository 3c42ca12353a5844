"""SessionStart: reads the project's memory back into the new session (filled in by memory.recall)."""


def run(payload: dict, env, now: float) -> tuple[str, str | None]:
    return "skipped: read-back not built yet", None
