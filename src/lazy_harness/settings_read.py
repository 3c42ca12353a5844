"""Reading a settings file strictly: a JSON object in UTF-8, or a one-line refusal naming the file and
where it breaks; a file that cannot be opened, or is not a regular file, is refused for what it is.

An empty (0-byte or blank) file reads as ``{}``, as Claude Code reads it; ``read_settled`` waits for one
of 0 bytes written moments ago (another program writing it in place).
"""

from __future__ import annotations

import json
import os
import time

from lazy_harness.errors import SettingsError
from lazy_harness.regular_file import NotRegularFile, read_regular

BUSY_AGE = 2.0  # seconds: an empty file written this recently is another program's write in progress
SETTLE_LOOKS, SETTLE_STEP = 20, 0.05  # how often and how far apart install looks again: at most a second
INSTALL_HINT = "fix the JSON in it or move it aside, then run lh hooks install again"
UNINSTALL_HINT = "fix the JSON in it, then run lh hooks uninstall again"


def json_type(value: object) -> str:
    """What ``value`` is in JSON's words (``null``, ``an object``, ``true``), for messages."""
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    for kind, word in ((dict, "an object"), (list, "an array"), (str, "a string"), ((int, float), "a number")):
        if isinstance(value, kind):
            return word
    return type(value).__name__


class _Unwritable(ValueError):
    """A number Python reads but JSON cannot hold as read (``1e400`` is infinity, ``NaN``)."""


def _finite(text: str) -> float:
    value = float(text)
    if value != value or value in (float("inf"), float("-inf")):
        raise _Unwritable(text)
    return value


def _no_constant(text: str) -> float:
    raise _Unwritable(text)


class _Duplicate(ValueError):
    """A key twice in one object: ``json.loads`` keeps the last and drops the first without a word."""


def _unique(pairs: list[tuple[str, object]]) -> dict:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _Duplicate(key)
            seen.add(key)
    return out


class Unreadable(SettingsError):
    """The file is there but cannot be read (its mode, or it is not a file): not a JSON problem."""


def _read_fix(path: str, exc: OSError) -> str | None:
    """What to run when ``path`` cannot be opened: the fix for that error, not "fix the JSON"."""
    if isinstance(exc, PermissionError):
        return f"chmod u+rw {path}"  # why: Claude Code and install write it too; others' bits left as they are
    if isinstance(exc, IsADirectoryError):
        return f"move {path} aside (a folder where the file belongs)"
    return None


def _read_regular(path: str) -> bytes:
    """The bytes of ``path``, opened without waiting: a FIFO (or a device) would hold the command until a
    writer came, so anything but a regular file is refused (``Unreadable``), a folder as before."""
    try:
        return read_regular(path)
    except NotRegularFile:
        raise Unreadable(f"{path}: not a regular file; left untouched", f"move {path} aside") from None


def _slip(exc: json.JSONDecodeError) -> str:
    """Where the JSON of a settings file breaks, for the person who edits it: a comment, or a comma after the
    last member or item, named where it is; else the parser's words where it gave up. why: after a trailing
    comma the parser gives up at the closing brace on the next line ("Expecting property name enclosed in
    double quotes"), which points away from the comma."""
    doc, pos = exc.doc, exc.pos
    at, what = pos, exc.msg
    if doc.startswith(("//", "/*"), pos):
        what = "a comment, which JSON does not allow"
    else:
        # why both: up to Python 3.12 the parser stops at the closing bracket after the comma, from 3.13 at
        # the comma itself ("Illegal trailing comma before end of object")
        before = len(doc[:pos].rstrip()) - 1 if doc[pos:pos + 1] in ("}", "]") else pos
        closer = doc[before + 1:].lstrip()[:1] if before >= 0 else ""
        if before >= 0 and doc[before:before + 1] == "," and closer in ("}", "]"):
            at = before
            what = f"a comma after the last {'member' if closer == '}' else 'item'}, which JSON does not allow"
    line, column = doc.count("\n", 0, at) + 1, at - doc.rfind("\n", 0, at)
    return f"line {line}, column {column}: {what}"


