"""What the usage lists leave out (ADR 0036): the entries sessions are no longer shown, so no use
forgetting them. The page's "Never used" (ui/usage_section.py) and ``lh memory usage``'s costly list
(cli/memory_usage.py) both ask :func:`done_with`.

The learnings are judged from heads the caller read (recall/ reads them; the store imports nothing of
what reads it), each with its id as the index gives it."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Collection, Iterable


def done_with(memory_dir: str, wanted: Collection[str], learning_heads: Iterable[tuple[str, dict]]) -> set[str]:
    """The ids of ``wanted`` that this folder's sessions are no longer shown, as the readers judge it:
    a decision or failure a mark leaves out (forgotten, merged, superseded, held: ``marks.hidden``); a
    learning none of whose files is in use (forgotten, deprecated, held: ``frontmatter.is_active``);
    a handoff item closed (forgotten or done). An id memory no longer holds is not one (the lists say
    so). ``learning_heads``: ``(id, head)`` of each learning file, iterated only when a learning is
    wanted (a generator then reads no file for a list of none)."""
    from lazy_harness.memory import handoff, ids, marks

    out = {eid for eid in marks.hidden(memory_dir) if eid in wanted}
    kinds = {ids.kind_of(eid) for eid in wanted}
    if "handoff" in kinds:
        items = handoff.load(memory_dir)[0]
        out.update(eid for eid in wanted if eid in items and not items[eid].is_open)
    if "learning" in kinds:
        out |= _learnings_not_in_use(learning_heads, {eid for eid in wanted if ids.kind_of(eid) == "learning"})
    return out


def _learnings_not_in_use(learning_heads: Iterable[tuple[str, dict]], wanted: set[str]) -> set[str]:
    """The wanted learnings with a file and none of their files in use. why every file: one learning
    written on two days is shown while either file is active, as SessionStart reads them."""
    from lazy_harness.memory import frontmatter

    active: dict[str, bool] = {}
    for lid, head in learning_heads:
        if lid in wanted:
            active[lid] = active.get(lid, False) or frontmatter.is_active(head)
    return {lid for lid, live in active.items() if not live}
