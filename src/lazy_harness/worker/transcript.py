"""Read a Claude Code transcript (JSONL) as a stream into a bounded :class:`View` of the conversation.

Why streaming: transcripts reach hundreds of megabytes (tool output, request snapshots). The file is
read line by line in binary with a per-line byte cap; a longer line is skipped and counted without
ever being held whole. Torn last lines, invalid UTF-8 (decoded with replacement), non-JSON lines and
unknown record types are counted, never fatal; so are lines nested too deep to parse
(``RecursionError``), and a lone UTF-16 surrogate escape (``"\\ud83d"``, written when a string is cut
inside an emoji) becomes U+FFFD, since it cannot be encoded later. The format is undocumented and changes between CLI
versions (see tests/fixtures/transcripts/README.md): every field is read defensively. Records whose
first key is a ``type`` the reader never uses (``api-request-*``, ``file-history-snapshot``...) are
counted without being parsed. Memory stays flat in the file size: one line at a time plus the
budgeted text (entries and budget: conversation.py).

What counts (the worker's gates use these):
- ``user_chars`` / ``user_messages``: only what the person typed: ``user`` records whose content is a
  string (or text blocks), with ``promptSource`` ``typed`` or ``sdk`` (older records without
  ``promptSource``: any such record that is not a wrapper). Never counted: ``isMeta`` records,
  compaction summaries (``isCompactSummary``; shown in the text as context),
  ``isVisibleInTranscriptOnly`` records,
  slash-command and local-command wrappers (``<command-name>``, ``<local-command-stdout>``, ...),
  task notifications (``promptSource: system``), tool results, sub-agent records, and every
  non-``user`` record (``api-request-blob`` and ``attachment`` carry user-role text too).
- ``assistant_messages``: assistant messages holding text, once per ``message.id`` (the CLI writes one
  record per content block).

Classification (:func:`classify`), on counts over the whole file, never on line 1:
- ``empty``: no user or assistant record at all.
- ``sidechain``: most user/assistant records carry ``isSidechain: true`` (a sub-agent's own file).
- ``headless``: user records with an ``sdk*`` entrypoint outnumber ``cli`` ones, or ``sdk`` prompts
  outnumber typed ones, or ``queue-operation`` records exist while nothing typed and no
  ``permission-mode`` record does (``claude -p`` writes queue operations; an interactive session only
  when the person types while a turn runs, and then it has typed prompts).
- ``interactive``: otherwise, when a typed prompt, a ``cli`` user record, a ``permission-mode`` or a
  ``mode`` record exists.
- ``unknown``: none of these signals (an older or foreign format); the worker distils only
  ``interactive``.
"""

from __future__ import annotations

import json
import os
import re
import stat
from collections import OrderedDict
from dataclasses import dataclass, field

from lazy_harness.errors import LhError
from lazy_harness.worker.conversation import (SUMMARY_CAP, TEXT_CAP, TOOL_ERROR_CAP, Budget, excerpt,
                                               summary_body, text_of, tool_call)

MAX_LINE_BYTES = 4 * 1024 * 1024
DEFAULT_BUDGET = 100_000
SNIFF_BYTES = 4 * 1024 * 1024
_SEEN_IDS = 256  # assistant message ids remembered for de-duplication (records of one id are adjacent)

_WRAPPERS = ("<command-name>", "<command-message>", "<command-args>", "<local-command-stdout>",
             "<local-command-stderr>", "<local-command-caveat>", "<bash-input>", "<bash-stdout>",
             "<bash-stderr>", "<task-notification>", "<user-memory-input>", "[Request interrupted")
