"""Wait for a Stop's turn to reach the transcript before reading it.

Claude Code appends to the transcript asynchronously: under load its Stop hook runs before the
turn's lines are in the file. Read at once, the task would distill the session without its last
turn and leave the cursor before it, so SessionEnd would find that turn new and call the model a
second time. A task queued by Stop carries ``turn`` (``queue.turn_fingerprint``: the start of the
turn's last assistant message). Before reading, the worker looks for that text, JSON-escaped as it
appears inside a transcript line, in the last TAIL_BYTES of the file, then in what the file grows
by, re-reading only when its size changes, for at most WAIT_SECONDS. Not found by then: the worker
reads what is there, as it always did; the next task of the session gets the rest.
"""

from __future__ import annotations

import json
import os
import stat
import time

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


def _scan(path: str, wanted: tuple[bytes, ...], since: int) -> tuple[bool, int]:
    """Whether the bytes of ``path`` from ``since`` on hold one of ``wanted``, and how far it read."""
    keep = max(len(w) for w in wanted) - 1
    with open(path, "rb") as fh:
        size = os.fstat(fh.fileno()).st_size
        fh.seek(since)
        pos, carry = since, b""
        while pos < size:
            chunk = fh.read(min(CHUNK_BYTES, size - pos))
            if not chunk:
                break
            pos += len(chunk)
            data = carry + chunk
            if any(w in data for w in wanted):
                return True, pos
            carry = data[-keep:] if keep > 0 else b""
    return False, pos


def wait(path: str, turn: str, timeout: float | None = None, clock=time.monotonic,
         sleep=time.sleep) -> float | None:
    """Wait until the transcript at ``path`` holds ``turn``. Returns the seconds waited (0.0 when it
    was there at the first look, or when the path is missing or not a regular file: nothing to wait
    for), or None when ``timeout`` (default WAIT_SECONDS) passed without it."""
    limit = WAIT_SECONDS if timeout is None else timeout
    wanted = needles(turn)
    keep = max(len(w) for w in wanted)
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
        except OSError:
            return 0.0
        first = False
        if clock() - began >= limit:
            return None
        sleep(POLL_SECONDS)
