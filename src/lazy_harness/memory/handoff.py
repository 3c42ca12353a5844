"""Handoff items: the open work a session leaves for the next ones, kept as an append-only log.

    <memory dir>/handoff.jsonl   the state: one record per change, never rewritten
        {"op": "open"|"close", "id": "h-1a2b3c4d", "text", "session_id", "task_id", "ts", "reason"?}
    <memory dir>/handoff.md      the open items rendered from that state after every change

Folding the records gives the items. For each id the record with the greatest ``(ts, op)`` wins,
a close beating an open at the same time; further ties go by session, task and text, so the fold
is a function of the set of records and never of their order (two machines' lines concatenated in
any order give one state). ``ts`` is the session's time (its transcript's mtime), not the time of
processing: an older session processed late cannot reopen what a newer session closed.

An item's id is ``ids.handoff_id`` of its normalised text, so a restated item is the same item.
Its opened time and session are those of the first open after its last close.

handoff.md carries, in its header comment, a digest of its item lines and the ids it listed. When
the digest no longer matches, the file was edited by hand: a new line opens an item, a deleted (or
ticked) line closes its item, both by session ``hand-edit`` at the file's mtime. A handoff.md with
no state file beside it (written before the state existed, or by hand) is imported as open items.
Readers apply both in memory (``load``); writers append them (``sync``) before anything else.

Hot path: the SessionStart read-back folds the state, so this module imports only ``os``, ``time``
and our hot-path modules; ``jsonload`` decodes and encodes the records.
"""

import os
import time

from lazy_harness import jsonload
from lazy_harness.atomic import append_line, atomic_write
from lazy_harness.memory import files, ids
from lazy_harness.memory.sanitize import normalise, one_line

TITLE = "# Open items for the next session"
STATE = files.HANDOFF_STATE
OPEN, CLOSE = "open", "close"
HAND_EDIT = "hand-edit"
STALE_DAYS = 14
DAY = 86400.0


# --- text ----------------------------------------------------------------------------------------

def items(raw) -> list[str]:
    """Open items as single lines; blank and ticked ones dropped, a bare string is one item."""
    if isinstance(raw, str):
        raw = [raw]
    out = []
    for value in raw or []:
        item = one_line(value)
        if item[:3] in ("[x]", "[X]"):
            continue
        if item[:3] == "[ ]":
            item = item[3:].strip()
        if item:
            out.append(item)
    return out


def split_ref(text: str) -> tuple[str | None, str]:
    """``"[h-1a2b3c4d] text"`` -> ``("h-1a2b3c4d", "text")``; a text without that prefix -> ``(None, text)``."""
    if text[:1] == "[" and text[11:12] == "]" and ids.kind_of(text[1:11]) == "handoff":
        return text[1:11], text[12:].strip()
    return None, text


def header_token(value, spaces: bool = False) -> str:
    """A header value: one line, never closing the comment; ids also lose their spaces."""
    s = one_line(value).replace("-->", "->")
    return s if spaces else s.replace(" ", "_")


def stamp(t: float) -> str:
    """ISO-8601 local time with milliseconds and offset: ``2026-04-13T18:32:45.123+02:00``."""
    total = int(round(t * 1000))
    secs, ms = divmod(total, 1000)
    lt = time.localtime(secs)
    off = lt.tm_gmtoff or 0
    sign = "+" if off >= 0 else "-"
    off = abs(off)
    return time.strftime("%Y-%m-%dT%H:%M:%S", lt) + f".{ms:03d}{sign}{off // 3600:02d}:{off % 3600 // 60:02d}"


# --- the state ------------------------------------------------------------------------------------

def record(op: str, text: str, session_id, task_id, when: float, reason: str | None = None) -> dict:
    text = one_line(text)
    rec = {"op": op, "id": ids.handoff_id(text), "text": text, "session_id": one_line(session_id),
           "task_id": one_line(task_id), "ts": stamp(when)}
    if reason:
        rec["reason"] = one_line(reason)
    return rec


def _shaped(rec) -> bool:
    return (isinstance(rec, dict) and rec.get("op") in (OPEN, CLOSE) and isinstance(rec.get("text"), str)
            and ids.kind_of(rec.get("id")) == "handoff")


