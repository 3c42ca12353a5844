"""A learning file's frontmatter read as ``yaml.safe_load`` reads it, without importing YAML for what
the store writes or a person writes often (hot path: SessionStart and the prompt hook read learnings).

One reader for every reader (:func:`parse_frontmatter`, :func:`read_frontmatter_values`): the top-level
keys of a leading ``---`` block, each value YAML's (a scalar's text: a number, date or boolean as it is
written), read by the scan of memory/frontmatter_scan.py, or by YAML where the scan meets what it does
not decode as YAML does; a block YAML cannot read is read by the scan as best it can. A scope, a status
and a key given twice read alike everywhere (:func:`settle`); whether a block opens and closes.
"""

from lazy_harness.memory.frontmatter_scan import NULLS, Scan, Unusual, by_yaml

NOT_CLOSED = "frontmatter not closed"
MAX_OPEN_SCAN = 65536  # characters a command reads of a learning to tell whether its frontmatter closes


def read_frontmatter_values(path: str, keys: tuple[str, ...], limit: int = 4096) -> dict[str, str]:
    """Top-level values ``keys`` of a learning file's frontmatter (its first ``limit`` characters) as text,
    read as :func:`parse_frontmatter` reads them: a null as its text (``null``, ``~``, empty), a list or
    mapping as its ``str`` (empty: empty); missing keys are absent. A scope or status, and a key given
    on several lines, read as :func:`settle` says (before they are made text: ``scope: []`` is project)."""
    out: dict = {}
    twice: dict[str, list] = {}
    try:
        got = _pairs(_head(path, limit), nulls=False, keys=keys)
    except OSError:
        return out
    for key, value in got[0] if got is not None else ():
        if key not in keys:  # why: YAML's reading (``by_yaml``) gives every key
            continue
        if key in out:
            twice.setdefault(key, [out[key]]).append(value)
        out[key] = value
    _read_as_one(out, twice)
    # why None dropped: a ``deprecated_reason`` given twice differently settles to none: absent here
    return {key: value if isinstance(value, str) else str(value) if value else "" for key, value in out.items()
            if value is not None or key not in twice}


def _head(path: str, limit: int) -> str:
    """The first ``limit`` characters of a file, decoded as UTF-8 (a byte order mark skipped, a byte that
    is none replaced). why ``os.read``, not a text file object: a third of the time, on the prompt hook's
    path (each candidate learning); why open_regular: a FIFO in the file's place held open() for good."""
    import os

    from lazy_harness.regular_file import open_regular  # why: only ``os``

    fd = open_regular(path)[0]
    try:
        data = os.read(fd, limit)
        if len(data) == limit and not data.isascii():  # why: a character takes up to 4 bytes
            data += os.read(fd, 3 * limit + 4)
    finally:
        os.close(fd)
    return data.decode("utf-8-sig", "replace")[:limit]


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


def _block(text: str) -> tuple[list[str], str] | None:
    """The lines of a leading ``---`` block (a byte order mark before it skipped, bare CR ends read as
    LF) and the text after it; None when there is none. A block that does not close ends at its first
    blank line or heading (:func:`_open_end`)."""
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
    if not closed:
        return lines, text[end + 1:]
    after = text.find("\n", end + 1)
    return lines, (text[after + 1:] if after >= 0 else "")


def _pairs(text: str, damage: list[tuple[int, str]] | None = None, nulls: bool = True,
           keys: tuple[str, ...] | None = None) -> tuple[list[tuple[str, object]], str] | None:
    """The top-level ``(key, value)`` lines of a leading ``---`` block, in order (a key given on two
    lines comes twice), and the text after it; None when there is none (see :func:`parse_frontmatter`).
    Read by :class:`Scan`, or by YAML where the scan meets what it does not decode as YAML does.
    ``damage`` receives ``(line number in the file, key)`` of each quote left open (:func:`open_quote`).
    ``keys``: only these are needed (others may be left out)."""
    got = _block(text)
    if got is None:
        return None
    lines, rest = got
    found: list[tuple[int, str]] | None = [] if damage is not None else None
    pairs: list[tuple[str, object]] | None
    try:
        scan = Scan(lines, True, nulls, found)
        pairs = scan.pairs() if keys is None else scan.only(keys)
    except Unusual:
        found = [] if damage is not None else None
        pairs = by_yaml(lines, nulls)
        if pairs is None:  # why: not YAML (no writer rewrites it): read as best the scan can
            scan = Scan(lines, False, nulls, found)
            pairs = scan.pairs() if keys is None else scan.only(keys)
    if found and damage is not None:
        damage += found
    return pairs, rest


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
