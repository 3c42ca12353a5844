"""Secrets written in base64, which no other rule sees through: the values of a Kubernetes Secret's
``data:`` and ``stringData:`` (a manifest, ``kubectl get secret -o yaml`` or ``-o json``, the
last-applied-configuration annotation that repeats them as JSON), and a literal a shell line feeds to
``base64 -d`` (``echo '...' | base64 -d > .env``, ``base64 --decode <<< ...``). Run by
``lazy_harness.redact`` before its other rules, given ``redact`` itself to judge a decoded value (a
parameter: this module never imports ``redact.run``).

- A Secret's values go whatever they hold (``k8s-secret``): the map whose ``data:`` or ``stringData:``
  it is says ``kind: Secret``, before or after it (kubectl prints the kind after the data), at the same
  indent in YAML or the same depth in JSON. A YAML block value (``config.yaml: |``) goes whole.
- Another kind's ``data:`` (a ConfigMap), or one with no kind in sight (a cut output, ``-o
  jsonpath='{.data}'``): a value goes (``base64-secret``) only when it is base64 of text in which,
  after its key's name (``DATABASE_URL=<decoded>``), the redactor finds a secret.
- On a shell line: the literal goes (``base64-secret``) when it decodes to text in which the redactor
  finds a secret, or to one word of 8 or more characters with a letter and a digit (a password).
  ``hello world``, a JWT's header (``{"alg":...}``), a URL or a path stay.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable, Iterator

from lazy_harness.redact.names import _LOCATION
from lazy_harness.redact.regex_parts import _lead
from lazy_harness.redact.values import _MARK_PREFIX, _PLACEHOLDER, MARK

Redactor = Callable[[str], tuple[str, int]]
_REACH = 20_000  # characters looked at around a data map for its kind, and lines of a block at most
# "data:" or "stringData:" ending its line (the literal first: the engine skips to it)
_YAML_KEY = re.compile(r"ata:(?<=data:|Data:)[ \t]*\r?$", re.M)
_KEY_LINE = re.compile(r"(?P<indent>[ \t]*(?:-[ \t]+)?)(?:data|stringData)")
_INDENT = re.compile(r"[ \t]*(?:-[ \t]+)*")
_CHILD = re.compile(r"(?P<name>[^\s:#'\"][^:\n]{0,252}?|\"[^\"\n]{1,253}\"|'[^'\n]{1,253}'):"
                    r"(?:[ \t]+(?P<value>[^\n]*?))?[ \t]*\r?$")
_KIND = re.compile(r"kind:[ \t]*([\"']?)(?P<kind>[A-Za-z]+)\1[ \t]*\r?$")
_SCALAR = re.compile(r"[|>][-+]?\d?")
# "data": {...} or "stringData": {...}, plain or in a JSON string (\"data\": {...})
_JSON_KEY = re.compile(r"ata(?:(?<=\"data)|(?<=\"stringData))\\{0,7}\"[ \t]*:[ \t]*\{(?P<body>[^{}]{0,50000})\}")
_JSON_ENTRY = re.compile(r"(?P<q>\\{0,7})\"(?P<name>[^\"\\\n]{1,253})(?P=q)\"[ \t]*:[ \t]*(?P=q)\""
                         r"(?P<value>[^\"\\\n]{1,50000})(?P=q)\"")
_BRACE_OR_KIND = re.compile(r"[{}]|kind(?<=\"kind)\\{0,7}\"[ \t]*:[ \t]*\\{0,7}\"(?P<kind>[A-Za-z]+)")
_B64 = re.compile(r"[A-Za-z0-9+/]+={0,2}")
# a literal fed to base64 -d: piped from echo or printf, or as a here-string
_LITERAL = r"(?P<value>[A-Za-z0-9+/]{8,20000}={0,2})"
_OPTIONS = r"(?:[ \t]+-{1,2}[A-Za-z][A-Za-z0-9-]*(?:=\S+)?)*?"
_DECODE = r"[ \t]+(?:-d|--decode|-D)(?![A-Za-z0-9-])"
_DECODER = r"(?:base64|openssl[ \t]+(?:base64|enc[ \t]+-(?:base64|a)))" + _OPTIONS + _DECODE
_PIPED = r"(?(q)(?P=q))[ \t]*\|[ \t]*" + _DECODER
_SHELL = (
    re.compile(_lead("echo", r"(?:[ \t]+-[neE]{1,3})*[ \t]+(?P<q>\\{0,7}[\"'])?") + _LITERAL + _PIPED),
    re.compile(_lead("printf", r"(?:[ \t]+(?:'%s[^'\n]*'|\"%s[^\"\n]*\"|%s))?[ \t]+(?P<q>\\{0,7}[\"'])?")
               + _LITERAL + _PIPED),
    re.compile(_lead("base64", _OPTIONS + _DECODE + _OPTIONS + r"[ \t]*<<<[ \t]*(?P<q>\\{0,7}[\"'])?") + _LITERAL
               + r"(?(q)(?P=q))(?![A-Za-z0-9+/=])"),
)


def secrets(text: str, judge: Redactor) -> tuple[str, int]:
    """``text`` with a Secret's values and base64 literals of secrets replaced, and how many."""
    count = 0
    for rule in (_yaml, _json, _shell):
        text, n = rule(text, judge)
        count += n
    return text, count


