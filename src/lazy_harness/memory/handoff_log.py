"""The handoff item log: records, the fold, and what an answer changes (ADR 8).

    {"op": "open"|"close"|"restate", "id": "h-1a2b3c4d", "text", "session_id", "task_id", "ts", "reason"?}

For each id the open or close record with the greatest ``(ts, op)`` wins (a close beats an open at the
same ``ts``; further ties by session, task, text and reason), so the state depends on the set of
records and never on their order. A ``restate`` record says that a session gave the item again while
it was open (``changes``): it never takes part in the state, it only counts that session among those
that raised the item (``closed_since_raised``). A log without any reads as before; a version that
knows no ``restate`` skips those lines. ``memory.handoff`` adds handoff.md (rendering, hand edits)
and the writes.

Hot path: the SessionStart read-back folds the log; only ``os``, ``time`` and our hot-path modules here.
"""

from __future__ import annotations

import os
import time

from lazy_harness import jsonload
from lazy_harness.memory import files, ids, lines
from lazy_harness.memory.provenance import agent_word
from lazy_harness.memory.sanitize import normalise, one_line

# why: not ``from typing import TYPE_CHECKING``: memory never imports ``typing`` at run time (the hooks
# load its read side: house style section 3)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

    from lazy_harness.memory.shapes import Env

STATE = files.HANDOFF_STATE
OPEN, CLOSE, RESTATE = "open", "close", "restate"
STALE_DAYS = 14
DAY = 86400.0
HAND_EDIT = "hand-edit"  # the session field of what a hand edit of handoff.md opened or closed


# --- text ----------------------------------------------------------------------------------------

def items(raw: str | Iterable[object] | None) -> list[str]:
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
    end = text.find("]", 11, ids.LONGEST + 4) if text[:1] == "[" else -1
    if end > 0 and ids.kind_of(text[1:end]) == "handoff":
        return text[1:end], text[end + 1:].strip()
    return None, text


def stamp(t: float) -> str:
    """ISO-8601 local time with milliseconds and offset: ``2026-04-13T18:32:45.123+02:00``."""
    # why: truncate, not round: round() sends X.5 ms and X+1.5 ms to the same even millisecond, so
    # two items stamped 1 ms apart (one answer's items, in order) could tie and lose their order
    total = int(t * 1000)
    secs, ms = divmod(total, 1000)
    lt = time.localtime(secs)
    off = lt.tm_gmtoff or 0
    sign = "+" if off >= 0 else "-"
    off = abs(off)
    return time.strftime("%Y-%m-%dT%H:%M:%S", lt) + f".{ms:03d}{sign}{off // 3600:02d}:{off % 3600 // 60:02d}"


# --- who changed an item, in words -------------------------------------------------------------------
# why: the session field also names who else changed an item; "by session by hand" read as nonsense
_WHO = {"by hand": "by hand (lh memory close)", HAND_EDIT: "by a hand edit of handoff.md",
        "forget": "by lh memory forget", "consolidate": "by consolidation"}
# reasons that only repeat who did it
_PLAIN = ("closed by hand", "removed from handoff.md by hand")


# the reason of the close of an item whose line in handoff.md kept its tag but was reworded: the new id follows
REWORDED = "reworded in handoff.md by hand: now "


def reworded_as(state: dict[str, Item], hid: str) -> Item | None:
    """The open item that closed item ``hid`` became when the person reworded its line in handoff.md
    (the close's reason, ``REWORDED``), followed through later rewordings; None when there is none."""
    seen: set[str] = set()
    item = state.get(hid)
    while item is not None and not item.is_open and item["id"] not in seen:
        seen.add(item["id"])
        reason = str(item.get("reason") or "")
        if item.get("closed_by") != HAND_EDIT or not reason.startswith(REWORDED):
            return None
        item = state.get(reason[len(REWORDED):].strip())
    return item if item is not None and item.is_open else None


