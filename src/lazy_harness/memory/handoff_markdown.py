"""handoff.md, the open items as a person reads and edits them: the text parsed and rendered, a hand
edit turned into records, the file read and damage told from an edit.

The item log (``memory.handoff``) is the state; handoff.md is rendered from it after every change
(:func:`render`). Its header comment carries a digest of its item lines and the ids it listed. When the
digest no longer matches, the file was edited by hand: a new line opens an item, a deleted (ticked,
or struck through whole) line closes its item, both by session ``hand-edit`` at the file's mtime
(:func:`markdown_records`). The ``opened ... by ...`` note a render writes under an item is never item
text, also when an editor's reflow joined it onto the item's line or wrapped it (``_item_text``): such
an item is unchanged. Only the note's exact shape is cut; a person's words ending ``opened <time> by
alice`` are kept. The note of an item the hold check holds ends with ``handoff_held.held_mark``,
part of the note wherever it falls; a hold or approval since the render leaves the file :func:`behind`. A
handoff.md with no state file beside it (written before the state existed, or by hand) is imported as
open items. A damaged handoff.md (:func:`damaged`: NUL bytes, not UTF-8, text with neither the
header nor a list line, or a file cut short) is no edit: readers take the log alone, and the next writer keeps a copy
(:func:`set_aside`, in ``copies_dir``) and renders it again. A leading byte order mark is ignored.
:func:`behind` tells a handoff.md that does not show the log's open items and holds no hand edit (a
writer killed between the append and the render).

Nothing here takes the folder's lock, appends to the log or writes handoff.md: the readers and writers
of ``memory.handoff`` do, with these.

Hot path: the SessionStart read-back reaches :func:`read_markdown` and :func:`markdown_records` through
``handoff.load``, so this module imports only ``os`` and our hot-path modules.
"""

from __future__ import annotations

import os

from lazy_harness import jsonload
from lazy_harness.atomic import atomic_write, file_key
from lazy_harness.memory import files, ids
from lazy_harness.memory.handoff_log import (  # noqa: F401 - HAND_EDIT: this module's name for it too
    CLOSE, HAND_EDIT, OPEN, REWORDED, STALE_DAYS, STATE, Item, age_days, by_whom, id_for, is_stale, open_items, record,
    split_ref, stamp, wins)
# why: the words by_whom writes for a change that is no session's; a joined note is cut only when it says
# exactly what a render writes (without_note), and a second copy of that table would drift from it
from lazy_harness.memory.handoff_log import _WHO as _NOT_A_SESSION
from lazy_harness.memory.handoff_held import HELD_HINT, HELD_MARK, held_end, held_mark, held_reasons, marked_id
from lazy_harness.memory.lines import NotRegularFile, open_regular, read_regular
from lazy_harness.memory.sanitize import normalise, one_line

TITLE = "# Open items for the next session"
STALE_NOTE = "; stale: open "  # then the days an item has been open, in its note


def header_token(value: object, spaces: bool = False) -> str:
    """A header value: one line, never closing the comment; ids also lose their spaces."""
    s = one_line(value).replace("-->", "->")
    return s if spaces else s.replace(" ", "_")


# --- handoff.md --------------------------------------------------------------------------------------

