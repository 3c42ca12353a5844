"""The "hooks" value edited in place: only the parts of it that change are written, so the person's
own entries keep their bytes beside ours (docs/adr/0058-install-changes-only-the-hooks-value.md,
amendment "the person's entries keep their bytes").

A JSON value of the file's text is compared with the value it must hold: one that reads exactly
the same (types and key order too) keeps its text; an object or array that changed keeps the text of
each member or item that did not, with the separators and whitespace that stood between them; what
is new goes in rendered in the file's style (``Rules.render``), indented as its siblings. Members
and items are paired in order by what of the person's they share (``_aligned``; install and
uninstall remove items, edit ours in place and append groups and event keys): one that stayed keeps
its text, a changed one is edited in place, a key that moved is written anew, as is a scalar that
changed.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    Render = Callable[[object, "str | None"], str]
    _Pair = tuple["int | None", "str | None", object, object]  # old index, key, old value, new value

_SPACE = re.compile(r"[ \t\n\r]*")  # JSON's whitespace
_DECODER = json.JSONDecoder()
_UNCHANGED = 1 << 40  # more than all a settings file's values can share


@dataclass(frozen=True)
class Node:
    """One JSON value in the text: where it starts and ends, and for an object or array its members."""

    start: int
    end: int
    items: list[Item] = field(default_factory=list)


@dataclass(frozen=True)
class Item:
    """A member of an object (``key``), or an item of an array (``key`` None, ``after`` = ``start``)."""

    key: str | None
    start: int  # its key's opening quote, or the item
    after: int  # where its key ends
    node: Node


def _skip(text: str, pos: int) -> int:
    found = _SPACE.match(text, pos)
    return found.end() if found else pos


def parse(text: str, pos: int) -> Node:
    """The value starting at ``pos`` (no whitespace before it), with json's decoder reading each key
    and scalar."""
    opening = text[pos]
    if opening not in "{[":
        _, end = _DECODER.raw_decode(text, pos)
        return Node(pos, end)
    closing = "}" if opening == "{" else "]"
    items: list[Item] = []
    at = _skip(text, pos + 1)
    while text[at] != closing:
        key, after, value = None, at, at
        if opening == "{":
            key, after = _DECODER.raw_decode(text, at)
            value = _skip(text, _skip(text, after) + 1)  # past the ":"
        child = parse(text, value)
        items.append(Item(key, at, after, child))
        at = _skip(text, child.end)
        if text[at] == ",":
            at = _skip(text, at + 1)
    return Node(pos, at + 1, items)


def same(a: object, b: object) -> bool:
    """Whether ``a`` and ``b`` read the same as JSON, types and key order included (``1`` is not
    ``true`` nor ``1.0`` here, as it is for ``==``)."""
    return json.dumps(a) == json.dumps(b)


@dataclass(frozen=True)
class Rules:
    """``render(value, prefix)``: ``value`` in the file's style, its lines after the first led by
    ``prefix``, or on one line for a prefix None. ``ours(item)``: an item of an array that is ours,
    which tells nothing of which old item a new one was (ours move between groups)."""

    render: Render
    ours: Callable[[object], bool]


def edited(text: str, node: Node, old: object, new: object, rules: Rules, inline: bool = False) -> str:
    """The text of ``node`` (which reads as ``old``) made to read as ``new`` (``inline``: the value
    stands in an object or array written on one line)."""
    if same(old, new):
        return text[node.start:node.end]
    if isinstance(old, dict) and isinstance(new, dict) and node.items and new:
        return _joined(text, node, _aligned(list(old.items()), list(new.items()), rules.ours), rules)
    if isinstance(old, list) and isinstance(new, list) and node.items and new:
        return _joined(text, node, _aligned([(None, v) for v in old], [(None, v) for v in new], rules.ours), rules)
    return rules.render(new, None if inline else _indent_at(text, node.start))


def _aligned(old: list[tuple[str | None, object]], new: list[tuple[str | None, object]],
             ours: Callable[[object], bool]) -> list[_Pair]:
    """``new``'s members (key or None, value) in order, each with the index of the member of ``old``
    it stands in for (None: a new one), its key and both values. The pairs keep both orders, have
    the same key and share the most (``_likeness``): a member that stayed is paired with itself, one
    that changed with the one it was; a key that moved is a new member."""
    n, m = len(old), len(new)
    # why: unchanged members first, the most of the person's first (their text stays whole; ours may
    # stand anywhere), then what a changed one shares; +1 for a key: an object's member keeps its
    # key's text even when its value shares nothing
    weight = [[0 if ka != kb else max(0, _UNCHANGED * max(1, _size(a, ours)) if same(a, b)
                                        else _likeness(a, b, ours)) + (ka is not None)
               for kb, b in new] for ka, a in old]
    best = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            paired = best[i + 1][j + 1] + weight[i][j] if weight[i][j] else 0
            best[i][j] = max(best[i + 1][j], best[i][j + 1], paired)
    out: list[_Pair] = []
    i = j = 0
    while j < m:
        key, value = new[j]
        if i < n and weight[i][j] and best[i][j] == best[i + 1][j + 1] + weight[i][j]:
            out.append((i, key, old[i][1], value))
            i, j = i + 1, j + 1
        elif i < n and best[i][j] == best[i + 1][j]:
            i += 1
        else:
            out.append((None, key, None, value))
            j += 1
    return out


def _likeness(a: object, b: object, ours: Callable[[object], bool]) -> int:
    """How much of the person's in ``a`` stays in ``b``: their scalars when ``a`` reads as ``b``,
    else the likeness of an object's values under the same key (less one for each scalar that
    changed), and the items of an array found unchanged."""
    if same(a, b):
        return _size(a, ours)
    if isinstance(a, dict) and isinstance(b, dict):
        # why less for a scalar that changed: a group whose matcher differs is less the one it was
        return sum(_likeness(a[key], b[key], ours) or -_scalar(a[key]) for key in a if key in b)
    if isinstance(a, list) and isinstance(b, list):
        had = {json.dumps(x) for x in a}
        return sum(_size(y, ours) for y in b if json.dumps(y) in had)
    return 0


def _scalar(value: object) -> bool:
    return not isinstance(value, (dict, list))


def _size(value: object, ours: Callable[[object], bool]) -> int:
    """The person's scalars in ``value``: none in one of ours; an empty object or array counts as one."""
    if ours(value):
        return 0
    if isinstance(value, (dict, list)):
        values = list(value.values()) if isinstance(value, dict) else value
        return sum(_size(v, ours) for v in values) if values else 1
    return 1


