"""A learning file's frontmatter read without a YAML parser (hot path: SessionStart and the prompt
hook read learnings): the one-line scalars the worker writes, and the top-level keys of a leading
``---`` block as ``yaml.safe_dump`` writes them (scalars, quoted over several lines or not, and lists
of scalars). String methods only, no regex; nothing imported at import time. A quoted scalar is
decoded as YAML decodes it (a double-quoted one's escapes are not JSON's; its line breaks folded as
PyYAML folds them), by one decoder for every reader.
"""

NOT_CLOSED = "frontmatter not closed"
MAX_OPEN_SCAN = 65536  # characters a command reads of a learning to tell whether its frontmatter closes


def read_frontmatter_values(path: str, keys: tuple[str, ...], limit: int = 4096) -> dict[str, str]:
    """Top-level one-line scalars ``keys`` of a learning file's frontmatter, without a YAML parser (the
    worker writes each as a YAML quoted scalar or plain text on one line); missing keys are absent.
    A scope or status, and a key given on several lines, read as :func:`settle` says."""
    out: dict[str, str] = {}
    twice: dict[str, list] = {}
    from lazy_harness.regular_file import open_regular  # why: only ``os``; a FIFO there held open() for good

    try:
        with open(open_regular(path)[0], encoding="utf-8-sig", errors="replace") as fh:
            head = fh.read(limit)
    except OSError:
        return out
    if not head.startswith("---"):
        return out
    closed = _closing(head) >= 0
    for line in head.split("\n")[1:]:
        if line.startswith("---") or (not closed and _ends_open_block(line)):
            break
        key, colon, value = line.partition(":")
        if not colon or key not in keys:
            continue
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            # why not JSON: YAML's escapes (``\e``, ``\a``, ``\x7F``, ``\N``) are not JSON's; a
            # title read with ``\e`` left as text gave an id no other reader gave; and ``\x85``,
            # U+2028, U+2029 inside either quote are line breaks YAML folds
            decoded, closed = _quoted(value)
            value = decoded if closed or value[0] == "'" else value[1:-1]
        if key in out:
            twice.setdefault(key, [out[key]]).append(value)
        out[key] = value
    _read_as_one(out, twice)
    if twice:  # why: a ``deprecated_reason`` given twice differently settles to none: absent here
        return {key: value for key, value in out.items() if value is not None}
    return out


def _read_as_one(out: dict, twice: dict[str, list]) -> dict:
    """``out`` (each key's last line), changed in place: a scope and a status as :func:`canonical`
    reads them, each key of ``twice`` (its lines' values, in order) as :func:`settle` reads it."""
    for key in ("scope", "status"):
        if key in out and key not in twice:
            out[key] = canonical(key, out[key])
    for key, values in twice.items():
        out[key] = settle(key, values)
    return out


# --- one reading of a scope, a status and a key given twice, for every reader ------------------------

GENERAL = "general"
PROJECT = "project"
NULLS = ("", "~", "null", "Null", "NULL")


def _null(value: object) -> bool:
    return value is None or (isinstance(value, str) and value.strip() in NULLS)


def canonical(key: str, value: object) -> object:
    """A ``scope`` or ``status`` as the writer writes it; any other key's value as it is. A status in
    lower case (``Active`` is ``active``); a scope other than ``general`` is ``project`` (``projcet``,
    ``universal``, a list): the worker stores those as ``project`` (worker/answer.py ``_scope``), the
    side that never shows a learning where it may not belong. No scope (empty, null) stays none: a
    learning written by hand without one is any scope but ``project`` (ADR 0032)."""
    if key not in ("scope", "status") or _null(value):
        return value
    text = value.strip().lower() if isinstance(value, str) else None
    if key == "status":
        return value if text is None else text
    return GENERAL if text == GENERAL else PROJECT


def settle(key: str, values: list) -> object:
    """The value of a key given on ``values``' lines (in order), the same in every reader. One value
    or equal ones: that one. Different ones (a hand edit, a sync), the way that shows the learning
    least: ``scope`` is ``project``; ``status`` the last that hides it (not ``active``);
    ``deprecated_by`` the last given; ``deprecated_reason`` none (an approval claimed on one line of
    two is none); any other key the last line, as a YAML parser reads it."""
    values = [canonical(key, v) for v in values]
    last = values[-1]
    if all(v == last for v in values):
        return last
    if key == "scope":
        return PROJECT
    if key == "deprecated_reason":
        return None
    if key in ("status", "deprecated_by"):  # why "active": it is the status that hides nothing
        given = [v for v in values if not _null(v) and (key != "status" or v != "active")]
        return given[-1] if given else last
    return last