def _splice(text: str, edits: list[tuple[int, int, str]]) -> tuple[str, int]:
    """``text`` with each (start, end, marker) replaced, in order (one overlapping another is skipped), and
    how many."""
    if not edits:
        return text, 0
    out: list[str] = []
    last = 0
    for start, end, mark in edits:
        if start >= last:
            out += (text[last:start], mark)
            last = end
    out.append(text[last:])
    return "".join(out), len(out) // 2


def decoded(value: str) -> str | None:
    """The text ``value`` is the base64 of (printable; line breaks and tabs allowed), or None."""
    if len(value) < 8 or len(value) % 4 or not _B64.fullmatch(value):
        return None
    try:
        plain = base64.b64decode(value, validate=True).decode("utf-8")
    except (binascii.Error, ValueError):  # why: UnicodeDecodeError is a ValueError
        return None
    return plain if plain.strip() and all(c.isprintable() or c in "\r\n\t" for c in plain) else None


def _judged(name: str, value: str, secret: bool, judge: Redactor) -> str | None:
    """The marker for a data map's value: any of a Secret's, else base64 of a secret under its name."""
    if not value or value.startswith(_MARK_PREFIX) or _PLACEHOLDER.fullmatch(value):
        return None
    if secret:
        return MARK.format("k8s-secret")
    plain = decoded(value)
    return MARK.format("base64-secret") if plain is not None and judge(f"{name}={plain}")[1] else None


# --- YAML ---------------------------------------------------------------------------------------------

def _lines(text: str, pos: int) -> Iterator[tuple[int, int]]:
    """(start, end) of each line from the one after ``pos``, for at most _REACH characters."""
    start = text.find("\n", pos) + 1
    while 0 < start < min(len(text), pos + _REACH):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        yield start, end
        start = end + 1


def _lines_back(text: str, pos: int) -> Iterator[tuple[int, int]]:
    """(start, end) of each line before the one starting at ``pos``, nearest first."""
    end = pos - 1
    while end >= 0 and pos - end < _REACH:
        start = text.rfind("\n", 0, end) + 1
        yield start, end
        end = start - 1


def _indent(line: str) -> int:
    """The column of a YAML line's key: a list item's "- " counts as indent."""
    m = _INDENT.match(line)
    return m.end() if m else 0


def _sibling(line: str, col: int) -> tuple[bool, bool, str | None]:
    """For a line near a key at column ``col``: (the map goes on, the line starts a list item, the kind it says)."""
    ind = _indent(line)
    rest = line[ind:].strip()
    if not rest or rest.startswith("#"):
        return True, False, None
    if line.startswith("---") or ind < col:
        return False, False, None
    kind = _KIND.match(line, ind) if ind == col else None
    return True, "-" in line[:ind], kind.group("kind") if kind else None


def _yaml_kind(text: str, start: int, end: int, col: int, item: bool) -> str | None:
    """The ``kind:`` of the map whose key at column ``col`` starts at ``start`` and whose block ends at ``end``."""
    if not item:  # why: a key that starts a list item ("- data:") has no key before it in its map
        for s, e in _lines_back(text, start):
            goes_on, new_item, kind = _sibling(text[s:e], col)
            if kind or not goes_on:
                return kind
            if new_item:
                break
    for s, e in _lines(text, end):
        goes_on, new_item, kind = _sibling(text[s:e], col)
        if not goes_on or new_item:
            return None
        if kind:
            return kind
    return None


