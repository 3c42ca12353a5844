"""Read a Claude Code transcript (JSONL) as a stream into a bounded :class:`View` of the conversation.

Why streaming: transcripts reach hundreds of megabytes (tool output, request snapshots). The file is
read line by line in binary with a per-line byte cap. A longer line is never held whole: it is read
without the long base64 ``"data"`` values of pasted images and documents (the typed words beside
them are kept), and skipped and counted as oversized when it is still over the cap without them
(transcript_lines.py). Torn last lines, invalid UTF-8 (decoded with replacement), non-JSON lines and
unknown record types are counted, never fatal; so are lines nested too deep to parse
(``RecursionError``), and a lone UTF-16 surrogate escape (``"\\ud83d"``, written when a string is cut
inside an emoji) becomes U+FFFD, since it cannot be encoded later. The format is undocumented and changes between CLI
versions (see tests/fixtures/transcripts/README.md): every field is read defensively. Records whose
first key is a ``type`` the reader never uses (``api-request-*``, ``file-history-snapshot``...) are
counted without being parsed. Memory stays flat in the file size: one line at a time plus the
budgeted text (entries and budget: conversation.py).

The pieces: transcript_lines.py opens the file, yields its capped lines and parses them;
transcript_records.py turns the records into the signals, counts and text of a :class:`View` and
classifies the session (what counts and the kinds are described there). Their names are
re-exported here.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from lazy_harness import jsonload
from lazy_harness.memory.lineage import copied_from
from lazy_harness.worker.conversation import TEXT_CAP, TOOL_ERROR_CAP  # noqa: F401 - read by the tests
from lazy_harness.worker.transcript_lines import (  # noqa: F401 - the pieces' names are this module's API too
    MAX_LINE_BYTES, TranscriptError, _open, _parse, glued, iter_lines)
from lazy_harness.worker.transcript_records import Signals, View, _Reader, classify  # noqa: F401

if TYPE_CHECKING:
    from collections.abc import Iterator

DEFAULT_BUDGET = 100_000
SNIFF_BYTES = 4 * 1024 * 1024
_FIRST_TYPE = re.compile(rb'\{\s*"type"\s*:\s*"([A-Za-z0-9_-]{1,64})"')
_CONVERSATION = (b"user", b"assistant")
_PARSED_TYPES = frozenset((b"user", b"assistant", b"attachment", b"mode", b"permission-mode", b"queue-operation"))


def read_view(path: str, budget_chars: int = DEFAULT_BUDGET, max_line_bytes: int = MAX_LINE_BYTES,
              text_from: int = 0, keep_copied: bool = False) -> View:
    """Stream ``path`` into a :class:`View`; raises :class:`TranscriptError` only when it cannot be opened.

    ``text_from`` (a byte offset, worker/cursor.py): lines ending at or before it still count for
    the kind and the gate counts, but only later lines give text (``entries`` then counts only those).
    ``keep_copied``: a fork's copied conversation gives text too (else it gives none).
    """
    return _read(path, budget_chars, max_line_bytes, None, text_from, keep_copied)


def _conversation_records(path: str) -> Iterator[tuple[dict, int]]:
    """Each user or assistant record of ``path`` with a ``uuid`` (not a subagent's), with the byte
    offset where its line ends. Raises :class:`TranscriptError` or ``OSError`` as the file is read."""
    with _open(path) as fh:
        for raw in iter_lines(fh, shrink=True):
            first = None if raw is None else _FIRST_TYPE.match(raw)
            if raw is None or b'"uuid"' not in raw or (first and first.group(1) not in _CONVERSATION):
                continue
            record = jsonload.line_object(raw)
            if (record is None or record.get("type") not in ("user", "assistant")
                    or record.get("isSidechain") is True or not isinstance(record.get("uuid"), str)):
                continue
            yield record, fh.tell()


def copied_part(path: str, session: str) -> list[tuple[str, str, int]]:
    """A fork's copied conversation: (uuid, the session that made it or '', the byte offset where its
    line ends) of each user and assistant record up to the last one copied from another session
    (memory/lineage.py); empty for a session that copied nothing or a file that cannot be read. Read
    only until the fork's own part begins (a record naming ``session`` as its maker)."""
    found: list[tuple[str, str, int]] = []
    last = -1
    try:
        for record, end in _conversation_records(path):
            if session in (record.get("session_id"), record.get("requestSessionId")):
                break
            source = copied_from(record)
            found.append((record["uuid"], source, end))
            if source:
                last = len(found) - 1
    except (TranscriptError, OSError):
        return []
    return found[:last + 1]