# --- the leading block as yaml.safe_dump writes it ------------------------------------------------

_ESCAPES = {"0": "\0", "a": "\a", "b": "\b", "t": "\t", "\t": "\t", "n": "\n", "v": "\v", "f": "\f", "r": "\r",
            "e": "\x1b", " ": " ", '"': '"', "/": "/", "\\": "\\", "N": "\x85", "_": "\xa0", "L": "\u2028",
            "P": "\u2029"}
_HEX = {"x": 2, "u": 4, "U": 8}


def _skip_blanks(raw: str, i: int) -> int:
    while i < len(raw) and raw[i] in " \t":
        i += 1
    return i


_BREAKS = "\r\n\x85\u2028\u2029"  # what YAML 1.1 reads as a line break ("\r\n" is one)


def _quoted(raw: str) -> tuple[str, bool]:
    """Decode a single- or double-quoted YAML scalar spread over lines; (value, closed). Blanks and
    line breaks are folded as PyYAML's scanner folds them (``scan_flow_scalar_spaces``)."""
    q, out, i, n = raw[0], [], 1, len(raw)
    if not any(c in raw for c in _BREAKS):  # the common case, without the character loop
        if q == "'":
            end = raw.find("'", 1)
            while end >= 0 and raw[end + 1:end + 2] == "'":
                end = raw.find("'", end + 2)
            if end >= 0:
                return raw[1:end].replace("''", "'"), True
        elif "\\" not in raw and raw.find('"', 1) >= 0:
            return raw[1:raw.find('"', 1)], True
    while i < n:
        c = raw[i]
        if c == q:
            if q == "'" and raw[i + 1:i + 2] == "'":
                out.append("'")
                i += 2
                continue
            return "".join(out), True
        if c == "\\" and q == '"' and i + 1 < n:
            i = _escape(raw, i + 1, out)
        elif c in " \t" or c in _BREAKS:
            i = _folded(raw, i, out)
        else:
            out.append(c)
            i += 1
    return "".join(out), False


def _escape(raw: str, i: int, out: list[str]) -> int:
    """Append what the escape at ``raw[i]`` (after its backslash) stands for; the index after it.
    An escaped line break joins the lines: the blanks after it go, each empty line after it is a newline."""
    nxt = raw[i]
    if nxt in _BREAKS:
        i, breaks = _breaks(raw, _after_break(raw, i))
        out += breaks
    elif nxt in _HEX:
        code = raw[i + 1:i + 1 + _HEX[nxt]]
        try:
            out.append(chr(int(code, 16)))
        except ValueError:
            out.append(code)
        i += 1 + _HEX[nxt]
    else:
        out.append(_ESCAPES.get(nxt, nxt))
        i += 1
    return i


def _folded(raw: str, i: int, out: list[str]) -> int:
    """Append the blanks at ``raw[i]``, or the line break after them folded: the blanks before the
    break go (only these: a blank written as an escape stays), a ``\n`` is a space unless empty lines
    follow (each a newline), U+2028 and U+2029 stay; the index after it."""
    j = _skip_blanks(raw, i)
    if j >= len(raw) or raw[j] not in _BREAKS:
        out.append(raw[i:j])
        return j
    k, breaks = _breaks(raw, _after_break(raw, j))
    if raw[j] in "\u2028\u2029":
        out.append(raw[j])
    elif not breaks:
        out.append(" ")
    out += breaks
    return k


def _after_break(raw: str, i: int) -> int:
    """The index after the line break at ``raw[i]`` (``\r\n`` is one)."""
    return i + 2 if raw[i:i + 2] == "\r\n" else i + 1


def _breaks(raw: str, i: int) -> tuple[int, list[str]]:
    """The empty lines from ``raw[i]``, their blanks skipped: (index of the next text, one newline for
    each, U+2028 and U+2029 as they are)."""
    breaks: list[str] = []
    while True:
        j = _skip_blanks(raw, i)
        if j >= len(raw) or raw[j] not in _BREAKS:
            return j, breaks
        breaks.append(raw[j] if raw[j] in "\u2028\u2029" else "\n")
        i = _after_break(raw, j)


MAX_QUOTED_LINES = 64


