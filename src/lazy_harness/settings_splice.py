"""The bytes install and uninstall write: the file as it was, with only its top-level "hooks" value
changed (docs/adr/0058-install-changes-only-the-hooks-value.md), and inside it only what changes
(``settings_splice_value``: the person's own entries keep their bytes).

The value of the top-level "hooks" key is replaced in the original text, the key is removed with its
comma when none of it is left, or it is added after the last member, before the closing "}". The new
value is written in the file's own indentation and line endings (CRLF stays CRLF, a file on one line
stays on one line); every other byte (compact objects, key order, spacing, what follows the "}")
stays, so a file kept in git shows a diff in "hooks" only. Where each member starts and ends comes
from json's own decoder (``raw_decode`` of each key and value), so a "hooks" key
inside another object or inside a string is never taken for the top-level one. A new or blank file
is written whole (``render``).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from lazy_harness.settings_splice_value import Rules, edited, parse

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

KEY = "hooks"
_SPACE = re.compile(r"[ \t\n\r]*")  # JSON's whitespace
_BLANK = re.compile(r"[ \t]*")  # a line's indentation
_DECODER = json.JSONDecoder()


@dataclass(frozen=True)
class _Member:
    """One member of the top-level object, by its offsets in the text."""

    key: str
    start: int  # its key's opening quote
    colon: str  # what stands between the key and the value
    value: int  # where its value starts
    end: int  # where its value ends


@dataclass(frozen=True)
class _Object:
    """The top-level object: its members in order, the offsets of its "{" and of its "}"."""

    members: list[_Member]
    opening: int
    closing: int


@dataclass(frozen=True)
class _Style:
    """How the file writes JSON."""

    compact: bool  # the object on one line: the value goes in on one line too
    indent: str  # one level of indentation (two spaces when no line is indented)
    newline: str
    comma: str  # between two members of a compact object
    colon: str  # between a key and its value in a compact object


def render(data: dict, raw: bytes | None) -> bytes:
    """JSON in the style of ``raw`` (its indentation and trailing newline); indent 2 for a new file."""
    indent: int | str = 2
    newline = "\n"
    if raw:
        m = re.search(rb"\n([ \t]+)\S", raw)
        if m:
            ws = m.group(1)
            indent = "\t" if ws.startswith(b"\t") else len(ws)
        newline = "\n" if raw.endswith(b"\n") else ""
    # why backslashreplace: a lone surrogate read from a "\ud800" escape goes back out as that escape
    # (UTF-8 cannot hold it, and nothing else is unencodable)
    return (json.dumps(data, indent=indent, ensure_ascii=False, allow_nan=False) + newline).encode(
        "utf-8", "backslashreplace")


def spliced(raw: bytes | None, data: dict, ours: Callable[[object], bool] = lambda _: False) -> bytes:
    """The bytes that make the file read as ``data``: ``raw`` with only its top-level "hooks" value
    changed, and in it only what changes (``ours``: a hook entry of ours, ``Rules``); for a new or
    blank file, ``data`` written whole (``render``)."""
    if raw is None or not raw.strip():
        return render(data, raw)
    text = _splice(raw.decode("utf-8"), data, ours)
    # why: the text must read as exactly what a whole rewrite holds; should ``data`` differ from the
    # file outside "hooks" (or a splice inside it go wrong), it is written whole rather than wrong
    try:
        if json.loads(text) != data:
            return render(data, raw)
    except ValueError:
        return render(data, raw)
    return text.encode("utf-8", "backslashreplace")  # why backslashreplace: as in render


def _splice(text: str, data: dict, ours: Callable[[object], bool]) -> str:
    """``text`` (a JSON object ``read`` accepted: no key twice) with its top-level "hooks" value set to
    ``data``'s, removed or added."""
    top = _scan(text)
    style = _style(text, top)
    at = next((i for i, m in enumerate(top.members) if m.key == KEY), None)
    if at is not None and KEY in data:
        member = top.members[at]
        old = json.loads(text[member.value:member.end])
        rules = Rules(lambda v, prefix: _value(v, style, prefix), ours)
        value = edited(text, parse(text, member.value), old, data[KEY], rules, style.compact)
        return text[:member.value] + value + text[member.end:]
    if at is not None:
        return _without(text, top, at)
    if KEY in data:
        return _with(text, top, style, data[KEY])
    return text


