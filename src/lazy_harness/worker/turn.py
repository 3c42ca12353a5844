"""Wait for a Stop's turn to reach the transcript before reading it.

Claude Code appends to the transcript asynchronously: under load its Stop hook runs before the
turn's lines are in the file. Read at once, the task would distill the session without its last
turn and leave the cursor before it, so SessionEnd would find that turn new and call the model a
second time. A task queued by Stop carries ``turn``: ``sha256:<hex>`` of the start of the turn's
last assistant message (``queue.turn_fingerprint``, ``queue.turn_digest``), never the text, which
may quote a secret. Before reading, the worker looks at the assistant records in the last
TAIL_BYTES of the file, then in what the file grows by, re-reading only when its size changes, for
at most WAIT_SECONDS: it cuts the start of each of their texts as the hook did
(``queue.turn_start``) and compares digests. Not found by then: the worker reads what is there, as
it always did; the next task of the session gets the rest. A false match (two starts with one
digest) could only end the wait early, the same as a timeout. A record appended to a torn line (a
writer killed mid-line, then resumed) counts, as the reader reads it (``transcript_lines.after_torn``).

A task written by the previous release carries the text itself. For one release it is still looked
for as before: JSON-escaped as it appears inside a transcript line, anywhere in those bytes.
"""

from __future__ import annotations

import json
import os
import stat
import time
from typing import TYPE_CHECKING

from lazy_harness import queue
from lazy_harness.regular_file import open_regular
from lazy_harness.worker.transcript_lines import after_torn

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

WAIT_SECONDS = 5.0
POLL_SECONDS = 0.05
TAIL_BYTES = 256 * 1024
CHUNK_BYTES = 1024 * 1024


def needles(turn: str) -> tuple[bytes, ...]:
    """``turn`` as it may appear inside a JSON string of the transcript: non-ASCII written as it is
    (Claude Code's JSON.stringify) or escaped as ``\\uXXXX``."""
    raw = json.dumps(turn, ensure_ascii=False)[1:-1].encode("utf-8", "surrogatepass")
    escaped = json.dumps(turn)[1:-1].encode("ascii")
    return (raw,) if raw == escaped else (raw, escaped)


def _texts(record: dict) -> list:
    """The texts of an assistant record: its ``message.content`` string, or its ``text`` blocks; of a
    Codex rollout's assistant message (``response_item``), its ``output_text`` blocks."""
    if record.get("type") == "response_item":
        payload = record.get("payload")
        if not isinstance(payload, dict) or payload.get("type") != "message" or payload.get("role") != "assistant":
            return []
        content = payload.get("content")
        return [b["text"] for b in content if isinstance(b, dict) and isinstance(b.get("text"), str)] \
            if isinstance(content, list) else []
    message = record.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, str):
        return [content]
    if not isinstance(content, list):
        return []
    return [b["text"] for b in content
            if isinstance(b, dict) and b.get("type") == "text" and isinstance(b.get("text"), str)]


def _holds(line: bytes, digest: str) -> bool:
    """Whether the transcript ``line`` is an assistant record with a text whose start has ``digest``."""
    if b'"assistant"' not in line:
        return False  # why: most lines (tool output, attachments) are never decoded
    try:
        record = json.loads(line)
    except (ValueError, RecursionError):
        # the cut first line of a tail, or a line being written: no turn. Or a whole record appended to a
        # torn line (a writer killed mid-line, then resumed), which the reader reads: the turn, if its own.
        # why: not found, it was waited for WAIT_SECONDS, then logged as missing though it was there
        record = after_torn(line)
    if not isinstance(record, dict) or record.get("type") not in ("assistant", "response_item"):
        return False
    for text in _texts(record):
        start = queue.turn_start(text)
        if start and queue.turn_digest(start) == digest:
            return True
    return False


def _chunks(path: str, since: int) -> Iterator[tuple[int, bytes]]:
    """(position after the chunk, chunk) for the bytes of ``path`` from ``since`` to its size now."""
    with open(open_regular(path)[0], "rb") as fh:  # why: a FIFO in the transcript's place held open() for good
        size = os.fstat(fh.fileno()).st_size
        fh.seek(since)
        pos = since
        while pos < size:
            chunk = fh.read(min(CHUNK_BYTES, size - pos))
            if not chunk:
                return
            pos += len(chunk)
            yield pos, chunk


def _scan_lines(path: str, digest: str, since: int) -> tuple[bool, int]:
    """Whether the whole lines of ``path`` from ``since`` on hold the turn with ``digest``, and where
    the last whole line ends: a record still being written is read again, whole, at the next look."""
    pos, carry = since, b""
    for pos, chunk in _chunks(path, since):
        lines = (carry + chunk).split(b"\n")
        carry = lines.pop()
        if any(_holds(line, digest) for line in lines):
            return True, pos - len(carry)
    # why: a last record may be whole before Claude Code writes its newline
    return (True, pos) if carry and _holds(carry, digest) else (False, pos - len(carry))


def _scan(path: str, wanted: str | tuple[bytes, ...], since: int) -> tuple[bool, int]:
    """Whether the bytes of ``path`` from ``since`` on hold ``wanted`` (a digest, or the needles of an
    older task's text), and how far it read."""
    if isinstance(wanted, str):
        return _scan_lines(path, wanted, since)
    keep = max(len(w) for w in wanted) - 1
    pos, carry = since, b""
    for pos, chunk in _chunks(path, since):
        data = carry + chunk
        if any(w in data for w in wanted):
            return True, pos
        carry = data[-keep:] if keep > 0 else b""
    return False, pos


def wait(path: str, turn: str, timeout: float | None = None, clock: Callable[[], float] = time.monotonic,
         sleep: Callable[[float], object] = time.sleep, queued_at: float | None = None) -> float | None:
    """Wait until the transcript at ``path`` holds the turn of ``turn`` (a task's TURN: its digest,
    or the text an older release wrote). Returns the seconds waited (0.0 when it was there at the
    first look, or when the path is missing or not a regular file: nothing to wait for; also when the
    file was written to more than WAIT_SECONDS after ``queued_at``, the task's time: whatever the turn
    had still to write was written before that, so it is in the file, perhaps before the tail the
    first look reads), or None when ``timeout`` (default WAIT_SECONDS) passed without it."""
    limit = WAIT_SECONDS if timeout is None else timeout
    # why: the previous release wrote the text itself; its tasks are accepted for one release, then needles go
    wanted = turn if queue.is_turn_digest(turn) else needles(turn)
    keep = 0 if isinstance(wanted, str) else max(len(w) for w in wanted)
    began = clock()
    first = True
    seen = scanned = -1  # the size at the last look; how far that look read
    while True:
        try:
            st = os.stat(path)
            if not stat.S_ISREG(st.st_mode):
                return 0.0  # why: opening a FIFO would block; the reader deals with what is not a file
            size = st.st_size
            if size != seen:
                # why: first look (or a file that shrank): the tail; later looks: what was appended
                since = max(0, size - TAIL_BYTES) if scanned < 0 or size < scanned else max(0, scanned - keep)
                found, scanned = _scan(path, wanted, since)
                seen = size
                if found:
                    return 0.0 if first else clock() - began
                if first and queued_at is not None and st.st_mtime > queued_at + WAIT_SECONDS + 1:
                    # why: a task taken late (a busy queue, a paused worker) whose session went on by more
                    # than the tail waited WAIT_SECONDS for a turn written long before, at every such task
                    return 0.0
        except OSError:
            return 0.0
        first = False
        if clock() - began >= limit:
            return None
        sleep(POLL_SECONDS)
