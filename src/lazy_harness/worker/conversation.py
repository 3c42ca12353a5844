"""The conversation view's entries and its character budget.

A transcript reduces to short entries: ``User: ...``, ``Assistant: ...``, ``[tool Bash: git status]``,
``[tool error: ...]`` and ``[summary of the earlier conversation] ...``. Each entry is capped, and
:class:`Budget` keeps the first third and the end of the sequence within a character budget, with
one line saying what was elided from the middle: the opening usually states the goal and the end
holds the outcome and what is still open.
"""

from __future__ import annotations

import re
from collections import deque

TEXT_CAP = 4000  # one user or assistant message
SUMMARY_CAP = 6000  # one compaction summary
TOOL_CALL_CAP = 200
TOOL_ERROR_CAP = 500
_CONTROL = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|[\x00-\x08\x0b-\x1f\x7f]")
_SPACES = re.compile(r"\s+")
_REMINDER = re.compile(r"<system-reminder>.*?</system-reminder>\s*", re.S)
# a run of token characters the cut ended in: what may be the start of a secret whose whole length
# its redaction rule needs (``ghp_`` + 36): dropped rather than shown half. A longer run (a blob,
# minified code, a line of one character) is no token: it stays
_CUT_RUN = re.compile(r"(?<![A-Za-z0-9_\-+/=.])[A-Za-z0-9_\-+/=.]{8,320}$")
OUTPUT_WINDOW_MAX = 65_536  # characters of a text redacted at most to fill its excerpt
REDACT_MARGIN = 512  # characters redacted past a cut at least: a secret the cut crosses is whole there
_TOOL_KEYS = ("command", "file_path", "notebook_path", "pattern", "path", "url", "query", "description",
              "prompt", "skill")


def clean(text: str) -> str:
    """Drop terminal escapes and control characters (newlines and tabs stay)."""
    return _CONTROL.sub("", text).strip()


def excerpt(text: str, limit: int, flat: bool = False, length: int | None = None) -> str:
    """``text`` cleaned and cut to ``limit`` characters, saying about how much was cut (of ``length``
    characters when ``text`` is the redacted start of a longer one).

    Only the first ``limit`` (plus a margin) characters are cleaned, so a megabyte of tool output
    costs no more than a short one. ``flat`` puts it on one line. The cut is not redacted: text that
    reaches the model goes through :func:`redacted_excerpt` (or is redacted whole, uncut).
    """
    whole = len(text) if length is None else length
    head = clean(text[:limit + 256])
    if flat:
        head = _SPACES.sub(" ", head)
    if whole <= limit and len(head) <= limit:
        return head
    cut = head[:limit]
    if limit < len(head) and head[limit] not in " \t\n":
        cut = _CUT_RUN.sub("", cut)  # why: a secret cut short passes every rule that needs its length
    return cut.rstrip() + f" [... {max(whole - limit, 1)} more characters]"


def _redacted_head(text: str, limit: int) -> tuple[str, int, int]:
    """The start of ``text``, cleaned and redacted (the built-in rules), long enough that ``limit``
    characters of it are followed by :data:`REDACT_MARGIN` more; with how many secrets were replaced
    and how many characters of ``text`` it was made of.

    # why redacted before any cut: a secret the cut crosses (a quoted password without its closing
    # quote, a URL's password without its "@") passes the rules that need its end. The window grows
    # because a redaction shrinks the head (a key becomes a marker): the text past the window,
    # unredacted, would fill the excerpt; only redacted text is ever shown.
    """
    from lazy_harness.redact import redact

    window = limit + 2 * REDACT_MARGIN
    while True:
        head, n = redact(clean(text[:window]))
        if window >= len(text) or len(head) > limit + REDACT_MARGIN or window >= OUTPUT_WINDOW_MAX:
            break
        window *= 4
    if window < len(text):  # the window's own end, should it ever be shown
        head = _CUT_RUN.sub("", head)
    return head, n, min(window, len(text))


def redacted_excerpt(text: str, limit: int) -> tuple[str, int]:
    """A message or a summary as :func:`excerpt` cuts it, redacted before the cut when there is one,
    and how many secrets were replaced. An uncut text is left to the prompt's redaction, whole."""
    if len(text) <= limit:
        return excerpt(text, limit), 0
    head, n, _ = _redacted_head(text, limit)
    return excerpt(head, limit, length=len(text)), n