def _joined(text: str, node: Node, pairs: list[_Pair], rules: Rules) -> str:
    """The object or array of ``node`` holding ``pairs`` in order: (the index of the member it stands
    in for or None, its key or None, its old value, its new value). A kept member keeps its text up
    to its value and the separator before it; a new one takes the separator of the last two members
    (of the first, with a comma, when there is one) and is indented as that member."""
    items = node.items
    inline = "\n" not in text[node.start:node.end]
    first_gap = text[node.start + 1:items[0].start]
    gap = (text[items[-2].node.end:items[-1].start] if len(items) > 1
           else "," + first_gap if "\n" in first_gap else ", ")
    prefix = None if inline else _indent_at(text, items[-1].start)
    colon = next((text[item.after:item.node.start] for item in items if item.key is not None), ": ")
    out = [text[node.start]]
    for at, (i, key, was, value) in enumerate(pairs):
        if at == 0:
            out.append(first_gap)
        elif i is not None and i > 0:
            out.append(text[items[i - 1].node.end:items[i].start])
        else:
            out.append(gap)
        if i is not None:
            item = items[i]
            out.append(text[item.start:item.node.start] + edited(text, item.node, was, value, rules, inline))
        else:
            head = "" if key is None else json.dumps(key, ensure_ascii=False) + colon
            out.append(head + rules.render(value, prefix))
    out.append(text[items[-1].node.end:node.end])
    return "".join(out)


def _indent_at(text: str, pos: int) -> str:
    """The indentation of the line that holds ``pos``."""
    start = text.rfind("\n", 0, pos) + 1
    found = re.compile(r"[ \t]*").match(text, start)
    return found.group() if found else ""
