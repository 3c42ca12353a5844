"""The lines of a transcript file: opened safely, read one capped line at a time, parsed to records.

A line longer than the cap is consumed in pieces and never held whole. With ``shrink`` (the
transcript readers), it is copied piece by piece without the long base64 ``"data"`` values of the
images and documents the person pasted (the CLI keeps them inside the typed ``user`` record: about
640 KB per screenshot), and without the base64 data URLs of Codex's ``"image_url"`` values (a
rollout keeps pasted images in the typed message too), so the words beside them are read; a line
still over the cap without them is dropped, as it is without ``shrink``. Memory for one long line,
however long: at most twice the cap (the first ``cap + 1`` bytes read and the copy, or the copy and
its final ``bytes``) plus one ``_PIECE`` (64 KiB) read at a time: 8 MiB with the 4 MiB cap, before
the kept part is parsed.

A line that is not a JSON object (torn, not JSON, nested too deep to parse) is counted in the view's ``bad_lines``;
invalid UTF-8 is decoded with replacement and counted in ``replaced_lines``; a lone UTF-16
surrogate escape becomes U+FFFD.
"""

from __future__ import annotations

import json
import os
import re
from typing import TYPE_CHECKING

from lazy_harness.errors import LhError
from lazy_harness.regular_file import NotRegularFile, open_regular
from lazy_harness.worker.transcript_records import View

if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import IO, BinaryIO

