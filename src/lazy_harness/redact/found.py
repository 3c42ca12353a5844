"""What the redactor would take out of a text, said without it: the kinds of secret it finds and the
redacted words around the first, for the hold check of memory (memory/trust.py, ADR 0056), which
holds an entry that arrived by sync or by hand with a secret in it and says why in ``lh memory held``.
"""

from __future__ import annotations

from lazy_harness.redact.run import redact
from lazy_harness.redact.values import _MARK_PREFIX

AROUND = 40  # characters of the redacted text kept on each side of the first secret's marker


def secrets(text: str) -> tuple[list[str], str] | None:
    """``(kinds, snippet)`` of the secrets :func:`redact` finds in ``text``: each kind once, in the
    order found, and the redacted text around the first on one line (``…the bot token
    [REDACTED:github-token] has the deploy scope``); None when it finds none. A marker the text held
    already (what the worker redacted before writing) is no secret."""
    cleaned, count = redact(text)
    if not count:
        return None
    left: dict[str, int] = {}
    for _, kind in _marks(text):
        left[kind] = left.get(kind, 0) + 1
    kinds: list[str] = []
    first = -1
    for start, kind in _marks(cleaned):
        if left.get(kind):
            left[kind] -= 1
            continue
        first = start if first < 0 else first
        if kind not in kinds:
            kinds.append(kind)
    if first < 0:  # why: a count with no new marker (a rule that rewrote a marker's neighbour): say what is there
        return kinds or ["secret"], _around(cleaned, cleaned.find(_MARK_PREFIX))
    return kinds, _around(cleaned, first)


def _marks(text: str) -> list[tuple[int, str]]:
    """``(position, kind)`` of every ``[REDACTED:<kind>]`` marker in ``text``."""
    out = []
    at = text.find(_MARK_PREFIX)
    while at >= 0:
        end = text.find("]", at)
        if end < 0:
            break
        out.append((at, text[at + len(_MARK_PREFIX):end]))
        at = text.find(_MARK_PREFIX, end)
    return out


def _around(cleaned: str, at: int) -> str:
    """The redacted text around position ``at``, its whitespace folded to single spaces, ``…`` where cut."""
    at = max(at, 0)
    end = cleaned.find("]", at) + 1 or at
    lo, hi = max(0, at - AROUND), min(len(cleaned), end + AROUND)
    if lo:  # whole words at both ends
        lo = cleaned.find(" ", lo, at) + 1 or lo
    cut = cleaned.rfind(" ", end, hi)
    if hi < len(cleaned) and cut > end:
        hi = cut
    return ("…" if lo else "") + " ".join(cleaned[lo:hi].split()) + ("…" if hi < len(cleaned) else "")
