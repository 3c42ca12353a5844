"""Stable ids of memory entries: a kind prefix and 8 hex characters derived from the entry's identity.

    d-1a2b3c4d   a decision      (its normalised summary)
    f-1a2b3c4d   a failure       (its normalised summary)
    l-1a2b3c4d   a learning      (its origin project and normalised title)
    h-1a2b3c4d   a handoff item  (its normalised text)

why content-derived, not random: a line written before ids existed gets the same id every time it is
read, without rewriting the file; the same entry written on two machines (or by two workers racing)
gets one id, so merges by id never duplicate it. Identity already is the normalised summary / title /
text (the store de-duplicates on it), so the id adds no new notion of sameness.

Collisions: 8 hex characters are 32 bits, so among 100,000 entries about one pair shares them. Where
an id is made (``fresh``), the ids already taken are looked at; an entry whose 8 characters another
entry holds gets more characters of its own hash (``long_hex``: the 8, then the 32 of a 16-byte digest
of the same text) until no one else holds them: ``d-1a2b3c4d5``. Old ids stay what they were (a line
without an ``id`` still derives its 8); a longer id is kept in the entry (its ``id`` field or
frontmatter) and ``derives`` tells that it belongs to the entry's identity. Lookups are exact
(``one_of``): an id two entries carry (a pair written before this check) is refused, naming both.

Hot path: SessionStart and prompt recall derive ids of old lines, so this imports only ``_blake2``
(``hashlib`` costs 7 to 8 ms more here: benchmarks/bench_private_modules.py) and ``sanitize``.
"""

from __future__ import annotations

import os

try:
    # why: ``from hashlib import blake2b`` loads OpenSSL's ``_hashlib`` too: 7 to 8 ms more on a hook's
    # start than ``_blake2``, the same function (benchmarks/bench_private_modules.py)
    from _blake2 import blake2b as _blake2b
except ImportError:  # pragma: no cover - a CPython built without the _blake2 module
    from hashlib import blake2b as _blake2b

from lazy_harness.memory.sanitize import normalise

# why: not ``from typing import TYPE_CHECKING``: memory never imports ``typing`` at run time (the hooks
# load its read side: house style section 3)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import TypeVar

    from lazy_harness.memory.shapes import Record

    T = TypeVar("T")

PREFIXES = {"decision": "d-", "failure": "f-", "learning": "l-", "handoff": "h-"}
KIND_OF_PREFIX = {v: k for k, v in PREFIXES.items()}
HEX = 8
LONGEST = HEX + 32  # the 8 of the id, then a 16-byte digest: how far a colliding id may grow