def epoch(ts) -> float | None:
    """Seconds since the epoch of a record's ``ts``. Our own shape (``stamp``) is read by position;
    anything else goes to ``files.iso_epoch``. why: the read-back folds every record at each start."""
    if isinstance(ts, str) and len(ts) == 29 and ts[10] == "T" and ts[19] == "." and ts[23] in "+-" and ts[26] == ":":
        try:
            days = files.days_from_civil(int(ts[0:4]), int(ts[5:7]), int(ts[8:10]))
            offset = (int(ts[24:26]) * 3600 + int(ts[27:29]) * 60) * (-1 if ts[23] == "-" else 1)
            return (days * 86400 + int(ts[11:13]) * 3600 + int(ts[14:16]) * 60 + int(ts[17:19])
                    + int(ts[20:23]) / 1000 - offset)
        except ValueError:
            pass
    return files.iso_epoch(ts)


def _valid(rec) -> float | None:
    """The epoch of a well-formed record, else None (such a line is skipped, never fatal)."""
    return epoch(rec.get("ts")) if _shaped(rec) else None


def _key(rec: dict, epoch: float) -> tuple:
    # why: every field takes part so that two different records never tie: the order of lines cannot matter
    return (epoch, rec["op"] == CLOSE, str(rec.get("session_id") or ""), str(rec.get("task_id") or ""),
            rec["text"], str(rec.get("reason") or ""))


def parse(text: str) -> list[dict]:
    """The well-formed records of a handoff.jsonl text; torn and foreign lines are skipped."""
    out = []
    for line in text.split("\n"):
        if not line.strip():
            continue
        try:
            rec = jsonload.loads(line)
        except (ValueError, RecursionError):
            continue
        if _shaped(rec):
            out.append(rec)
    return out


def read_records(memory_dir: str) -> list[dict] | None:
    """Every record of the state file; None when there is no state file."""
    try:
        with open(os.path.join(memory_dir, STATE), "rb") as fh:
            data = fh.read()
    except (FileNotFoundError, NotADirectoryError):
        return None
    return parse(data.decode("utf-8", "replace"))


class Item(dict):
    """One folded item: id, text, state ("open"/"closed"), opened/opened_by/opened_task, closed/closed_by/
    reason (closed items), and ``key``, the sort key of its winning record."""

    @property
    def is_open(self) -> bool:
        return self["state"] == OPEN


def _first(pair):
    return pair[0]


def fold(records: list[dict]) -> dict[str, Item]:
    """The items of a set of records, by id. Independent of the records' order."""
    by_id: dict[str, list[tuple[tuple, dict]]] = {}
    for rec in records:
        t = _valid(rec)
        if t is not None:
            by_id.setdefault(rec["id"], []).append((_key(rec, t), rec))
    out: dict[str, Item] = {}
    for hid, keyed in by_id.items():
        if len(keyed) > 1:
            keyed.sort(key=_first)
        first_open = last_span = last_close = None
        for key, rec in keyed:
            if rec["op"] == OPEN:
                if first_open is None:
                    first_open = (key, rec)
            else:
                last_span, last_close, first_open = first_open, (key, rec), None
        win_key, win = keyed[-1]
        opening = first_open if win["op"] == OPEN else last_span
        item = Item(id=hid, text=(opening or (win_key, win))[1]["text"], state=OPEN if win["op"] == OPEN else "closed",
                    opened=opening[1]["ts"] if opening else None, opened_epoch=opening[0][0] if opening else None,
                    opened_by=opening[1].get("session_id") if opening else None,
                    opened_task=opening[1].get("task_id") if opening else None, key=win_key)
        if win["op"] == CLOSE:
            item.update(closed=win["ts"], closed_epoch=win_key[0], closed_by=win.get("session_id"),
                        closed_task=win.get("task_id"), reason=win.get("reason"))
        out[hid] = item
    return out


def open_items(state: dict[str, Item]) -> list[Item]:
    """Open items, oldest first."""
    return sorted((i for i in state.values() if i.is_open), key=lambda i: (i["opened_epoch"] or 0.0, i["id"]))


def closed_items(state: dict[str, Item]) -> list[Item]:
    """Closed items, most recently closed first."""
    return sorted((i for i in state.values() if not i.is_open), key=lambda i: (i["closed_epoch"], i["id"]),
                  reverse=True)


def is_stale(item: Item, now: float, stale_days) -> bool:
    return item.is_open and item["opened_epoch"] is not None and now - item["opened_epoch"] > float(stale_days) * DAY


