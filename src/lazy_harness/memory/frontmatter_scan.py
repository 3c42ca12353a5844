"""The scan of a frontmatter block (memory/frontmatter.py): its top-level keys and values read as
``yaml.safe_load`` reads them, without importing YAML for what the store writes or a person writes
often (hot path: SessionStart and the prompt hook read learnings). :class:`Scan` decodes plain
scalars (a ``#`` after a blank starts a comment, a line indented below goes on with it), single- and
double-quoted ones over several lines (a double-quoted one's escapes are not JSON's; line breaks
folded as PyYAML folds them), literal and folded block scalars, block lists and flow lists of plain
words. At anything else (an anchor, alias or tag, another flow collection, a key written otherwise
than ``key:``) it raises :class:`Unusual`, and the block is read by YAML, imported then
(:func:`by_yaml`). String methods only, no regex; nothing imported at import time.
"""

from lazy_harness.memory import frontmatter_scalars as scalars

NULLS = ("", "~", "null", "Null", "NULL")  # what YAML reads as a null, written plain
MAX_QUOTED_LINES = 64
_BLANK = ("", " ", "\t", "\r")  # what may follow a key's colon, or the dash of a list item
# a first character of a line that is not a key as the store writes keys ("<=": ``<<`` merges, ``=`` is YAML's)
_NOT_KEY = " \t-#?:,[]{}&*!|>'\"%@`<="
_NOT_PLAIN = "&*!%@`,|>[]{}"  # what a plain scalar cannot start with ("-?:" only before a blank)
_SPECIAL = _NOT_PLAIN + "'\"-?:"  # a value's first character that may make it more than the text it is
_NULL_SET = frozenset(NULLS)
_DISGUISE = "'\"?<&*![{"  # a line starting so may hold a key asked for
_PASS_OR_BLANK = "'\"[{ "  # the first character after a key's colon when its value may go on below


class Unusual(Exception):
    """A construct the scan does not decode as YAML does (a block scalar, a flow collection but a list
    of plain words, an anchor, alias or tag, a key written otherwise than the store writes keys, a
    line it cannot place): the block is read by YAML instead (:func:`by_yaml`)."""


