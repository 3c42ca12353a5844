"""One line of a memory JSONL file as records: read whole, salvaged, or skipped with a reason.

Every reader of decisions.jsonl, failures.jsonl, handoff.jsonl and marks.jsonl goes through
:func:`records_of`. A clean line is one JSON object. A damaged one (a disk or an editor scribbled on
it, a crash left NUL bytes, a lost newline glued two records) is salvaged when that can be done
without guessing:

- NUL bytes are dropped (a crash can leave a run of them where a write never landed) and bytes that
  are not UTF-8 read as U+FFFD, then the line is parsed again, leniently about control characters;
- the whole objects the line still holds are kept (two records glued by a lost newline, or a record
  after the torn start of another);
- else the file kind's ``fields`` repair may rebuild the record from the string fields that survived,
  and keeps it only when its id still matches its text (so the text is exactly what was written).

Whatever is neither read nor salvaged is skipped, and the path is added to :data:`NOTED`, which the
hook or worker running the read turns into one log line per file state (``memory.damage.report``).
``lh memory check`` and ``lh doctor`` name every such line by file and line number.

Hot path (SessionStart folds the handoff log and reads tails): only our ``jsonload`` at import time;
``json`` is imported on the rare path of a damaged line.
"""

from __future__ import annotations

import os

from lazy_harness import jsonload
# why named here too: the memory modules open their files as lines.open_regular (the rule: regular_file.py)
from lazy_harness.regular_file import NotRegularFile, open_regular, read_regular  # noqa: F401

# why: not ``from typing import TYPE_CHECKING``: memory never imports ``typing`` at run time (the hooks
# load its read side: house style section 3)
TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from collections.abc import Callable

    # a file kind's repair: the record rebuilt from the string fields a damaged line kept, or None
    Repair = Callable[[str], dict | None]

MAX_LINE = 1 << 20  # bytes: no line we write comes near it (files.tail_lines skips longer ones)
NOTED: set[str] = set()  # files in which this process salvaged or skipped a line
CUT: set[str] = set()  # of those, files whose tail stopped at a very long line (files.tail_bytes)

CLEAN = ""
NUL = "NUL bytes"
NOT_UTF8 = "not UTF-8"
NOT_JSON = "not JSON"
NOT_OBJECT = "not a JSON object"
TOO_LONG = "longer than 1 MiB"
# why: json's error for a failed try counts the line's newlines up to where it failed, so trying each of
# a 1 MB line's braces cost minutes; a damaged line we could salvage holds a few torn objects, not hundreds
MAX_TRIES = 256
_OPENS: re.Pattern[str] | None = None  # a brace that may open an object holding something: a key after it


def records_of(raw: bytes, fields: Repair | None = None) -> tuple[list[dict], str]:
    """The records of one line (``raw``, without its newline) and how it was read: ``""`` (clean or
    blank), ``"salvaged: <why>"`` or ``"skipped: <why>"`` (then no records). ``fields(text)``: the
    file kind's repair from surviving string fields (see the module docstring)."""
    if len(raw) > MAX_LINE:
        return [], "skipped: " + TOO_LONG
    if not raw.strip():
        return [], CLEAN
    try:
        rec = jsonload.loads(raw)
    except (ValueError, RecursionError):
        pass
    else:
        return ([rec], CLEAN) if isinstance(rec, dict) else ([], "skipped: " + NOT_OBJECT)
    why = NUL if b"\x00" in raw else NOT_UTF8 if not _utf8(raw) else NOT_JSON
    text = raw.replace(b"\x00", b"").decode("utf-8", "replace")
    found = _objects(text)
    if not found and fields is not None:
        rebuilt = fields(text)
        found = [rebuilt] if rebuilt else []
    if found:
        return found, f"salvaged: {why}"
    return [], f"skipped: {why}"


