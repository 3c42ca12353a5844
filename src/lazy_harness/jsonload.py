"""JSON decoding and encoding for the hot path, without importing the ``json`` package.

``import json`` loads ``re`` (and through it ``enum``, ``functools``, ``collections``...): about
12 ms of a hook's start in a fresh virtualenv, a third of what the Stop hook costs beyond a bare
interpreter. The decoder itself is the C scanner of the standard library (``_json``, the same code
``json.loads`` runs), driven here directly; the result, and what is rejected, is what
``json.loads`` gives. :func:`dumps` drives ``_json``'s C encoder the same way (what ``json.dumps``
runs). Where ``_json`` is missing (another Python implementation) ``json`` is used.
Hooks decode and encode with this; everything off the hot path keeps using ``json``.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
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
    """``json.dumps(value)``: the same text (ASCII-escaped, ``", "`` and ``": "``), written by the C
    encoder ``json.dumps`` itself runs. Anything it cannot write (an object of another type, a loop)
    goes to ``json``, so the error raised is ``json``'s own."""
    found = _encoder if _encoder is not None else _find_encoder()
    if not found:
        return _json_dumps(value)
    make, quote = found
    try:
        # why a new encoder each call: it keeps the containers it is inside in ``markers`` (its loop
        # check) and leaves them there when a value fails; making one costs about a microsecond
        return "".join(make({}, _refuse, quote, None, ": ", ", ", False, False, True)(value, 0))
    except (TypeError, ValueError):
        return _json_dumps(value)


# (make_encoder, encode_basestring_ascii) of ``_json`` once looked up; () where it lacks them
_encoder: tuple[Callable[..., Callable[[object, int], Iterable[str]]], Callable[[str], str]] | tuple[()] | None = None


def _find_encoder() -> tuple[Callable[..., Callable[[object, int], Iterable[str]]], Callable[[str], str]] | tuple[()]:
    global _encoder
    try:
        # why: a private module of the standard library, the C encoder and quoting json.dumps runs, without
        # ``import json``: 16 to 27 ms of a hook's start (benchmarks/bench_private_modules.py); written by
        # hand around the quoting instead, the learning-heads cache took 1.1 to 1.6 ms to encode
        from _json import encode_basestring_ascii, make_encoder
    except ImportError:
        _encoder = ()
    else:
        _encoder = (make_encoder, encode_basestring_ascii)
    return _encoder


def _refuse(value: object) -> object:
    """The encoder's ``default``: a value of another type is for ``json`` to refuse (see :func:`dumps`)."""
    raise TypeError(type(value).__name__)


def _json_dumps(value: object) -> str:
    import json

    return json.dumps(value)
