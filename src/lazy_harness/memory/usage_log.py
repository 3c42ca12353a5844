"""The usage record: which entries sessions were shown, which they used, which failures recurred.

    <memory dir>/usage.jsonl   one JSON object per line, append-only, merged by ``lh sync`` as a set
                               of lines (every line is its own key: nothing here is an entry)

Lines (``ts`` is ISO 8601 with the local offset):

    {"ts", "op": "session",  "session", "chars"}             characters the hooks injected in it up to
                                                             and including a showing, dated at it
                                                             (``"before"``: the characters before it,
                                                             when some; a line written before lines were
                                                             per showing: all of them, dated at the first)
    {"ts", "op": "shown",    "session", "id", "chars"}       first shown then, its line's characters
                                                             (``"measurable": false`` added when the
                                                             entry had no marks then: worker/evidence.py)
    {"ts", "op": "used",     "session", "id", "evidence"}    the session used it then (what matched)
    {"ts", "op": "recurred", "session", "id"}                a failure distilled again after it was shown
    {"ts", "op": "reset",    "id"}                           ``lh memory usage --reset``: count anew

The worker writes them (worker/usage.py) and ``lh memory usage --reset``; never an entry's file. Lines
repeated (a session distilled twice, a merge) count once: the counts are of distinct sessions. A
``used`` or ``recurred`` line does not count when its session's ``shown`` line of the entry came before
the entry's last reset (a reset between the showing and the use drops both). A session's characters
in a span of time are the most its ``session`` lines in it say less the least they say came before
(:func:`tally`): a session resumed this week counts this week the characters of this week's showings
only. An entry whose last
counted showing said ``measurable: false`` and that no session used is *not measurable*: never ranked
or listed as never used.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field

from lazy_harness import jsonload
from lazy_harness.atomic import append_line, atomic_write, ensure_dir, lock
from lazy_harness.memory import ids, lines
from lazy_harness.memory.files import iso_epoch
from lazy_harness.memory.handoff_log import stamp

# why: not ``from typing import TYPE_CHECKING``: memory never imports ``typing`` at run time (the hooks
# load its read side: house style section 3)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from lazy_harness.memory.shapes import Env

USAGE = "usage.jsonl"
OPS = ("session", "shown", "used", "recurred", "reset")
# why a reason of its own: a record whose op is text this version does not know is a newer version's (the
# file is synced between machines): every reader leaves it out, and none calls it damage (as marks.jsonl
# and the aliases file leave such ops out)
NEWER = "an op this version does not know (a newer version's record)"
WEEK = 7 * 86400


def path_of(memory_dir: str) -> str:
    return os.path.join(memory_dir, USAGE)


def line(op: str, when: float, **fields: object) -> dict:
    return {"ts": stamp(when), "op": op, **fields}


def append(memory_dir: str, records: list[dict]) -> None:
    """Each record as one whole line (a lock and an fsync each: ``atomic.append_line``)."""
    for rec in records:
        # why heal: a last line saved by hand without its newline would swallow this one (as marks do:
        # ``changes.add_mark``); both would be lost to every reader
        append_line(path_of(memory_dir), json.dumps(rec, ensure_ascii=False, separators=(", ", ": ")), heal=True)


def read(memory_dir: str) -> list[dict]:
    """Every usage record (:func:`not_a_record`), in file order, read through the memory files' line
    reader (``lines.read_file``): a damaged line is salvaged when that can be done without guessing (two
    records glued by a lost newline), else skipped; a record that is no usage record is skipped too;
    either way the file is noted for the damage report. Each gets ``at`` (its epoch) and ``folder``
    (``memory_dir``: a session's characters count once per folder, :func:`tally`)."""
    # why a dict of epochs: a showing's lines share one time; parsing each costs 3 us
    path = path_of(memory_dir)
    return _records(lines.read_file(path), memory_dir, {}, path)


def merged_into(memory_dir: str) -> dict[str, str]:
    """``{merged id: the id it was merged into}`` from the folder's ``merge`` marks (memory/marks.py),
    a chain followed to its end (a cycle left as it is)."""
    from lazy_harness.memory import marks

    into: dict[str, str] = {}
    for rec in marks.read(memory_dir):
        by = rec.get("by")
        if rec["op"] == "merge" and isinstance(by, str) and ids.is_id(by) and by != rec["id"]:
            into.setdefault(rec["id"], by)
    out: dict[str, str] = {}
    for eid in into:
        end, seen = into[eid], {eid}
        while end in into and end not in seen:
            seen.add(end)
            end = into[end]
        if end != eid:
            out[eid] = end
    return out


@dataclass
class Entry:
    id: str
    kind: str
    shown: set = field(default_factory=set)  # sessions
    used: set = field(default_factory=set)
    recurred: set = field(default_factory=set)
    chars: int = 0
    last_shown: float = 0.0
    last_used: float = 0.0
    unmarked: bool = False  # its last counted showing said it had no marks (``measurable: false``)
    marked_at: float = -1.0  # the time of that showing
    folder: str = ""  # the memory folder it was counted in (:func:`tally_folders`)

    @property
    def measurable(self) -> bool:
        """Whether the audit can tell its use: it had marks when last shown, or a session used it."""
        return bool(self.used) or not self.unmarked

    def public(self, names: dict[str, str] | None = None) -> dict:
        """Its row of ``--json``; ``"measurable": false`` added when the audit cannot tell its use;
        with ``names`` (``{memory folder: its project's name}``), its ``project`` and ``memory_dir``."""
        row = {"id": self.id, "kind": self.kind, "shown": len(self.shown), "used": len(self.used),
               "recurred": len(self.recurred), "last_shown": _iso(self.last_shown), "last_used": _iso(self.last_used)}
        if not self.measurable:
            row["measurable"] = False
        if names is not None:
            row.update(project=names.get(self.folder) or os.path.basename(self.folder), memory_dir=self.folder)
        return row


@dataclass
class Tally:
    # id -> its counts (:func:`tally`); (memory folder, id) -> its counts (:func:`tally_folders`)
    entries: dict[str | tuple[str, str], Entry] = field(default_factory=dict)
    # (memory folder, session) -> characters injected: a session shown entries of two folders has a
    # ``session`` line in each, and both count
    sessions: dict[tuple[str, str], int] = field(default_factory=dict)
    weeks: dict[str, list[int]] = field(default_factory=dict)  # week's monday -> [shown, used]

    def totals(self) -> dict:
        return {"sessions": len({sid for _, sid in self.sessions}),
                "shown": sum(len(e.shown) for e in self.entries.values()),
                "used": sum(len(e.used) for e in self.entries.values()),
                "injected_chars": sum(self.sessions.values()),
                "recurrences": sum(len(e.recurred) for e in self.entries.values())}

    def report(self, names: dict[str, str] | None = None) -> dict:
        """The JSON of ``lh memory usage --json``; ``names``: each row labelled with its project
        (:meth:`Entry.public`, ``--all-projects``)."""
        rows = sorted(self.entries.values(), key=lambda e: (-len(e.shown), e.id, e.folder))
        return {"entries": [e.public(names) for e in rows], **self.totals()}

    def costly(self, n: int = 10) -> list[Entry]:
        """The entries that cost the most characters for the least use (of those whose use is measured)."""
        some = [e for e in self.entries.values() if e.chars and e.measurable]
        return sorted(some, key=lambda e: (-e.chars / (1 + len(e.used)), e.id))[:n]

    def never_used(self, least: int = 1) -> list[Entry]:
        """Shown in at least ``least`` sessions, used in none, and measurable (not measurable: never)."""
        return sorted((e for e in self.entries.values() if len(e.shown) >= least and not e.used and e.measurable),
                      key=lambda e: (-len(e.shown), e.id))


def _iso(when: float) -> str | None:
    return stamp(when) if when else None


def monday(when: float) -> str:
    """The local date of the Monday of ``when``'s week."""
    lt = time.localtime(when)
    return time.strftime("%Y-%m-%d", time.localtime(when - lt.tm_wday * 86400))


def tally_folders(memory_dirs: list[str], since: float | None = None) -> Tally:
    """:func:`tally` of each folder's lines on its own, with its own merges (:func:`merged_into`) and
    resets, put together: entries keyed by (folder, id), each with its ``folder``; a session's
    characters count once per folder, as in one folder. why not one tally of every folder's lines:
    decision and failure ids come from the entry's text, so two projects' entries can share one, and a
    merge or reset in one project moved or dropped the other's counts."""
    out = Tally()
    for mdir in memory_dirs:
        part = tally(read(mdir), since, merged_into(mdir))
        for e in part.entries.values():
            e.folder = mdir
            out.entries[(mdir, e.id)] = e
        out.sessions.update(part.sessions)  # keyed by (folder, session): none is in two folders
        for week, (shown, used) in part.weeks.items():
            counts = out.weeks.setdefault(week, [0, 0])
            counts[0], counts[1] = counts[0] + shown, counts[1] + used
    return out


def tally(records: list[dict], since: float | None = None, into: dict[str, str] | None = None) -> Tally:
    """Counts per entry of one folder's distinct sessions that were shown it, used it, saw it recur
    (after its last reset); only lines at or after ``since`` when given. ``into`` (:func:`merged_into`): a merged
    entry's lines count for the entry it was merged into, after the last reset of either. A ``used``
    or ``recurred`` line does not count when its session's ``shown`` line of the entry came before the
    reset (a reset made while the session ran drops both: never more uses than showings)."""
    into = into or {}
    resets: dict[str, float] = {}
    for rec in records:
        if rec["op"] == "reset":
            resets[rec["id"]] = max(resets.get(rec["id"], 0.0), rec["at"])
    kept: set[tuple[str, str]] = set()  # (entry, session) whose showing counts
    dropped: set[tuple[str, str]] = set()  # ... whose showing came before a reset
    for rec in records:
        if rec["op"] == "shown":
            eid = into.get(rec["id"], rec["id"])
            ok = rec["at"] >= max(resets.get(rec["id"], 0.0), resets.get(eid, 0.0))
            (kept if ok else dropped).add((eid, rec["session"]))
    t = Tally()
    mondays: dict[int, str] = {}  # why: time.localtime twice per line was a fifth of a long file's tally
    spans: dict[tuple[str, str], list[int]] = {}  # (folder, session) -> [most chars, least before]
    for rec in records:
        op, at = rec["op"], rec["at"]
        if op == "reset" or (since is not None and at < since):
            continue
        if op == "session":
            _span(spans, rec)
            continue
        eid = into.get(rec["id"], rec["id"])
        pair = (eid, rec["session"])
        if (pair in dropped and pair not in kept) or at < max(resets.get(rec["id"], 0.0), resets.get(eid, 0.0)):
            continue
        e = t.entries.get(eid) or t.entries.setdefault(eid, Entry(eid, ids.kind_of(eid) or "?"))
        quarter = int(at // 900)  # every UTC offset and change of offset falls on a quarter hour
        week = mondays.get(quarter) or mondays.setdefault(quarter, monday(quarter * 900))
        _count(t, e, rec, t.weeks.setdefault(week, [0, 0]))
    t.sessions.update((key, max(most - least, 0)) for key, (most, least) in spans.items())
    return t


def _span(spans: dict[tuple[str, str], list[int]], rec: dict) -> None:
    """Widen the session's span of characters by one ``session`` line: the most it injected up to a
    line, the least before one (0 when a line says none: a session's first, or one written whole)."""
    key = (str(rec.get("folder", "")), rec["session"])
    chars, before = rec.get("chars", 0), rec.get("before", 0)
    span = spans.get(key)
    if span is None:
        spans[key] = [chars, before]
    else:
        span[0], span[1] = max(span[0], chars), min(span[1], before)


def _count(t: Tally, e: Entry, rec: dict, week: list[int]) -> None:
    op, at, sid = rec["op"], rec["at"], rec["session"]
    if op == "shown":
        if at >= e.marked_at:
            e.unmarked, e.marked_at = rec.get("measurable") is False, at
        if sid not in e.shown:
            e.shown.add(sid)
            e.chars += rec.get("chars", 0)
            e.last_shown = max(e.last_shown, at)
            t.sessions.setdefault((str(rec.get("folder", "")), sid), 0)
            week[0] += 1
    elif op == "used" and sid not in e.used:
        e.used.add(sid)
        e.last_used = max(e.last_used, at)
        week[1] += 1
    elif op == "recurred":
        e.recurred.add(sid)


def of_session(records: list[dict], session_id: str) -> set[tuple[str, str]]:
    """(op, id) already written for a session (its ``session`` line as ("session", chars))."""
    return {(r["op"], str(r.get("chars")) if r["op"] == "session" else r["id"])
            for r in records if r.get("session") == session_id}


def write_ranks(t: Tally, path: str) -> None:
    """The counts the budget cuts read (memory/usage.py): ``<id> <sessions shown> <sessions used>``,
    fixed-width lines sorted by id (``usage.LINE`` characters each while every id has 8 hex, the id
    field as wide as the longest id otherwise, shorter ones padded; counts capped at 999,999); ``-``
    for the sessions used of an entry that is not measurable (``Entry.measurable``)."""
    rows = sorted((e for e in t.entries.values() if ids.is_id(e.id)), key=lambda e: e.id)
    width = max((len(e.id) for e in rows), default=0)
    body = "".join(f"{e.id.ljust(width)} {min(len(e.shown), 999_999):6d} {_used_field(e)}\n" for e in rows)
    ensure_dir(os.path.dirname(path))
    atomic_write(path, body, durable=False)


def _used_field(e: Entry) -> str:
    return f"{min(len(e.used), 999_999):6d}" if e.measurable else f"{'-':>6}"


def _ranks_lock(path: str) -> int:
    """The lock every writer of the ranks file ``path`` holds from its read of usage.jsonl to its write
    (``<path>.lock``, beside it, never deleted); its descriptor, to close to release it."""
    ensure_dir(os.path.dirname(path))
    return lock(path + ".lock")


def refresh_ranks(env: Env | None, memory_dir: str) -> Tally:
    """Write the counts the budget cuts read from usage.jsonl as it is now, a merged entry's sessions
    counted for the one it was merged into; returns its tally. The read, the tally and the write hold
    the ranks file's lock. why: the worker's recount read before ``lh memory usage --reset`` was
    written after it, and the entry's old counts came back. The readers (the hooks) take no lock."""
    return record(env, memory_dir, lambda records: [])[1]


def record(env: Env | None, memory_dir: str, new_of: Callable[[list[dict]], list[dict]],
           ) -> tuple[list[dict], Tally]:
    """Under the ranks file's lock: read usage.jsonl once, append the lines ``new_of(what was read)``
    returns, and write the counts the budget cuts read from both (as :func:`refresh_ranks`); returns
    (the lines appended, the tally). why one read: the file grows with history, and the worker used
    to read it once to see what was new and again for the ranks, on every distillation."""
    from lazy_harness.memory import usage

    path = usage.ranks_file(env, memory_dir)
    fd = _ranks_lock(path)
    try:
        records = read(memory_dir)
        new = new_of(records)
        if new:
            append(memory_dir, new)
        added = [dict(rec, at=iso_epoch(rec["ts"]) or 0.0, folder=memory_dir) for rec in new]
        t = tally(records + added, into=merged_into(memory_dir))
        write_ranks(t, path)
    finally:
        os.close(fd)
    return new, t


def reset(env: Env | None, memory_dir: str, entry_id: str, now: float) -> None:
    """``lh memory usage --reset ID``: the entry's counts start over (a line, never a rewrite)."""
    from lazy_harness.errors import LhError

    if ids.kind_of(entry_id) is None:
        raise LhError(f"{entry_id!r} is not an id (d-, f-, l- or h- and 8 to 40 hex characters)",
                      hint="lh memory usage")
    append(memory_dir, [line("reset", now, id=entry_id)])
    refresh_ranks(env, memory_dir)


def this_week(memory_dir: str, now: float) -> dict:
    """The totals of the last seven days: :func:`tally` of the whole file since a week ago, a merged
    entry's lines counted for the one it was merged into (:func:`merged_into`, as ``lh memory usage``),
    reading only the lines that can change them (:func:`_week_rows`)."""
    since = now - WEEK
    out: list[dict] = []
    epochs: dict[str, float | None] = {}
    path = path_of(memory_dir)
    into = merged_into(memory_dir)
    for raw in _week_rows(path, since, into):
        recs, how = lines.records_of(raw)
        if how:
            lines.note(path)
        out += _records(recs, memory_dir, epochs, path)
    return tally(out, since=since, into=into).totals()


def _records(recs: list[dict], memory_dir: str, epochs: dict[str, float | None], path: str) -> list[dict]:
    """The usage records among ``recs``, as :func:`read` keeps them, ``path`` noted when one is not
    (``epochs``: each "ts" parsed once)."""
    out = []
    for rec in recs:
        if why := not_a_record(rec, epochs):
            if why != NEWER:
                lines.note(path)
            continue
        rec["at"], rec["folder"] = epochs[rec["ts"]], memory_dir
        out.append(rec)
    return out


def not_a_record(rec: dict, epochs: dict[str, float | None] | None = None) -> str | None:
    """Why a JSON object of usage.jsonl is no usage record, or None: the one rule of every reader
    (:func:`read`, :func:`this_week`, ``lh memory check``). ``epochs``: each "ts" parsed once, kept
    there. why so strict: a record with an id of no entry was a row of kind "?", one whose time is not
    one a use "last used never", characters below 0 a session that took some away. :data:`NEWER` for a
    record of an op this version does not know: left out, but no damage."""
    op, ts = rec.get("op"), rec.get("ts")
    if isinstance(op, str) and op and op not in OPS:
        return NEWER
    if op not in OPS:
        return "op is not " + ", ".join(OPS)
    if not isinstance(ts, str):
        return "no ts"
    epochs = {} if epochs is None else epochs
    if ts not in epochs:
        epochs[ts] = iso_epoch(ts)
    if epochs[ts] is None:
        return "ts is not a time"
    if op != "session" and ids.kind_of(rec.get("id")) is None:
        return "id is not an entry id"
    if op != "reset" and not isinstance(rec.get("session"), str):
        return "no session"
    if any(not _is_count(rec.get(name, 0)) for name in ("chars", "before")):
        return "chars is not a count of 0 or more"
    return None


def _is_count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


# why a date and not the file's order: lines are appended in time order, but a sync merge puts the other
# machine's lines after ours (sync/drivers.py, "ours in order, then theirs"), months of them at a first
# sync, so a line of this week can stand before a long run of old ones. So every line is looked at, and
# the date its "ts" starts with is read without parsing it: a line dated before ``_floor`` (the UTC date
# two days before the week began: every offset is within a day of UTC) is older than the week, and
# :func:`tally` skips it, unless it is a reset, or a showing of an entry that was reset (a session shown
# it before the reset that uses it this week: that use does not count); those are kept. A line whose
# date cannot be read that way (damaged, two glued records, a "ts" written another way) is kept and parsed.


def _floor(since: float) -> bytes:
    return time.strftime("%Y-%m-%d", time.gmtime(since - 2 * 86400)).encode()


def _week_rows(path: str, since: float, into: dict[str, str] | None = None) -> list[bytes]:
    """The lines of usage.jsonl that can count in a tally since ``since`` (see above), in file order,
    without newlines; ``into`` (:func:`merged_into`): an older showing of an entry merged into one that
    was reset is kept too."""
    try:  # why read_regular: a FIFO in the file's place held the tally in open() for good; it is named now
        data = lines.read_regular(path)
    except (FileNotFoundError, NotADirectoryError):
        return []
    rows = data.removeprefix(b"\xef\xbb\xbf").split(b"\n")
    if rows and rows[-1].strip() and not _whole(rows[-1]):
        rows.pop()  # a write in flight: not read (as ``lines.read_file``)
    floor, kept, old = _floor(since), [], []
    reset: set[bytes] = set()
    for n, raw in enumerate(rows):
        # why slices and not a regex: 100,000 lines; the line as ``append`` writes it starts {"ts": "<date>T
        if (raw.startswith(_START) and raw[18:19] == b"T" and raw[8:18] < floor and raw.count(b"{") == 1
                and b'"reset"' not in raw):
            old.append(n)
            continue
        if b"reset" in raw:
            reset.add(_id_of(raw))
        kept.append(n)
    if reset:  # the showings before the week of an entry that was reset, or merged into one that was
        reset |= {k.encode() for k, v in (into or {}).items() if v.encode() in reset}
        kept += [n for n in old if b'"shown"' in rows[n] and _id_of(rows[n]) in reset]
    return [rows[n] for n in sorted(kept)]


_START = b'{"ts": "'


def _whole(raw: bytes) -> bool:
    try:
        return isinstance(jsonload.loads(raw), dict)
    except (ValueError, RecursionError):
        return False


def _id_of(raw: bytes) -> bytes:
    """The ``"id"`` value of a line as written (b"" when none is read); only where a reset was made."""
    import re

    m = re.search(rb'"id"\s*:\s*"([^"\\]*)"', raw)
    return m.group(1) if m else b""
