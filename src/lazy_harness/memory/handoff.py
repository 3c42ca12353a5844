"""Handoff items: the open work a session leaves for the next ones, kept as an append-only log.

    <memory dir>/handoff.jsonl   the state: one record per change, never rewritten
        {"op": "open"|"close", "id": "h-1a2b3c4d", "text", "session_id", "task_id", "ts", "reason"?, "agent"?}
    <memory dir>/handoff.md      the open items rendered from that state after every change

Folding the records gives the items. For each id the record with the greatest ``(ts, op)`` wins,
a close beating an open at the same time; further ties go by session, task and text, so the fold
is a function of the set of records and never of their order (two machines' lines concatenated in
any order give one state). ``ts`` is the session's time (its transcript's mtime), not the time of
processing: an older session processed late cannot reopen what a newer session closed.

An item's id is ``ids.handoff_id`` of its normalised text, so a restated item is the same item.
Its opened time and session are those of the first open after its last close.

handoff.md carries, in its header comment, a digest of its item lines and the ids it listed. When the
digest no longer matches, the file was edited by hand: a new line opens an item, a deleted (or ticked)
line closes its item, both by session ``hand-edit`` at the file's mtime. The ``opened ... by ...`` note a
render writes under an item is never item text, also when an editor's reflow joined it onto the item's
line or wrapped it (``_item_text``): such an item is unchanged. A handoff.md with no state
file beside it (written before the state existed, or by hand) is imported as open items. Readers apply
both in memory (``load``); writers append them first (``apply_answer``, ``merge_markdown``). A damaged
handoff.md (:func:`damaged`: NUL bytes, not UTF-8, or text with neither the header nor a list line) is
no edit: readers take the log alone, and the next writer keeps a copy (``copies_dir``) and renders it
again. A leading byte order mark is ignored. A writer that finds handoff.md behind the log (a writer
killed between the append and the render) renders it again even when it appends nothing, unless the
file holds a hand edit saved since it read it. Every render reads handoff.md once more and, just
before its rename, checks the file is still the one it read: a hand edit saved in between is appended
and the render done again, never written over (``write_markdown``). The records and the fold live in
``memory.handoff_log``; their names are re-exported here.

Hot path: the SessionStart read-back calls ``load``, so this module imports only ``os`` and our
hot-path modules; ``jsonload`` encodes the records.
"""

from __future__ import annotations

import os

from lazy_harness import jsonload
from lazy_harness.atomic import FileChanged, append_line, atomic_write, file_key
from lazy_harness.memory import files, ids
from lazy_harness.memory.handoff_log import (  # noqa: F401 - the log's names are this module's API too
    CLOSE, DAY, OPEN, STALE_DAYS, STATE, Item, wins, age_days, by_whom, changes, why_closed, closed_items, epoch, fold,
    id_for, is_stale, items, open_items, parse, read_records, record, split_ref, stamp)
from lazy_harness.memory.sanitize import normalise, one_line

# why: not ``from typing import TYPE_CHECKING``: memory never imports ``typing`` at run time (the hooks
# load its read side: house style section 3)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    # What a writer read of handoff.md: the file's ``file_key`` (taken before the read) and the text with
    # its mtime (None: missing, empty or too large). The render checks the file against it (write_markdown).
    Seen = tuple[tuple[int, int, int], tuple[str, float] | None]

TITLE = "# Open items for the next session"
HAND_EDIT = "hand-edit"


def header_token(value: object, spaces: bool = False) -> str:
    """A header value: one line, never closing the comment; ids also lose their spaces."""
    s = one_line(value).replace("-->", "->")
    return s if spaces else s.replace(" ", "_")


# --- handoff.md --------------------------------------------------------------------------------------