class Scan:
    """One reading of a block's ``lines``: its top-level ``(key, value)`` pairs in order (:meth:`pairs`).
    ``strict``: raise :class:`Unusual` at what it would not read as YAML does (else read it as best it
    can, for a block YAML cannot read); ``nulls``: a plain null is None (else its text, as
    ``read_frontmatter_values`` gives it); ``damage``: see :func:`open_quote`."""

    def __init__(self, lines: list[str], strict: bool, nulls: bool, damage: list[tuple[int, str]] | None) -> None:
        self.lines, self.strict, self.nulls, self.damage = lines, strict, nulls, damage
        self.i, self.key = 0, ""

    def pairs(self) -> list[tuple[str, object]]:
        """The block's ``(key, value)`` pairs, in order."""
        out: list[tuple[str, object]] = []
        lines, n, nulls, nxt = self.lines, len(self.lines), self.nulls, self.i
        for i, line in enumerate(lines, 1):  # why not ``while`` over an index: faster, on the hot path
            if i <= nxt:
                continue
            key, colon, rest = line.partition(":")
            if not colon or not key or key[0] in _NOT_KEY or " " in key or "\t" in key or rest[:1] not in " \t\r":
                if self.strict and line.strip() and line.lstrip()[0] != "#":
                    raise Unusual  # a key YAML reads otherwise (``a:b`` is none), a line of a value not placed
                if not colon or not key or key[0] in _NOT_KEY or " " in key:
                    continue
            first = rest.strip()
            c = first[:1]
            # why each test inline, one character against a string ("" is in any): a plain word's line at once
            if c in _SPECIAL or "#" in first or "\t" in first or ": " in first or first[-1] == ":" or "\r" in first \
                    or (not first.isascii() and scalars.breaks_line(first)) or (i < n and lines[i][:1] in " \t\r"):
                self.i, self.key = i, key
                value = self.value(rest.lstrip() if c in ("'", '"') else first) if c and c != "#" else self.items()
                nxt = self.i
            else:
                value = None if nulls and first in _NULL_SET else first
            out.append((key, value))
        return out

    def only(self, keys: tuple[str, ...]) -> list[tuple[str, object]]:
        """The ``(key, value)`` pairs of ``keys`` alone, in order: each of their values read as :meth:`pairs`
        reads it, every other line looked at only as far as it may change them (a quote or flow list
        that goes on below, a key written otherwise: :class:`Unusual`). why apart from :meth:`pairs`:
        the prompt hook reads a few keys of each candidate, and a line not asked for costs no more here
        than it did before YAML was read exactly."""
        out: list[tuple[str, object]] = []
        nxt = 0
        # why each test of one character against a string, not a tuple: a tuple's members are compared one by
        # one, which doubled the time of a line not asked for
        for i, line in enumerate(self.lines, 1):
            if i <= nxt:
                continue
            key, colon, rest = line.partition(":")
            if not colon:
                if line and line[0] in "-?" and (line[0] == "?" or line[2:3] in _PASS_OR_BLANK):
                    nxt = self.item_or_key(line, i)  # an item whose quote may go on below; an explicit key
                continue
            if key in keys:
                if rest[:1] not in _BLANK and self.strict:
                    raise Unusual
                first = rest.strip()
                # why one character against a string ("" is in any): the common case at once; "-": no line below
                c, below = first[:1], self.lines[i][:1] if i < len(self.lines) else "-"
                if c in _SPECIAL or "#" in first or "\t" in first or ": " in first or first[-1] == ":" \
                        or "\r" in first or (not first.isascii() and scalars.breaks_line(first)) or below in " \t\r":
                    self.i, self.key = i, key
                    out.append((key, self.value(rest.lstrip() if c in ("'", '"') else first) if c and c != "#"
                                else self.items()))
                    nxt = self.i
                else:
                    out.append((key, None if self.nulls and first in _NULL_SET else first))
            elif not key or key[-1] in " \t" or key[0] in _DISGUISE:
                if self.strict:
                    raise Unusual  # why: ``title :``, ``"title":``, ``<<:``, ``&a title:`` may give a key asked for
            elif rest[1:2] and rest[1] in _PASS_OR_BLANK:
                first = rest.lstrip()
                if first and first[0] in _PASS_OR_BLANK and not scalars.closes(first):
                    self.i, self.key = i, key
                    self.pass_over(first)
                    nxt = self.i
        return out

    def item_or_key(self, line: str, i: int) -> int:
        """Past a line without a colon that starts with ``-`` (an item: past its quote if it goes on below)
        or ``?`` (an explicit key: :class:`Unusual`); the index of the next line to read."""
        entry = line[1:].lstrip()
        if line[0] == "?" and line[1:2] in _BLANK and self.strict:
            raise Unusual
        if line[0] == "-" and line[1:2] in _BLANK and entry[:1] in ("'", '"') and not scalars.closes(entry):
            self.i = i
            self.quoted(entry)
            return self.i
        return i

    def pass_over(self, first: str) -> None:
        """Go past a quoted value not asked for, whose quote does not close on its line; a flow collection
        that does not close on its line is :class:`Unusual` (YAML reads the lines below as its own)."""
        if first[:1] in ("'", '"'):
            self.quoted(first)
        elif not scalars.plain_cut(first.rstrip()).endswith(("]", "}")) and self.strict:
            raise Unusual

    def value(self, first: str, fold: bool = True) -> object:
        """The scalar (or flow list) whose text on its line is ``first``; ``fold``: a plain one goes on over
        the indented lines below (not a list item's)."""
        if first[:1] in ("'", '"'):
            return self.quoted(first)
        cut = scalars.plain_cut(first) if "#" in first else first
        if not cut:
            return None if self.nulls else cut
        if cut[0] in "|>" and fold:
            return self.block(cut)
        if cut[0] in _NOT_PLAIN or (cut[0] in "-?:" and cut[1:2] in _BLANK):
            return self.flow(cut)
        if self.strict and ("\t" in cut or ": " in cut or cut[-1] == ":" or "\r" in cut
                            or (not cut.isascii() and scalars.breaks_line(cut))):
            raise Unusual  # YAML refuses these or breaks the line there
        lines, i = self.lines, self.i
        if fold and cut is first and i < len(lines) and lines[i][:1] in _BLANK:
            cut = self.folded(cut)  # why before the null test: ``~`` with a line below is text
        elif not fold and self.strict and i < len(lines) and lines[i][:1] in (" ", "\t") \
                and lines[i].lstrip()[:2] != "- " and lines[i].strip()[:1] not in ("", "#"):
            raise Unusual  # an item's plain scalar going on below
        return (None if self.nulls else cut) if cut in _NULL_SET else cut

    def folded(self, first: str) -> str:
        """A plain scalar over the indented lines below: a line break read as a space, an empty line as a
        newline, as PyYAML's scanner folds them (``scan_plain_spaces``); a comment ends it."""
        parts, gap, j, lines = [first], 0, self.i, self.lines
        while j < len(lines):
            line = lines[j]
            text = line.strip()
            if not text:
                gap, j = gap + 1, j + 1
                continue
            if line[0] not in " \t" or text[0] == "#":
                break
            cut = scalars.plain_cut(text)
            if self.strict and ("\t" in line or ": " in cut or cut[-1] == ":" or scalars.breaks_line(text)):
                raise Unusual
            parts += ("\n" * gap if gap else " ", cut)
            gap, j = 0, j + 1
            self.i = j
            if cut is not text:
                break
        return "".join(parts)

    def block(self, header: str) -> str:
        """A literal (``|``) or folded (``>``) block scalar: the lines below indented as its first one,
        read as PyYAML's ``scan_block_scalar`` reads them: literal lines joined by newlines, folded ones
        by a space (a newline for each empty line between, and around a line indented further), the last
        line break kept (clip), dropped (``-``) or kept with the empty lines after it (``+``)."""
        if header not in ("|", "|-", "|+", ">", ">-", ">+"):  # an indentation indicator, text after it
            if self.strict:
                raise Unusual
            header = header[0]
        lines, body, indent, i = self.lines, [], 0, self.i
        while i < len(lines):
            line = lines[i].rstrip("\r")
            lead = len(line) - len(line.lstrip(" "))
            if lead < len(line) and (lead < indent or not lead):
                break  # why: a line indented less ends it (a comment, the next key)
            indent = indent or (lead if lead < len(line) else 0)
            body.append(line)
            i += 1
        if self.strict and (not indent or any(map(scalars.breaks_line, body))
                            or any(len(b) > indent for b in body[:[bool(b.strip()) for b in body].index(True)])):
            raise Unusual  # nothing in it, or an empty line before it longer than its indent (YAML's own rule)
        self.i = i
        return scalars.fold_block(body, indent, header)

    def quoted(self, first: str) -> object:
        """A single- or double-quoted scalar from ``first`` on, over the lines below until its quote
        closes. why bounded: a quote left open must not cost time in the square of the file's size
        (one hand-edited learning would stall every hook that reads it): a line without the quote
        cannot close it, and a quoted value runs over at most MAX_QUOTED_LINES lines."""
        lines, raw, start, quote = self.lines, first, self.i, first[0]
        value, closed = scalars.decode_quoted(raw)
        while not closed and self.i < len(lines) and lines[self.i].rstrip() not in ("---", "...") \
                and self.i - start < MAX_QUOTED_LINES:
            raw += "\n" + lines[self.i]
            self.i += 1
            if quote in lines[self.i - 1]:
                value, closed = scalars.decode_quoted(raw)
        if not closed:
            value, _ = scalars.decode_quoted(raw)
            self.strict = False  # why: YAML cannot read it either; the rest is read as before, named as damage
            if self.damage is not None:  # why + 1: the block's first line is the file's second
                self.damage.append((start + 1, self.key))
            return value
        if self.strict and (raw.count(quote) != 2 or raw.rstrip()[-1] != quote):  # why: the common case at once
            tail = raw[scalars.quote_end(raw) + 1:].strip()
            if tail and tail[0] != "#":
                raise Unusual  # text after the quote: YAML refuses it
        return value

    def items(self) -> list | None:
        """The block list below a key without a value (``- item`` lines, indented alike); None if none."""
        lines, items, indent, j = self.lines, [], -1, self.i
        while j < len(lines):
            line = lines[j]
            entry = line.lstrip()
            if not entry or entry[0] == "#":  # an empty or comment line: the list goes on after it
                j += 1
                continue
            if not (entry[:2] == "- " or entry.rstrip() == "-"):
                break
            if indent < 0:
                indent = len(line) - len(entry)
            elif self.strict and len(line) - len(entry) != indent:
                raise Unusual
            self.i = j = j + 1
            first = entry[2:].strip()
            c = first[:1]
            if c in _SPECIAL or "#" in first or "\t" in first or ": " in first or first[-1] == ":" or "\r" in first \
                    or not first.isascii() or (j < len(lines) and lines[j][:1] in " \t\r"):  # as in pairs()
                first = _first(entry[1:])
                items.append(self.value(first, fold=False) if first[:1] != "#" else self.value(""))
                j = self.i
            else:
                items.append(None if self.nulls and first in _NULL_SET else first)
        if not items and self.strict and j < len(lines) and lines[j][:1] in (" ", "\t"):
            raise Unusual  # the value on the lines below: a scalar, a mapping
        return items if items else None

    def flow(self, first: str) -> object:
        """A value that starts with an indicator: a flow list of plain words (``[a, b c]``, ``[]``), else
        (a block scalar, another flow collection, an anchor, alias or tag) :class:`Unusual`, or read as
        before when the block is not YAML."""
        if first[0] == "[" and first[-1] == "]":
            inner = first[1:-1]
            words = [w.strip() for w in inner.split(",")] if inner.strip() else []
            if not any(c in inner for c in "'\"#[]{}:?&*!|>%@`\t") \
                    and all(w and not (w[0] == "-" and w[1:2] in _BLANK) for w in words):
                return [None if self.nulls and w in NULLS else w for w in words]
        if self.strict:
            raise Unusual
        if first[0] in "|>":  # a list item's block scalar
            return self.block(first)
        # why the count: read item by item, a list nested 5,000 deep (a synced file) raised RecursionError
        # in every reader; so deep a list is no list anyone wrote, and stays text
        if first[0] == "[" and first[-1] == "]" and first.count("[") <= MAX_NESTED:
            inner = first[1:-1].strip()
            scan = Scan([], False, self.nulls, None)
            return [scan.value(part.strip() or "~") for part in inner.split(",")] if inner else []
        return first