def read(path: str, hint: str = INSTALL_HINT) -> tuple[dict | None, bytes | None]:
    """(parsed object, raw bytes), or (None, None) when the file does not exist.

    Raises SettingsError (one line, naming the file and where the JSON breaks) for anything that is
    not a JSON object; ``hint`` says what to run once it is fixed.
    """
    try:
        raw = _read_regular(path)
    except FileNotFoundError:
        return None, None
    except OSError as exc:
        raise Unreadable(f"{path}: cannot read: {exc.strerror}", _read_fix(path, exc)) from None
    if not raw.strip():
        return {}, raw  # why: an empty file is what `touch` leaves; Claude Code reads it as no settings
    if raw.startswith(b"\xef\xbb\xbf"):  # why: json says "decode using utf-8-sig", Python's words, not a fix
        raise SettingsError(f"{path}: not valid JSON (line 1, column 1: the file starts with a UTF-8 byte order mark; "
                            "save it as UTF-8 without a BOM); left untouched", hint)
    try:
        data = json.loads(raw.decode("utf-8"), parse_float=_finite, parse_constant=_no_constant,
                          object_pairs_hook=_unique)
    except _Duplicate as exc:
        raise SettingsError(f"{path}: holds the key {json.dumps(str(exc), ensure_ascii=False)} twice in one object "
                            "(duplicate; a write would keep only the last); left untouched", hint) from None
    except RecursionError:
        raise SettingsError(f"{path}: not valid JSON (nested too deep); left untouched", hint) from None
    except _Unwritable as exc:
        raise SettingsError(f"{path}: holds the number {exc}, which would not be written back as it is; "
                            "left untouched", hint) from None
    except UnicodeDecodeError as exc:
        raise SettingsError(f"{path}: not valid JSON (not UTF-8 at byte {exc.start}); left untouched", hint) from None
    except ValueError as exc:
        where = _slip(exc) if isinstance(exc, json.JSONDecodeError) else str(exc)
        raise SettingsError(f"{path}: not valid JSON ({where}); left untouched", hint) from None
    if not isinstance(data, dict):
        raise SettingsError(f"{path}: expected a JSON object at the top level, got {json_type(data)}; "
                            "left untouched", hint)
    if _too_deep(data):
        raise SettingsError(f"{path}: nests more than {MAX_DEPTH} levels deep, deeper than a write can copy; "
                            "left untouched", hint)
    return data, raw


MAX_DEPTH = 200  # why: Claude Code's settings nest a few levels; the merge's copy recurses once a level


def _too_deep(value: object) -> bool:
    """Whether a parsed value nests deeper than :data:`MAX_DEPTH` (without recursion: it is what is measured)."""
    todo = [(value, 1)]
    while todo:
        v, depth = todo.pop()
        if depth > MAX_DEPTH:
            return True
        inside = v.values() if isinstance(v, dict) else v if isinstance(v, list) else ()
        todo.extend((c, depth + 1) for c in inside if isinstance(c, (dict, list)))
    return False


_pause = time.sleep  # the wait between two looks at a file being written


def _written_just_now(path: str) -> bool:
    """Whether ``path`` was modified in the last BUSY_AGE seconds. why the wall clock (not an injected
    ``now``): the file system stamped the mtime with it; and either side of it, as a clock a little
    behind a network folder's still sees a file written moments ago."""
    try:
        return abs(time.time() - os.stat(path).st_mtime) < BUSY_AGE
    except OSError:
        return False


def read_settled(path: str) -> tuple[dict | None, bytes | None]:
    """``read(path)``, but a file of 0 bytes written moments ago is not taken for ``{}``: it is another
    program's write in progress (one that truncates, then writes, as Node's writeFileSync does), and
    our hooks written over it would lose the person's settings. It is looked at again a few times, a
    short while apart (at most a second); still empty then, it is ``{}``, as an older empty file is
    (``touch`` and then ``lh hooks install``)."""
    data, raw = read(path)
    if raw != b"" or not _written_just_now(path):
        return data, raw
    for _ in range(SETTLE_LOOKS):
        _pause(SETTLE_STEP)
        try:
            if os.stat(path).st_size:
                return read(path)
        except FileNotFoundError:
            return read(path)
    return data, raw

