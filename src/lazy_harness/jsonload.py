"""JSON decoding for the hot path, without importing the ``json`` package.

``import json`` loads ``re`` (and through it ``enum``, ``functools``, ``collections``...): about
12 ms of a hook's start in a fresh virtualenv, a third of what the Stop hook costs beyond a bare
interpreter. The decoder itself is the C scanner of the standard library (``_json``, the same code
``json.loads`` runs), driven here directly; the result, and what is rejected, is what
``json.loads`` gives. Where ``_json`` is missing (another Python implementation) ``json`` is used.
Hooks decode with this; everything off the hot path keeps using ``json``.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

_WS = " \t\n\r"
_scanner = None
_tried = False  # whether _scan looked for the C scanner (None after it: not available)


class _Options:
    """The attributes the C scanner reads from its context: ``json.loads``'s defaults."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = {"-Infinity": float("-inf"), "Infinity": float("inf"), "NaN": float("nan")}.__getitem__


def _scan() -> Callable[[str, int], tuple[Any, int]] | None:
    global _scanner, _tried
    if not _tried:
        _tried = True
        try:
            # why: a private module of the standard library, the C scanner json.loads runs: ``import json``
            # costs a hook 16 to 27 ms more than ``_json`` (benchmarks/bench_private_modules.py)
            from _json import make_scanner

            # the scanner reads its options' attributes from any object (json passes its JSONDecoder)
            _scanner = make_scanner(_Options())  # type: ignore[arg-type]
        except (ImportError, TypeError, AttributeError):
            _scanner = None
    return _scanner


def loads(text: str | bytes | bytearray) -> Any:
    """``json.loads(text)`` for a str, or for bytes (UTF-8 with or without a BOM; UTF-16/32 go to
    ``json``). Bad input raises exactly what ``json.loads`` raises: on any failure the document is
    handed to ``json`` (importing it then is fine: that is the rare path). Parsed JSON: ``Any``."""
    if isinstance(text, (bytes, bytearray)):
        raw = bytes(text)
        if raw[:2] in (b"\xff\xfe", b"\xfe\xff") or b"\x00" in raw[:4]:
            return _json_loads(raw)
        text = raw.decode("utf-8-sig" if raw.startswith(b"\xef\xbb\xbf") else "utf-8", "surrogatepass")
    scan = _scan()
    if scan:
        start = len(text) - len(text.lstrip(_WS))
        try:
            value, end = scan(text, start)
        except Exception:  # why: StopIteration, or a SystemError when json.decoder is not loaded
            value, end = None, -1
        if end >= 0 and not text[end:].strip(_WS):
            return value
    return _json_loads(text)


def _json_loads(text: str | bytes) -> Any:
    import json

    return json.loads(text)


def line_object(line: str | bytes | bytearray) -> dict | None:
    """The JSON object one line of a memory file holds, else None: a line that is blank, torn by a
    killed writer, not JSON, not an object, or nested past the interpreter's stack. why the last:
    sync brings lines any machine wrote, and ``[[[[...`` 3,000 deep raises RecursionError, not
    ValueError, which stopped every reader and writer of the file (a bytes line may start with a BOM)."""
    try:
        value = loads(line)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def dumps(value: object) -> str:
    """``json.dumps(value)`` (ASCII-escaped) for the plain shapes hooks print: dicts with string keys,
    lists, strings, numbers, booleans and None. Anything else goes to ``json``."""
    try:
        # why: the C quoting json.dumps runs, without ``import json``: 16 to 27 ms of a hook's start
        # (benchmarks/bench_private_modules.py); the shapes around it are few and written out below
        from _json import encode_basestring_ascii as quote
    except ImportError:
        return _json_dumps(value)
    parts: list[str] = []

    def emit(v: object) -> None:
        if isinstance(v, str):
            parts.append(quote(v))
        elif v is None or isinstance(v, bool):
            parts.append({None: "null", True: "true", False: "false"}[v])
        elif isinstance(v, int):
            parts.append(int.__repr__(v))
        elif isinstance(v, dict) and all(isinstance(k, str) for k in v):
            parts.append("{")
            for i, (k, item) in enumerate(v.items()):
                parts.append(", " if i else "")
                parts.append(quote(k) + ": ")
                emit(item)
            parts.append("}")
        elif isinstance(v, (list, tuple)):
            parts.append("[")
            for i, item in enumerate(v):
                parts.append(", " if i else "")
                emit(item)
            parts.append("]")
        else:
            parts.append(_json_dumps(v))

    emit(value)
    return "".join(parts)


def _json_dumps(value: object) -> str:
    import json

    return json.dumps(value)
