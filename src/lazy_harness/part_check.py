"""A check of the first ``offset`` bytes of a session's transcript: a hash of its first and of its last
4 KiB before ``offset``. The worker's cursor keeps one to know the transcript still holds what it read
(worker/cursor.py); a learning keeps one beside the byte range it was distilled from (``origin_check``
beside ``origin_part``, memory/learnings.py) to know the range still names those bytes."""

from __future__ import annotations

import hashlib

from lazy_harness.regular_file import open_regular

CHECK_BYTES = 4096


def check(path: str, offset: int) -> str | None:
    """A hash of the first and the last 4 KiB before ``offset``; None when the file is shorter or
    cannot be read."""
    digest = hashlib.sha256()
    try:  # why open_regular: a FIFO in its place held the worker, and the whole queue, in open() for good
        with open(open_regular(path)[0], "rb") as fh:
            for start in sorted({0, max(0, offset - CHECK_BYTES)}):
                fh.seek(start)
                want = min(CHECK_BYTES, offset - start)
                data = fh.read(want)
                if len(data) != want:
                    return None
                digest.update(data)
    except OSError:
        return None
    return digest.hexdigest()[:32]
