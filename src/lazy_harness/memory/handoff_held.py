"""The mark handoff.md's render adds to the note of an open item the hold check holds (ADR 0024), and
which items get it: read without it, a held item looked like one the next session is told. The note's
parsing (memory/handoff_markdown.py) cuts the mark wherever it falls, so it never becomes item text.
"""

from __future__ import annotations

from lazy_harness.memory import ids
from lazy_harness.memory.sanitize import one_line

TYPE_CHECKING = False  # why: not typing's: SessionStart loads this module (house style section 3)
if TYPE_CHECKING:
    from lazy_harness.memory.handoff_log import Item

HELD_MARK = "; held: "
HELD_HINT = " (shown to no session; "
# what the hint names: the approval, or (an item that holds a secret is never approved: ADR 0056) what
# does show it (a reworded line is an item of its own, checked anew) or takes it out
APPROVE = "lh memory approve "
NO_APPROVAL = "no approval while it holds a secret: reword it or lh memory forget "


def held_mark(hid: str, reason: str) -> str:
    """What a render adds to the note of an open item the hold check holds (ADR 0024): ``; held: <reason>
    (shown to no session; lh memory approve <id>)``, the reason as ``lh memory show`` tags the item; an
    item held for a secret names what shows it instead of the approval, which refuses it.
    why: read without it, the item looked like one the next session is told."""
    from lazy_harness.memory.trust import SECRET

    act = NO_APPROVAL if f"{SECRET} (" in reason else APPROVE
    return f"{HELD_MARK}{one_line(reason)[:300] or '?'}{HELD_HINT}{act}{hid})"


def held_end(words: str, at: int) -> int | None:
    """Where the :func:`held_mark` a render adds to a note ends, when it starts at ``words[at]``."""
    if not words.startswith(HELD_MARK, at):
        return None
    hint = words.find(HELD_HINT, at)
    close = words.find(")", hint + len(HELD_HINT)) if hint >= 0 else -1
    return close + 1 if close >= 0 and marked_id(words[hint:close + 1]) else None


def marked_id(hint: str) -> str | None:
    """The id a held mark's hint (``HELD_HINT`` up to its closing parenthesis) names, else None."""
    said = hint[len(HELD_HINT):-1] if hint.startswith(HELD_HINT) and hint.endswith(")") else ""
    for act in (APPROVE, NO_APPROVAL):
        if said.startswith(act) and ids.kind_of(said[len(act):]) == "handoff":
            return said[len(act):]
    return None


def held_reasons(memory_dir: str, opened: list[Item]) -> dict[str, str]:
    """``{id: the hold's reason}`` of the open items shown to no session, as ``lh memory show`` tags
    them (memory/held_review.py ``States``, which reads this folder's items and so sits above this
    module; of the approvals only the MAC check, memory/approval_key.py, which reads none): a hold
    mark, else the check on the text at read time (the worker renders before it records the hold),
    and a secret whatever approved the item (ADR 0056). An approve mark counts only when it carries
    the person's MAC of the text (ADR 0052): another's (a synced marks.jsonl) leaves the item held,
    with the reason ``lh memory show`` adds."""
    if not opened:
        return {}
    from lazy_harness.memory import approval_key, marks, trust, verdicts

    recs = marks.read(memory_dir)
    hiding = marks.hidden(memory_dir, recs)
    approved: dict[str, list[object]] = {}  # the MACs each approve mark carries
    for r in recs:
        if r["op"] == "approve":
            approved.setdefault(r["id"], []).append(r.get("mac"))
    # why the views' kept verdicts: checked anew, 300 open items cost every write some 350 ms
    kept = verdicts.listing_verdicts(memory_dir)
    out = {}
    for item in opened:
        hid, text = item["id"], trust.text_of({"text": str(item.get("text") or "")}, "handoff")
        mark = hiding.get(hid)
        if mark is None and hid in approved and not approval_key.counts("handoff", hid, text, approved[hid]):
            # why as held_review's _record_state: the check's first reason, the approval's, then a secret
            why = kept.reason(text)
            found = kept.secret(text) if why else None
            why = why and f"{why}; {approval_key.NOT_HERE}" + (f"; {found}" if found and found not in why else "")
        elif mark is None:
            why = kept.secret(text) if hid in approved else kept.every_reason(text)
        elif mark["op"] == "hold":
            why, found = str(mark.get("reason") or "?"), kept.secret(text)
            why += f"; {found}" if found and found not in why else ""
        else:
            continue
        if why:
            out[hid] = why
    try:
        kept.save(keep_known=True)
    except OSError:  # why: a cache; the next render checks those texts again
        pass
    return out

