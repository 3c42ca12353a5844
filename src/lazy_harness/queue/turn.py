"""The turn a task waits for: a digest of the start of the Stop hook's ``last_assistant_message``,
which the worker compares with the assistant texts of the transcript (worker/turn.py).

Hot path: no import at top level; the digest uses the interpreter's own SHA-256 module (sha.py).
"""

from __future__ import annotations

TURN = "turn"  # task field: a digest of the start of the turn's last assistant message (worker/turn.py)
TURN_CHARS = 120
TURN_DIGEST = "sha256:"  # how a digest in TURN starts; the previous release wrote the text itself


def turn_fingerprint(payload: dict) -> str:
    """The start of the payload's ``last_assistant_message`` (only Stop carries one) as
    :func:`turn_start` cuts it; "" when there is none. Claude Code may run Stop before the turn is in
    the transcript: the task keeps its :func:`turn_digest` and the worker waits until an assistant
    text of the transcript has the same (worker/turn.py). Never written anywhere as it is."""
    text = payload.get("last_assistant_message")
    return turn_start(text) if isinstance(text, str) else ""


def turn_start(text: str) -> str:
    """The first TURN_CHARS characters of ``text``, stripped, cut before a lone surrogate: what the
    Stop hook takes of its message and the worker of each assistant text it compares."""
    turn = text.strip()[:TURN_CHARS]
    try:
        turn.encode("utf-8")
    except UnicodeEncodeError as exc:  # why: a lone surrogate has no UTF-8 bytes to digest
        turn = turn[:exc.start]
    return turn


def turn_digest(start: str) -> str:
    """``sha256:<hex>`` of ``start`` (a :func:`turn_start`) in UTF-8."""
    from lazy_harness.sha import sha256

    return TURN_DIGEST + sha256()(start.encode("utf-8")).hexdigest()


def is_turn_digest(value: str) -> bool:
    """Whether a task's TURN holds a digest (anything else is the text an older release wrote)."""
    hexpart = value[len(TURN_DIGEST):]
    return value.startswith(TURN_DIGEST) and len(hexpart) == 64 and all(c in "0123456789abcdef" for c in hexpart)