def _skip(text: str, pos: int) -> int:
    """The offset of the first character at or after ``pos`` that is not JSON whitespace."""
    found = _SPACE.match(text, pos)
    return found.end() if found else pos


def _scan(text: str) -> _Object:
    """The members of the top-level object of ``text``, with json's decoder reading each key and value."""
    opening = _skip(text, 0)
    pos = _skip(text, opening + 1)
    members = []
    while text[pos] != "}":
        key, after = _DECODER.raw_decode(text, pos)  # the key: a JSON string
        value = _skip(text, _skip(text, after) + 1)  # past the ":"
        _, end = _DECODER.raw_decode(text, value)
        members.append(_Member(key, pos, text[after:value], value, end))
        pos = _skip(text, end)
        if text[pos] == ",":
            pos = _skip(text, pos + 1)
    return _Object(members, opening, pos)


def _style(text: str, top: _Object) -> _Style:
    """The file's newline (its first line break inside the object, else its first at all), its
    indentation (found as ``render`` finds it) and, for an object with members on one line, its
    separators as its first member writes them."""
    inside = text.find("\n", top.opening, top.closing)
    at = inside if inside >= 0 else text.find("\n")
    newline = "\r\n" if at > 0 and text[at - 1] == "\r" else "\n"
    found = re.search(r"\n([ \t]+)\S", text)
    ws = found.group(1) if found else "  "
    indent = "\t" if ws.startswith("\t") else " " * len(ws)
    if not top.members or "\n" in text[top.opening:top.closing]:
        return _Style(False, indent, newline, ",", ": ")
    first = top.members[0]
    comma = text[first.end:top.members[1].start] if len(top.members) > 1 else ", "
    return _Style(True, indent, newline, comma, first.colon)


def _indent_at(text: str, pos: int) -> str:
    """The indentation of the line that holds ``pos``."""
    start = text.rfind("\n", 0, pos) + 1
    found = _BLANK.match(text, start)
    return found.group() if found else ""


def _value(value: object, style: _Style, prefix: str | None) -> str:
    """``value`` as JSON in the file's style, its lines after the first led by ``prefix`` (the
    indentation of the line its key is on); on one line in a compact file or for a ``prefix`` None
    (it goes into an object or array written on one line)."""
    if style.compact or prefix is None:
        separators = (style.comma, style.colon) if style.compact else (", ", ": ")
        return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=separators)
    text = json.dumps(value, indent=style.indent, ensure_ascii=False, allow_nan=False)
    return text.replace("\n", style.newline + prefix)


def _without(text: str, top: _Object, at: int) -> str:
    """``text`` without the member at ``at``, with the comma and whitespace before it (after it, when
    it is the first)."""
    members = top.members
    if len(members) == 1:
        return text[:top.opening + 1] + text[top.closing:]
    if at:
        return text[:members[at - 1].end] + text[members[at].end:]
    return text[:members[0].start] + text[members[1].start:]


def _with(text: str, top: _Object, style: _Style, value: object) -> str:
    """``text`` with a "hooks" member holding ``value`` after its last member, on a line of its own
    indented as that member's (on the same line in a compact object)."""
    key = json.dumps(KEY)
    if not top.members:
        member = style.indent + key + ": " + _value(value, style, style.indent)
        return text[:top.opening + 1] + style.newline + member + style.newline + text[top.closing:]
    last = top.members[-1].end
    if style.compact:
        return text[:last] + style.comma + key + style.colon + _value(value, style, "") + text[last:]
    prefix = _indent_at(text, top.members[-1].start)
    member = key + ": " + _value(value, style, prefix)
    return text[:last] + "," + style.newline + prefix + member + text[last:]