_TYPED_SOURCES = ("typed", "sdk")
_FIRST_TYPE = re.compile(rb'\{\s*"type"\s*:\s*"([A-Za-z0-9_-]{1,64})"')
_LONE_SURROGATE = re.compile(rb"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
_PARSED_TYPES = frozenset((b"user", b"assistant", b"mode", b"permission-mode", b"queue-operation"))


class TranscriptError(LhError):
    """The transcript cannot be read at all (missing, not a file, no permission)."""


@dataclass
class Signals:
    """Counts of the records that tell an interactive session from a headless or sub-agent one."""

    mode: int = 0
    permission_mode: int = 0
    queue_operation: int = 0
    entry_cli: int = 0  # user records with entrypoint "cli"
    entry_sdk: int = 0  # ... "sdk-cli", "sdk-ts", "sdk-py" ...
    entry_other: int = 0  # ... any other or none
    prompt_typed: int = 0
    prompt_sdk: int = 0
    sidechain: int = 0  # user/assistant records with isSidechain true
    conversation: int = 0  # user/assistant records


@dataclass
class View:
    """What the worker needs from one transcript: its kind, the gate counts and a bounded text."""

    path: str
    kind: str = "empty"
    signals: Signals = field(default_factory=Signals)
    user_chars: int = 0
    user_messages: int = 0
    assistant_messages: int = 0
    text: str = ""
    entries: int = 0
    elided_entries: int = 0
    elided_chars: int = 0
    tool_calls: int = 0
    tool_errors: int = 0
    compact_summaries: int = 0
    session_id: str = ""
    cwd: str = ""
    git_branch: str = ""
    first_timestamp: str = ""
    last_timestamp: str = ""
    bytes_read: int = 0
    lines: int = 0
    bad_lines: int = 0
    oversized_lines: int = 0
    replaced_lines: int = 0  # lines with invalid UTF-8, decoded with U+FFFD

    @property
    def messages(self) -> int:
        return self.user_messages + self.assistant_messages

    def describe(self) -> str:
        """What was read, for the task's line in worker.log: ``read 412 lines, 38 entries (3 cut),
        20 tool calls (2 failed), 1 summary``; unreadable, oversized and re-decoded lines when any."""
        out = f"read {self.lines} lines, {self.entries} entries"
        if self.elided_entries:
            out += f" ({self.elided_entries} cut, {self.elided_chars} chars)"
        out += f", {self.tool_calls} tool calls"
        if self.tool_errors:
            out += f" ({self.tool_errors} failed)"
        if self.compact_summaries:
            out += f", {self.compact_summaries} summar{'y' if self.compact_summaries == 1 else 'ies'}"
        for n, what in ((self.bad_lines, "unparsable"), (self.oversized_lines, "oversized"),
                        (self.replaced_lines, "bad UTF-8")):
            if n:
                out += f", {n} {what}"
        return out


def classify(s: Signals) -> str:
    """The session kind from its signals (rules in the module docstring)."""
    if s.conversation == 0:
        return "empty"
    if s.sidechain * 2 > s.conversation:
        return "sidechain"
    if (s.entry_sdk > s.entry_cli or s.prompt_sdk > s.prompt_typed
            or (s.queue_operation and not s.prompt_typed and not s.permission_mode)):
        return "headless"
    if s.prompt_typed or s.entry_cli or s.permission_mode or s.mode:
        return "interactive"
    return "unknown"


def iter_lines(fh, max_line: int = MAX_LINE_BYTES):
    """Yield each line's bytes (without the newline), or None for a line longer than ``max_line``.

    A long line is consumed in ``max_line``-sized pieces and dropped, so memory stays bounded.
    The last line may lack its newline (a torn write); it is yielded as it is.
    """
    while True:
        line = fh.readline(max_line + 1)
        if not line:
            return
        if line.endswith(b"\n"):
            yield line[:-1]
            continue
        if len(line) <= max_line:
            yield line  # the end of the file without a newline
            return
        while line and not line.endswith(b"\n"):
            line = fh.readline(max_line + 1)
        yield None


def _open(path: str):
    try:
        # why: O_NONBLOCK so a FIFO planted at the path cannot hang the worker in open()
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise TranscriptError(f"transcript not found: {path}") from None
    except OSError as exc:
        raise TranscriptError(f"cannot read transcript {path}: {exc.strerror}") from None
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):
        os.close(fd)
        raise TranscriptError(f"transcript is not a regular file: {path}")
    os.set_blocking(fd, True)
    return os.fdopen(fd, "rb", buffering=1024 * 1024)


def read_view(path: str, budget_chars: int = DEFAULT_BUDGET, max_line_bytes: int = MAX_LINE_BYTES,
              text_from: int = 0) -> View:
    """Stream ``path`` into a :class:`View`; raises :class:`TranscriptError` only when it cannot be opened.

    ``text_from`` (a byte offset, worker/cursor.py): lines ending at or before it still count for
    the kind and the gate counts, but only later lines give text (``entries`` then counts only those).
    """
    return _read(path, budget_chars, max_line_bytes, None, text_from)


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


def _read(path: str, budget_chars: int, max_line_bytes: int, stop_after: int | None, text_from: int = 0) -> View:
    view = View(path=path)
    reader = _Reader(view, max(budget_chars, 1000))
    with _open(path) as fh:
        for raw in iter_lines(fh, max_line_bytes):
            view.lines += 1
            if raw is None:
                view.oversized_lines += 1
            else:
                first = _FIRST_TYPE.match(raw)
                # why: request snapshots are the bulk of a transcript and their type is their first key
                if (first is None or first.group(1) in _PARSED_TYPES) and raw.strip():
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


def _parse(raw: bytes, view: View) -> dict | None:
    try:
        record = json.loads(raw)
    except UnicodeDecodeError:
        try:
            record = json.loads(raw.decode("utf-8", errors="replace"))
            view.replaced_lines += 1
        except (ValueError, RecursionError):
            record = None
    except (ValueError, RecursionError):
        record = None
    if not isinstance(record, dict):
        view.bad_lines += 1
        return None
    if _LONE_SURROGATE.search(raw):
        record = _without_surrogates(record)
    return record


_SURROGATE = re.compile("[\ud800-\udfff]")


def _clean(text: str) -> str:
    return _SURROGATE.sub("\ufffd", text)


