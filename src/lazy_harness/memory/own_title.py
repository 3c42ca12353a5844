"""One rule for a title that this project's learning and another project's both have (ADR 0063, 0071):
the project's own text is its word on the subject, so the other project's learning of that title is
left out wherever a session of this project is given learnings (the SessionStart digest and prompt
recall) and labelled where a person lists them (``lh memory search``). A title is matched by its words
(``ids.title_words``), spelt as it may be. Hot path: only our hot-path modules at import time.
"""

from __future__ import annotations

from lazy_harness.memory import ids

# why: not ``typing.TYPE_CHECKING``: ``typing`` is not imported on the hot path (house style section 3)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator


def title_of(title: object, path: str) -> str:
    """A learning's title as the rule matches it: its words; a file without a title, its name's."""
    return ids.title_words(title or ids.title_of_file(path))


def other_of_own_title(own_titles: dict[str, str], title: object, path: str) -> str:
    """The id of this project's learning whose title another project's learning (``title``, ``path``)
    has, or "": ``own_titles`` maps each of this project's titles (:func:`title_of`) to its id."""
    return own_titles.get(title_of(title, path), "") if own_titles else ""


def titles_among(rows: Iterable[tuple[str, ...]], wanted: Iterable[tuple[object, str]],
                 counts: Callable[[tuple[str, ...]], bool] | None = None) -> dict[str, str]:
    """``{title: id}`` (:func:`title_of`) of this project's learnings ``rows`` (id, title, file, ...) whose
    title is one of ``wanted`` (title, file): the first row of each that ``counts`` (asked of those rows
    alone: a held one is shown only when approved). why the first word first: working out the
    words of every title of a project's learnings cost a millisecond a prompt at 300 of them; a title of
    ASCII that lacks the first word of every title wanted cannot be one of them."""
    titles = {title_of(t, p) for t, p in wanted}
    firsts = {t.split(" ", 1)[0] for t in titles}
    out: dict[str, str] = {}
    for row in rows:
        lid, title, path = row[0], row[1], row[2]
        raw = str(title or path)
        if raw.isascii() and not any(w in raw.casefold() for w in firsts):
            continue
        if (mine := title_of(title, path)) in titles and mine not in out and (counts is None or counts(row)):
            out[mine] = lid
    return out


def own_title_wins(ranked: Iterable[dict], is_own: Callable[[dict], bool],
                   key: Callable[[dict], str], known: Iterable[str] = ()) -> Iterator[dict]:
    """``ranked`` (this project's learnings first) less another project's learning whose title (``key``:
    :func:`title_of`) one of this project's before it has, or one of ``known`` (this project's titles not
    ranked: the running session's own learnings, which are not shown to it again)."""
    titles: set[str] = set(known)
    for h in ranked:
        title = key(h)
        if is_own(h):
            titles.add(title)
        elif title in titles:
            continue
        yield h
