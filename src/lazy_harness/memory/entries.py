"""decisions.jsonl and failures.jsonl: one whole JSON line per entry, never the same summary twice.

    {"ts", "type", "id", "project", "session_id", "task_id", <the item's fields in documented order>,
     "project_folder", "via", "machine", "author", "text_digest"}   (provenance: memory/provenance.py)

``id`` is ``ids.entry_id(type, summary)`` (``d-``/``f-`` and 8 hex), lengthened when another entry
of the file holds those 8 (``taken_ids``, ``ids.fresh``). Lines written before ids existed have none;
readers take ``ids.of_record(rec)``, which derives the same id from the summary every time.

De-duplication reads the file itself (no side index that a crash between two writes could leave out
of step): ``recorded()`` tells which normalised summaries already have a whole entry. A line torn by
a killed writer never counts, and ``heal_tail()`` ends it so the next entry starts on its own line
(as it ends a whole last line an editor saved without its newline). A byte order mark an editor
wrote at the start of the file is not part of the first entry.
"""

from __future__ import annotations

import json
import os

from lazy_harness import jsonload
from lazy_harness.atomic import append_line
from lazy_harness.logfile import stamp
from lazy_harness.memory import ids
from lazy_harness.memory.files import BOM
from lazy_harness.memory.sanitize import ASCII_TRIM_BYTES, no_surrogates, normalise, one_line
from lazy_harness.regular_file import open_regular, read_regular

# why: not ``from typing import TYPE_CHECKING``: memory never imports ``typing`` at run time (the hooks
# load its read side: house style section 3)
TYPE_CHECKING = False
if TYPE_CHECKING:
    import mmap
    from collections.abc import Iterable

    from lazy_harness.memory.shapes import Env

FIELDS = {"decision": ("summary", "context", "alternatives", "rationale", "tags", "cues"),
          "failure": ("summary", "root_cause", "resolution", "prevention", "tags", "cues")}
LIST_FIELDS = ("alternatives", "tags", "cues")
_SUMMARY_KEY = b'"summary":'
_DECODER = json.JSONDecoder()  # raw_decode: the string at the start of a line's rest, and where it ends


def record(kind: str, item: dict, meta: dict, now: float, env: Env | None = None) -> dict:
    """One entry, keys in the documented order; unknown item keys are dropped, missing ones empty.
    ``env``: the environment of the profile it is written for (its author; None: this process's)."""
    rec: dict = {"ts": stamp(now), "type": kind, "id": ids.entry_id(kind, one_line(item.get("summary"))),
           "project": one_line(meta.get("project")),
           "session_id": one_line(meta.get("session_id")), "task_id": one_line(meta.get("task_id"))}
    for name in FIELDS[kind]:
        value = item.get(name)
        if name in LIST_FIELDS:
            if isinstance(value, str):
                value = [value]
            rec[name] = [no_surrogates(str(v)) for v in value] if isinstance(value, (list, tuple)) else []
        elif name == "summary":
            rec[name] = one_line(value)
        else:
            rec[name] = no_surrogates("" if value is None else str(value))
    from lazy_harness.memory import provenance

    rec.update(provenance.fields(meta, env))
    rec["text_digest"] = provenance.digest_of(rec, kind)
    return rec


def taken_ids(path: str, kind: str, keys: Iterable[str]) -> dict[str, str]:
    """``{id: normalised summary}`` of the entries of ``path`` whose id could clash with an id of one
    of ``keys`` (normalised summaries): those holding the same first 8 hex characters.

    why: this runs at every persist over the whole history, so a line that names another id costs a
    substring test, and a line without an id (written before ids) the hash of its summary, read as
    ``recorded`` reads it; only a line that may clash is parsed whole.
    """
    hexes = {ids.short_hex(k) for k in keys}
    stems = [b'"' + (ids.PREFIXES[kind] + h).encode("ascii") for h in hexes]
    out: dict[str, str] = {}
    try:  # why read_regular: a FIFO in the file's place held the worker's persist in open() for good
        data = read_regular(path)
    except FileNotFoundError:
        return out
    for line in data.split(b"\n"):
        if b'"id":' in line:
            if not any(s in line for s in stems):
                continue
        elif not _summary_may_clash(line, hexes):
            continue
        rec = jsonload.line_object(line.removeprefix(BOM).decode("utf-8", "replace"))
        if rec is not None and isinstance(rec.get("summary"), str):  # None: a torn line, never written whole
            out[ids.of_record(rec, kind)] = normalise(rec["summary"])
    return out


def ids_by_digest(path: str, kind: str, digests: set[str]) -> dict[str, str]:
    """``{text_digest: id}`` of the whole entries of ``path`` whose ``text_digest`` (the digest of their
    text when first written) is one of ``digests``: an entry edited by hand since, even without its id,
    is still known as the one first written in those words. Only lines holding one are parsed."""
    out: dict[str, str] = {}
    if not digests:
        return out
    try:  # why read_regular: a FIFO in the file's place held the worker's persist in open() for good
        data = read_regular(path)
    except FileNotFoundError:
        return out
    for digest in digests:
        needle = b'"' + digest.encode("ascii", "replace") + b'"'
        at = data.find(needle)
        while at >= 0 and digest not in out:
            begin, end = data.rfind(b"\n", 0, at) + 1, data.find(b"\n", at)
            line = data[begin:end if end >= 0 else len(data)]
            rec = jsonload.line_object(line.removeprefix(BOM).decode("utf-8", "replace"))
            if rec is not None and rec.get("text_digest") == digest and isinstance(rec.get("summary"), str):
                out[digest] = ids.of_record(rec, kind)
            at = data.find(needle, at + 1)
    return out