def _cut(value: str, n: int) -> str:
    """``value`` redacted, then cut to ``n`` characters without the token run a cut ends in (an MCP
    tool's ``dsn=postgresql://user:<password>@...`` cut before its ``@`` passed the URL rule)."""
    whole = _redacted_head(value, n)[0]
    cut = whole[:n]
    return _CUT_RUN.sub("", cut) if len(whole) > n and not whole[n].isspace() else cut


def flat_output(text: str, limit: int) -> tuple[str, int]:
    """A tool's output on one line, as :func:`excerpt` with ``flat`` makes it, with its credentials
    redacted first (the built-in rules), and how many: a YAML block value (``password: |`` and the
    secret on the next line) is a secret only while its lines are apart; joined, no rule sees it."""
    head, n, read = _redacted_head(text, limit)
    out = excerpt(head, limit, flat=True)
    if read < len(text) and len(head) <= limit:
        out += f" [... {len(text) - read} more characters]"
    return out, n


class Budget:
    """Keeps the first third and the last part of the entries within ``chars`` characters."""

    def __init__(self, chars: int) -> None:
        self.head_budget = chars // 3
        self.tail_budget = chars - self.head_budget - 120  # why: room for the elision marker line
        self.head: list[str] = []
        self.head_chars = 0
        self.tail: deque[str] = deque()
        self.tail_chars = 0
        self.head_open = True
        self.count = 0
        self.elided = 0
        self.elided_chars = 0

    def add(self, entry: str) -> None:
        self.count += 1
        size = len(entry) + 1
        if self.head_open and self.head_chars + size <= self.head_budget:
            self.head.append(entry)
            self.head_chars += size
            return
        self.head_open = False
        self.tail.append(entry)
        self.tail_chars += size
        while self.tail_chars > self.tail_budget and self.tail:
            gone = self.tail.popleft()
            self.tail_chars -= len(gone) + 1
            self.elided += 1
            self.elided_chars += len(gone) + 1

    def text(self) -> str:
        parts = list(self.head)
        if self.elided:
            parts.append(f"[... {self.elided} entries ({self.elided_chars} characters) of the middle "
                         f"of the conversation elided ...]")
        parts.extend(self.tail)
        return "\n".join(parts)


def summary_body(text: str) -> str:
    """A compaction summary without the CLI's wrapping sentences (they address the model, and one of
    them tells it to carry on without asking questions: not something to forward)."""
    for lead in ("The summary below covers the earlier portion of the conversation.",
                 "The conversation is summarized below:"):
        at = text.find(lead, 0, 600)
        if at >= 0:
            text = text[at + len(lead):]
            break
    for tail in ("\nIf you need specific details from before compaction",
                 "\nContinue the conversation from where it left off"):
        at = text.find(tail)
        if at >= 0:
            text = text[:at]
    return _REMINDER.sub("", text[:SUMMARY_CAP * 2])


def text_of(content: object) -> str:
    """The text of a string content or of a list of text blocks (tool results excluded)."""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    parts = [b["text"] for b in content
             if isinstance(b, dict) and b.get("type") == "text" and isinstance(b.get("text"), str)]
    return "\n".join(parts)


def tool_call(block: dict) -> str:
    """``[tool Bash: git status]``: the tool name and its most telling input, on one short line."""
    name = block.get("name")
    name = name if isinstance(name, str) else "?"
    args = block.get("input")
    summary = ""
    if isinstance(args, dict):
        for key in _TOOL_KEYS:
            if isinstance(args.get(key), str) and args[key].strip():
                # why redacted before the cut: a token the cut shortened passed the rule that needs its length
                summary = _redacted_head(args[key], TOOL_CALL_CAP)[0]
                break
        else:
            pairs = []
            for key, value in list(args.items())[:6]:
                shown = value if isinstance(value, (str, int, float, bool)) else type(value).__name__
                pairs.append(f"{key}={_cut(str(shown), 60)}")
            summary = " ".join(pairs)
    summary = excerpt(summary, TOOL_CALL_CAP, flat=True)
    name = excerpt(name, 60, flat=True)
    return f"[tool {name}: {summary}]" if summary else f"[tool {name}]"