def parse_markdown(text: str, state: dict[str, Item] | None = None
                   ) -> tuple[dict, list[tuple[str, str | None, str, bool]]]:
    """(marker fields, item lines). An item line is ``(line, id named on it or None, text, ticked)``.

    Items are markdown list lines: ``- ``, ``* ``, ``+ `` or numbered (``1. ``, ``1) ``); ``- [x]``
    ticked, and so is an item struck through whole (``- ~~[h-...] text~~``, :func:`_struck`). An indented
    line under an item continues its text, unless it is our own note (:func:`our_note`, the ``opened ...
    by ...`` line a render writes), with or without the header. Any other line of words opens an item
    too, unless it is structure or ours (:func:`_not_an_item`).
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
    # [line, id, first line's text, ticked, [(indented line, is our note)], opens with a strikethrough]
    blocks: list[list] = []
    current: list | None = None
    for line in lines:
        entry = _list_item(line)
        if entry is not None:
            entry = entry.strip()
            ticked = entry[:3].lower() == "[x]"
            if entry[:3] in ("[ ]", "[x]", "[X]"):
                entry = entry[3:].strip()
            struck = entry.startswith(STRUCK)
            hid, body = split_ref(entry.removeprefix(STRUCK).strip() if struck else entry)
            current = [line.rstrip(), hid, body, ticked, [], struck]
            blocks.append(current)
        elif not line.strip():
            current = None
        elif current is not None and line[:1] in (" ", "\t"):
            # why: the note is dropped by its exact format, not by the header: a file whose header was
            # deleted glued "opened ... by session ..." onto every item, and a person's detail line
            # under an item in a file we rendered was dropped without a word
            note = our_note(line)
            if not note:  # the line joins the item's, so the digest sees the edit
                current[0] = f"{current[0]}\n{line.rstrip()}"
            current[4].append((line.strip(), note))
        elif _not_an_item(line):
            current = None
        else:
            # why: a line a person types without a list marker ("ask Dana about the staging key") was
            # dropped without a word at the next render; it opens an item, as a list line does (lines are
            # this file's unit: two such lines are two items, an indented line under one continues it)
            current = [line.rstrip(), None, line.strip(), False, [], False]
            blocks.append(current)
    known = state or {}
    out = [_struck(b[0], b[1], _item_text(b[2], b[4], b[1], known.get(b[1]) if b[1] else None), b[3], b[5])
           for b in blocks]
    return marker, [x for x in out if normalise(x[2]) or x[1]]


STRUCK = "~~"
_COUNTS = ("open items, rendered ", "open item, rendered ")  # after the count on the line a render writes


def _not_an_item(line: str) -> bool:
    """Whether ``line``, no list item, is what a render writes or markdown structure rather than a
    person's words: a heading (the title too), a comment (the header), a code fence, a lead-in ending
    ``:`` (``Pending for next session:`` above a list), the line that counts the items (also cut short,
    as a cut file ends), the ``Written ... at the end of session ...`` line of renders before the item
    log, or our note standing alone (its item's line deleted)."""
    words = " ".join(line.split())
    if words.startswith(("#", "<!--", "```", "~~~")) or words.endswith(":") or our_note(f"  {words}"):
        return True
    if words.startswith("Written ") and " at the end of session " in words:
        return True
    count, _, rest = words.partition(" ")
    return (count == "No" or count.isdigit()) and any(rest.startswith(c) or c.startswith(rest) for c in _COUNTS)


def _struck(line: str, hid: str | None, text: str, ticked: bool, struck: bool) -> tuple[str, str | None, str, bool]:
    """An item line whose text is struck through whole (``- ~~[h-...] text~~``, across its lines too) reads
    as ticked, by its id. why: a person marks a list item done in markdown that way; read as text, the
    item was closed and opened again under a new id with the tildes in its text. A line only partly struck
    (``~~old plan~~ new plan``) is item text as written, its tildes and ``[h-...]`` kept."""
    if not struck:
        return line, hid, text, ticked
    inner = text.removesuffix(STRUCK).strip()
    if text.endswith(STRUCK) and normalise(inner):
        return line, hid, inner, True
    return line, None, " ".join(f"{STRUCK}{f'[{hid}] ' if hid else ''}{text}".split()), ticked


def _item_text(body: str, more: list[tuple[str, bool]], hid: str | None, item: Item | None) -> str:
    """An item line's text: its first line's ``body`` and the indented lines ``more`` under it (each
    with whether it is our note line), less our note lines and less the render's note joined in.
    why: an editor's reflow (vim ``gqip``, VS Code Rewrap) joins the note line onto the item's and may
    wrap both anew; read as item text, the note made every item look reworded by hand (closed, reopened
    under a new id, the note sent to every session). A known ``item``'s own note is cut wherever it
    falls, across lines too (a person's detail line under it then follows it); without it, on a line
    naming an id, a note in the exact shape a render writes that runs to the end (:func:`without_note`:
    the item's state changed since, a sync brought another opening time or session). A person's own
    words shaped like a note (``opened 2026-04-10 09:00 by alice``) stay item text."""
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
    """``text`` (whitespace collapsed) less a render's note joined on last, running to the end; None when
    it holds none. A note is the shape :func:`note_of` writes, whatever its time and session: ``opened
    <YYYY-MM-DD HH:MM | ?> by session <id>`` (or :func:`by_whom`'s words for a change no session made,
    ``by a hand edit of handoff.md``...), maybe ending ``; stale: open N days``.
    why that shape and no looser: a person's own words at the end of an item (``follow up on ticket 42,
    opened 2026-04-10 09:00 by alice``) are item text; cut, the hand edit lost them."""
    words = " ".join(text.split())
    at = words.find("opened ")
    while at >= 0:
        if (at == 0 or words[at - 1] == " ") and _is_note(words[at:]):
            return words[:at].strip()
        at = words.find("opened ", at + 1)
    return None


def _is_note(words: str) -> bool:
    """Whether ``words``, whole, is a note as a render writes it (:func:`without_note`). The session is
    ``?``, one word (an id), a path (a file a migration imported: it may hold spaces) or ``by hand``
    (the words of a render from before :func:`by_whom`)."""
    if not our_note(f"  {words}"):
        return False
    who = words[len("opened ? "):] if words.startswith("opened ? ") else words[len("opened 0000-00-00 00:00 "):]
    held = who.find(HELD_MARK)
    if held >= 0 and held_end(who, held) == len(who):
        who = who[:held]
    stale = who.rfind("; stale: open ")
    if stale >= 0 and _stale_end(who, stale) == len(who):
        who = who[:stale]
    if who in _NOT_A_SESSION.values():
        return True
    session = who.removeprefix("by session ")
    if session == who or not session:
        return False
    return " " not in session or session.startswith(("/", "~")) or session == "by hand"


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
    end = at + len(own)
    end = _stale_end(words, end) or end
    end = held_end(words, end) or end
    return end if end == len(words) or words[end] == " " else None


def _stale_end(words: str, at: int) -> int | None:
    """Where the ``; stale: open N days`` a render may add to a note ends, when it starts at ``words[at]``."""
    stale = "; stale: open "
    if not words.startswith(stale, at):
        return None
    rest = words[at + len(stale):]
    tail = at + len(stale) + len(rest) - len(rest.lstrip("0123456789"))
    return tail + len(" days") if tail > at + len(stale) and words.startswith(" days", tail) else None


def our_note(line: str) -> bool:
    """Whether ``line`` is the note :func:`render` writes under an item: ``  opened <YYYY-MM-DD HH:MM | ?>
    by ...``, maybe ending ``; stale: open N days`` and a ``handoff_held.held_mark``."""
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
    reworded: dict[str, str | None] = {}  # an item's id -> the id of the one line that kept its tag, reworded
    for _, hid, text_, ticked in lines:
        item = state.get(hid) if hid else None
        if item is not None and normalise(text_) in ("", normalise(item["text"])):
            if not ticked:
                present.add(item["id"])
            continue
        if ticked or not normalise(text_):
            continue
        new = id_for(state, text_, recs)
        if item is not None:  # why: two lines keeping one tag name no one item it became
            reworded[item["id"]] = None if item["id"] in reworded else new
        known = state.get(new)
        present.add(new)
        if new in {r["id"] for r in recs} or (known is not None and known.is_open):
            continue
        # why: 1 ms apart, so items imported from one file keep its order (open items sort by time)
        at = when + 0.001 * len(recs)
        if known is not None and source == HAND_EDIT and new not in marker.get("ids", new).split(","):
            # why: a line added to a file we rendered without the item postdates its close, whatever
            # the clocks say (a close stamped by a machine whose clock runs ahead dropped the line)
            # why 1.5 ms: the close's time is read back from its millisecond stamp, and that plus 0.001 is
            # a hair under the next millisecond in 3 of 10 cases: truncated to the close's own, a tie the close won
            at = max(at, known["key"][0] + 0.0015)
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
            # why the new id in the reason: the person closes the item by the tag they kept on the line
            # (lh memory close ID), and the render after this import shows the line under its new id only
            now_as = reworded.get(hid)
            rec = record(CLOSE, item["text"], source, task_id, max(when, item["key"][0]),
                         reason=REWORDED + now_as if now_as else "removed from handoff.md by hand", hid=hid)
            recs.append(rec)
    return recs


def without_items(text: str, opened: dict[str, str]) -> str:
    """``text`` (a handoff.md) less the lines of the items ``opened`` (id -> text) as a render wrote them,
    each with its note; every other line as it stands. For a rollback that took out the records of the
    items a killed persist opened, in a handoff.md saved by hand since its render: read as an edit, such
    a line was imported as the person's (ADR 0024 trusts by origin). An item line the person changed, or
    wrote a line under, is theirs and kept."""
    lines = text.split("\n")
    out: list[str] = []
    at = 0
    while at < len(lines):
        entry = _list_item(lines[at].removeprefix("\ufeff"))
        end = at + 1
        while end < len(lines) and lines[end][:1] in (" ", "\t") and lines[end].strip():
            end += 1
        if entry is not None:
            hid, body = split_ref(entry.strip())
            if (hid in opened and normalise(body) == normalise(opened[hid])
                    and all(our_note(line) for line in lines[at + 1:end])):
                at = end
                continue
        out.append(lines[at])
        at += 1
    return "\n".join(out)


def _rendered_ids(memory_dir: str | None) -> list[str]:
    """The ids the last render of handoff.md listed (the cache every render writes); none when unknown."""
    if memory_dir is None:
        return []
    try:
        cached = jsonload.loads(read_regular(os.path.join(memory_dir, files.HANDOFF_OPEN_CACHE)))
        return [str(i["id"]) for i in cached["open"]]
    except (OSError, ValueError, TypeError, KeyError):
        return []


def render(state: dict[str, Item], meta: dict, now: float, stale_days: float = STALE_DAYS,
           held: dict[str, str] | None = None) -> str:
    """handoff.md for ``state``: the open items, each with its id, opening time and session; ``held``
    (``handoff_held.held_reasons``) marks those shown to no session."""
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
            note += f"{STALE_NOTE}{age_days(item, now)} days"
        if held and item["id"] in held:
            note += held_mark(item["id"], held[item["id"]])
        lines.append(note)
    return "\n".join(lines) + "\n"


# --- the file: read, told from damage, set aside --------------------------------------------------

MAX_MARKDOWN_BYTES = 8 * 1024 * 1024


def read_markdown(memory_dir: str) -> tuple[str, float] | None:
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
    try:  # why: a folder or a FIFO in its place reads as no file
        fd, st = open_regular(os.path.join(memory_dir, files.HANDOFF))
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError, NotRegularFile):
        return None
    with open(fd, "rb") as fh:
        data, mtime = fh.read(MAX_MARKDOWN_BYTES + 1), st.st_mtime
    if not data or len(data) > MAX_MARKDOWN_BYTES:
        return None
    return data, mtime


