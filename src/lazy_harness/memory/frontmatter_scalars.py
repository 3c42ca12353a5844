"""The scalars of a frontmatter block as YAML decodes them, for the scan (memory/frontmatter_scan.py):
a single- or double-quoted scalar over several lines (a double-quoted one's escapes are not JSON's; its
line breaks folded as PyYAML folds them), a plain one's comment, a block scalar's text. String methods
only; nothing imported at import time (hot path).
"""

_ESCAPES = {"0": "\0", "a": "\a", "b": "\b", "t": "\t", "\t": "\t", "n": "\n", "v": "\v", "f": "\f", "r": "\r",
            "e": "\x1b", " ": " ", '"': '"', "/": "/", "\\": "\\", "N": "\x85", "_": "\xa0", "L": "\u2028",
            "P": "\u2029"}
_HEX = {"x": 2, "u": 4, "U": 8}


def _skip_blanks(raw: str, i: int) -> int:
    while i < len(raw) and raw[i] in " \t":
        i += 1
    return i


_BREAKS = "\r\n\x85\u2028\u2029"  # what YAML 1.1 reads as a line break ("\r\n" is one)


def decode_quoted(raw: str) -> tuple[str, bool]:
    """Decode a single- or double-quoted YAML scalar spread over lines; (value, closed). Blanks and
    line breaks are folded as PyYAML's scanner folds them (``scan_flow_scalar_spaces``)."""
    q, out, i, n = raw[0], [], 1, len(raw)
    # the common case, without the character loop (why not any() over _BREAKS: twice as slow, on the hot path)
    if "\n" not in raw and "\r" not in raw and "\x85" not in raw and "\u2028" not in raw and "\u2029" not in raw:
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


def uncommented(value: str) -> str:
    """A value's text on its line (stripped) without its comment, as YAML reads it: a ``#`` after a
    blank and outside quotes starts one (``a#b`` keeps it); a value that is only a comment is empty."""
    if "#" not in value:
        return value
    if value[0] in ("'", '"'):
        end = quote_end(value)
        return value if end < 0 else value[:end + 1]
    return plain_cut(value)


def plain_cut(text: str) -> str:
    """A plain scalar's ``text`` up to its comment (a ``#`` first or after a blank), stripped."""
    if text[:1] == "#":
        return ""
    cut = text.find(" #")
    tab = text.find("\t#")
    if tab >= 0 and (cut < 0 or tab < cut):
        cut = tab
    return text if cut < 0 else text[:cut].rstrip()


def breaks_line(text: str) -> bool:
    """Whether ``text`` (a line, or a value on it) holds a character YAML reads as a line break: a CR
    not at its end, NEL, U+2028, U+2029 (``\r\n`` ends of a CRLF file stripped before)."""
    return "\r" in text or (not text.isascii() and ("\x85" in text or "\u2028" in text or "\u2029" in text))


def closes(first: str) -> bool:
    """Whether the quoted scalar ``first`` opens closes on its line (a flow collection: whether it may)."""
    q = first[0]
    if q not in ("'", '"'):
        return first.rstrip()[-1:] in ("]", "}")
    if first.count(q) == 2 and first.rstrip()[-1] == q and (q == "'" or first.rstrip()[-2] != "\\"):
        return True  # the common case at once
    return quote_end(first) >= 0


def quote_end(raw: str) -> int:
    """Index of the quote that closes the scalar opening ``raw``; -1 if none does."""
    q, i = raw[0], 1
    while True:
        j = raw.find(q, i)
        if j < 0:
            return -1
        if q == "'":
            if raw[j + 1:j + 2] != "'":
                return j
            i = j + 2
            continue
        k = j
        while raw[k - 1] == "\\" and k > 1:
            k -= 1
        if (j - k) % 2 == 0:
            return j
        i = j + 1


def fold_block(body: list[str], indent: int, header: str) -> str:
    """The text of a block scalar (:meth:`Scan.block`) from its ``body`` lines."""
    texts = [line[indent:] for line in body]
    content = [k for k, text in enumerate(texts) if text]
    if not content:
        return ""
    out, last = [], content[-1]
    breaks = content[0]  # empty lines before the first one
    for n, k in enumerate(content):
        out.append("\n" * breaks + texts[k])
        if k == last:
            break
        nxt = content[n + 1]
        breaks = nxt - k - 1
        if header[0] == ">" and texts[k][0] not in " \t" and texts[nxt][0] not in " \t":
            out.append("" if breaks else " ")
        else:
            out.append("\n")
    if header[1:] != "-":
        out.append("\n")
    if header[1:] == "+":
        out.append("\n" * (len(texts) - last - 1))
    return "".join(out)