def parse_markdown(text: str, state: dict[str, Item] | None = None
                   ) -> tuple[dict, list[tuple[str, str | None, str, bool]]]:
    """(marker fields, item lines). An item line is ``(line, id named on it or None, text, ticked)``.

    Items are markdown list lines: ``- ``, ``* ``, ``+ `` or numbered (``1. ``, ``1) ``); ``- [x]``
    ticked. An indented line under an item continues its text, unless it is our own note
    (:func:`our_note`, the ``opened ... by ...`` line a render writes), with or without the header.
    The note joined onto an item's lines by an editor's reflow is left out too (:func:`_item_text`;
    ``state`` gives each known item's own note).
    """
    marker: dict[str, str] = {}
    # why: an editor may save the file with a byte order mark, which would hide the first line's "- "
    lines = text.removeprefix("\ufeff").split("\n")
    for line in lines:
        if line.strip().startswith(files.HANDOFF_MARK):
            marker = files.marker_fields(line.strip())
            break
    blocks: list[list] = []  # [line, id, first line's text, ticked, [(indented line, is our note)]]
    current: list | None = None
    for line in lines:
        entry = _list_item(line)
        if entry is not None:
            entry = entry.strip()
            ticked = entry[:3].lower() == "[x]"
            if entry[:3] in ("[ ]", "[x]", "[X]"):
                entry = entry[3:].strip()
            hid, body = split_ref(entry)
            current = [line.rstrip(), hid, body, ticked, []]
            blocks.append(current)
        elif current is not None and line.strip() and line[:1] in (" ", "\t"):
            # why: the note is dropped by its exact format, not by the header: a file whose header was
            # deleted glued "opened ... by session ..." onto every item, and a person's detail line
            # under an item in a file we rendered was dropped without a word
            note = our_note(line)
            if not note:  # the line joins the item's, so the digest sees the edit
                current[0] = f"{current[0]}\n{line.rstrip()}"
            current[4].append((line.strip(), note))
        elif not (line[:1] in (" ", "\t") and line.strip()):
            current = None
    known = state or {}
    out = [(b[0], b[1], _item_text(b[2], b[4], b[1], known.get(b[1]) if b[1] else None), b[3]) for b in blocks]
    return marker, [x for x in out if normalise(x[2]) or x[1]]


def _item_text(body: str, more: list[tuple[str, bool]], hid: str | None, item: Item | None) -> str:
    """An item line's text: its first line's ``body`` and the indented lines ``more`` under it (each
    with whether it is our note line), less our note lines and less the render's note joined in.
    why: an editor's reflow (vim ``gqip``, VS Code Rewrap) joins the note line onto the item's and may
    wrap both anew; read as item text, the note made every item look reworded by hand (closed, reopened
    under a new id, the note sent to every session). A known ``item``'s own note is cut wherever it
    falls, across lines too (a person's detail line under it then follows it); without it, on a line
    naming an id, a note that runs to the end (:func:`without_note`: the item's state changed since)."""
    parts, cuts = [" ".join(body.split())], []  # cuts: (start, end) of what is left out of the joined text
    end = len(parts[0])
    for segment, note in more:
        parts.append(" ".join(segment.split()))
        start, end = end + 1, end + 1 + len(parts[-1])
        if note:
            cuts.append((start, end))
    joined = " ".join(parts)
    own = _own_notes(joined, note_of(item)) if item is not None else []
    kept, last = [], 0
    for start, end in sorted(cuts + own):
        kept.append(joined[last:max(last, start)])
        last = max(last, end)
    text = " ".join("".join([*kept, joined[last:]]).split())
    cut = without_note(text) if hid and not own else None
    return text if cut is None else cut


def note_of(item: Item) -> str:
    """The note :func:`render` writes under ``item``, less its indent and any stale suffix:
    ``opened 2026-04-13 18:32 by session abc``."""
    return f"opened {(item['opened'] or '?')[:16].replace('T', ' ')} {by_whom(item['opened_by'])}"


def without_note(text: str) -> str | None:
    """``text`` (whitespace collapsed) less a render's note joined on last: ``opened <YYYY-MM-DD HH:MM | ?>
    by ...`` (:func:`our_note`) running to the end; None when it holds none."""
    words = " ".join(text.split())
    at = words.find("opened ")
    while at >= 0:
        if (at == 0 or words[at - 1] == " ") and our_note(f"  {words[at:]}"):
            return words[:at].strip()
        at = words.find("opened ", at + 1)
    return None