def damaged(data: bytes) -> str | None:
    """Why the bytes of a handoff.md are damage rather than a hand edit, or None when they read as one:
    NUL bytes (what a power cut can leave of a file, its length kept), bytes that are not UTF-8 (binary
    junk; a hand edit saved in Latin-1 too: its bytes cannot be told from an overwritten block), or
    text with neither our header nor any list line, a header comment that never closes (the file cut
    inside it: a save cut short, a disk that filled), or a file cut among its items (:func:`_cut_among_items`).
    why: read as an edit, each deleted every line (past the cut), and the next writer closed those open
    items for good. Blank lines alone are an edit (close them all)."""
    why = files.not_text(data)
    if why:
        return why
    text = data.decode("utf-8")
    at = text.find(files.HANDOFF_MARK)
    # why: a person deletes the header or keeps it; only a cut leaves ``<!--`` open, and markdown then
    # takes the rest of the file for the comment (the render ends the header's line with ``-->``)
    if at >= 0 and "-->" not in text[at:]:
        return "its header comment never closes (the file cut short inside it)"
    if at >= 0 and not text.endswith("\n") and _cut_among_items(text):
        return "it ends inside its items, without a line break (the file cut short)"
    if not text.strip() or at >= 0 or TITLE in text:
        return None
    if any(_list_item(line) is not None for line in text.removeprefix("\ufeff").split("\n")):
        return None
    return "neither its header nor a list line"