def _value(lines: list[str], i: int, first: str, left_open: list[int] | None = None) -> tuple[object, int]:
    """The scalar starting with ``first`` (rest of line ``i - 1``); returns (value, next line index).
    A quote that does not close puts the index of its line in ``left_open``."""
    if first[:1] in ("'", '"'):
        raw, start, quote = first, i, first[0]
        value, closed = _quoted(raw)
        # why: a quote left open must not cost time in the square of the file's size (one hand-edited
        # learning would stall every hook that reads it): a line without the quote cannot close it,
        # and a quoted value runs over at most MAX_QUOTED_LINES lines
        while not closed and i < len(lines) and lines[i].rstrip() not in ("---", "...") \
                and i - start < MAX_QUOTED_LINES:
            raw += "\n" + lines[i]
            i += 1
            if quote in lines[i - 1]:
                value, closed = _quoted(raw)
        if not closed:
            value, _ = _quoted(raw)
            if left_open is not None:
                left_open.append(start - 1)
        return value, i
    if first in ("", "~", "null", "Null", "NULL"):
        return None, i
    if first[:1] in ("|", ">"):  # a block scalar: the indented lines below
        block = []
        while i < len(lines) and (lines[i][:1] in (" ", "\t") or not lines[i].strip()):
            block.append(lines[i].strip())
            i += 1
        return ("\n" if first[0] == "|" else " ").join(block).strip(), i
    if first.startswith("[") and first.endswith("]"):
        inner = first[1:-1].strip()
        return ([_value([], 0, part.strip())[0] for part in inner.split(",")] if inner else []), i
    return first, i


def _first(rest: str) -> str:
    """A value's text on its key's line: stripped, but a quoted one only on the left (an escaped blank
    before its line break is part of it: ``"\\t`` then a folded line)."""
    rest = rest.lstrip()
    return rest if rest[:1] in ("'", '"') else rest.rstrip()


def _closing(text: str) -> int:
    """Index of the newline before the ``---`` line that closes the frontmatter; -1 if none."""
    at = text.find("\n---", 3)
    while at >= 0 and text[at + 4:at + 5] not in ("", "\n", "\r", " ", "\t"):
        at = text.find("\n---", at + 4)
    return at


def _ends_open_block(line: str) -> bool:
    """Whether ``line`` ends a block whose closing ``---`` is missing: a blank line or a heading."""
    return not line.strip() or line[:1] == "#"


def _open_end(text: str) -> int:
    """Index of the newline before the line that ends a block whose closing ``---`` is missing
    (:func:`_ends_open_block`); the text's length when no line does."""
    at = text.find("\n")
    while at >= 0:
        nxt = text.find("\n", at + 1)
        if _ends_open_block(text[at + 1:nxt if nxt >= 0 else len(text)]):
            return at
        at = nxt
    return len(text)


def as_lf(text: str) -> str:
    """``text`` with its line ends read as LF when its first line ends in a bare CR (a learning saved by
    a classic Mac OS editor), as a file opened in text mode reads them (``\r\n`` and ``\r`` both
    ``\n``); any other text as it is. why: the readers that decode bytes themselves (SessionStart's
    ``read_head``, the damage check, sync's arrivals) split lines at ``\n`` only, and took such a file's
    frontmatter for one unclosed line: untitled, and shown whatever its status and scope. why only
    then: an LF file's first line break is found at once (nothing else is looked at), and a CRLF file
    already reads right (every reader strips the ``\r``), its body kept byte for byte."""
    nl = text.find("\n")
    cr = text.find("\r", 0, nl if nl >= 0 else len(text))
    if cr < 0 or text[cr + 1:cr + 2] == "\n":
        return text
    return text.replace("\r\n", "\n").replace("\r", "\n")


def opens(text: str) -> bool:
    """Whether ``text`` starts with a ``---`` line (a byte order mark before it skipped)."""
    text = text.removeprefix("\ufeff")
    return text.startswith("---") and text[3:4] in ("\n", "\r", " ", "\t")


def not_closed(text: str) -> bool:
    """Whether ``text`` opens a frontmatter that no ``---`` line closes (``NOT_CLOSED``): a hand edit
    deleted the line; readers take its keys up to the first blank line or heading, and writers refuse it."""
    return opens(text) and _closing(as_lf(text.removeprefix("\ufeff"))) < 0


def file_not_closed(path: str) -> bool:
    """:func:`not_closed` of a learning file's first ``MAX_OPEN_SCAN`` characters (False unreadable)."""
    from lazy_harness.regular_file import open_regular  # why: only ``os``; a FIFO there held open() for good

    try:
        with open(open_regular(path)[0], encoding="utf-8", errors="replace") as fh:
            return not_closed(fh.read(MAX_OPEN_SCAN))
    except OSError:
        return False