def age_days(item: Item, now: float) -> int:
    return int((now - (item["opened_epoch"] or now)) // DAY)


# --- what an answer changes -------------------------------------------------------------------------

def _wins(rec: dict, item: Item | None) -> bool:
    """True when ``rec`` would become its item's winning record."""
    return item is None or _key(rec, epoch(rec["ts"])) > item["key"]


def _find_open(state: dict[str, Item], ref: str) -> Item | None:
    hid, text = split_ref(ref.strip())
    if hid is None and ids.kind_of(text) == "handoff":
        hid = text
    if hid is not None:
        return state.get(hid)
    return state.get(ids.handoff_id(text))


def changes(state: dict[str, Item], opened, closed, meta: dict, when: float) -> tuple[list[dict], list[str], list[str]]:
    """Records an answer adds to ``state``, notes on what it left alone, and problems (unknown items).

    ``opened``: new or restated items (a ``[h-...]`` prefix naming a known item is that item);
    ``closed``: ids or exact texts of open items. Nothing is written for an item already in the
    asked state, nor for a change an existing newer record would outrank (the answer is older news).
    """
    sid, tid = meta.get("session_id"), meta.get("task_id")
    recs: list[dict] = []
    notes: list[str] = []
    problems: list[str] = []
    closing: set[str] = set()
    for ref in closed or []:
        ref = one_line(ref)
        if not ref:
            continue
        item = _find_open(state, ref)
        if item is None:
            problems.append(f"handoff_closed: no open item {ref!r}; ignored")
            continue
        if item["id"] in closing:
            continue
        closing.add(item["id"])
        if not item.is_open:
            notes.append(f"already closed: [{item['id']}] {item['text']}")
            continue
        rec = record(CLOSE, item["text"], sid, tid, when)
        if _wins(rec, item):
            recs.append(rec)
        else:
            notes.append(f"restated by a newer session, stays open: [{item['id']}] {item['text']}")
    seen: set[str] = set()
    step = 0.0
    for raw in items(opened or []):
        hid, text = split_ref(raw)
        known = state.get(hid) if hid else None
        if known is None:
            if not normalise(text):
                continue
            hid = ids.handoff_id(text)
            known = state.get(hid)
        if hid in seen or hid in closing:
            continue
        seen.add(hid)
        if known is not None and known.is_open:
            notes.append(f"still open: [{hid}] {known['text']}")
            continue
        # why: a millisecond apart, so the items of one answer keep the answer's order (oldest first)
        rec = record(OPEN, known["text"] if known else text, sid, tid, when + step)
        if _wins(rec, known):
            recs.append(rec)
            step += 0.001
        else:
            notes.append(f"closed by a newer session, not reopened: [{hid}] {known['text']}")
    return recs, notes, problems


# --- handoff.md --------------------------------------------------------------------------------------

def parse_markdown(text: str) -> tuple[dict, list[tuple[str, str | None, str, bool]]]:
    """(marker fields, item lines). An item line is ``(line, id named on it or None, text, ticked)``.

    Items are ``- `` or ``* `` lines (``- [x]`` ticked). In a file we rendered (its marker has a
    digest) indented lines under an item are our notes; in any other file they continue the item.
    """
    marker: dict[str, str] = {}
    lines = text.split("\n")
    for line in lines:
        if line.strip().startswith(files.HANDOFF_MARK):
            marker = files.marker_fields(line.strip())
            break
    ours = "digest" in marker
    out: list[tuple[str, str | None, str, bool]] = []
    current = None
    for line in lines:
        if line[:2] in ("- ", "* "):
            entry = line[2:].strip()
            ticked = entry[:3].lower() == "[x]"
            if entry[:3] in ("[ ]", "[x]", "[X]"):
                entry = entry[3:].strip()
            hid, body = split_ref(entry)
            current = [line.rstrip(), hid, body, ticked]
            out.append(tuple(current))
        elif current is not None and not ours and line.strip() and line[:1] in (" ", "\t"):
            current[2] = f"{current[2]} {line.strip()}".strip()
            out[-1] = tuple(current)
        elif not (line[:1] in (" ", "\t") and line.strip()):
            current = None
    return marker, [x for x in out if normalise(x[2]) or x[1]]


def digest(item_lines: list[str]) -> str:
    return ids.handoff_id("\n".join(item_lines))[2:]


def edited(marker: dict, lines: list) -> bool:
    """True when the item lines of a handoff.md no longer match the digest it was rendered with."""
    return marker.get("digest") != digest([ln[0] for ln in lines])


def markdown_records(state: dict[str, Item], text: str, when: float, has_state: bool, source: str = HAND_EDIT,
                     task_id: str = "") -> list[dict]:
    """Records that bring ``state`` in line with a handoff.md text (see the module docstring)."""
    marker, lines = parse_markdown(text)
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
        new = ids.handoff_id(text_)
        known = state.get(new)
        present.add(new)
        if new in {r["id"] for r in recs} or (known is not None and known.is_open):
            continue
        rec = record(OPEN, text_, source, task_id, when)
        if _wins(rec, known):
            recs.append(rec)
    if has_state:
        listed = [h for h in marker.get("ids", "").split(",") if ids.kind_of(h) == "handoff"]
        for hid in listed:
            item = state.get(hid)
            if hid in present or item is None or not item.is_open:
                continue
            # why: a hand edit always postdates the render that listed the item; a clock behind must not undo it
            rec = record(CLOSE, item["text"], source, task_id, max(when, item["key"][0]),
                         reason="removed from handoff.md by hand")
            recs.append(rec)
    return recs


MAX_MARKDOWN_BYTES = 8 * 1024 * 1024


def _read_markdown(memory_dir: str) -> tuple[str, float] | None:
    """handoff.md whole, with its mtime; None when missing or too large to be a hand edit (a cut file
    read as edited would close the items past the cut)."""
    path = os.path.join(memory_dir, files.HANDOFF)
    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_MARKDOWN_BYTES + 1)
            mtime = os.fstat(fh.fileno()).st_mtime
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
        return None
    if len(data) > MAX_MARKDOWN_BYTES:
        return None
    return data.decode("utf-8", "replace"), mtime