MAX_LINE_BYTES = 4 * 1024 * 1024
DROP_MIN = 1024  # a "data" string whose first DROP_MIN characters are base64 is dropped from a long line
_PIECE = 64 * 1024
# why image_url: Codex CLI keeps a pasted image inside the typed user message (and view_image's inside the
# tool output) as an ``input_image`` whose ``image_url`` is a base64 data URL, not as a ``"data"`` key
_DATA_KEY = re.compile(rb'[{,][ \t\r]{0,8}"(?:data|image_url)"[ \t\r]{0,8}:[ \t\r]{0,8}"')
_KEY_MAX = 40  # longer than any match of _DATA_KEY: what is kept back in case a key spans two pieces
_BASE64 = re.compile(rb"(?:data:[\w/+.-]{1,60};base64,)?[A-Za-z0-9+/=]*")  # plain, or a data URL
_HEAD = 80  # a value this short with no closing quote yet may be a data URL's head: undecided
_STRING_STOP = re.compile(rb'["\\]')
_LONE_SURROGATE = re.compile(rb"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


class TranscriptError(LhError):
    """The transcript cannot be read at all (missing, not a file, no permission)."""


def iter_lines(fh: IO[bytes], max_line: int = MAX_LINE_BYTES, shrink: bool = False) -> Iterator[bytes | None]:
    """Yield each line's bytes (without the newline), or None for a line longer than ``max_line``.

    A long line is consumed in pieces, so memory stays bounded; with ``shrink`` it is yielded
    without its long base64 ``"data"`` values when that brings it within ``max_line`` (module
    docstring), else dropped. The last line may lack its newline (a torn write); it is yielded as it is.
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
        if shrink:
            first = [line]
            line = b""  # why: the shrinker lets go of the first piece once copied (a list it empties)
            yield _shrunk(fh, first, max_line)
            continue
        while line and not line.endswith(b"\n"):
            line = fh.readline(max_line + 1)
        yield None


def _shrunk(fh: IO[bytes], first: list[bytes], cap: int) -> bytes | None:
    """The rest of the line whose first piece is ``first[0]``, read to its end, without its long base64
    ``"data"`` values; None when it is still longer than ``cap``."""
    shrinker = _Shrinker(cap)
    piece = first.pop()
    for start in range(0, len(piece), _PIECE):
        shrinker.feed(piece[start:start + _PIECE])
        if shrinker.out is None:
            break
    del piece
    size = _PIECE
    while True:
        if shrinker.out is None:  # over the cap anyway: the rest is only read past
            size = cap + 1
        piece = fh.readline(size)
        if not piece:
            break
        ended = piece.endswith(b"\n")
        shrinker.feed(piece[:-1] if ended else piece)
        if ended:
            break
    return shrinker.finish()


class _Shrinker:
    """Copies a line fed in pieces, leaving out the value of each ``"data"`` or ``"image_url"`` key
    whose first :data:`DROP_MIN` characters are base64, after a data URL's head if it has one (the
    value becomes ``""``); gives up past ``cap`` bytes.

    Memory: the copy (at most ``cap``) plus what is kept back between pieces (under
    ``_KEY_MAX + DROP_MIN`` bytes). A key can only match outside strings: inside one, its quotes
    would be escaped.
    """

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.out: bytearray | None = bytearray()  # None: over the cap
        self.rest = b""  # kept back: a key that may go on in the next piece, or its undecided value
        self.skipping = False  # inside a dropped value

    def feed(self, piece: bytes) -> None:
        if self.out is None:
            return
        buf, self.rest, pos = self.rest + piece, b"", 0
        while pos < len(buf) and self.out is not None:
            if self.skipping:
                pos = self._skip(buf, pos)
                continue
            key = _DATA_KEY.search(buf, pos)
            if key is None:
                keep = max(pos, len(buf) - _KEY_MAX)
                self._keep(buf[pos:keep])
                self.rest = buf[keep:]
                return
            probe = buf[key.end():key.end() + DROP_MIN]
            base64 = _BASE64.match(probe)
            is_base64 = base64 is not None and base64.end() == len(probe)
            if len(probe) < DROP_MIN and (is_base64 or (len(probe) < _HEAD and b'"' not in probe)):
                self._keep(buf[pos:key.start()])  # undecided until more of the value is read
                self.rest = buf[key.start():]
                return
            self._keep(buf[pos:key.end()])
            pos = key.end()
            if is_base64:
                self.skipping, pos = True, pos + DROP_MIN

    def _skip(self, buf: bytes, pos: int) -> int:
        """Where reading goes on past the dropped value's bytes in ``buf`` from ``pos`` (its closing
        quote, which is kept), or the end of ``buf``."""
        stop = _STRING_STOP.search(buf, pos)
        if stop is None:
            return len(buf)
        if buf[stop.start()] == ord("\\"):
            if stop.start() + 1 == len(buf):
                self.rest = b"\\"  # the escaped byte is in the next piece
                return len(buf)
            return stop.start() + 2
        self.skipping = False
        return stop.start()

    def _keep(self, data: bytes) -> None:
        if self.out is not None:
            if len(self.out) + len(data) > self.cap:
                self.out = None
            else:
                self.out += data

    def finish(self) -> bytes | None:
        if not self.skipping:
            self._keep(self.rest)
        if self.out is None:
            return None
        out, self.out = bytes(self.out), None
        return out


def _open(path: str) -> BinaryIO:
    try:  # why regular_file: a FIFO planted at the path cannot hang the worker in open()
        fd, _ = open_regular(path)
    except FileNotFoundError:
        raise TranscriptError(f"transcript not found: {path}") from None
    except (IsADirectoryError, NotRegularFile):
        raise TranscriptError(f"transcript is not a regular file: {path}") from None
    except OSError as exc:
        raise TranscriptError(f"cannot read transcript {path}: {exc.strerror}") from None
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
        record = after_torn(raw)
        if record is None:
            return None
    if _LONE_SURROGATE.search(raw):
        record = _without_surrogates(record)
    return record


# how a record opens (its first key: Claude Code's transcripts, Codex's rollouts), and how much of a torn
# line is tried: openings, and bytes parsed in all (each try parses the rest of the line)
_OPENING = re.compile(rb'\{"(?:parentUuid|type|timestamp)":')
TORN_TRIES = 64
TORN_BYTES = 16 << 20
# the first key of Claude Code's conversation records, which no record holds inside it: found past a
# line's start, the line is two (a torn one and a whole one)
_GLUED = b'{"parentUuid":'


def glued(raw: bytes) -> bool:
    """Whether a line whose first key says it needs no reading may hold a record appended to a torn one
    (:func:`after_torn`): a record's opening past its start. A search in C, no parse."""
    return raw.find(_GLUED, 1) > 0


def after_torn(raw: bytes) -> dict | None:
    """The whole record a line holds after a torn one, or None. why: a process killed mid-write leaves
    the transcript's last line without its newline, and the resumed session's next record is appended
    to it: the person's next prompt was read as part of a bad line and never distilled. The first
    opening (past the line's start) from which the rest of the line is one JSON object is that record:
    an object inside the torn part ends before the line does."""
    tried = 0
    for n, found in enumerate(_OPENING.finditer(raw, 1)):
        tried += len(raw) - found.start()
        if n >= TORN_TRIES or tried > TORN_BYTES:
            break
        try:
            record = json.loads(raw[found.start():].decode("utf-8", errors="replace"))
        except (ValueError, RecursionError):
            continue
        return record if isinstance(record, dict) else None
    return None


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