def _utf8(raw: bytes) -> bool:
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _objects(text: str) -> list[dict]:
    """The whole JSON objects in ``text``, in order, each starting at a ``{`` (lenient about control
    characters inside strings, which a scribble leaves)."""
    import json
    import re

    global _OPENS
    _OPENS = _OPENS or re.compile(r'\{[ \t\r\n]*"')
    decoder = json.JSONDecoder(strict=False)
    out: list[dict] = []
    tries = 0
    # why only a brace with a key after it: any other opens no object that holds something
    found = _OPENS.search(text)
    while found is not None and tries < MAX_TRIES:
        at = found.start()
        try:
            value, end = decoder.raw_decode(text, at)
        except (ValueError, RecursionError):
            tries += 1
            found = _OPENS.search(text, at + 1)
            continue
        if isinstance(value, dict):
            out.append(value)
            found = _OPENS.search(text, end)
        else:
            found = _OPENS.search(text, at + 1)
    return out


def string_fields(text: str, names: tuple[str, ...]) -> dict[str, str]:
    """The values of the string fields ``names`` that are still whole in a damaged line's ``text``
    (the first occurrence of ``"name":`` followed by a JSON string)."""
    import json

    decoder = json.JSONDecoder(strict=False)
    out: dict[str, str] = {}
    for name in names:
        key = f'"{name}"'
        at = text.find(key)
        tries = 0  # why bounded: see MAX_TRIES
        while at >= 0 and tries < MAX_TRIES:
            tries += 1
            colon = at + len(key)
            while colon < len(text) and text[colon] in " \t":
                colon += 1
            if text[colon:colon + 1] == ":":
                start = colon + 1
                while start < len(text) and text[start] in " \t":
                    start += 1
                if text[start:start + 1] == '"':
                    try:
                        value, _ = decoder.raw_decode(text, start)
                    except ValueError:
                        value = None
                    if isinstance(value, str):
                        out[name] = value
                        break
            at = text.find(key, at + 1)
    return out


REPORTED = "damaged-lines.json"  # in the state dir: each file's state when its damage was last reported


