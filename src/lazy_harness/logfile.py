"""One-line log records, rotated by size. Hot path: only ``os``, ``time``, ``fcntl``.

``hooks.log`` gets one line per hook run; ``worker.log`` one per worker step. A file past
``MAX_BYTES`` is renamed to ``<name>.1`` (the previous ``.1`` is dropped) before the next write.

Also home of :func:`terminal_safe`, the one filter for text bound for a terminal: every log line
passes it when written, and the CLI passes every stored text it prints (memory, task fields, logs)
through it. It lives here, the lowest module hooks, worker and CLI all import, and costs no import.
"""

from __future__ import annotations

import fcntl
import os
import time

from lazy_harness import paths, private
from lazy_harness.atomic import FILE_MODE
from lazy_harness.regular_file import append_regular

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

MAX_BYTES = 1_000_000
# A record's message as written, escapes counted (at most 32 KiB of UTF-8). why a bound at write time:
# an exception message carrying a whole model answer made one line of megabytes, which ``lh logs``
# does not read (memory.lines.MAX_LINE) and which rotated the log's other lines away. A longer one
# keeps its start and its end (a hook line's event and session, its decision and time) around
# `` … [cut N chars] … ``, N the characters that went; whole texts are in the task's .error file.
MAX_LINE_CHARS = 8192
CUT_KEPT_END = 256  # characters of a cut message's end that are kept
HOOKS = "hooks.log"
WORKER = "worker.log"
SPAWN = "compound-loop.log"

# Printable characters that draw nothing (``str.isprintable`` passes them): the combining grapheme joiner,
# the Hangul fillers, the Khmer inherent vowels and the Mongolian free variation selectors. Inside
# ``Human:`` or ``</system-reminder>`` one hid the marker from a check that looks for it, while a model
# and a person still read it whole. The read-back (memory/fence.py) shows them as escapes too, with a
# variation selector after a letter; the hold check reads through them (memory/trust.py ``_ZERO_WIDTH``).
HIDDEN = "\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180f\u3164\uffa0"
_HIDDEN = frozenset(HIDDEN)

# What a terminal acts on instead of showing: C0 controls (ESC starts the sequences that colour, move
# the cursor, set the window title, write the clipboard with OSC 52), DEL, the C1 controls (U+009B is
# an 8-bit CSI), and the bidi embeddings, overrides and isolates that reorder what is shown; and what
# no terminal can be sent at all: a lone surrogate (a JSON ``\\ud800`` in a memory file), which UTF-8
# cannot encode (``lh memory show`` stopped with a UnicodeEncodeError on one); and the line and paragraph
# separators U+2028 and U+2029, where editors, ``str.splitlines`` and log readers break a line: one in a
# field split a log's one line in two, and the second read as a line of its own
# and what a terminal does not show at all, so a person reading memory would not see it was there: tag
# characters (U+E0000..U+E007F spell ASCII no one sees), the zero-width space, the left-to-right, right-
# to-left and Arabic letter marks, the word joiner and invisible operators, a byte order mark inside
# text (the joiners U+200C and U+200D stay: Persian words and emoji sequences need them), and :data:`HIDDEN`
_UNSAFE = (range(0x20), range(0x7F, 0xA0), range(0x2028, 0x202F), range(0x2066, 0x206A), range(0xD800, 0xE000),
           range(0x200B, 0x200C), range(0x200E, 0x2010), range(0x061C, 0x061D), range(0x2060, 0x2065),
           range(0xFEFF, 0xFF00), range(0xE0000, 0xE0080), *(range(ord(c), ord(c) + 1) for c in HIDDEN))
_TABLES: dict = {}  # keep -> the translate table: each character of _UNSAFE but those in keep as its escape


def _units(c: int) -> tuple[int, ...]:
    """``c`` in UTF-16 code units: itself, or its surrogate pair past U+FFFF."""
    return (c,) if c < 0x10000 else (0xD800 + ((c - 0x10000) >> 10), 0xDC00 + ((c - 0x10000) & 0x3FF))


def log_path(name: str, env: Mapping[str, str] | None = None) -> str:
    return os.path.join(paths.logs_dir(env), name)


def stamp(now: float | None = None) -> str:
    t = time.time() if now is None else now
    lt = time.localtime(t)
    off = lt.tm_gmtoff or 0
    sign = "+" if off >= 0 else "-"
    off = abs(off)
    return time.strftime("%Y-%m-%dT%H:%M:%S", lt) + f"{sign}{off // 3600:02d}:{off % 3600 // 60:02d}"


