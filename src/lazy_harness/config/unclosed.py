"""Where a string left open in a TOML text begins: tomllib names no line for an open single-quoted or
triple-quoted string ("Expected "'" (at end of document)") and, for a double-quoted one, only the
line break it met ("Illegal character '\\n'"), which does not say that a quote is missing."""

from __future__ import annotations

_QUOTES = ('"""', "'''", '"', "'")


def open_string(text: str) -> tuple[int, int, str] | None:
    """(line, column, quote) from 1 of the first string in ``text`` that does not close (a one-line
    string at its line's end, a multi-line one at the end of the text); None when every one closes.
    Comments are skipped; a backslash escapes the next character in a double-quoted string."""
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "#":
            end = text.find("\n", i)
            i = n if end < 0 else end + 1
            continue
        quote = next((q for q in _QUOTES if text.startswith(q, i)), None)
        if quote is None:
            i += 1
            continue
        start, i = i, i + len(quote)
        while i < n and not text.startswith(quote, i):
            if text[i] == "\\" and quote[0] == '"':
                i += 1
            elif text[i] == "\n" and len(quote) == 1:
                break
            i += 1
        if i >= n or text[i] == "\n" and len(quote) == 1:
            line_start = text.rfind("\n", 0, start) + 1
            return text.count("\n", 0, start) + 1, start - line_start + 1, quote
        i += len(quote)
        while len(quote) == 3 and i < n and text[i] == quote[0]:  # why: TOML allows up to 2 quotes before the end
            i += 1
    return None