def _summary_may_clash(line: bytes, hexes: set[str]) -> bool:
    """Whether a line without an id has a summary whose derived id starts with one of ``hexes``
    (a line whose summary cannot be read this way is looked at whole)."""
    at = line.find(_SUMMARY_KEY)
    if at < 0:
        return False
    j = at + len(_SUMMARY_KEY)
    while j < len(line) and line[j] == 0x20:
        j += 1
    end = line.find(b'"', j + 1) if line[j:j + 1] == b'"' else -1
    raw = line[j + 1:end] if end > 0 else b"\\"
    if b"\\" not in raw:  # no escapes: these bytes are the string
        summary = raw.decode("utf-8", "replace")
    else:
        try:
            summary = _DECODER.raw_decode(line[j:].decode("utf-8", "replace"))[0]
        except (ValueError, RecursionError):  # why: a synced summary may be a list nested past the stack
            return True
    return not isinstance(summary, str) or ids.short_hex(normalise(summary)) in hexes


def with_fresh_id(line: str, kind: str, key: str, taken: dict[str, str]) -> str:
    """The entry ``line`` with the id no other entry of ``taken`` holds (``ids.fresh``); ``taken``
    then holds it too, so two new entries of one write never share one."""
    rec = json.loads(line)
    want = ids.fresh(kind, key, taken)
    taken[want] = key
    if rec.get("id") == want:
        return line
    rec["id"] = want
    return json_line(rec)


def json_line(rec: dict) -> str:
    """The entry as exactly one line. JSON escapes ``\\n`` and ``\\r``; U+0085, U+2028 and U+2029 are
    escaped too, since readers using ``str.splitlines()`` would break a line on them."""
    line = json.dumps(rec, ensure_ascii=False)
    line = line.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029").replace("\x85", "\\u0085")
    if "\n" in line or "\r" in line:  # why: cannot happen with json.dumps; a guard, not an assert (-O)
        raise ValueError("a JSONL entry must be one line")
    return line


def _whole_entry(buf: mmap.mmap, at: int, key: str) -> bool:
    """True when the line around ``at`` is a complete JSON object whose summary normalises to ``key``.
    A byte order mark an editor put at the start of the file is not part of the first line."""
    begin = buf.rfind(b"\n", 0, at) + 1
    if begin == 0 and buf[:len(BOM)] == BOM:
        begin = len(BOM)
    end = buf.find(b"\n", at)
    rec = jsonload.line_object(bytes(buf[begin:end if end >= 0 else len(buf)]).decode("utf-8", "replace"))
    # None: a torn line, its entry never written whole
    return rec is not None and isinstance(rec.get("summary"), str) and normalise(rec["summary"]) == key


def recorded(path: str, keys: set[str]) -> set[str]:
    """Which of ``keys`` (normalised summaries) already have a whole entry in the JSONL file.

    why: this runs at every persist over the whole history, so it jumps through a memory map from one
    ``"summary":`` to the next and decodes only that string; an escape-free ASCII summary is even
    normalised as bytes. Inside a JSON string every ``"`` is escaped, so that text can only be a key.
    A line is parsed in full only when its summary matches one of ``keys``.
    """
    found: set[str] = set()
    if not keys:
        return found
    try:  # why open_regular: a FIFO in the file's place held the worker's persist in open() for good
        fd, st = open_regular(path)
    except FileNotFoundError:
        return found
    try:
        size = st.st_size
        if size == 0:
            return found
        import mmap
        buf = mmap.mmap(fd, size, access=mmap.ACCESS_READ)
    finally:
        os.close(fd)
    ascii_keys = {k.encode("ascii"): k for k in keys if k.isascii()}
    find = buf.find
    with buf:
        pos = 0
        while True:
            i = find(_SUMMARY_KEY, pos)
            if i < 0:
                break
            j = i + len(_SUMMARY_KEY)
            while j < size and buf[j] == 0x20:
                j += 1
            if j >= size or buf[j] != 0x22:  # not a string value
                pos = j
                continue
            end = find(b'"', j + 1)
            raw = buf[j + 1:end] if end > 0 else b"\\"
            if b"\\" not in raw:  # no escapes: these bytes are the string
                pos = end + 1
                if raw.isascii():
                    key = ascii_keys.get(b" ".join(raw.lower().split()).strip(ASCII_TRIM_BYTES))
                else:
                    key = normalise(raw.decode("utf-8", "replace"))
            else:  # escapes: let the decoder find the end of the string within its line
                stop = find(b"\n", j)
                stop = size if stop < 0 else stop
                pos = stop
                try:
                    key = normalise(_DECODER.raw_decode(buf[j:stop].decode("utf-8", "replace"))[0])
                except ValueError:
                    continue  # unterminated: a torn line
            if key in keys and key not in found and _whole_entry(buf, i, key):
                found.add(key)
    return found


def heal_tail(path: str) -> bool:
    """End a last line that has no newline so the next entry starts on its own line: one torn by a
    writer killed mid-write, or a whole entry saved by an editor that writes no final newline.

    The line stays (it is not ours to delete); readers skip a torn one as a line that does not parse.
    """
    try:  # why open_regular: a FIFO in the file's place held the worker's persist in open() for good
        fd, st = open_regular(path)
    except FileNotFoundError:
        return False
    try:
        size = st.st_size
        torn = size > 0 and os.pread(fd, 1, size - 1) != b"\n"
    finally:
        os.close(fd)
    if torn:
        append_line(path, "")
    return torn