def by_whom(session: object, agent: object = None) -> str:
    """``by session abc`` (``by Codex session abc`` with ``agent`` "codex", a record's or an item's
    ``opened_agent``, as the digest names it), or what a non-session change was: ``by hand (lh memory
    close)``..."""
    who = one_line(session or "")[:60]
    return _WHO.get(who) or f"by {agent_word({'agent': agent})}session {who or '?'}"


def why_closed(reason: object) -> str:
    """``: <reason>`` when the reason says more than who closed the item, else ""."""
    said = one_line(reason or "")[:200]
    return f": {said}" if said and said not in _PLAIN else ""


# --- the state ------------------------------------------------------------------------------------

def id_for(state: dict[str, Item], text: str, more: Iterable[dict] = ()) -> str:
    """The id of the item of ``text``: the one an item of the same text holds in ``state`` (or among
    the records ``more`` not yet folded in), else a new one that no other item holds (``ids.fresh``)."""
    taken = {i: normalise(item["text"]) for i, item in state.items()}
    taken.update((r["id"], normalise(r["text"])) for r in more)
    return ids.fresh("handoff", normalise(text), taken)


def record(op: str, text: str, session_id: object, task_id: object, when: float, reason: str | None = None,
           hid: str | None = None) -> dict:
    """One record; ``hid``: the item's id when it has one (``id_for``), else derived from ``text``."""
    text = one_line(text)
    rec = {"op": op, "id": hid or ids.handoff_id(text), "text": text, "session_id": one_line(session_id),
           "task_id": one_line(task_id), "ts": stamp(when)}
    if reason:
        rec["reason"] = one_line(reason)
    return rec


def _shaped(rec: object) -> bool:
    return (isinstance(rec, dict) and rec.get("op") in (OPEN, CLOSE, RESTATE) and isinstance(rec.get("text"), str)
            and ids.kind_of(rec.get("id")) == "handoff")


def epoch(ts: object) -> float | None:
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


def _valid(rec: dict) -> float | None:
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


RECORD_FIELDS = ("op", "id", "text", "session_id", "task_id", "ts", "reason", "agent")


def salvage(text: str) -> dict | None:
    """A record rebuilt from a damaged line's surviving string fields (``lines.records_of``), kept only
    when its op and time read and its id still matches its text: the item is then exactly the one
    written, whatever else the damage took (session and task ids, the reason)."""
    rec = lines.string_fields(text, RECORD_FIELDS)
    if not _shaped(rec) or not ids.derives(rec["id"], "handoff", normalise(rec["text"])):
        return None
    if epoch(rec.get("ts")) is None:
        return None
    return rec


def read_records(memory_dir: str) -> list[dict] | None:
    """Every record of the state file; None when there is no state file. A damaged line is salvaged
    when it can be (``lines.records_of``, ``salvage``), else skipped; either way the file is noted
    for the log."""
    path = os.path.join(memory_dir, STATE)
    if not os.path.exists(path):
        return None
    out = []
    for rec in lines.read_file(path, salvage):
        if _shaped(rec):
            out.append(rec)
    return out


class Item(dict):
    """One folded item: id, text, state ("open"/"closed"), opened/opened_by/opened_agent/opened_task, closed/closed_by/
    reason/raised_by (closed items; ``raised_by``: the sessions of every open and restate record),
    and ``key``, the sort key of its winning record. ``raisers``, an attribute and not a key (the open
    items' cache beside the log stores the keys), holds those sessions for an open item too."""

    raisers: frozenset[str] = frozenset()

    @property
    def is_open(self) -> bool:
        return self["state"] == OPEN


def _first(pair: tuple[tuple, dict]) -> tuple:
    return pair[0]


