"""The word lists' keys, the same at write and query time (ADR 0049): ``word`` (folded, Porter-stemmed),
``pref*`` (the first 4, 5 and 6 characters of each stemmed word), ``w1 w2`` (a multi-word related term of
``terms.GROUPS`` as a phrase); and the lists' encoding: rowids (int32) then impacts (uint16), best first."""

import functools
import re

from lazy_harness.recall.index import terms
from lazy_harness.recall.index.lookup import B, FIELD_WEIGHTS, K1, QSCALE, columns
from lazy_harness.recall.index.porter import key

# why a pattern: the write side cuts whole texts; the query side cuts a few words with terms.words
_RUN = re.compile(r"[^\W_]+")


def tokens(text: str) -> list[str]:
    """The index's words of ``text``, as FTS5's porter tokenizer over unicode61 gives them."""
    return [key(run.lower()) for run in _RUN.findall(text)]


@functools.cache
def phrases() -> dict[str, list[tuple[str, ...]]]:
    """The multi-word related terms of ``terms.GROUPS`` as word tuples, by their first word."""
    found: dict[str, list[tuple[str, ...]]] = {}
    for row in terms.GROUPS:
        for w in row.split():
            ws = tuple(key(x) for x in terms.words(w))
            if len(ws) > 1 and ws not in found.get(ws[0], []):
                found.setdefault(ws[0], []).append(ws)
    return found


def weighted(cols: list[list[str]]) -> dict[str, float]:
    """Every key of an entry with its column-weighted frequency."""
    f: dict[str, float] = {}
    first = phrases()
    for w, toks in zip(FIELD_WEIGHTS, cols, strict=False):  # a text of fewer columns weighs only those
        get = f.get
        for t in toks:
            f[t] = get(t, 0.0) + w
        if first.keys().isdisjoint(toks):
            continue
        for i, t in enumerate(toks):
            for ph in first.get(t, ()):
                if tuple(toks[i:i + len(ph)]) == ph:
                    k = " ".join(ph)
                    f[k] = get(k, 0.0) + w
    pre: dict[str, float] = {}
    for t, v in f.items():
        if " " not in t:
            for n in range(4, min(len(t), 6) + 1):
                pre[t[:n] + "*"] = pre.get(t[:n] + "*", 0.0) + v
    f.update(pre)
    return f


def split(toks: str) -> list[list[str]]:
    """An entry's stored words (``lex_doc.toks``) as its columns' token lists."""
    return [c.split() for c in toks.split("\n")]


def impact(f: float, dl: int, avgdl: float) -> int:
    """BM25's term-frequency part as a 16-bit integer (0 < part < k1 + 1)."""
    part = f * (K1 + 1.0) / (f + K1 * (1.0 - B + B * dl / avgdl))
    return min(65535, int(part * QSCALE + 0.5))


def encode(entries: list[tuple[int, int]]) -> bytes:
    """A list's bytes from its (impact, rowid) entries, in their order."""
    from array import array  # why: write side only; array imports collections (2 to 5 ms at a start)

    return array("i", [r for _, r in entries]).tobytes() + array("H", [q for q, _ in entries]).tobytes()


def decode(blob: bytes) -> list[tuple[int, int]]:
    """A list's (impact, rowid) entries, in order."""
    ids, qs = columns(blob)
    return list(zip(qs, ids, strict=True))


def rank(e: tuple[int, int]) -> tuple[int, int]:
    """The sort key of a list's entry: higher impact first, then lower rowid."""
    return (-e[0], e[1])
