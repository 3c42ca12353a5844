"""Find the answer object in what the model printed.

:func:`parse_envelope` finds it in ``claude -p --output-format json`` output: ``structured_output``
when the CLI filled it (the model called the StructuredOutput tool), else the ``result`` text read as
bare JSON, as a fenced ```json block, or as the first balanced JSON object after some prose.
:func:`extract_object` reads a model's text the same way (a Codex answer: worker/codex_distill.py),
:func:`read_object` one JSON object, even one nested past the interpreter's stack. What the object
holds is checked next (worker/answer.py ``validate``).
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterator

from lazy_harness.errors import ModelError
from lazy_harness.worker.answer import KEYS, snippet

_MAX_CANDIDATES = 64
_ENVELOPE_KEYS = ("type", "subtype", "is_error", "result", "structured_output")
_DEEP = "claude's answer is nested too deep to read"
_DECODER = json.JSONDecoder()
_FENCE = re.compile(r"```(?:json|JSON)?[ \t]*\n(.*?)```", re.S)
# a string literal (``closed`` unset: never closed, the text cut inside it), or a bracket. why the
# closing quote optional: a string left open did not match, and every quote after it was tried as the
# start of one, each read to the end of the text: a cut output of 100 KB took 27 s, the worker's lock
# held (44 ms now: benchmarks/bench_answer_parse.py). Possessive: a run of plain characters is one step
_STRUCTURE = re.compile(r'"(?:[^"\\]++|\\.)*+(?P<closed>")?|[{}\[\]]', re.S)


class _TooDeep:
    """What :func:`members` puts for a member nested past the interpreter's stack: never an answer."""

    def __repr__(self) -> str:
        return "TOO_DEEP"


TOO_DEEP = _TooDeep()


def parse_envelope(stdout: str, keys: tuple[str, ...] | None = KEYS, required: tuple[str, ...] = ()) -> dict:
    """The answer object from the CLI's JSON output; raises ModelError when unusable.

    ``keys``: the answer's keys (its schema's properties); an object the model wrote as text counts
    as the answer only when it holds one of them (None: any object, for a schema without properties).
    ``required``: the keys the schema requires; when it names some, a structured answer must hold one of
    ``keys``, as a text answer must (``{}`` there was stored as "nothing to record", the session marked
    distilled). A schema that requires nothing (consolidation's) takes ``{}`` for "no change".
    """
    text = (stdout or "").strip()
    envelope = read_object(text)
    if envelope is None:  # why: a warning line printed before the JSON
        envelope = _first_object(text, _ENVELOPE_KEYS + (keys or ()))
    if envelope is None:
        raise ModelError(f"claude printed no JSON result: {snippet(stdout or '(nothing)')!r}")
    if envelope.get("is_error") is True:
        # why: offline, claude prints subtype "success" beside is_error true; "(success)" read as nonsense.
        # The kind named is the terminal reason (api_error) or a subtype that says something (error_max_turns)
        kind = next((str(v) for v in (envelope.get("subtype"), envelope.get("terminal_reason"))
                     if isinstance(v, str) and v and v not in ("success", "completed")), "")
        detail = envelope.get("result")
        said = snippet(detail if isinstance(detail, str) else "") or "it gave no detail"
        raise ModelError(f"claude reported an error{f' ({kind})' if kind else ''}: {said}")
    structured = envelope.get("structured_output")
    if isinstance(structured, dict):
        if required and not _holds(structured, keys):
            held = ", ".join(snippet(str(k)) for k in list(structured)[:5]) or "none"
            raise ModelError(f"claude's structured answer holds none of the keys its schema asks for ({held})")
        return whole(structured)
    result = envelope.get("result")
    if "result" not in envelope and "structured_output" not in envelope and _holds(envelope, keys):
        return whole(envelope)  # why: a bare answer object (e.g. an older CLI or a wrapper script)
    if TOO_DEEP in (structured, result):
        raise ModelError(_DEEP)
    if isinstance(result, str):
        found = extract_object(result, keys)
        if found is not None:
            return whole(found)
        # why: the CLI's subtype says the call ended ("success"), not that the answer was usable: without
        # structured output, the answer was text (or it did not match the schema and the model gave up)
        raise ModelError("the model answered with text, not the structured answer the schema asks for: "
                         f"{snippet(result) or '(empty)'!r}")
    raise ModelError(f"claude's result has no usable answer (subtype {envelope.get('subtype', '?')})")


def whole(obj: dict) -> dict:
    """``obj`` (what :func:`parse_envelope` found, or :func:`extract_object` in a Codex answer), refused
    when one of its members was nested too deep to read (an answer with a section left out would be
    stored as if that section were empty, and the session marked distilled)."""
    if any(value is TOO_DEEP for value in obj.values()):
        raise ModelError(_DEEP)
    return obj