def fold(records: list[dict]) -> dict[str, Item]:
    """The items of a set of records, by id. Independent of the records' order."""
    by_id: dict[str, list[tuple[tuple, dict]]] = {}
    restated: dict[str, set[str]] = {}
    for rec in records:
        t = _valid(rec)
        if t is None:
            continue
        if rec["op"] == RESTATE:
            restated.setdefault(rec["id"], set()).add(str(rec.get("session_id") or ""))
        else:
            by_id.setdefault(rec["id"], []).append((_key(rec, t), rec))
    out: dict[str, Item] = {}
    for hid, keyed in by_id.items():
        if len(keyed) > 1:
            keyed.sort(key=_first)
        first_open = last_span = None
        for key, rec in keyed:
            if rec["op"] == OPEN:
                if first_open is None:
                    first_open = (key, rec)
            elif first_open is not None:  # why: a second close (the item closed on two machines) ends no span
                last_span, first_open = first_open, None
        win_key, win = keyed[-1]
        opening = first_open if win["op"] == OPEN else last_span
        item = Item(id=hid, text=(opening or (win_key, win))[1]["text"], state=OPEN if win["op"] == OPEN else "closed",
                    opened=opening[1]["ts"] if opening else None, opened_epoch=opening[0][0] if opening else None,
                    opened_by=opening[1].get("session_id") if opening else None,
                    opened_agent=opening[1].get("agent") if opening else None,
                    opened_task=opening[1].get("task_id") if opening else None, key=win_key)
        item.raisers = frozenset(restated.get(hid, ())).union(
            str(r.get("session_id") or "") for _, r in keyed if r["op"] == OPEN)
        if win["op"] == CLOSE:
            item.update(closed=win["ts"], closed_epoch=win_key[0], closed_by=win.get("session_id"),
                        closed_task=win.get("task_id"), reason=win.get("reason"), raised_by=sorted(item.raisers))
        out[hid] = item
    return out


def open_items(state: dict[str, Item]) -> list[Item]:
    """Open items, oldest first."""
    return sorted((i for i in state.values() if i.is_open), key=lambda i: (i["opened_epoch"] or 0.0, i["id"]))


def closed_items(state: dict[str, Item]) -> list[Item]:
    """Closed items, most recently closed first."""
    return sorted((i for i in state.values() if not i.is_open), key=lambda i: (i["closed_epoch"], i["id"]),
                  reverse=True)


def is_stale(item: Item, now: float, stale_days: float) -> bool:
    return item.is_open and item["opened_epoch"] is not None and now - item["opened_epoch"] > float(stale_days) * DAY