def _without_surrogates(record: dict) -> dict:
    """The record with every lone surrogate (in keys and strings) replaced by U+FFFD.

    Only for the rare line whose bytes hold a surrogate escape; iterative, so depth costs no stack.
    (A proper pair was already joined by the JSON decoder; only lone halves stay.)
    """
    root: dict = {}
    stack = [(record, root)]
    while stack:
        src, dst = stack.pop()
        items = src.items() if isinstance(src, dict) else enumerate(src)
        for key, value in items:
            if isinstance(value, str):
                value = _clean(value)
            elif isinstance(value, (dict, list)):
                child = {} if isinstance(value, dict) else [None] * len(value)
                stack.append((value, child))
                value = child
            if isinstance(dst, dict):
                dst[_clean(key) if isinstance(key, str) else key] = value
            else:
                dst[key] = value
    return root


class _Reader:
    """Turns records into signals, counts and budgeted text entries."""

    def __init__(self, view: View, budget_chars: int) -> None:
        self.view = view
        self.budget = Budget(budget_chars)
        self.entry_cap = max(200, min(TEXT_CAP, budget_chars // 4))
        self.seen: OrderedDict[str, None] = OrderedDict()
        self.quiet = False  # a record before the cursor: counted, no text

    def record(self, r: dict) -> None:
        s = self.view.signals
        kind = r.get("type")
        if kind == "mode":
            s.mode += 1
        elif kind == "permission-mode":
            s.permission_mode += 1
        elif kind == "queue-operation":
            s.queue_operation += 1
        if kind not in ("user", "assistant"):
            return
        s.conversation += 1
        self._meta(r)
        if r.get("isSidechain") is True:
            s.sidechain += 1
            return
        message = r.get("message")
        if not isinstance(message, dict):
            return
        if kind == "user":
            self._user(r, message.get("content"))
        else:
            self._assistant(message)

    def _meta(self, r: dict) -> None:
        v = self.view
        if not v.session_id and isinstance(r.get("sessionId"), str):
            v.session_id = r["sessionId"]
        if not v.cwd and isinstance(r.get("cwd"), str):
            v.cwd = r["cwd"]
        if isinstance(r.get("gitBranch"), str):
            v.git_branch = r["gitBranch"]
        ts = r.get("timestamp")
        if isinstance(ts, str) and ts:
            if not v.first_timestamp or ts < v.first_timestamp:
                v.first_timestamp = ts
            if ts > v.last_timestamp:
                v.last_timestamp = ts

    def _user(self, r: dict, content) -> None:
        s = self.view.signals
        entry = r.get("entrypoint")
        if entry == "cli":
            s.entry_cli += 1
        elif isinstance(entry, str) and entry.startswith("sdk"):
            s.entry_sdk += 1
        else:
            s.entry_other += 1
        source = r.get("promptSource")
        if source == "typed":
            s.prompt_typed += 1
        elif source == "sdk":
            s.prompt_sdk += 1
        if isinstance(content, list):
            self._tool_results(content)
        text = text_of(content)
        if not text:
            return
        if r.get("isCompactSummary") is True:
            self.view.compact_summaries += 1
            summary = excerpt(summary_body(text), SUMMARY_CAP)
            self._add("[summary of the earlier conversation] " + summary)
            return
        if r.get("isMeta") is True or r.get("isVisibleInTranscriptOnly") is True:
            return
        if source is not None and source not in _TYPED_SOURCES:
            return
        stripped = text.lstrip()
        if stripped.startswith(_WRAPPERS):
            return
        self.view.user_chars += len(stripped.rstrip())
        self.view.user_messages += 1
        self._add("User: " + excerpt(text, self.entry_cap))

    def _tool_results(self, blocks: list) -> None:
        for block in blocks:
            if not isinstance(block, dict) or block.get("type") != "tool_result":
                continue
            if block.get("is_error") is True:
                self.view.tool_errors += 1
                error = excerpt(text_of(block.get("content")), TOOL_ERROR_CAP, flat=True)
                self._add(f"[tool error: {error}]")

    def _assistant(self, message: dict) -> None:
        content = message.get("content")
        if isinstance(content, str):
            content = [{"type": "text", "text": content}]
        if not isinstance(content, list):
            return
        has_text = False
        for block in content:
            if not isinstance(block, dict):
                continue
            if block.get("type") == "text" and isinstance(block.get("text"), str) and block["text"].strip():
                has_text = True
                self._add("Assistant: " + excerpt(block["text"], self.entry_cap))
            elif block.get("type") == "tool_use":
                self.view.tool_calls += 1
                self._add(tool_call(block))
        if has_text:
            mid = message.get("id")
            if not isinstance(mid, str) or not mid:
                self.view.assistant_messages += 1
            elif mid not in self.seen:
                self.seen[mid] = None
                if len(self.seen) > _SEEN_IDS:
                    self.seen.popitem(last=False)
                self.view.assistant_messages += 1

    def _add(self, entry: str) -> None:
        if not self.quiet:
            self.budget.add(entry)

    def finish(self) -> None:
        v = self.view
        v.kind = classify(v.signals)
        v.text = self.budget.text()
        v.entries = self.budget.count
        v.elided_entries = self.budget.elided
        v.elided_chars = self.budget.elided_chars


