"""The page's usage section (ADR 0036): shown against used per week as an inline SVG made here, the
failures that recurred after memory showed them, and the entries shown and never used (of those the
audit can measure), each with the page's forget at hand (an id memory no longer holds: marked so).
The same counts as ``lh memory usage`` (memory/usage_log.py)."""

from __future__ import annotations

import time

from lazy_harness.memory.done_with import done_with
from lazy_harness.ui import held_and_usage
from lazy_harness.ui.markup import LIMIT, esc, forget_or_why, when_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from typing import Protocol, TypeVar

    from lazy_harness.memory.usage_log import Entry
    from lazy_harness.ui.entry_names import Named
    from lazy_harness.ui.reading import Project

    class Page(Protocol):
        """What the section reads of the page's view (``ui.sections.View``, which imports this module)."""

        project: Project
        now: float
        base: str
        everything: bool

        def act(self, action: str, label: str, confirm: str | None = None, **fields: str) -> str: ...

        def all_link(self, anchor: str) -> str: ...

    P = TypeVar("P", bound=Page)

WEEKS = 12


def plot(weeks: dict[str, list[int]], now: float, n: int = WEEKS) -> str:
    """Two bars per week for the last ``n`` weeks: entries shown (to distinct sessions), entries used."""
    from lazy_harness.memory.usage_log import WEEK, monday

    days = [monday(now - k * WEEK) for k in range(n - 1, -1, -1)]
    top = max((max(weeks.get(d, [0, 0])) for d in days), default=0) or 1
    width, height, gap = 10, 80, 8
    bars = []
    for k, day in enumerate(days):
        shown, used = weeks.get(day, [0, 0])
        x = k * (2 * width + gap)
        parts = []
        for j, (count, css) in enumerate(((shown, "bar"), (used, "bar used"))):
            h = max(1.0, count / top * height) if count else 0.0
            parts.append(f'<rect x="{x + j * width}" y="{height - h:.1f}" width="{width}" height="{h:.1f}" '
                         f'class="{css}"></rect>')
        bars.append(f'<g><title>week of {esc(day)}: {shown} shown, {used} used</title>{"".join(parts)}'
                    f'<text x="{x + width}" y="{height + 14}" class="axis">{esc(day[5:])}</text></g>')
    w = n * (2 * width + gap)
    return (f'<svg class="chart usage" role="img" aria-label="entries shown and used per week" '
            f'viewBox="0 0 {w} {height + 20}" width="{w}" height="{height + 20}">{"".join(bars)}</svg>')


def section(v: P, titles_of: Callable[[P], dict[str, Named]], entry: Callable[..., str]) -> str:
    """The section's HTML; ``titles_of(v)`` names the entries, ``entry(...)`` makes one list item (the
    page's own, in ui/sections.py). Each list shows its first LIMIT rows unless the page was asked
    for everything, with a line saying how many more and where every one is listed."""
    # as lh memory usage counts, kept while usage.jsonl is unchanged
    t, left_out = held_and_usage.usage_counted(v.project)
    # why: a damaged line drops out of every figure; said, the person knows they count less
    damaged = (f'<p class="warn">{esc(left_out)}: not counted; <code>lh memory check</code> names every damaged '
               'line</p>') if left_out else ""
    if not t.entries:
        return damaged + ('<p class="empty">'
                          "No entry shown to a distilled session yet: the worker counts a session when it distils "
                          "it.</p>")
    totals = t.totals()
    head = damaged + (
        f'<p class="counts">{totals["sessions"]} session(s), {totals["shown"]} shown, {totals["used"]} used, '
        f'{totals["injected_chars"]} characters injected, {totals["recurrences"]} recurrence(s) '
        f'<span class="meta">(lh memory usage)</span></p>')
    legend = '<p class="meta">Per week: entries shown (first bar) and used (second bar).</p>'
    cut = None if v.everything else LIMIT
    # why sorted: most recurrences first, ties in the order they were recorded (sorted is stable)
    again = sorted((e for e in t.entries.values() if e.recurred), key=lambda e: -len(e.recurred))
    never = t.never_used()
    gone = done_with(v.project.memory_dir, {e.id for e in never}, _learning_heads(v.project.learnings_dir))
    never = [e for e in never if e.id not in gone]
    titles = titles_of(v) if again or never else {}
    told = ""
    if again:
        recurred = "".join(
            entry(e.id, f'{_title(titles, e.id)} <span class="badge">recurred in '
                         f'{len(e.recurred)} session(s) after memory showed it</span>', "") for e in again[:cut])
        told = (f'<h3>Recurred after memory showed them</h3><ul class="entries recurred">{recurred}</ul>'
                + _more(v, cut, len(again), "that recurred in the most sessions"))
    return head + plot(t.weeks, v.now or time.time()) + legend + told + _never_used(v, never, cut, titles, entry)


def _learning_heads(learnings_dir: str) -> Iterator[tuple[str, dict]]:
    """``(id, head)`` of each learning file, as ``memory.done_with`` judges them."""
    from lazy_harness.memory import files
    from lazy_harness.recall.readback import learnings as heads
    from lazy_harness.ui.file_reads import parsed

    for path in files.recent_learning_files(learnings_dir, 10**9):
        head = parsed(path, heads.read_head)  # kept while the file is unchanged: the page asks at each load
        if head is not None:
            yield heads.learning_id(head), head


def _never_used(v: Page, never: list[Entry], cut: int | None, titles: dict[str, Named],
                entry: Callable[..., str]) -> str:
    """The entries shown and never used, most shown first (``Tally.never_used``), each with Forget."""
    from lazy_harness.memory import usage_log

    if not never:
        return '<p class="empty">No entry shown and never used (forgotten ones are not listed).</p>'
    from lazy_harness.memory.ids import PREFIXES
    from lazy_harness.ui.memory_lists import forget_refusals

    listed = never[:cut]
    refused = forget_refusals(v.project) if any(e.id.startswith(PREFIXES["learning"]) for e in listed) else {}
    rows = []
    for e in listed:
        meta = (f'<span class="meta">shown in {len(e.shown)} session(s), never used; {e.chars} characters; '
                f'last shown {esc(when_of(usage_log.stamp(e.last_shown)))}</span>')
        # why no Forget for an id memory no longer holds (deleted or retyped by hand): forget refuses it;
        # a general learning's asks about every project: forget marks the one file every project reads
        forget = forget_or_why(v.act, titles[e.id].question, e.id, refused.get(e.id)) if e.id in titles else ""
        rows.append(entry(e.id, f'{_title(titles, e.id)} {meta}', "",
                          f'<div class="actions">{forget}</div>' if forget else ""))
    return (f'<h3>Never used</h3><ul class="entries never-used">{"".join(rows)}</ul>'
            + _more(v, cut, len(never), "shown in the most sessions"))


def _more(v: Page, cut: int | None, total: int, which: str) -> str:
    """The line under a cut list: the rows shown, how many more, the link to every one and the command
    that lists every entry; '' when nothing was cut."""
    if cut is None or total <= cut:
        return ""
    link = esc(v.all_link("usage"))
    return (f'<p class="more">Shown: the {cut} {esc(which)} of {total}; {total - cut} more: '
            f'<a href="{link}">show all</a>, or <code>lh memory usage</code> lists every entry with its counts</p>')


def _title(titles: dict[str, Named], eid: str) -> str:
    """An entry's title as HTML (with the origin of a learning another project wrote), or that memory
    no longer holds it."""
    return titles[eid].html() if eid in titles else '<span class="meta">(no longer in memory)</span>'