def _own_notes(words: str, own: str) -> list[tuple[int, int]]:
    """Where the note ``own`` stands in ``words`` as whole words, each with the ``; stale: open N days``
    a render may add after it."""
    found: list[tuple[int, int]] = []
    at = words.find(own)
    while at >= 0:
        end = _own_end(words, at, own) if at == 0 or words[at - 1] == " " else None
        if end is not None:
            found.append((at, end))
        at = words.find(own, at + 1 if end is None else end)
    return found


def _own_end(words: str, at: int, own: str) -> int | None:
    """Where ``own`` (and a stale suffix after it) ends when it starts at ``words[at]`` as whole words."""
    if not words.startswith(own, at):
        return None
    end, stale = at + len(own), "; stale: open "
    if words.startswith(stale, end):
        digits = len(words[end + len(stale):]) - len(words[end + len(stale):].lstrip("0123456789"))
        tail = end + len(stale) + digits
        if digits and words.startswith(" days", tail):
            end = tail + len(" days")
    return end if end == len(words) or words[end] == " " else None


def our_note(line: str) -> bool:
    """Whether ``line`` is the note :func:`render` writes under an item: ``  opened <YYYY-MM-DD HH:MM | ?>
    by ...``, maybe ending ``; stale: open N days``."""
    rest = line.rstrip("\r")
    if not rest.startswith("  opened "):
        return False
    rest = rest[9:]
    if rest.startswith("? "):
        rest = rest[2:]
    elif len(rest) > 17 and rest[16] == " " and _is_minute(rest[:16]):
        rest = rest[17:]
    else:
        return False
    return rest.startswith("by ")


def _is_minute(s: str) -> bool:
    """``YYYY-MM-DD HH:MM``, as the note writes the opening time."""
    shape = "0000-00-00 00:00"
    return all(c.isdigit() if f == "0" else c == f for c, f in zip(s, shape, strict=True))


def _list_item(line: str) -> str | None:
    """The text after a markdown list marker at the start of ``line``; None when it is no list item.
    why: a person adds items the way they write lists; a numbered line that is not read as an item
    would vanish at the next render."""
    if line[:2] in ("- ", "* ", "+ "):
        return line[2:]
    digits = len(line) - len(line.lstrip("0123456789"))
    if 0 < digits <= 3 and line[digits:digits + 2] in (". ", ") "):
        return line[digits + 2:]
    return None


def digest(item_lines: list[str]) -> str:
    return ids.handoff_id("\n".join(item_lines))[2:]


def edited(marker: dict, lines: list) -> bool:
    """True when the item lines of a handoff.md no longer match the digest it was rendered with."""
    return marker.get("digest") != digest([ln[0] for ln in lines])


def markdown_records(state: dict[str, Item], text: str, when: float, has_state: bool, source: str = HAND_EDIT,
                     task_id: str = "", memory_dir: str | None = None) -> list[dict]:
    """Records that bring ``state`` in line with a handoff.md text (see the module docstring). A file
    whose header comment is gone (its lines deleted, or rewritten as the person's own list) closes what the last
    render of ``memory_dir`` listed and is missing from it."""
    marker, lines = parse_markdown(text, state)
    if has_state and not edited(marker, lines):
        return []
    if not has_state and marker.get("session"):
        written = files.iso_epoch(marker.get("written"))
        when, source, task_id = (written if written is not None else when), marker["session"], marker.get("task", "")
    recs: list[dict] = []
    present: set[str] = set()
    for _, hid, text_, ticked in lines:
        item = state.get(hid) if hid else None
        if item is not None and normalise(text_) in ("", normalise(item["text"])):
            if not ticked:
                present.add(item["id"])
            continue
        if ticked or not normalise(text_):
            continue
        new = id_for(state, text_, recs)
        known = state.get(new)
        present.add(new)
        if new in {r["id"] for r in recs} or (known is not None and known.is_open):
            continue
        # why: 1 ms apart, so items imported from one file keep its order (open items sort by time)
        at = when + 0.001 * len(recs)
        if known is not None and source == HAND_EDIT and new not in marker.get("ids", new).split(","):
            # why: a line added to a file we rendered without the item postdates its close, whatever
            # the clocks say (a close stamped by a machine whose clock runs ahead dropped the line)
            at = max(at, known["key"][0] + 0.001)
        rec = record(OPEN, text_, source, task_id, at, hid=new)
        if wins(rec, known):
            recs.append(rec)
    if has_state:
        shown = marker["ids"] if "ids" in marker else ",".join(_rendered_ids(memory_dir))
        listed = [h for h in shown.split(",") if ids.kind_of(h) == "handoff"]
        for hid in listed:
            item = state.get(hid)
            if hid in present or item is None or not item.is_open:
                continue
            # why: a hand edit always postdates the render that listed the item; a clock behind must not undo it
            rec = record(CLOSE, item["text"], source, task_id, max(when, item["key"][0]),
                         reason="removed from handoff.md by hand", hid=hid)
            recs.append(rec)
    return recs


