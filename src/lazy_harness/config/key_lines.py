"""Where config.toml writes each table and key, however valid TOML writes it: the line a problem
names (:mod:`lazy_harness.config.validate` loads this module only for a problem) and the form a
section takes before its first header (:mod:`lazy_harness.config.edit`, to write a key there).
"""

from __future__ import annotations

import functools


def key_line(text: str, section: str, key: str | None) -> int | None:
    """The 1-based line where ``[section]`` (or ``key`` inside it) is written; None when not found.

    However valid TOML writes it: a header with a comment or quoted names (``["context"]  # c``), a
    ``[section.key]`` header, a dotted key (``compound_loop.model = 42``), an inline table
    (``context = { max_chars = 1 }``, one line in TOML 1.0). For a section, the first line that
    writes it or a key inside it."""
    target = (section,) if key is None else (section, key)
    for n, kind, path in written_paths(text):
        if path[:len(target)] == target or (kind == "inline" and target[:len(path)] == path):
            return n
    return None


_Written = tuple[int, str, tuple[str, ...]]


def set_again(text: str) -> tuple[int, tuple[str, ...], _Written] | None:
    """The first key written again: (the line that set it first, its full dotted path, the line
    writing it again as :func:`written_paths` gives it), the latter setting the same key again or
    writing a table or a dotted key inside the value it got (``semantic = true`` then
    ``[recall.semantic]``); None when no key is. why: tomllib says only "Cannot overwrite a value",
    at the end of the line after it or "at end of document" when the last line has no line break."""
    set_at: dict[tuple[str, ...], int] = {}
    for written in written_paths(text):
        line, kind, path = written
        for n in range(1, len(path) + 1):  # why each prefix: a table or dotted key inside a value set before
            if path[:n] in set_at:
                return set_at[path[:n]], path[:n], written
        if kind in ("key", "inline"):
            set_at[path] = line
    return None


@functools.lru_cache(maxsize=1)  # why: each problem looks its line up; the text is read once per check
def written_paths(text: str) -> tuple[_Written, ...]:
    """Each header and key line as ``(line, kind, full dotted path)``; kind is "table" ([a.b]),
    "array" ([[a]]), "key" (a.b = ...) or "inline" (a = { ... }). Lines inside a multi-line string
    or array are no headers or keys; keys under an array of tables belong to no [section]."""
    found: list[_Written] = []
    table: tuple[str, ...] | None = ()
    closer, depth = None, 0
    for n, raw in enumerate(text.split("\n"), 1):  # why: TOML ends lines at \n only, as tomllib counts them
        at_top = closer is None and depth == 0
        closer, depth, _ = _scan(raw, closer, depth)
        line = _line_path(raw.strip()) if at_top else None
        if line is None:
            continue
        kind, path = line
        if kind in ("table", "array"):
            table = path if kind == "table" else None
            found.append((n, kind, path))
        elif table is not None:
            found.append((n, kind, table + path))
    return tuple(found)


def _line_path(line: str) -> tuple[str, tuple[str, ...]] | None:
    """What one line opens: ("table"|"array", path) for a header, ("key"|"inline", dotted key) for
    ``key = value``; None for anything else. The real TOML parser reads the names."""
    import tomllib

    if line.startswith("["):
        written = line
    else:
        eq = _equals_at(line)
        if eq < 0:
            return None
        written = line[:eq] + "= 0"
    try:
        data: object = tomllib.loads(written)
    except tomllib.TOMLDecodeError:
        return None
    path: list[str] = []
    while isinstance(data, dict) and len(data) == 1:
        name, data = next(iter(data.items()))
        path.append(name)
    if written is line:
        return ("array" if isinstance(data, list) else "table"), tuple(path)
    return ("inline" if line[eq + 1:].lstrip().startswith("{") else "key"), tuple(path)


def _equals_at(line: str) -> int:
    """The index of the first ``=`` outside quotes and before a comment, or -1."""
    i = 0
    while i < len(line):
        c = line[i]
        if c == "=":
            return i
        if c == "#":
            return -1
        if c in "\"'":
            i = _string_end(line, i + 1, c)
            if i < 0:
                return -1
        else:
            i += 1
    return -1


def deepest_line(text: str) -> tuple[int, int]:
    """(the first line where brackets and braces, counted outside strings and comments, are open more
    than at any line before, its depth there): where the deepest value of ``text`` goes down."""
    closer, depth, best = None, 0, (1, 0)
    for n, raw in enumerate(text.split("\n"), 1):
        closer, depth, deepest = _scan(raw, closer, depth)
        if deepest > best[1]:
            best = (n, deepest)
    return best


def _scan(line: str, closer: str | None, depth: int) -> tuple[str | None, int, int]:
    """Where a line leaves off: the closing quotes of a multi-line string still open, and how many
    brackets and braces are open, counting outside strings and comments; and the most open on it."""
    i, deepest = 0, depth
    while i < len(line):
        if closer is not None:
            i = _string_end(line, i, closer)
            if i < 0:
                return closer, depth, deepest
            closer = None
            continue
        c = line[i]
        if c == "#":
            break
        if line.startswith(('"""', "'''"), i):
            closer, i = line[i:i + 3], i + 3
        elif c in "\"'":
            i = _string_end(line, i + 1, c)
            if i < 0:
                break  # why: a string never closed is a syntax error tomllib already reported
        else:
            depth += (c in "[{") - (c in "]}")
            deepest = max(deepest, depth)
            i += 1
    return closer, depth, deepest


def _string_end(line: str, i: int, quote: str) -> int:
    """The index just past ``quote`` closing a string from ``i`` on, or -1 when it does not close on
    this line. A backslash escapes the next character in double-quoted strings; up to two quotes
    more before a closing triple quote belong to the string."""
    while i < len(line):
        if line.startswith(quote, i):
            end = i + len(quote)
            while len(quote) == 3 and end < len(line) and line[end] == quote[0] and end - i < 5:
                end += 1
            return end
        i += 2 if quote[0] == '"' and line[i] == "\\" else 1
    return -1