def file_stamp(path: str) -> str | None:
    """A file's state as the damage report keys it (inode, size, mtime); None when it is gone."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return f"{st.st_ino}:{st.st_size}:{st.st_mtime_ns}"


def all_reported(noted: list[str], state_path: str) -> bool:
    """Whether every noted file was checked and reported at its present state already, so the report
    has nothing new to say. why: a hook then skips importing ``memory.damage`` (dataclasses and the
    whole-file check), which cost a SessionStart over a long line 20 ms at every start."""
    try:  # why read_regular: a FIFO in the record's place held the hook in open() for good
        state = jsonload.loads(read_regular(state_path))
    except (OSError, ValueError):
        return False
    if not isinstance(state, dict):
        return False
    for path in noted:
        seen = state.get(path)
        stamp = file_stamp(path)
        if stamp is None or not isinstance(seen, dict) or seen.get("stamp") != stamp:
            return False
    return True


def note(path: str) -> None:
    """Remember that a line of ``path`` was salvaged or skipped (logged once per file state)."""
    NOTED.add(path)


def note_cut(path: str) -> None:
    """Remember that the tail of ``path`` stopped at a line too long to find its start (``files.LONG_SCAN``):
    the entries before it were not read (said once per file state, with the damage)."""
    NOTED.add(path)
    CUT.add(path)


# the provenance fields too (``memory.provenance.FIELDS``): a salvaged entry says where it came from,
# not "unknown", when they survived
ENTRY_FIELDS = ("ts", "type", "id", "project", "session_id", "task_id", "summary", "context", "rationale",
                "root_cause", "resolution", "prevention", "project_folder", "via", "machine", "author", "text_digest",
                "agent")


def entry_fields(text: str) -> dict | None:
    """A decision or failure rebuilt from a damaged line's surviving string fields, when its ``id``
    still matches its summary (list fields such as tags are lost)."""
    from lazy_harness.memory import ids

    rec = string_fields(text, ENTRY_FIELDS)
    kind, summary, eid = rec.get("type"), rec.get("summary"), rec.get("id")
    if kind not in ("decision", "failure") or not summary or eid is None:
        return None
    if not ids.derives(eid, kind, ids.key_of(kind, summary)):
        return None
    return rec


_TYPES = {list: "a list", dict: "an object", bool: "true or false", int: "a number", float: "a number"}


def not_an_entry(rec: dict) -> str | None:
    """Why a decision or failure record that is JSON is no entry of any reader, or None (an entry, or a
    marker, which is no entry by design): the one rule of SessionStart's digest, the search index and
    ``lh memory check``."""
    if "op" in rec:
        return None
    summary = rec.get("summary")
    if summary is None:
        return "no summary"
    if not isinstance(summary, str):
        return f"summary is not text ({_TYPES.get(type(summary), 'not a string')})"
    return None if summary.strip() else "summary is empty"


def is_entry(rec: dict) -> bool:
    """A decision or failure line every reader shows: not a marker, and a summary that is text."""
    return "op" not in rec and not_an_entry(rec) is None


def without_salvaged_twins(found: list[tuple[dict, bool]]) -> list[dict]:
    """The records of ``found`` (record, salvaged) in order, less each salvaged decision or failure
    whose id (else summary) a whole record of the same read has.

    # why: a write cut short (a worker killed mid-line) leaves a torn line; the next append ends it
    # and the retry writes the entry whole after it. The torn line stays in the file (it is not ours
    # to delete) and salvages to the same entry without its list fields: read twice, once as if
    # from nowhere. Not for the handoff log or marks, whose records share ids by design.
    """
    if not any(salvaged for _, salvaged in found):
        return [rec for rec, _ in found]
    whole = {_identity(rec) for rec, salvaged in found if not salvaged} - {None}
    # why: a record with neither id nor summary (a marker recovered from a glued line) has no twin
    return [rec for rec, salvaged in found if not salvaged or _identity(rec) not in whole]


def _identity(rec: dict) -> str | None:
    value = rec.get("id") or rec.get("summary")
    return value if isinstance(value, str) and value else None


def read_file(path: str, fields: Repair | None = None) -> list[dict]:
    """Every record of a whole JSONL file, in order (a byte order mark before line 1 is skipped, a last
    line without its newline counts when it is a whole object); damaged lines salvaged or skipped as
    :func:`records_of` says, and the file noted when one was. A missing file has none; any other
    error reading it is raised."""
    return [rec for rec, _ in read_marked(path, fields)]


def read_marked(path: str, fields: Repair | None = None) -> list[tuple[dict, bool]]:
    """:func:`read_file`, each record with whether it was salvaged (for :func:`without_salvaged_twins`)."""
    out: list[tuple[dict, bool]] = []
    for raw in _rows(path):
        recs, how = records_of(raw, fields)
        if how:
            note(path)
        out += ((rec, bool(how)) for rec in recs)
    return out


def read_numbered(path: str, fields: Repair | None = None) -> list[tuple[int, dict, bool]]:
    """:func:`read_marked`, each record also with its line number (from 1, counting blank and damaged
    lines): ``(line, record, salvaged)``. For a list that names where each entry stands."""
    out: list[tuple[int, dict, bool]] = []
    for n, raw in enumerate(_rows(path), 1):
        recs, how = records_of(raw, fields)
        if how:
            note(path)
        out += ((n, rec, bool(how)) for rec in recs)
    return out


def _rows(path: str) -> list[bytes]:
    """The lines of a whole JSONL file to read, without their newlines: a byte order mark before line 1
    dropped, and a last line without its newline left out unless it is a whole object. [] when the file
    is missing; any other error reading it is raised."""
    try:
        data = read_regular(path)
    except (FileNotFoundError, NotADirectoryError):
        return []
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    rows = data.split(b"\n")
    if rows and rows[-1].strip():
        try:
            whole = isinstance(jsonload.loads(rows[-1]), dict)
        except (ValueError, RecursionError):
            whole = False
        if not whole:
            rows.pop()  # a write in flight (or cut): not a damaged line, and not read
    return rows
