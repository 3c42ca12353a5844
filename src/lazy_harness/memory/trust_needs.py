"""What an ASCII text must hold for a rule of the hold check (memory/trust_rules.py) to match it, read
from the rule's own parse: ``trust_rules.matches`` runs a rule only over a text that holds its words.

why: a rule costs about 25 us to search a note of 600 characters, whatever it holds, and a set has up to
100 rules (1.2 ms a set, 3 ms an entry: 49 s for the first sync of 15,000 decisions). Most rules need
words no note holds; what each needs is read from the rule itself (its parse), so no list is kept beside
the rules. A rule is searched only when the text holds, for each of its needs, one of the words: a word
the rule must match is in every text it matches, so a rule passed over would have found nothing.
why ASCII texts only: there, IGNORECASE is the same as lower case; a word with a letter outside ASCII
that matches no ASCII letter cannot be in the text, and one whose letter may (the Kelvin sign, the long s)
makes its need unknown. Not on the hooks' path: imported with trust_rules.
"""

from __future__ import annotations

import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from types import ModuleType

NEVER: tuple[frozenset[str], ...] = (frozenset(),)  # the needs of a rule that cannot match an ASCII text
_MANY = 64  # the most strings a part of a rule is read as; past it, that part needs nothing
_uses: dict[int, int] = {}
_needs: dict[int, list[tuple[frozenset[str], ...]]] = {}
# why: reading a set's rules costs 16 to 38 ms, what 20 to 40 of its texts save (0.9 to 1.3 ms a text
# with every rule run, 0.1 to 0.4 ms with the needs): read for a sync or a migration, which check
# thousands; a start that checks a few texts runs every rule, as before
_READ_AFTER = 40


def needs_of(k: int, rules: Sequence[tuple[re.Pattern[str], object]]) -> list[tuple[frozenset[str], ...]] | None:
    """What each of ``rules`` (set ``k`` as ``trust_rules.compiled`` gives it: each compiled rule with
    its excuse) needs of an ASCII text (:func:`rule_needs`), read on the set's :data:`_READ_AFTER`-th
    use; None before."""
    got = _needs.get(k)
    if got is None:
        _uses[k] = _uses.get(k, 0) + 1
        if _uses[k] < _READ_AFTER:
            return None
        # why the compiled rule's own flags: the needs are read from the parse the rule is searched with
        got = _needs[k] = [rule_needs(pat.pattern, pat.flags) for pat, _ in rules]
    return got


def holds(needs: tuple[frozenset[str], ...], low: str) -> bool:
    """Whether the lower-cased text ``low`` holds one string of each of ``needs``."""
    return all(any(w in low for w in need) for need in needs)


def rule_needs(pattern: str, flags: int = re.IGNORECASE) -> tuple[frozenset[str], ...]:
    """What ``pattern``, compiled with ``flags``, needs of an ASCII text: sets of lower-case strings, of
    each of which the text holds one wherever the pattern matches; () when nothing is known,
    :data:`NEVER` when it cannot match. Lower case is exact under IGNORECASE and safe without it."""
    try:
        # why a private module: the parse of the rules that ``re`` compiles is the only exact account of what
        # they match; a change of its shape in another Python makes every rule need nothing (run as before)
        from re import _constants as c, _parser  # type: ignore[attr-defined]

        found = _parts(list(_parser.parse(pattern, flags)), c)
    except Exception:  # noqa: BLE001 - any failure to read a rule: the rule is run on every text
        return ()
    out = []
    for need in found:
        ascii_need = set()
        for w in need:
            if w.isascii():
                ascii_need.add(w.lower())
            elif any(_to_ascii(ch) for ch in w if not ch.isascii()):
                break  # why: a letter that may match an ASCII one: this need says nothing
        else:
            if not ascii_need:
                return NEVER
            out.append(frozenset(ascii_need))
    # why the fewest strings first: a need the text does not meet costs a search of each of its strings
    # (on realistic notes 10% faster than the longest first, 12% faster than as read)
    return tuple(sorted(out, key=lambda need: (len(need), -min(map(len, need)))))


_ASCII = "".join(map(chr, range(128)))
_TO_ASCII: dict[str, bool] = {}


def _to_ascii(ch: str) -> bool:
    """Whether the rules' IGNORECASE lets letter ``ch`` (outside ASCII) match an ASCII character."""
    got = _TO_ASCII.get(ch)
    if got is None:
        got = _TO_ASCII[ch] = bool(re.search(re.escape(ch), _ASCII, re.IGNORECASE))
    return got


def _parts(items: list, c: ModuleType) -> list[set[str]]:
    """The needs of a parsed sequence ``items``: each run of parts read as few strings (:func:`_strings`),
    joined; each group, branch and repeat of one time or more, read inside."""
    out: list[set[str]] = []
    run: list = []
    for op, av in items + [(None, None)]:
        if op is not None and _strings([(op, av)], c) is not None:
            run.append((op, av))
            continue
        if run:
            whole = _strings(run, c)
            out += [got for got in ([whole] if whole is not None else [_strings([it], c) for it in run])
                    if got and "" not in got]
            run = []
        if op is c.SUBPATTERN:
            out += _parts(list(av[3]), c)
        elif op is c.ATOMIC_GROUP:
            out += _parts(list(av), c)
        elif op in (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT) and av[0] >= 1:
            out += _parts(list(av[2]), c)
        elif op is c.BRANCH:
            # why one need of each branch (the one whose shortest string is longest), joined: whichever
            # branch matches, the text holds a string of its need
            best = [max(_parts(list(alt), c), key=lambda need: min(map(len, need)), default=None) for alt in av[1]]
            if all(best):
                out.append({w for need in best if need for w in need})
    return out


def _strings(items: list, c: ModuleType) -> set[str] | None:
    """The strings a parsed sequence ``items`` matches, when it matches at most :data:`_MANY` of them and
    nothing else: letters, classes of letters, branches of such, an optional part; a look around or an
    anchor as the empty string (it takes no character). None otherwise."""
    out = {""}
    for op, av in items:
        if op is c.LITERAL:
            got: set[str] | None = {chr(av)}
        elif op in (c.AT, c.ASSERT, c.ASSERT_NOT):
            got = {""}
        elif op is c.IN:
            got = {chr(v) for o, v in av} if all(o is c.LITERAL for o, _ in av) else None
        elif op is c.SUBPATTERN:
            got = _strings(list(av[3]), c)
        elif op is c.BRANCH:
            alts = [_strings(list(alt), c) for alt in av[1]]
            got = None if None in alts else {w for alt in alts if alt is not None for w in alt}
        elif op in (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT) and av[1] <= 1:
            got = _strings(list(av[2]), c)
            got = got if got is None or av[0] else got | {""}
        else:
            got = None
        if got is None:
            return None
        out = {a + b for a in out for b in got}
        if len(out) > _MANY:
            return None
    return out