MAX_MARKDOWN_BYTES = 8 * 1024 * 1024


def _read_markdown(memory_dir: str) -> tuple[str, float] | None:
    """handoff.md whole, with its mtime; None when missing, empty, too large to be a hand edit (a cut
    file read as edited would close the items past the cut) or damaged (:func:`damaged`). why empty: an
    editor that saves in place truncates the file first; a writer reading it then closed every item for
    good. To close them all, a person deletes the item lines (a file holding anything else, even one
    blank line, is read)."""
    raw = _read_bytes(memory_dir)
    if raw is None or damaged(raw[0]) is not None:
        return None
    return raw[0].decode("utf-8"), raw[1]


def _read_bytes(memory_dir: str) -> tuple[bytes, float] | None:
    """handoff.md's bytes and mtime; None when missing, empty or past ``MAX_MARKDOWN_BYTES``."""
    path = os.path.join(memory_dir, files.HANDOFF)
    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_MARKDOWN_BYTES + 1)
            mtime = os.fstat(fh.fileno()).st_mtime
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
        return None
    if not data or len(data) > MAX_MARKDOWN_BYTES:
        return None
    return data, mtime


def damaged(data: bytes) -> str | None:
    """Why the bytes of a handoff.md are damage rather than a hand edit, or None when they read as one:
    NUL bytes (what a power cut can leave of a file, its length kept), bytes that are not UTF-8 (binary
    junk; a hand edit saved in Latin-1 too: its bytes cannot be told from an overwritten block), or
    text with neither our header nor any list line. why: read as an edit, each deleted every line,
    and the next writer closed every open item for good. Blank lines alone are an edit (close them all)."""
    why = files.not_text(data)
    if why:
        return why
    text = data.decode("utf-8")
    if not text.strip() or files.HANDOFF_MARK in text or TITLE in text:
        return None
    if any(_list_item(line) is not None for line in text.removeprefix("\ufeff").split("\n")):
        return None
    return "neither its header nor a list line"


def damage_of(memory_dir: str) -> str | None:
    """Why ``memory_dir``'s handoff.md is damaged (:func:`damaged`), None when it is not (or is missing)."""
    raw = _read_bytes(memory_dir)
    return None if raw is None else damaged(raw[0])


DAMAGED_COPY = files.HANDOFF + ".damaged-"


def copies_dir(memory_dir: str) -> str:
    """Where a damaged handoff.md of ``memory_dir`` is kept before the render that replaces it: the
    state folder, per project key. why not beside it: the data folder is synced (``git add -A``), and
    a remote holding anything but memory's files is refused by every machine (sync/repo.py)."""
    from lazy_harness import paths

    return os.path.join(paths.state_dir(), "damaged", os.path.basename(os.path.normpath(memory_dir)))


def _set_aside(memory_dir: str, key: tuple[int, int, int], now: float) -> None:
    """Copy a damaged handoff.md to ``copies_dir`` as ``handoff.md.damaged-<UTC time>`` before the
    render writes over it, so nothing a person typed is lost. Only the file with ``key``: another is
    either not damaged, or the render finds it changed (FileChanged) and looks again."""
    raw = _read_bytes(memory_dir)
    if raw is None or damaged(raw[0]) is None or file_key(os.path.join(memory_dir, files.HANDOFF)) != key:
        return
    import time

    name = DAMAGED_COPY + time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(now))
    folder = copies_dir(memory_dir)
    for n in range(1, 1000):
        path = os.path.join(folder, name if n == 1 else f"{name}-{n}")
        if atomic_write(path, raw[0], exclusive=True):
            return


