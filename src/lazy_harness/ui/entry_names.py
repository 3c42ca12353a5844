"""How the page names an entry: its title, the origin of a learning the shown project did not write
(``from <origin>``, as "Learnings" marks it), and what its Forget asks. The lists that know only an
id ("Injected into recent sessions", "Never used") and the ranked table of "What a prompt gets" name
an entry as "Learnings" does, so another project's learning is never taken for this one's."""

from __future__ import annotations

from typing import NamedTuple

from lazy_harness.ui import memory_lists
from lazy_harness.ui.markup import esc, text

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from lazy_harness.ui.reading import Project

EVERYWHERE = "Forget this learning in every project?"


class Named(NamedTuple):
    """An entry's title, the mark of the project that wrote it when not the one shown (:func:`origin`,
    '' for its own) and what its Forget asks."""

    title: str
    origin: str = ""
    question: str = "Forget this entry?"

    def html(self) -> str:
        return text(self.title) + self.origin


def note(origin: object, twin: bool = False) -> str:
    """`` from <origin>`` as HTML; ``twin``: a project of the shown one's name in another folder (its
    name alone would read as this project's)."""
    said = f"from {origin or 'unknown'}" + (" (another project of this name)" if twin else "")
    return f' <span class="meta">{esc(said)}</span>'


def origin(p: Project, item: Mapping, mine: bool) -> str:
    """The mark of a learning (its head) project ``p`` did not write: its origin; '' for ``p``'s own
    (``mine``: listed as its own, ``memory_lists.learnings``) written under its name."""
    said = item.get("origin")
    if said == p.name:
        return "" if mine else note(said, twin=True)
    return note(said)


def learning_question(item: Mapping) -> str:
    """What Forget of a learning asks. why every project for a general one: it is one file every
    project reads, and ``lh memory forget`` marks it forgotten from any project's folder."""
    from lazy_harness.memory import state

    return EVERYWHERE if state.crosses(dict(item)) else "Forget this learning?"


def ranked_origin(p: Project, c: Mapping) -> str:
    """The mark of a ranked candidate (``explain.report``) that is another project's learning, as
    prompt recall tells them apart (``rank.groups_needed``): written under another name, or by a
    project of this name in another folder (``same_name``)."""
    if c["kind"] != "learning" or (c.get("origin") == p.name and not c.get("same_name")):
        return ""
    return note(c.get("origin"), twin=bool(c.get("same_name")))


def titles(p: Project, cross: str = "ask") -> dict[str, Named]:
    """``{id: Named}`` of project ``p``'s entries and of the general learnings of other projects it
    lists, to name what a session was given and what it never used. One held for a secret, or ended
    holding one, is named redacted as the lists give it (ADR 0062; ``cross``: the page's ``[trust]
    cross_projects``)."""
    out = {i["id"]: Named(i["text"]) for i in memory_lists.handoff_items(p)}
    for kind in ("decision", "failure"):  # why entries, not records: their states say which text to redact
        out.update((rec["id"], Named(rec.get("summary") or "")) for rec in memory_lists.entries(p, kind))
    own, general = memory_lists.learnings(p, cross)
    for group, mine in ((own, True), (general, False)):
        out.update((item["id"], Named(str(item.get("title") or ""), origin(p, item, mine), learning_question(item)))
                   for item in group)
    return out