MAX_NESTED = 100  # brackets of a flow list read item by item when the block is not YAML (``Scan.flow``)


def by_yaml(lines: list[str], nulls: bool) -> list[tuple[str, object]] | None:
    """The top-level pairs of a block as ``yaml.safe_load`` reads it (a key given twice, twice), each
    scalar as its text (a plain null None when ``nulls``, else its text); None when it is not YAML or
    not a mapping. why imported here: only a block written by hand with a construct :class:`Scan`
    does not decode pays for the import; a learning the worker wrote never does (the hooks' hot path)."""
    try:
        import yaml
    except ImportError:  # why: a hook runs with -S (ADR 0002); PyYAML may lie outside the folder it adds
        return None
    # why the last newline: the writer (status_fields) reads the block with the one before ``---``
    loader = yaml.SafeLoader("\n".join(lines) + "\n")
    try:
        node = loader.get_single_node()
        if isinstance(node, yaml.MappingNode):
            loader.flatten_mapping(node)  # why: ``<<: *other`` merges its keys in, as safe_load does
    except (yaml.YAMLError, RecursionError):  # why RecursionError: a list nested 5,000 deep (a synced file)
        return None
    finally:
        loader.dispose()
    if not isinstance(node, yaml.MappingNode) or _shared(node):
        return None
    memo: dict[int, object] = {}
    try:
        return [(k.value, _as_text(v, nulls, memo)) for k, v in node.value if isinstance(k, yaml.ScalarNode)]
    except RecursionError:
        return None