def behind(memory_dir: str, state: dict[str, Item]) -> bool:
    """True when handoff.md does not show the open items of ``state`` (a writer killed between the append
    and the render) and holds no hand edit still to import: then it may be rendered again without a change."""
    md = _read_markdown(memory_dir)
    if md is None:
        missing = bool(state) and not os.path.lexists(os.path.join(memory_dir, files.HANDOFF))
        return missing or damage_of(memory_dir) is not None  # why damaged: rendered again, kept aside first
    if markdown_records(state, md[0], md[1], bool(state), memory_dir=memory_dir):
        return False  # why: a hand edit saved since the caller's read: the next writer imports it first
    shown: set[str] = set()
    for _, hid, text, ticked in parse_markdown(md[0], state)[1]:
        item = None if ticked or not hid else state.get(hid)
        if item is not None and hid and normalise(text) in ("", normalise(item["text"])):
            shown.add(hid)
        elif not ticked and normalise(text):
            shown.add(id_for(state, text))
    return shown != {i["id"] for i in open_items(state)}


def load(memory_dir: str) -> tuple[dict[str, Item], list[dict]]:
    """The items as a reader should see them, with unsynced hand edits (or a legacy handoff.md) applied
    in memory; and those pending records, which a writer appends with ``sync``."""
    return _loaded(memory_dir, _read_markdown(memory_dir))


def _loaded(memory_dir: str, md: tuple[str, float] | None) -> tuple[dict[str, Item], list[dict]]:
    records = read_records(memory_dir)
    state = fold(records or [])
    if md is None:
        return state, []
    pending = markdown_records(state, md[0], md[1], bool(records), memory_dir=memory_dir)
    if pending:
        state = fold((records or []) + pending)
    return state, pending


def _look(memory_dir: str) -> Seen:
    # why the key before the read: a save after it, even one during the read, changes the key
    return file_key(os.path.join(memory_dir, files.HANDOFF)), _read_markdown(memory_dir)


def load_for_writing(memory_dir: str) -> tuple[dict[str, Item], list[dict], Seen]:
    """:func:`load` for a writer (it holds the folder's lock): also what it read of handoff.md, to give
    :func:`write_markdown`, so a hand edit saved after this read is not written over."""
    seen = _look(memory_dir)
    return (*_loaded(memory_dir, seen[1]), seen)


def _saved_since(memory_dir: str, seen: Seen, now: Seen, records: list[dict]) -> list[dict]:
    """The records of a hand edit saved since ``seen`` was read (handoff.md is now ``now``): what the file
    says against the log, less what the file as read said. why less: the writer appended its own
    records since (a close of an item the person had added), and the file as read, taken again against
    them, would undo them (reopen the item)."""
    if now[1] is None:
        return []  # emptied (an editor saving in place) or removed: nothing to import (see _read_markdown)
    state = fold(records)
    recs = markdown_records(state, now[1][0], now[1][1], bool(records), memory_dir=memory_dir)
    if seen[1] is None or not recs:
        return recs
    stale = {(r["op"], r["id"]) for r in markdown_records(state, seen[1][0], seen[1][1], bool(records),
                                                          memory_dir=memory_dir)}
    return [r for r in recs if (r["op"], r["id"]) not in stale]


def render(state: dict[str, Item], meta: dict, now: float, stale_days: float = STALE_DAYS) -> str:
    """handoff.md for ``state``: the open items, each with its id, opening time and session."""
    session = header_token(meta.get("session_id"))
    task = header_token(meta.get("task_id"))
    project = header_token(meta.get("project"), spaces=True)
    written = stamp(now)[:19] + stamp(now)[23:]
    opened = open_items(state)
    bullets = [f"- [{i['id']}] {one_line(i['text'])}" for i in opened]
    marker = (f"{files.HANDOFF_MARK} session={session} task={task} written={written} digest={digest(bullets)} "
              f"ids={','.join(i['id'] for i in opened)} project={project} -->")
    count = f"{len(opened)} open item{'' if len(opened) == 1 else 's'}" if opened else "No open items"
    lines = [TITLE, marker, "",
             f"{count}, rendered {written} from {STATE}. Delete a line to close its item; add a `- ` line "
             "to open one. `lh memory show --history` lists closed items.", ""]
    for bullet, item in zip(bullets, opened, strict=True):
        lines.append(bullet)
        note = f"  {note_of(item)}"
        if is_stale(item, now, stale_days):
            note += f"; stale: open {age_days(item, now)} days"
        lines.append(note)
    return "\n".join(lines) + "\n"