def terminal_safe(text: str, keep: str = "\t") -> str:
    """``text`` with every C0 control but those in ``keep``, DEL, C1 control, bidi override or isolate,
    lone surrogate and character a terminal does not show shown as its escape ``\\uXXXX`` (ESC ->
    ``\\u001b``); anything else as it is."""
    # why: the common case, one pass in C; every character we escape fails it but those of HIDDEN
    if text.isprintable() and (text.isascii() or _HIDDEN.isdisjoint(text)):
        return text
    table = _TABLES.get(keep)
    if table is None:
        # why the JSON escape (ESC -> \\u001b): visible, and inside a JSON string it decodes back to the
        # very character, so ``--json`` output stays valid and loses nothing. Made at the first text that
        # needs it (2,000 entries: not at import, which every hook pays)
        # (a tag character, past U+FFFF, as its two JSON escapes: ``\\udb40\\udc41``)
        table = _TABLES[keep] = {c: "".join(f"\\u{u:04x}" for u in _units(c)) for span in _UNSAFE for c in span
                                 if chr(c) not in keep}
    return text.translate(table)


def write(name: str, message: str, env: Mapping[str, str] | None = None, now: float | None = None) -> None:
    """Append ``<timestamp> <message>`` to the named log, on one line and terminal-safe; never raises."""
    try:
        path = log_path(name, env)
        private.make(os.path.dirname(path))  # why: never into a logs folder another user can write (ADR 0031)
        message = capped(terminal_safe(message.replace("\n", " ").replace("\r", " ")))
        line = f"{stamp(now)} {message}\n".encode("utf-8", "replace")
        fd = append_regular(path, FILE_MODE)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            if os.fstat(fd).st_size + len(line) > MAX_BYTES:
                _rotate(path)
                os.close(fd)
                fd = append_regular(path, FILE_MODE)
                fcntl.flock(fd, fcntl.LOCK_EX)
            start = os.fstat(fd).st_size
            try:
                written = os.write(fd, line)
            except OSError:
                written = -1
            if written != len(line):
                # why: a full disk takes part of a line; left, the next record is glued to its torn start
                os.ftruncate(fd, start)
                raise OSError(28, "the line was not written whole (disk full?)", path)
        finally:
            os.close(fd)
    except OSError as exc:
        _said_unwritten(name, exc)


_UNWRITTEN: list[str] = []  # the logs this process said it could not write to (once each)


def _said_unwritten(name: str, exc: OSError) -> None:
    """One line on stderr, once a process and log, that a record was lost: a hook's stderr is in Claude
    Code's debug output, the worker's in compound-loop.log, a command's on the terminal. why not
    silent: with the disk full nothing else could say that the hooks ran and failed."""
    if name in _UNWRITTEN:
        return
    _UNWRITTEN.append(name)
    try:
        os.write(2, terminal_safe(f"lazy-harness: {name} not written: {exc}\n", keep="\n").encode("utf-8", "replace"))
    except OSError:
        pass


def capped(message: str, limit: int = MAX_LINE_CHARS) -> str:
    """``message`` whole when it fits in ``limit`` characters, else its start and its last
    :data:`CUT_KEPT_END` characters around `` … [cut N chars] … ``; an escape ``\\uXXXX`` that
    :func:`terminal_safe` wrote is kept or dropped whole on either side."""
    if len(message) <= limit:
        return message
    end = len(message) - min(CUT_KEPT_END, limit // 4)
    mark = f" … [cut {len(message)} chars] … "  # why the whole length: the widest N can be
    head = max(0, limit - (len(message) - end) - len(mark))
    head, end = _off_escape(message, head, back=True), _off_escape(message, end, back=False)
    return f"{message[:head]} … [cut {end - head} chars] … {message[end:]}"


def _off_escape(text: str, at: int, back: bool) -> int:
    """``at``, or the nearest edge (before it when ``back``) of a six-character escape ``\\uXXXX``
    that it falls inside."""
    start = text.rfind("\\u", max(0, at - 5), at)
    if start < 0 or start + 6 <= at:
        return at
    return start if back else start + 6


def _rotate(path: str) -> None:
    try:
        os.replace(path, path + ".1")
    except OSError:
        pass


def one_line(value: object, cap: int, safe: bool = True) -> str:
    """Any record field as one line of at most ``cap`` characters; ``safe``: control characters shown
    as escapes (for a person or the model; JSON output keeps the text)."""
    if value is None:
        text = ""
    elif isinstance(value, str):
        text = value
    elif isinstance(value, list):
        text = ", ".join(one_line(v, cap, safe) for v in value)
    else:
        import json

        text = json.dumps(value, ensure_ascii=False)
    text = " ".join(text.split())
    if safe:
        text = terminal_safe(text, keep="")  # why: stored text reaches the model and terminals
    return text if len(text) <= cap else text[:cap - 1].rstrip() + "…"
