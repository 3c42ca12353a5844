"""Of the decision or failure lines carrying one id, the one every reader shows (ADR 0059): the last
written (a line copied and reworded by hand, its ``id`` kept, is the person's newest word, as an edit
in place is), unless the id is the hash of one line's summary and a later one came with ``lh sync``
merely carrying it: such a line is shown nowhere, and the entry stands.

Two lines whose different summaries both hash to the id (:func:`collided`) are two entries, each shown.
One rule for every reader: the index's writer (``recall.index.sources``, ``recall.index.apply``),
SessionStart's digest (``recall.readback.digest``), ``lh memory show`` and the page. Hot path: only
our hot-path ``memory`` modules at import time.
"""

from __future__ import annotations

from lazy_harness.memory import ids, provenance

# why: not ``from typing import TYPE_CHECKING``: memory never imports ``typing`` at run time (the hooks
# load its read side: house style section 3)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from lazy_harness.memory.shapes import Env

# how a decision or failure line carries its id (:func:`claim_of`): the hash of its summary; kept by
# this machine's hand (an edit or a copy); brought by ``lh sync`` under another text
OWN, KEPT, BROUGHT = 2, 1, 0


def claim_of(rec: dict, kind: str, eid: str, env: Env | None = None) -> int:
    """How a decision or failure line carries its id ``eid``: ``OWN`` when the id is the hash of its
    summary (``ids.derives``); else ``BROUGHT`` when it came with ``lh sync`` (what
    ``provenance.describe`` calls "sync from": another machine's, or in this machine's record of what
    sync brought in), else ``KEPT``: this machine's line edited or copied by hand, its id kept.
    ``env``: whose record of what sync brought in (None: this process's environment's)."""
    if ids.derives(eid, kind, ids.key_of(kind, rec.get("summary"))):
        return OWN
    via, theirs = rec.get("via"), rec.get("machine")
    if isinstance(via, str) and via and isinstance(theirs, str) and theirs and theirs != provenance.here(env)[0]:
        return BROUGHT
    return BROUGHT if provenance.arrived(rec, kind, env) else KEPT


def standing(claims: list[int]) -> tuple[int, list[int]]:
    """Of the entries carrying one id, in the order they were written (a file's lines; learnings: the
    newest file last) with their :func:`claim_of`: (the place of the one every reader shows, the places
    of those it stands for, itself among them). A line brought by sync that merely carries the id of
    one whose summary the id is the hash of is stood for by none."""
    own = OWN in claims
    kept = [k for k, claim in enumerate(claims) if not (own and claim == BROUGHT)]
    return kept[-1], kept


def collided(summaries: list[object], kind: str) -> bool:
    """Whether the lines of one id that claim it as ``OWN`` (their ``summaries``) are entries of their
    own: two different summaries the id is the hash of, a collision of its 8 hex characters in lines
    written before ids were checked (ADR 0043). Not an edit: each stands, none is set aside."""
    return len({ids.key_of(kind, summary) for summary in summaries}) > 1


def one_each(recs: list[dict], kind: str, env: Env | None = None) -> list[dict]:
    """``recs`` (oldest first, decisions or failures of one file) with one line for each id, the one
    that stands (:func:`standing`), in its place. ``env``: as :func:`claim_of`'s."""
    places: dict[str, list[int]] = {}
    for k, rec in enumerate(recs):
        places.setdefault(ids.of_record(rec, kind), []).append(k)
    if len(places) == len(recs):
        return recs  # why: the usual case, no id twice: no claim is read
    drop: set[int] = set()
    for eid, at in places.items():
        if len(at) > 1:
            claims = [claim_of(recs[k], kind, eid, env) for k in at]
            if collided([recs[k].get("summary") for k, c in zip(at, claims, strict=True) if c == OWN], kind):
                continue
            top, _ = standing(claims)
            drop.update(k for n, k in enumerate(at) if n != top)
    return [rec for k, rec in enumerate(recs) if k not in drop]