# --- writing (callers hold the memory folder's lock) --------------------------------------------------

def append(memory_dir: str, recs: list[dict]) -> None:
    if not recs:
        return
    from lazy_harness.memory import entries

    path = os.path.join(memory_dir, STATE)
    entries.heal_tail(path)
    for rec in recs:
        append_line(path, jsonload.dumps(rec))


RENDER_TRIES = 3


def write_markdown(memory_dir: str, meta: dict, now: float, stale_days: float | None = None,
                   before_write: Callable[[bytes], None] | None = None, seen: Seen | None = None) -> list[dict]:
    """Render handoff.md from the log; ``before_write`` is told the bytes first (a persist's record).
    ``stale_days``: ``[handoff] stale_days``; None (a writer without the config: a command, sync,
    a migration) takes what the last render was given, kept beside the open items. why: each of those
    otherwise marked items stale after the built-in 14 days, whatever the person had set.

    ``seen``: what the caller read of handoff.md (:func:`load_for_writing`; None: the file as it is now).
    The folder lock does not hold an editor back: a hand edit saved since that read is appended first,
    and one saved during the render is seen at the rename (``atomic_write``'s ``unchanged``); then the
    file is read again, its edit appended and the render done again, up to ``RENDER_TRIES`` times. After
    that handoff.md is left as the person saved it (its items are in the log, the next writer renders
    it) and the log says so. Returns the hand edit's records appended."""
    if stale_days is None:
        stale_days = _last_stale_days(memory_dir)
    md = os.path.join(memory_dir, files.HANDOFF)
    seen = _look(memory_dir) if seen is None else seen
    appended: list[dict] = []
    for _ in range(RENDER_TRIES):
        records = read_records(memory_dir) or []
        current = _look(memory_dir)
        if current[0] != seen[0]:
            late = _saved_since(memory_dir, seen, current, records)
            append(memory_dir, late)
            appended, records = appended + late, records + late
        state = fold(records)
        text = render(state, meta, now, stale_days)
        if before_write is not None:
            before_write(text.encode("utf-8"))
        if current[1] is None:
            _set_aside(memory_dir, current[0], now)
        try:
            atomic_write(md, text, unchanged=current[0])
        except FileChanged:
            seen = current
            continue
        _save_open_cache(memory_dir, open_items(state), stale_days)
        return appended
    from lazy_harness import logfile

    logfile.write(logfile.WORKER, f"handoff: {md} changed at each of {RENDER_TRIES} renders; left as saved, "
                  f"its items are in {STATE} and the next writer renders it")
    return appended


# --- the read-back's shortcut: open items cached beside the log ---------------------------------------
# why: SessionStart needs only the open items, but folding the whole log costs time in proportion to
# its length (about 10 ms per 1,000 records). Every writer renders handoff.md after a change and then
# stores the open items with the sizes and mtimes of handoff.jsonl and handoff.md; a reader whose
# stamp still matches takes them from there. Any other change (a hand edit, a sync, a crash between
# the two writes) changes a stamp and the reader folds the log as before. Machine-local, never synced.
OPEN_CACHE = files.HANDOFF_OPEN_CACHE


def _stamp(memory_dir: str) -> list[int]:
    out = []
    for name in (STATE, files.HANDOFF):
        try:
            st = os.stat(os.path.join(memory_dir, name))
            out += [st.st_size, st.st_mtime_ns]
        except OSError:
            out += [-1, -1]
    return out


def _save_open_cache(memory_dir: str, opened: list[Item], stale_days: float = STALE_DAYS) -> None:
    try:
        atomic_write(os.path.join(memory_dir, OPEN_CACHE),
                     jsonload.dumps({"stamp": _stamp(memory_dir), "open": [dict(i) for i in opened],
                                     "stale_days": stale_days}))
    except (OSError, TypeError, ValueError):
        pass  # only a shortcut: readers fold the log without it


