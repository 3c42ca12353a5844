"""An entry held for a secret as a listing prints it (ADR 0062): ``lh memory show``, ``held``,
``search`` (text and ``--json``), ``close`` and the page print its text through the redactor, the
secret replaced by the ``[REDACTED:<kind>]`` marker the worker writes, and name the file (and line)
where the person edits it out. An agent that runs those commands through its shell then has no
secret in its context or its transcript; the hold's reason (``trust.secret``) quotes only redacted
words already.

Only a text whose reason (its hold mark's, the check's verdict, a view's tag: anything that quotes
it) names a secret (``trust.SECRET``) goes through the redactor, loaded then and only then (about
50 ms of CPU once per process): a listing of ordinary entries never loads it, and no hook imports
this module.
"""

from __future__ import annotations

from lazy_harness.memory import trust

SEP = " "  # what joins an entry's fields into the one text the hold check reads (``trust.text_of``)


def names_secret(why: object) -> bool:
    """Whether ``why`` (a hold reason, a state's detail, a view's tag) says the text holds a secret."""
    return trust.SECRET in str(why or "")


def text(value: object, why: object) -> str:
    """``value`` as a listing prints it: redacted when ``why`` names a secret, else as it is."""
    said = "" if value is None else str(value)
    return fields([said], why)[0] if said and names_secret(why) else said


def fields(values: list[str], why: object) -> list[str]:
    """``values``, the fields of one entry in the order the check reads them, each as a listing prints
    it: when ``why`` names a secret, redacted as the one text the check read (a password named at the
    end of the summary and given at the start of the rationale is found across the two; its marker
    stays in the field where the secret starts), then each alone; else as they are."""
    if not names_secret(why):
        return list(values)
    from lazy_harness.redact import redact

    parts = _split_back(values, redact(SEP.join(values))[0])
    return [redact(p)[0] for p in parts]


def record(rec: dict, kind: str, why: object) -> dict:
    """A copy of a decision, failure or open item (``{"text"}``) with every text field the hold check
    reads as a listing prints it (:func:`fields`); ``rec`` itself when ``why`` names no secret. A
    list's items (tags, alternatives) are redacted one by one."""
    if not names_secret(why):
        return rec
    from lazy_harness.redact import redact

    names = [f for f in trust.FIELDS.get(kind, ("summary",)) if isinstance(rec.get(f), str) and rec[f]]
    out = {**rec, **dict(zip(names, fields([rec[f] for f in names], why), strict=True))}
    for f in trust.FIELDS.get(kind, ()):
        if isinstance(rec.get(f), list):
            out[f] = [redact(v)[0] if isinstance(v, str) else v for v in rec[f]]
    return out


def item_closed(memory_dir: str, item: str) -> str:
    """The text ``item`` of an open item just closed, as ``lh memory close`` and the page's Close say
    it: redacted when the hold check finds a secret in it, asked of the verdicts the listings keep
    (that of an item they listed is kept: no redactor is loaded for it)."""
    from lazy_harness.memory import verdicts

    kept = verdicts.listing_verdicts(memory_dir)
    said = text(item, kept.secret(item))
    try:
        kept.save(keep_known=True)
    except OSError:  # why: a cache; the item is closed all the same
        pass
    return said


def _split_back(values: list[str], cleaned: str) -> list[str]:
    """``cleaned``, the redacted join of ``values``, cut back into one part per value: where a join
    point fell inside a replaced run (a secret across two fields), the marker ends the earlier part
    and the later starts after it."""
    if len(values) < 2:
        return [cleaned]
    import difflib

    joined = SEP.join(values)
    blocks = difflib.SequenceMatcher(None, joined, cleaned, autojunk=False).get_opcodes()
    cuts: list[tuple[int, int]] = []  # (where the earlier part ends, where the next starts) in ``cleaned``
    at = 0
    for value in values[:-1]:
        at += len(value)  # the separator's position in ``joined``
        op, i1, _, j1, j2 = next(b for b in blocks if b[1] <= at < b[2])
        cuts.append((j1 + at - i1, j1 + at - i1 + 1) if op == "equal" else (j2, j2))
        at += len(SEP)
    starts = [0] + [nxt for _, nxt in cuts]
    ends = [end for end, _ in cuts] + [len(cleaned)]
    return [cleaned[s:e].strip(SEP) if s <= e else "" for s, e in zip(starts, ends, strict=True)]