def record_times(path: str) -> dict[str, float]:
    """When each user and assistant record of ``path`` was written (its ``timestamp``, epoch seconds),
    by uuid; those without a readable time are left out, and none when the file cannot be read."""
    from datetime import datetime

    out: dict[str, float] = {}
    try:
        for record, _ in _conversation_records(path):
            try:
                out[record["uuid"]] = datetime.fromisoformat(str(record.get("timestamp"))).timestamp()
            except ValueError:
                continue
    except (TranscriptError, OSError):
        return {}
    return out


def conversation(path: str) -> list[tuple[str, int]] | None:
    """(uuid, the byte offset where its line ends) of each user and assistant record of ``path``, in
    order; None when it cannot be read."""
    try:
        return [(record["uuid"], end) for record, end in _conversation_records(path)]
    except (TranscriptError, OSError):
        return None


def sniff_kind(path: str, max_bytes: int = SNIFF_BYTES) -> str:
    """The kind judged on the first ``max_bytes`` of ``path`` (cheap, for picking among many files).

    ``unreadable`` when the file cannot be opened. The signals that tell the kinds apart all
    appear from the first turn on, so a prefix is enough to choose; the worker still reads the
    whole file before distilling.
    """
    try:
        return _read(path, 1000, MAX_LINE_BYTES, max_bytes).kind
    except TranscriptError:
        return "unreadable"


def line_ends(path: str, uuids: list[str]) -> dict[str, int]:
    """Where the line of each user or assistant record with one of ``uuids`` ends in ``path`` (those
    found; none when it cannot be read)."""
    wanted = {u.encode(): u for u in uuids if u}
    found: dict[str, int] = {}
    try:
        with _open(path) as fh:
            for raw in iter_lines(fh, shrink=True):
                if raw is None or not any(w in raw for w in wanted):
                    continue
                record = jsonload.line_object(raw) or {}
                uid = record.get("uuid")
                if isinstance(uid, str) and uid in wanted.values() and record.get("type") in ("user", "assistant"):
                    found[uid] = fh.tell()
                    if len(found) == len(wanted):
                        break
    except (TranscriptError, OSError):
        return {}
    return found


def _read(path: str, budget_chars: int, max_line_bytes: int, stop_after: int | None, text_from: int = 0,
          keep_copied: bool = False) -> View:
    view = View(path=path)
    reader = _Reader(view, max(budget_chars, 1000), keep_copied)
    with _open(path) as fh:
        for raw in iter_lines(fh, max_line_bytes, shrink=True):
            view.lines += 1
            if raw is None:
                view.oversized_lines += 1
            else:
                first = _FIRST_TYPE.match(raw)
                # why: request snapshots are the bulk of a transcript and their type is their first key
                # why glued: a torn snapshot line may hold the resumed session's next record after it
                if (first is None or first.group(1) in _PARSED_TYPES or glued(raw)) and raw.strip():
                    record = _parse(raw, view)
                    if record is not None:
                        try:
                            reader.quiet = text_from > 0 and fh.tell() <= text_from
                            reader.record(record)
                        except RecursionError:  # content nested too deep for the text walkers
                            view.bad_lines += 1
            if stop_after is not None and fh.tell() >= stop_after:
                break
        view.bytes_read = fh.tell()
    reader.finish()
    return view