def _last_stale_days(memory_dir: str) -> float:
    """The ``stale_days`` the last render of this folder was given (the built-in one when unknown)."""
    try:
        with open(os.path.join(memory_dir, OPEN_CACHE), "rb") as fh:
            value = jsonload.loads(fh.read()).get("stale_days")
    except (OSError, ValueError, TypeError, AttributeError):
        return STALE_DAYS
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and 0 < value < 1e6
    return float(value) if ok else STALE_DAYS


def _rendered_ids(memory_dir: str | None) -> list[str]:
    """The ids the last render of handoff.md listed (the cache every render writes); none when unknown."""
    if memory_dir is None:
        return []
    try:
        with open(os.path.join(memory_dir, OPEN_CACHE), "rb") as fh:
            cached = jsonload.loads(fh.read())
        return [str(i["id"]) for i in cached["open"]]
    except (OSError, ValueError, TypeError, KeyError):
        return []


def _current_cache(memory_dir: str) -> dict | None:
    """The open items' cache when its stamp still matches: neither handoff.md nor the log changed
    since the last render."""
    try:
        with open(os.path.join(memory_dir, OPEN_CACHE), "rb") as fh:
            cached = jsonload.loads(fh.read())
    except (OSError, ValueError):
        return None
    return cached if isinstance(cached, dict) and cached.get("stamp") == _stamp(memory_dir) else None


def open_for_reading(memory_dir: str) -> list[Item]:
    """The open items, oldest first, as :func:`load` would give them; from the cache when it is current."""
    cached = _current_cache(memory_dir)
    if cached is not None:
        try:
            return [Item(i) for i in cached["open"]]
        except (TypeError, KeyError):
            pass
    return open_items(load(memory_dir)[0])


FORGOTTEN_BY = "forget"  # the session field of the close ``lh memory forget`` appends (memory/by_hand.py)


def forgotten_items(state: dict[str, Item]) -> list[Item]:
    """The items ``lh memory forget`` closed and nothing opened again since, most recently closed
    first; an item closed as done (by a session, consolidation, ``lh memory close``) is not one."""
    return [i for i in closed_items(state) if i.get("closed_by") == FORGOTTEN_BY]


class Answer:
    """What an answer changes, computed under the folder's lock before anything is written:
    ``records`` to append (pending hand edits first), whether handoff.md is ``behind`` the log."""

    def __init__(self, records: list[dict], behind: bool, notes: list[str], problems: list[str],
                 seen: Seen | None = None) -> None:
        self.records, self.behind, self.notes, self.problems = records, behind, notes, problems
        self.seen = seen  # what was read of handoff.md (load_for_writing)


def prepare_answer(memory_dir: str, opened: str | Iterable[object] | None, closed: Iterable[object] | None,
                   meta: dict, when: float) -> Answer:
    state, pending, seen = load_for_writing(memory_dir)
    recs, notes, problems = changes(state, opened, closed, meta, when)
    written = pending + recs
    return Answer(written, not written and behind(memory_dir, state), notes, problems, seen)


def write_answer(memory_dir: str, answer: Answer, meta: dict, now: float,
                 stale_days: float | None = None, before_write: Callable[[bytes], None] | None = None) -> list[dict]:
    """Append a prepared answer's records and re-render handoff.md when anything changed, or when it is
    behind the log (a writer killed before its render). Returns the records appended. A hand edit of
    handoff.md saved since the answer was prepared, or during the render, is appended too
    (:func:`write_markdown`), never written over."""
    written = list(answer.records)
    if written:
        append(memory_dir, written)
    if written or answer.behind:
        written += write_markdown(memory_dir, meta, now, stale_days, before_write, answer.seen)
    return written


def apply_answer(memory_dir: str, opened: str | Iterable[object] | None, closed: Iterable[object] | None,
                 meta: dict, when: float, now: float,
                 stale_days: float | None = None) -> tuple[list[dict], list[str], list[str]]:
    """Under the folder lock: append pending hand edits, then the answer's changes; re-render when anything
    changed, or when handoff.md is behind the log. Returns (records appended, notes, problems)."""
    answer = prepare_answer(memory_dir, opened, closed, meta, when)
    return write_answer(memory_dir, answer, meta, now, stale_days), answer.notes, answer.problems