def age_days(item: Item, now: float) -> int:
    return int((now - (item["opened_epoch"] or now)) // DAY)


# --- what an answer changes -------------------------------------------------------------------------

def wins(rec: dict, item: Item | None) -> bool:
    """True when ``rec`` would become its item's winning record."""
    return item is None or _key(rec, epoch(rec["ts"]) or 0.0) > item["key"]


def closed_since_raised(item: Item, session_id: object, env: Env | None = None) -> bool:
    """Whether ``item`` was closed, by anyone but ``session_id``, after that session had opened it or
    given it again while it was open (a ``restate`` record: it saw the item open, and its answers list
    open items again as a matter of course). A fork counts as the sessions it was forked from
    (memory/lineage.py ``own``): it holds their conversation, so what they raised, it raises again
    when it is read whole.

    why: the session's answer giving it again is no news: a re-read of the session from its start
    (``lh knowledge handoff-now``) gives back what its first part raised, stamped with the time of the
    transcript, which grew since; the store is not told which part of the transcript an item came
    from, so its resumed part asking again is treated alike (ADR 8). The session's own close is left
    out: a running session distilled turn by turn may close an item and find it open again."""
    sid = one_line(session_id or "")
    if item.is_open or not sid:
        return False
    from lazy_harness.memory import lineage  # why here: the worker's question; SessionStart reads items only

    mine = lineage.own(env, sid) or (sid,)
    return (one_line(item.get("closed_by") or "") not in mine
            and any(s in (item.get("raised_by") or ()) for s in mine))


def _find_open(state: dict[str, Item], ref: str) -> Item | None:
    hid, text = split_ref(ref.strip())
    if hid is None and ids.kind_of(text) == "handoff":
        hid = text
    if hid is not None:
        return state.get(hid)
    return state.get(id_for(state, text))


def _closes(state: dict[str, Item], closed: Iterable[object] | None, who: tuple[object, object, float],
            notes: list[str], problems: list[str]) -> tuple[list[dict], set[str]]:
    """The close records of an answer's ``handoff_closed`` (``who``: session, task, time) and the ids it names."""
    sid, tid, when = who
    recs: list[dict] = []
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
        rec = record(CLOSE, item["text"], sid, tid, when, hid=item["id"])
        if wins(rec, item):
            recs.append(rec)
        else:
            notes.append(f"restated by a newer session, stays open: [{item['id']}] {item['text']}")
    return recs, closing


def _not_reopened(known: Item, rec: dict, session_id: object) -> str | None:
    """Why the open ``rec`` of the closed item ``known`` is not written, or None when it is."""
    if not wins(rec, known):
        return "closed by a newer session"
    # why no env: the answer's meta names none; the worker and the CLI run in the environment whose
    # state folder holds the lineage (worker/__main__.py passes none either)
    if closed_since_raised(known, session_id):
        return f"closed {by_whom(known.get('closed_by'))} after this session raised it"
    return None


def changes(state: dict[str, Item], opened: str | Iterable[object] | None, closed: Iterable[object] | None, meta: dict,
            when: float) -> tuple[list[dict], list[str], list[str]]:
    """Records an answer adds to ``state``, notes on what it left alone, and problems (unknown items).

    ``opened``: new or restated items (a ``[h-...]`` prefix naming a known item is that item);
    ``closed``: ids or exact texts of open items. Nothing is written for an item already in the
    asked state, nor for a change an existing newer record would outrank (the answer is older news),
    nor to reopen an item closed by someone else after this session raised it (``closed_since_raised``).
    An open item given again by a session that neither opened nor restated it before gets a ``restate``
    record (once per session: a re-read adds none).
    """
    sid, tid = meta.get("session_id"), meta.get("task_id")
    notes: list[str] = []
    problems: list[str] = []
    recs, closing = _closes(state, closed, (sid, tid, when), notes, problems)
    seen: set[str] = set()
    step = 0.0
    for raw in items(opened or []):
        hid, text = split_ref(raw)
        known = state.get(hid) if hid else None
        if hid is None or known is None:  # (no id given means no item known)
            if not normalise(text):
                # why said: an id no item has, with no words to open one by (``[h-0000] 🎉``)
                notes.append(f"nothing to open: {one_line(raw)[:80]!r} names no known item and has no words")
                continue
            hid = id_for(state, text, recs)
            known = state.get(hid)
        if hid in seen or hid in closing:
            continue
        seen.add(hid)
        if known is not None and known.is_open:
            notes.append(f"still open: [{hid}] {known['text']}")
            if sid and one_line(sid) not in known.raisers:
                # why: once the person closes it, this session read again (whole, or resumed) gives it
                # again, newer than the close; having seen it open, it must not reopen it (closed_since_raised)
                recs.append(record(RESTATE, known["text"], sid, tid, when, hid=hid))
            continue
        # why: a millisecond apart, so the items of one answer keep the answer's order (oldest first)
        rec = record(OPEN, known["text"] if known else text, sid, tid, when + step, hid=hid)
        why = None if known is None else _not_reopened(known, rec, sid)
        if why:
            notes.append(f"{why}, not reopened: [{hid}] {known['text'] if known else text}")
            continue
        recs.append(rec)
        step += 0.001
    agent = one_line(meta.get("agent"))
    if agent:  # the agent whose session opened or closed the item, beside that session (no field: claude)
        for rec in recs:
            rec["agent"] = agent
    return recs, notes, problems