def _block(text: str, pos: int, col: int) -> tuple[list[tuple[str, int, int]], int]:
    """The (name, start, end) of each value of the map indented under the key whose line ends at
    ``pos`` (a block value's lines as one), and where the block ends."""
    found: list[tuple[str, int, int]] = []
    child, scalar, end = -1, False, pos
    for s, e in _lines(text, pos):
        line = text[s:e]
        ind = _indent(line)
        if not line[ind:].strip():
            continue
        if ind <= col:
            break
        end, child = e, (ind if child < 0 else child)
        if ind > child:
            if scalar:  # a line of a block value: the value runs on to it
                found[-1] = (found[-1][0], found[-1][1] if found[-1][2] > found[-1][1] else s + ind, e)
            continue
        m = _CHILD.match(line, ind)
        scalar = bool(m and m.group("value") and _SCALAR.fullmatch(m.group("value")))
        if m and scalar:
            found.append((m.group("name"), e, e))  # filled by the lines below
        elif m and m.group("value"):
            found.append((m.group("name"), s + m.start("value"), s + m.end("value")))
    return found, end


def _yaml(text: str, judge: Redactor) -> tuple[str, int]:
    edits: list[tuple[int, int, str]] = []
    for m in _YAML_KEY.finditer(text):
        start = text.rfind("\n", 0, m.start()) + 1
        head = _KEY_LINE.fullmatch(text, start, m.start() + 3)
        if head is None:
            continue
        col = len(head.group("indent"))
        values, end = _block(text, m.end(), col)
        if not values:
            continue
        secret = _yaml_kind(text, start, end, col, "-" in head.group("indent")) == "Secret"
        for name, s, e in values:
            raw = text[s:e]
            value = raw[1:-1] if len(raw) > 1 and raw[0] in "\"'" and raw[-1] == raw[0] else raw
            mark = _judged(name.strip("\"'"), value, secret, judge) if e > s else None
            if mark:
                edits.append((s + (len(raw) - len(value)) // 2, e - (len(raw) - len(value)) // 2, mark))
    return _splice(text, edits)


# --- JSON ---------------------------------------------------------------------------------------------

def _object_start(text: str, pos: int) -> int:
    """Where the JSON object holding ``pos`` opens (braces counted, within _REACH), or -1."""
    depth, i, low = 0, pos, max(0, pos - _REACH)
    while i > low:
        i = max(text.rfind("{", low, i), text.rfind("}", low, i))
        if i < 0:
            return -1
        if text[i] == "}":
            depth += 1
        elif not depth:
            return i
        else:
            depth -= 1
    return -1


def _json_kind(text: str, pos: int) -> str | None:
    """The ``"kind"`` of the JSON object holding ``pos``, at its own depth."""
    start = _object_start(text, pos)
    if start < 0:
        return None
    depth = 0
    for t in _BRACE_OR_KIND.finditer(text, start + 1, min(len(text), pos + _REACH)):
        if t.group() == "{":
            depth += 1
        elif t.group() == "}":
            if not depth:
                return None
            depth -= 1
        elif not depth:
            return t.group("kind")
    return None


def _json(text: str, judge: Redactor) -> tuple[str, int]:
    edits: list[tuple[int, int, str]] = []
    for m in _JSON_KEY.finditer(text):
        entries = list(_JSON_ENTRY.finditer(text, m.start("body"), m.end("body")))
        if not entries:
            continue
        secret = _json_kind(text, m.start()) == "Secret"
        for entry in entries:
            mark = _judged(entry.group("name"), entry.group("value"), secret, judge)
            if mark:
                edits.append((entry.start("value"), entry.end("value"), mark))
    return _splice(text, edits)


# --- shell --------------------------------------------------------------------------------------------

def _password_like(plain: str) -> bool:
    word = plain.strip()
    return (8 <= len(word) <= 128 and not any(c.isspace() for c in word) and any(c.isalpha() for c in word)
            and any(c.isdigit() for c in word) and not word.startswith(("{", "[")) and not _LOCATION.match(word))


def _shell(text: str, judge: Redactor) -> tuple[str, int]:
    edits: list[tuple[int, int, str]] = []
    for pattern in _SHELL:
        for m in pattern.finditer(text):
            plain = decoded(m.group("value"))
            if plain is not None and (_password_like(plain) or judge(plain)[1]):
                edits.append((m.start("value"), m.end("value"), MARK.format("base64-secret")))
    return _splice(text, sorted(edits))