def _cut_among_items(text: str) -> bool:
    """Whether ``text`` (our header, no line break last) is a render cut short: its items are the first
    of the header's ids, in its order, none ticked, and its last line is no whole note (:func:`_whole_note`; a render
    writes one under every item: the file ends in one unless cut). A last line that begins the next
    id's item line (``- [h-1``) is part of the cut. why: read as an edit, the items past the cut were
    closed for good. An edit that looks alike stays one: an item added or deleted in the middle breaks
    the order, one deleted last leaves the note before it last."""
    marker, items = parse_markdown(text)
    expected = [i for i in marker.get("ids", "").split(",") if i]
    if not expected:
        return False
    last = text.rsplit("\n", 1)[-1]
    found = [(hid, ticked) for _, hid, _, ticked in items]
    if found and found[-1][0] is None and len(found) <= len(expected) and last.startswith("- ") and \
            f"- [{expected[len(found) - 1]}]".startswith(last.rstrip()):
        found.pop()  # the next item's line, cut inside its id
    if [hid for hid, _ in found] != expected[:len(found)] or any(ticked for _, ticked in found):
        return False
    return not (our_note(last) and _whole_note(last))


_UUID = "00000000-0000-0000-0000-000000000000"  # the shape of Claude Code's and Codex CLI's session ids