def merge_markdown(memory_dir: str, text: str, now: float, source: str, locked: bool = False) -> int:
    """Open every item listed in a handoff.md ``text`` that is not already known-open, as session ``source``
    at ``now``; re-render handoff.md. Returns how many items were opened. Takes the folder's lock unless
    the caller holds it already (``locked``: a second flock of the folder in one process would wait forever)."""
    from contextlib import nullcontext

    from lazy_harness.atomic import ensure_dir

    ensure_dir(memory_dir)
    with nullcontext() if locked else files.FolderLock(memory_dir):
        _recover(memory_dir)
        state, pending, seen = load_for_writing(memory_dir)
        if pending:
            append(memory_dir, pending)
            state = fold(read_records(memory_dir) or [])
        recs: list[dict] = []
        for _, hid, body, ticked in parse_markdown(text, state)[1]:
            item = state.get(hid) if hid else None
            if ticked or (item is not None and item.is_open):
                continue
            body = item["text"] if item is not None and not normalise(body) else body
            if not normalise(body):
                continue
            hid = id_for(state, body, recs)
            known = state.get(hid)
            if (known is not None and known.is_open) or hid in {r["id"] for r in recs}:
                continue
            rec = record(OPEN, body, source, "", now, hid=hid)
            if wins(rec, known):
                recs.append(rec)
        if recs or pending or behind(memory_dir, state):
            append(memory_dir, recs)
            write_markdown(memory_dir, {"session_id": source, "task_id": ""}, now, seen=seen)
        return len(recs)


def _recover(memory_dir: str) -> None:
    """A persist a killed worker left unfinished is rolled back before anything is appended after it."""
    from lazy_harness.memory import intent

    intent.recover(memory_dir)


def import_hand_edits(memory_dir: str, meta: dict, now: float, stale_days: float | None = None,
                      render: bool = False) -> list[dict]:
    """Record a hand edit of handoff.md (or a handoff.md written before its log) in the log, under the
    folder's lock, and render it again; the records appended. A command's journalled run calls it
    first: the person's earlier edit is not part of that run, and its undo must not take it out.
    ``render``: render even without an edit (after a merge changed handoff.jsonl: sync). why not a
    bare render there: it wrote over the person's edit, and an item they deleted came back."""
    from lazy_harness.atomic import ensure_dir

    ensure_dir(memory_dir)
    with files.FolderLock(memory_dir):
        _recover(memory_dir)
        _, pending, seen = load_for_writing(memory_dir)
        if pending:
            append(memory_dir, pending)
        if pending or render:
            pending += write_markdown(memory_dir, meta, now, stale_days, seen=seen)
        return pending


def edited_since_render(memory_dir: str) -> bool:
    """Whether a folder's handoff.md may hold an edit not in its log: it exists and the open items'
    cache no longer matches it (the stamp every render writes)."""
    return os.path.isfile(os.path.join(memory_dir, files.HANDOFF)) and _current_cache(memory_dir) is None


def close_items(memory_dir: str, closing: list[tuple[str, str]], meta: dict, now: float,
                stale_days: float | None = None) -> list[dict]:
    """Close open items given as (id, reason), by ``meta``'s session at ``now`` (consolidation, or the
    person with ``lh memory close``); ids that are not open are left. Takes the folder's lock and
    re-renders handoff.md. Returns the records appended."""
    from lazy_harness.atomic import ensure_dir

    ensure_dir(memory_dir)
    with files.FolderLock(memory_dir):
        _recover(memory_dir)
        state, pending, seen = load_for_writing(memory_dir)
        recs = []
        for hid, reason in closing:
            item = state.get(hid)
            if item is None or not item.is_open:
                continue
            # why: a close must outrank the item's latest open, even with a clock behind it
            when = max(now, item["key"][0] + 0.001)
            recs.append(record(CLOSE, item["text"], meta.get("session_id"), meta.get("task_id"), when,
                               reason=reason or None, hid=hid))
        if recs or pending or behind(memory_dir, state):
            append(memory_dir, pending + recs)
            write_markdown(memory_dir, meta, now, stale_days, seen=seen)
        return recs