def _shared(root: object) -> bool:
    """Whether a list or mapping of the block is reached twice (an alias of one, a merge key): then YAML's
    reading is refused and the block read line by line. why: nine lines of aliases each naming the one
    before nine times (a learning pushed to the sync remote) read as 387 million items wherever the
    value was turned into text or JSON: ``lh sync``, ``lh memory show`` and SessionStart never ended."""
    import yaml

    seen: set[int] = set()
    todo = [root]
    while todo:
        node = todo.pop()
        if isinstance(node, yaml.ScalarNode):
            continue
        if id(node) in seen:
            return True
        seen.add(id(node))
        for item in getattr(node, "value", ()):
            todo.extend(item if isinstance(item, tuple) else (item,))
    return False


def _as_text(node: object, nulls: bool, memo: dict[int, object]) -> object:
    """A YAML node as :func:`by_yaml` gives it. ``memo``: why: an alias is the node it names, converted
    once (no list grows past the block's size, a list holding itself ends)."""
    import yaml

    if isinstance(node, yaml.ScalarNode):
        return None if nulls and node.tag == "tag:yaml.org,2002:null" else node.value
    if id(node) in memo:
        return memo[id(node)]
    if isinstance(node, yaml.SequenceNode):
        items: list = []
        memo[id(node)] = items
        items += [_as_text(n, nulls, memo) for n in node.value]
        return items
    pairs: dict = {}
    memo[id(node)] = pairs
    for key, value in node.value if isinstance(node, yaml.MappingNode) else ():
        if isinstance(key, yaml.ScalarNode):
            pairs[key.value] = _as_text(value, nulls, memo)
    return pairs


def _first(rest: str) -> str:
    """A value's text on its key's line: stripped, but a quoted one only on the left (an escaped blank
    before its line break is part of it: ``"\\t`` then a folded line)."""
    rest = rest.lstrip()
    return rest if rest[:1] in ("'", '"') else rest.rstrip()