def _whole_note(line: str) -> bool:
    """Whether ``line``, our note (:func:`our_note`), ends where a render ends it, as far as can be told:
    a held mark with its closing parenthesis, a stale suffix with its ``days``, neither cut inside its
    first words, no session id cut short (a UUID's first part), no :func:`by_whom` words cut short. A
    session named otherwise is taken as whole."""
    rest = line.rstrip("\r")
    if any(rest.endswith(mark[:k]) for mark in (STALE_NOTE, HELD_MARK) for k in range(1, len(mark))):
        return False  # a suffix cut inside its first words
    if HELD_MARK in rest:
        return rest.endswith(")")
    at = rest.find(STALE_NOTE)
    if at >= 0:
        days = rest[at + len(STALE_NOTE):]
        return days.endswith(" days") and days[:-5].isdigit()
    who = rest[rest.index(" by ") + 1:]
    if any(words != who and words.startswith(who) for words in (*_NOT_A_SESSION.values(), "by session ")):
        return False
    sid = who.removeprefix("by session ")
    shaped = all(c == "-" if f == "-" else c in "0123456789abcdef" for c, f in zip(sid, _UUID, strict=False))
    return not (who.startswith("by session ") and shaped and len(sid) < len(_UUID))


def damage_of(memory_dir: str) -> str | None:
    """Why ``memory_dir``'s handoff.md is damaged (:func:`damaged`), None when it is not (or is missing)."""
    raw = _read_bytes(memory_dir)
    return None if raw is None else damaged(raw[0])


DAMAGED_COPY = files.HANDOFF + ".damaged-"


def copies_dir(memory_dir: str) -> str:
    """Where a damaged handoff.md of ``memory_dir`` is kept before the render that replaces it: the
    state folder, per project key. why not beside it: the data folder is synced (``git add -A``), and
    a remote holding anything but memory's files is refused by every machine (sync/layout.py)."""
    from lazy_harness import paths

    return os.path.join(paths.state_dir(), "damaged", os.path.basename(os.path.normpath(memory_dir)))


def set_aside(memory_dir: str, key: tuple[int, int, int], now: float) -> None:
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
    md = read_markdown(memory_dir)
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
    opened = open_items(state)
    # why the marks too: a hold recorded or approved since the render left its note saying otherwise
    return shown != {i["id"] for i in opened} or _marked(md[0]) != set(held_reasons(memory_dir, opened))


def _marked(text: str) -> set[str]:
    """The ids of the items whose note in handoff.md ``text`` carries a ``handoff_held.held_mark``."""
    out = set()
    for line in text.split("\n"):
        words = " ".join(line.split())
        at = words.find(HELD_MARK)
        if our_note(line) and at >= 0 and held_end(words, at) == len(words):
            out.add(marked_id(words[words.rfind(HELD_HINT):]) or "")
    return out
