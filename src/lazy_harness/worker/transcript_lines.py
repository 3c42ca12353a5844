"""The lines of a transcript file: opened safely, read one capped line at a time, parsed to records.

A line longer than the cap is consumed in pieces and dropped, never held whole. A line that is not
a JSON object (torn, not JSON, nested too deep to parse) is counted in the view's ``bad_lines``;
invalid UTF-8 is decoded with replacement and counted in ``replaced_lines``; a lone UTF-16
surrogate escape becomes U+FFFD.
"""

from __future__ import annotations

import json
import os
import re
import stat
from typing import TYPE_CHECKING

from lazy_harness.errors import LhError
from lazy_harness.worker.transcript_records import View

if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import IO, BinaryIO

MAX_LINE_BYTES = 4 * 1024 * 1024
_LONE_SURROGATE = re.compile(rb"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


class TranscriptError(LhError):
    """The transcript cannot be read at all (missing, not a file, no permission)."""


def iter_lines(fh: IO[bytes], max_line: int = MAX_LINE_BYTES) -> Iterator[bytes | None]:
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


def _open(path: str) -> BinaryIO:
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
    stack: list[tuple[dict | list, dict | list]] = [(record, root)]
    while stack:
        src, dst = stack.pop()
        items = src.items() if isinstance(src, dict) else enumerate(src)
        for key, value in items:
            if isinstance(value, str):
                value = _clean(value)
            elif isinstance(value, (dict, list)):
                child: dict | list = {} if isinstance(value, dict) else [None] * len(value)
                stack.append((value, child))
                value = child
            if isinstance(dst, dict):
                dst[_clean(key) if isinstance(key, str) else key] = value
            else:
                dst[key] = value
    return root
