"""The words of the index as SQLite's ``porter unicode61 remove_diacritics 2`` tokenizer makes them (ADR
0049), an entry's and a prompt's alike: ``fold`` and ``stem`` (Porter 1980, SQLite's variant), checked
against SQLite on this repository's words (tests/recall/index/test_porter.py). No imports at the top."""

_VOWELS = frozenset("aeiou")


def _cons(w: str, i: int) -> bool:
    """Whether the letter at ``i`` is a consonant: not a vowel, and a y only after a vowel (or first)."""
    c = w[i]
    if c == "y":
        return i == 0 or not _cons(w, i - 1)
    return c not in _VOWELS


def _measure(stem: str) -> int:
    """Porter's m: how many vowel-consonant sequences ``stem`` holds ([C](VC)^m[V])."""
    cons = [_cons(stem, i) for i in range(len(stem))]
    return sum(c and not before for before, c in zip(cons, cons[1:], strict=False))


def _vowel_in(stem: str) -> bool:
    return any(not _cons(stem, i) for i in range(len(stem)))


def _cvc(w: str) -> bool:
    """Whether ``w`` ends consonant-vowel-consonant, the last not w, x or y (hop, not hoop)."""
    n = len(w)
    return (n >= 3 and _cons(w, n - 3) and not _cons(w, n - 2) and _cons(w, n - 1) and w[-1] not in "wxy")


_STEP2 = {"ational": "ate", "tional": "tion", "enci": "ence", "anci": "ance", "izer": "ize", "bli": "ble",
          "alli": "al", "entli": "ent", "eli": "e", "ousli": "ous", "ization": "ize", "ation": "ate",
          "ator": "ate", "alism": "al", "iveness": "ive", "fulness": "ful", "ousness": "ous", "aliti": "al",
          "iviti": "ive", "biliti": "ble", "logi": "log"}
_STEP3 = {"icate": "ic", "ative": "", "alize": "al", "iciti": "ic", "ical": "ic", "ful": "", "ness": ""}
_STEP4 = dict.fromkeys(("al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent",
                        "ion", "ou", "ism", "ate", "iti", "ous", "ive", "ize"), "")


def _rules(w: str, rules: dict[str, str], least: int) -> str:
    """The longest suffix of ``rules`` that ``w`` ends with replaced, when the stem left has m > ``least``."""
    for n in range(7, 1, -1):  # the longest first: the suffixes have 2 to 7 letters
        suf = w[-n:]
        if suf in rules:
            stem = w[:-n]
            if suf == "ion" and not stem.endswith(("s", "t")):
                return w
            return stem + rules[suf] if _measure(stem) > least else w
    return w


def _step1(w: str) -> str:
    """Plurals, -ed and -ing, a final y after a vowel as i (steps 1a, 1b, 1c)."""
    if (w.endswith("sses") and len(w) > 4) or (w.endswith("ies") and len(w) > 3):
        w = w[:-2]
    elif w.endswith("s") and not w.endswith("ss"):
        w = w[:-1]
    if w.endswith("eed"):
        if _measure(w[:-3]) > 0:
            w = w[:-1]
    elif w.endswith(("ed", "ing")):
        cut = w[:-2] if w.endswith("ed") else w[:-3]
        if _vowel_in(cut):
            w = cut
            if w.endswith(("at", "bl", "iz")):
                w += "e"
            elif len(w) >= 2 and w[-1] == w[-2] and _cons(w, len(w) - 1) and w[-1] not in "lsz":
                w = w[:-1]
            elif _measure(w) == 1 and _cvc(w):
                w += "e"
    if w.endswith("y") and _vowel_in(w[:-1]):
        w = w[:-1] + "i"
    return w


def _step5(w: str) -> str:
    """A final e off (m > 1, or m = 1 unless consonant-vowel-consonant), a final ll as l (m > 1)."""
    if w.endswith("e"):
        stem = w[:-1]
        m = _measure(stem)
        if m > 1 or (m == 1 and not _cvc(stem)):
            w = stem
    if w.endswith("ll") and _measure(w) > 1:
        w = w[:-1]
    return w


_CACHE: dict[str, str] = {}  # word -> stem: a few microseconds a word once, then a dict lookup
CACHED = 200_000


def stem(word: str) -> str:
    """Porter's stem of a lower-case word, read as UTF-8 bytes as SQLite reads it."""
    got = _CACHE.get(word)
    if got is not None:
        return got
    # why: each byte a character (latin-1): the rules strip ASCII suffixes only, so the stem is whole UTF-8
    w = word if word.isascii() else word.encode().decode("latin-1")
    if 2 < len(w) <= 64:
        w = _step5(_rules(_rules(_rules(_step1(w), _STEP2, 0), _STEP3, 0), _STEP4, 1))
    if not word.isascii():
        try:
            w = w.encode("latin-1").decode()
        except UnicodeDecodeError:  # a double consonant undone inside a character ("x₂₂ing")
            w = word
    if len(_CACHE) < CACHED:
        _CACHE[word] = w
    return w


def fold(word: str) -> str:
    """``word`` as unicode61 (remove_diacritics 2) keeps it: Latin letters without diacritics, ς as σ."""
    if word.isascii():
        return word
    import unicodedata

    nfd = ((c, unicodedata.normalize("NFD", c)) for c in word if not unicodedata.combining(c))
    return "".join(d[0] if d[0].isascii() and len(d) > 1 else "σ" if c == "ς" else c for c, d in nfd)


def key(word: str) -> str:
    """A lower-case word as the index holds it: folded, then stemmed."""
    return stem(fold(word))