def _pairs(text: str, damage: list[tuple[int, str]] | None = None) -> tuple[list[tuple[str, object]], str] | None:
    """The top-level ``(key, value)`` lines of a leading ``---`` block, in order (a key given on two
    lines comes twice), and the text after it; None when there is none (see :func:`parse_frontmatter`).
    ``damage`` receives ``(line number in the file, key)`` of each quote left open (:func:`open_quote`)."""
    if text[:1] == "\ufeff":
        text = text[1:]
    if not opens(text):
        return None
    text = as_lf(text)
    end = _closing(text)
    closed = end >= 0
    if not closed:
        end = _open_end(text)
    lines = text[text.find("\n") + 1:end].split("\n") if text.find("\n") >= 0 else []
    out: list[tuple[str, object]] = []
    left_open: list[int] | None = [] if damage is not None else None
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        key, colon, rest = line.partition(":")
        if not colon or not key or key[0] in " \t-#" or " " in key:
            continue
        rest = _first(rest)
        if rest:
            value, i = _value(lines, i, rest, left_open)
            out.append((key, value))
        else:
            items = []
            while i < len(lines):
                entry = lines[i].lstrip()
                if not (entry.startswith("- ") or entry.rstrip() == "-"):
                    break
                item, i = _value(lines, i + 1, _first(entry[2:]), left_open)
                items.append(item)
            out.append((key, items if items else None))
        if left_open and damage is not None:  # why + 2: the block's first line is the file's second
            damage.append((left_open.pop() + 2, key))
    if not closed:
        return out, text[end + 1:]
    after = text.find("\n", end + 1)
    return out, (text[after + 1:] if after >= 0 else "")


def parse_frontmatter(text: str, damage: list[tuple[int, str]] | None = None) -> tuple[dict, str] | None:
    """Top-level keys of a leading ``---`` block and the text after it; None when there is none.
    Scalars and lists of scalars only: that is what the store writes. A byte order mark before the
    ``---`` is skipped. A scope or status, and a key given on several lines, read as :func:`settle`
    says. why a block that does not close is read up to its first blank line or heading:
    read as a file without frontmatter, it reached sessions under another id, its status and scope
    ignored, while the commands (``read_frontmatter_values``) took its keys: every reader now agrees.
    ``damage``: see :func:`open_quote`."""
    got = _pairs(text, damage)
    if got is None:
        return None
    pairs, rest = got
    out: dict = {}
    twice: dict[str, list] = {}
    for key, value in pairs:
        if key in out:
            twice.setdefault(key, [out[key]]).append(value)
        out[key] = value
    return _read_as_one(out, twice), rest


QUOTE_LEFT_OPEN = "its quote does not close, so the keys after it are read as its text"
DAMAGED = " damage"  # a head's key (recall/readback): never a frontmatter key, which holds no space


def open_quote(text: str) -> str | None:
    """``line 3: title: its quote does not close ...`` when a value of the frontmatter opens a quote
    that does not close before the block ends (a hand edit that lost one): the keys after it (its
    origin, scope, status) are swallowed, so no reader can tell whose it is or whether it is in use.
    None when every quote closes."""
    damage: list[tuple[int, str]] = []
    _pairs(text, damage)
    return quote_left_open(damage)


def quote_left_open(damage: list[tuple[int, str]]) -> str | None:
    """What :func:`open_quote` says of the ``damage`` a parse gathered (its first quote left open)."""
    return f"line {damage[0][0]}: {damage[0][1]}: {QUOTE_LEFT_OPEN}" if damage else None


def repeated_keys(text: str) -> list[str]:
    """The top-level keys a learning's frontmatter gives on more than one line, in the order they
    first appear (for ``lh memory check``); none without frontmatter."""
    got = _pairs(text)
    seen: dict[str, int] = {}
    for key, _ in got[0] if got is not None else ():
        seen[key] = seen.get(key, 0) + 1
    return [key for key, n in seen.items() if n > 1]


def is_active(meta: dict) -> bool:
    """Whether a learning's frontmatter (or a head read from it) says it is in use: no other status
    (deprecated, forgotten, held) and not replaced by another (``deprecated_by``)."""
    return str(meta.get("status") or "active").strip().lower() == "active" and not meta.get("deprecated_by")