def load(memory_dir: str) -> tuple[dict[str, Item], list[dict]]:
    """The items as a reader should see them, with unsynced hand edits (or a legacy handoff.md) applied
    in memory; and those pending records, which a writer appends with ``sync``."""
    records = read_records(memory_dir)
    state = fold(records or [])
    md = _read_markdown(memory_dir)
    if md is None:
        return state, []
    pending = markdown_records(state, md[0], md[1], bool(records))
    if pending:
        state = fold((records or []) + pending)
    return state, pending


def render(state: dict[str, Item], meta: dict, now: float, stale_days=STALE_DAYS) -> str:
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
    for bullet, item in zip(bullets, opened):
        lines.append(bullet)
        note = f"  opened {(item['opened'] or '?')[:16].replace('T', ' ')} by session {item['opened_by'] or '?'}"
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


def write_markdown(memory_dir: str, meta: dict, now: float, stale_days=STALE_DAYS) -> None:
    state = fold(read_records(memory_dir) or [])
    atomic_write(os.path.join(memory_dir, files.HANDOFF), render(state, meta, now, stale_days))


def apply_answer(memory_dir: str, opened, closed, meta: dict, when: float, now: float,
                 stale_days=STALE_DAYS) -> tuple[list[dict], list[str], list[str]]:
    """Under the folder lock: append pending hand edits, then the answer's changes; re-render when anything
    changed. Returns (records appended, notes, problems)."""
    state, pending = load(memory_dir)
    recs, notes, problems = changes(state, opened, closed, meta, when)
    written = pending + recs
    if written:
        append(memory_dir, written)
        write_markdown(memory_dir, meta, now, stale_days)
    return written, notes, problems


def merge_markdown(memory_dir: str, text: str, now: float, source: str) -> int:
    """Open every item listed in a handoff.md ``text`` that is not already known-open, as session ``source``
    at ``now``; re-render handoff.md. Returns how many items were opened. Takes the folder's lock."""
    from lazy_harness.atomic import ensure_dir

    ensure_dir(memory_dir)
    with files.FolderLock(memory_dir):
        state, pending = load(memory_dir)
        if pending:
            append(memory_dir, pending)
            state = fold(read_records(memory_dir) or [])
        recs = []
        for _, hid, body, ticked in parse_markdown(text)[1]:
            item = state.get(hid) if hid else None
            if ticked or (item is not None and item.is_open):
                continue
            body = item["text"] if item is not None and not normalise(body) else body
            if not normalise(body):
                continue
            known = state.get(ids.handoff_id(body))
            if (known is not None and known.is_open) or ids.handoff_id(body) in {r["id"] for r in recs}:
                continue
            rec = record(OPEN, body, source, "", now)
            if _wins(rec, known):
                recs.append(rec)
        if recs or pending:
            append(memory_dir, recs)
            write_markdown(memory_dir, {"session_id": source, "task_id": ""}, now)
        return len(recs)