def _holds(obj: dict | None, keys: tuple[str, ...] | None) -> bool:
    return obj is not None and (keys is None or any(k in obj for k in keys))


def read_object(text: str) -> dict | None:
    """The JSON object ``text`` is, else None. One nested past the interpreter's stack (``json.loads``
    raises RecursionError from about 990 levels) is read member by member (:func:`members`).

    why: claude's output is the model's; a RecursionError the callers did not catch crashed the
    worker before the call's cost reached the ledger, and every later event paid for it again.
    """
    try:
        value = json.loads(text)
    except RecursionError:
        return members(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def members(text: str) -> dict | None:
    """The object ``text`` holds with each member parsed on its own, a member nested too deep to
    parse as :data:`TOO_DEEP`; None when ``text`` is not one JSON object. The envelope's cost and
    usage are then read even though its answer cannot be."""
    pos = _skip(text, 0)
    if not text.startswith("{", pos):
        return None
    out: dict = {}
    pos = _skip(text, pos + 1)
    closed = text.startswith("}", pos)
    while not closed:
        try:
            key, pos = _DECODER.raw_decode(text, pos)
        except ValueError:
            return None
        pos = _skip(text, pos)
        if not isinstance(key, str) or not text.startswith(":", pos):
            return None
        pos = _skip(text, pos + 1)
        try:
            out[key], pos = _DECODER.raw_decode(text, pos)
        except RecursionError:
            end = _balanced_end(text, pos, closer="}]")
            if end is None:
                return None
            out[key], pos = TOO_DEEP, end
        except ValueError:
            return None
        pos = _skip(text, pos)
        closed = text.startswith("}", pos)
        if not closed and not text.startswith(",", pos):
            return None
        pos = _skip(text, pos + 1) if not closed else pos
    return out if not text[pos + 1:].strip() else None


def _skip(text: str, pos: int) -> int:
    """The index of the first character at or after ``pos`` that is not JSON whitespace."""
    while pos < len(text) and text[pos] in " \t\n\r":
        pos += 1
    return pos


def extract_object(text: str, keys: tuple[str, ...] | None = None) -> dict | None:
    """A JSON object from model text holding one of ``keys`` (None: any object): the whole text, else
    the first ```json fence or balanced object that holds something under one of them, else the
    first that holds one of them at all (an answer with nothing to say).

    why ``keys``: the first object of a text answer may be an example in the prose before the answer,
    an inner item of an answer a trailing comma made invalid, or the answer wrapped in another key
    (``{"memory": {...}}``); taken as the answer, it was stored as an empty one and the session
    marked distilled, its memory lost for good.
    """
    as_is = read_object(text.strip())
    if _holds(as_is, keys):
        return as_is
    fenced = (read_object(block) for block in _FENCE.findall(text))
    empty = None
    for found in itertools.chain(fenced, _objects(text)):
        if found is None or not _holds(found, keys):
            continue
        if any(found.get(k) for k in (keys or tuple(found))):
            return found
        empty = empty or found
    return empty


def _first_object(text: str, keys: tuple[str, ...] | None = None) -> dict | None:
    """The first substring that is a balanced ``{...}`` and parses as a JSON object holding one of
    ``keys`` (None: any)."""
    return next((found for found in _objects(text) if _holds(found, keys)), None)


def _objects(text: str) -> Iterator[dict | None]:
    """What each balanced ``{...}`` of ``text`` parses to (None: not an object), in order of their
    start, at most ``_MAX_CANDIDATES`` of them."""
    start = text.find("{")
    tries = 0
    while start >= 0 and tries < _MAX_CANDIDATES:
        tries += 1
        end = _balanced_end(text, start)
        if end is not None:
            yield read_object(text[start:end])
        start = text.find("{", start + 1)


def _balanced_end(text: str, start: int, closer: str = "}") -> int | None:
    """Index after the bracket closing the one at ``start`` when it is one of ``closer``; strings and
    escapes are skipped."""
    depth = 0
    pos = start
    while True:
        m = _STRUCTURE.search(text, pos)
        if m is None:
            return None
        token = m.group(0)
        pos = m.end()
        if token[0] == '"':
            if m.group("closed") is None:
                return None  # the rest of the text is inside this string: nothing after it closes
            continue  # a whole string literal, escapes included
        if token in "{[":
            depth += 1
        else:
            depth -= 1
            if depth == 0:
                return pos if token in closer else None
            if depth < 0:
                return None

