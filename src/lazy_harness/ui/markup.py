"""Small HTML builders. Every piece of text goes through :func:`esc`: memory is written by a model
from transcripts and edited by hand, so it is untrusted (``<script>`` in an entry stays text)."""

from __future__ import annotations

import html

from lazy_harness.logfile import terminal_safe
from lazy_harness.memory.fence import local_time
from lazy_harness.memory.files import iso_epoch

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable


LIMIT = 100  # rows of a list shown before "show all" (``?all=1``)


def esc(value: object) -> str:
    """Text for an HTML text node or a quoted attribute; controls and bidi overrides shown as escapes."""
    return html.escape(terminal_safe("" if value is None else str(value), "\n\t"), quote=True)


def text(value: object, tag: str = "span") -> str:
    """An entry's own text (a summary, a title, an item): it wraps anywhere (ui.css) and takes its own
    direction (``dir="auto"``), so a Hebrew or Arabic line ending in "!" shows it at its end."""
    return f'<{tag} class="text" dir="auto">{esc(value)}</{tag}>'


def form(target: str, token: str, fields: dict, label: str, confirm: str | None = None,
         css: str = "act") -> str:
    """A POST form to the path ``target``: the form token in a hidden field (the server checks it), one
    button."""
    hidden = "".join(f'<input type="hidden" name="{esc(k)}" value="{esc(v)}">' for k, v in fields.items())
    ask = f' data-confirm="{esc(confirm)}"' if confirm else ""
    return (f'<form class="{esc(css)}" method="post" action="{esc(target)}"{ask}>'
            f'<input type="hidden" name="token" value="{esc(token)}">{hidden}'
            f'<button type="submit">{esc(label)}</button></form>')


def day_of(ts: object) -> str:
    """A stored time's day in the reader's time zone (``fence.local_time``), as ``lh memory show`` prints
    it; one that does not parse as written (its first ten characters)."""
    return local_time(iso_epoch(ts)) or (ts[:10] if isinstance(ts, str) and len(ts) >= 10 else "undated")


def when_of(ts: object) -> str:
    """A stored time's minute in the reader's time zone (``2026-11-30 23:00``); one that does not parse
    as written."""
    return (local_time(iso_epoch(ts), minutes=True)
            or (ts[:16].replace("T", " ") if isinstance(ts, str) and len(ts) >= 16 else str(ts or "?")))


def forget_or_why(act: Callable[..., str], question: str, eid: str, refused: str | None = None) -> str:
    """An entry's Forget button (``act``: the view's), or, where ``lh memory forget`` refuses its id
    (``refused``: its message, ``memory_lists.forget_refusals``), that message: it says what to do instead."""
    if refused:
        return f'<p class="meta refused">lh memory forget refuses {esc(eid)}: {esc(refused)}</p>'
    return act("forget", "Forget", question, id=eid)