def _digest(text: str) -> str:
    return _blake2b(text.encode("utf-8", "surrogatepass"), digest_size=HEX // 2).hexdigest()


def text_digest(text: str, size: int = 16) -> str:
    """A hex digest of ``text`` as it is (``size`` bytes): the key of what was worked out from that
    exact text (``verdicts.Kept``)."""
    return _blake2b(text.encode("utf-8", "surrogatepass"), digest_size=size).hexdigest()


def bytes_digest(data: bytes, size: int = 16) -> str:
    """A hex digest of ``data`` (``size`` bytes)."""
    return _blake2b(data, digest_size=size).hexdigest()


def short_hex(key: str) -> str:
    """The 8 hex characters every id of identity ``key`` starts with."""
    return _digest(key)


def long_hex(key: str) -> str:
    """Every hex character an id of identity ``key`` may use: its 8, then a 16-byte digest of ``key``."""
    return _digest(key) + text_digest(key, 16)


def key_of(kind: str, text: object, origin: object = "") -> str:
    """The identity an id is the hash of: the normalised summary or text, for a learning its
    normalised origin and title."""
    if kind == "learning":
        return f"{normalise(origin)}\x00{title_key(text)}"
    return normalise(text)


# ASCII marks that say something in a title (``C++``, ``C#``, ``R&D``, ``50%``): words of their own
_SAYING = frozenset("+#%&@$*=<>|~^")


def title_words(title: object) -> str:
    """A learning title as the rewrite rule matches it (ADR 0063): its words (runs of letters and digits,
    casefolded) joined by one space, so ``orders-table``, ``Orders table`` and ``orders_table`` are one
    title; a symbol is a word of its own (``_SAYING``, and any symbol outside ASCII: ``€``, ``→``), so
    ``C++ flags`` and ``C flags`` are two. A title without a word, its :func:`title_key`. Not an id's part:
    ids and file names stay as each title gave them. Outside ASCII the title is compared in its
    compatibility form, casefolded (``Кэш``, ``кэш``; an accent composed or not; ``ς`` and ``σ``), and a
    combining mark is part of its word (a vowel sign or virama in Devanagari: ``कैश`` is one word, not
    ``क श``); a script without case is only composed."""
    text, marks = _folded(str(title))
    words: list[str] = []
    cur: list[str] = []
    for ch in text:
        if ch.isalnum() or (marks and cur and _mark(ch)):
            cur.append(ch)
            continue
        if cur:
            words.append("".join(cur))
            cur = []
        if ch in _SAYING or (not ch.isascii() and _symbol(ch)):
            words.append(ch)
    if cur:
        words.append("".join(cur))
    return " ".join(words) or title_key(title)


def _folded(title: str) -> tuple[str, bool]:
    """(``title`` casefolded, and in NFKC outside ASCII; whether it holds a character outside ASCII)."""
    if title.isascii():
        return title.casefold(), False
    import unicodedata  # why here: only a title outside ASCII pays for it (a hook reads titles)

    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", title).casefold()), True


def _mark(ch: str) -> bool:
    import unicodedata

    return unicodedata.category(ch)[0] == "M"


def _symbol(ch: str) -> bool:
    import unicodedata  # why here: only a title with a mark outside ASCII pays for it (a hook reads titles)

    return unicodedata.category(ch)[0] == "S"


def title_key(title: object) -> str:
    """A learning title's part of its identity: the normalised title; for a title of symbols only
    (``🚀🔥``, ``→ ←``), which normalises to nothing, the title casefolded with its spaces collapsed.
    A title of punctuation only (``..``, ``?!``) has none: it names nothing.

    why: every symbol-only title had one identity (the empty one), so the plan dropped them as
    learnings without a title. No id the worker wrote changes: it never wrote such a learning.
    """
    key = normalise(title)
    if key or not title:
        return key
    import unicodedata

    flat = " ".join(str(title).casefold().split())
    return flat if any(unicodedata.category(c)[0] == "S" for c in flat) else ""


def fresh(kind: str, key: str, taken: Mapping[str, str]) -> str:
    """The id of identity ``key`` given ``taken`` (``{id: identity}`` of the entries there already):
    the id an entry of the same identity holds, else the shortest one nobody holds (8 hex first)."""
    full = long_hex(key)
    for n in range(HEX, LONGEST + 1):
        candidate = PREFIXES[kind] + full[:n]
        holder = taken.get(candidate)
        if holder is None or holder == key:
            return candidate
    raise ValueError(f"no free id for a {kind}")  # 40 hex characters held by others: not in this universe


def derives(eid: str, kind: str, key: str) -> bool:
    """True when ``eid`` is an id (8 hex or a lengthened one) of identity ``key`` of ``kind``."""
    return kind_of(eid) == kind and long_hex(key).startswith(eid[2:])


def one_of(eid: str, found: list[T], name: Callable[[T], str] = str,
           same: Callable[[T], object] | None = None, key: Callable[[T], str] | None = None) -> T | None:
    """The one entry of ``found`` (those carrying ``eid``), None when there is none; refuses (a
    ``LookupError`` with one line naming each, by ``name(entry)``) when two or more carry it. With
    ``same``, entries of one ``same(entry)`` (their text) are one entry: a line or file copied by hand.
    With ``key`` (an entry's identity, :func:`key_of`), an id that entries of several identities carry
    is the one whose identity it is the hash of, when one alone is (:func:`claimed`, ADR 0059)."""
    if same is not None and found and all(same(f) == same(found[0]) for f in found[1:]):
        return found[0]
    if len(found) < 2:
        return found[0] if found else None
    if key is not None:
        return claimed(eid, found, name, key)
    named = "; ".join(name(f) for f in found)
    raise LookupError(f"{eid} names {len(found)} entries (written before ids were checked for collisions): {named}")


def claimed(eid: str, found: list[T], name: Callable[[T], str], key: Callable[[T], str]) -> T:
    """The entry of ``found`` (entries of more than one identity, ``key``, all carrying ``eid``) whose
    identity ``eid`` is the hash of (:func:`derives`), when one identity alone is; else a
    ``LookupError`` naming each entry with the id of its own it takes (:func:`own_id`).

    why: a line another writer brought (``lh sync`` merges any line a peer, or whoever can push to the
    remote, wrote) may carry the id of one of this machine's entries under another text; the id stays
    the entry's it was made from, and a line that merely carries it never takes an action away from it.
    Two identities that both hash to it (8 hex characters collide) cannot be told apart: refused."""
    kind = kind_of(eid) or "decision"
    keys = [key(f) for f in found]
    rightful = [f for f, k in zip(found, keys, strict=True) if derives(eid, kind, k)]
    if rightful and len({key(f) for f in rightful}) == 1:
        return rightful[0]
    named = "; ".join(f"{name(f)} (its own id: {own_id(eid, k, keys)})" for f, k in zip(found, keys, strict=True))
    raise LookupError(f"{eid} names {len(found)} entries of different texts (one may have come with lh sync from "
                      f"another machine): {named}")


def own_id(eid: str, key: str, keys: list[str]) -> str:
    """The id the entry of identity ``key`` takes apart from the other identities ``keys`` that carry
    ``eid``: the shortest one of its own hash (:func:`fresh`) none of them holds."""
    kind = kind_of(eid) or "decision"
    taken = {PREFIXES[kind] + long_hex(k)[:n]: k for k in set(keys) - {key} for n in range(HEX, LONGEST + 1)}
    if not derives(eid, kind, key):
        taken.setdefault(eid, "")  # why: the id it carries is another's; its own derived one comes first
    return fresh(kind, key, taken)


def entry_id(kind: str, summary: object) -> str:
    """``d-``/``f-`` id of a decision or failure from its summary."""
    return PREFIXES[kind] + _digest(normalise(summary))


def learning_id(origin: object, title: object) -> str:
    """``l-`` id of a learning: the same title in two projects is two learnings."""
    return PREFIXES["learning"] + _digest(key_of("learning", title, origin))


def handoff_id(text: object) -> str:
    """``h-`` id of a handoff item: the same text restated is the same item."""
    return PREFIXES["handoff"] + _digest(normalise(text))


def is_id(value: object) -> bool:
    """True for a string shaped like one of our ids (prefix, dash, 8 lowercase hex, or up to 40 when
    lengthened past a collision)."""
    if not isinstance(value, str) or not HEX + 2 <= len(value) <= LONGEST + 2 or value[:2] not in KIND_OF_PREFIX:
        return False
    return not value[2:].strip("0123456789abcdef")


def as_typed(ref: str) -> str:
    """An id as a person copies it, as stored: the spaces around it and one pair of brackets
    (``[h-1a2b3c4d]``, as handoff.md shows it) taken off, lower case when that makes it an id (hex
    typed in upper case). Anything else is given back as it came (a handoff item's text, a typo)."""
    bare = ref.strip()
    if bare.startswith("[") and bare.endswith("]"):
        bare = bare[1:-1].strip()
    return bare.lower() if is_id(bare.lower()) else ref


def kind_of(value: object) -> str | None:
    """``decision``, ``failure``, ``learning`` or ``handoff`` for an id, else None (anything else)."""
    return KIND_OF_PREFIX.get(value[:2]) if isinstance(value, str) and is_id(value) else None


def of_learning(front: Record, title: str | None = None, path: str | None = None) -> str:
    """The id of a learning from its frontmatter: its own ``id`` when it has a valid one, else derived
    from its origin and title (``title`` when the frontmatter has none, else the one its file's name
    gives, :func:`title_of_file`: a learning written by hand without a title has one id everywhere,
    the index's)."""
    own = front.get("id")
    if isinstance(own, str) and kind_of(own) == "learning":
        return own
    return learning_id(front.get("origin") or "", front.get("title") or title or (title_of_file(path) if path else ""))


def title_of_file(path: str) -> str:
    """The title a learning without one takes from its file's name: ``2026-04-13-use-x.md`` -> "use x";
    a name without the date (a file a person named) keeps its whole stem: ``notes-on-x.md`` -> "notes on x"."""
    from lazy_harness.memory.fence import date_of

    name = os.path.basename(path)
    stem = name[:-3] if name.endswith(".md") else name
    if date_of(stem) and stem[10:11] in ("", "-"):
        stem = stem[11:]
    return stem.replace("-", " ")


def of_record(rec: Record, kind: str | None = None) -> str:
    """The id of a decision or failure line: its own ``id`` when it has a valid one of its kind, else
    derived. ``kind`` is the file's (the line's ``type`` when not given).

    why of its kind: a failure line a person copied into decisions.jsonl keeps ``"id": "f-…"``; read
    under it, it was shown as ``decision f-…`` while ``lh memory forget f-…`` looked in failures.jsonl
    and ``d-…`` found nothing. Read as a decision by its summary, every command reaches it by the id
    it is shown with (``lh memory check`` names the line: :func:`foreign`)."""
    kind = kind or rec.get("type") or "decision"
    kind = kind if kind in ("decision", "failure") else "decision"
    own = rec.get("id")
    if isinstance(own, str) and is_id(own) and own[:2] == PREFIXES[kind]:
        return own
    return entry_id(kind, rec.get("summary") or "")


def foreign(rec: Record, kind: str) -> str | None:
    """The ``id`` a decision or failure line of a ``kind`` file carries that is another kind's (a line
    moved by hand between the files), which :func:`of_record` sets aside; None when it carries none."""
    own = rec.get("id")
    return own if isinstance(own, str) and is_id(own) and own[:2] != PREFIXES[kind] else None
