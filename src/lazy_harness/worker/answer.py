"""Turn ``claude -p --output-format json`` output into a validated Distilled answer.

:func:`parse_envelope` finds the answer object: ``structured_output`` when the CLI filled it (the
model called the StructuredOutput tool), else the ``result`` text read as bare JSON, as a fenced
```json block, or as the first balanced JSON object after some prose.

:func:`validate` treats that object as hostile: the model may return wrong types, unknown keys,
megabyte strings, titles with newlines and YAML-looking text. It keeps every good item, repairs what
can be repaired (caps, control characters, a string where a list belongs) and reports one readable
line per dropped or repaired item. It never raises.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterator
from typing import Any

from lazy_harness.errors import ModelError
from lazy_harness.memory import ids

SHORT_CHARS = 200  # summaries, titles, one handoff line
LONG_CHARS = 2000  # context, rationale, root cause, learning text...
ALT_CHARS = 300
TAG_CHARS = 40
MAX_TAGS = 10
CUE_CHARS = 120  # one cue: a short request or question
MAX_CUES = 4
MAX_ALTERNATIVES = 10
SCOPES = ("project", "general")  # a learning's scope: the two values the prompt asks for
LIMITS = {"decisions": 20, "failures": 20, "learnings": 20, "handoff": 30, "handoff_closed": 100}
KEYS = ("decisions", "failures", "learnings", "handoff", "handoff_closed")
# Items past a section's cap (decisions, failures, learnings): not dropped but returned under this key
# as [section, item] pairs, which the worker writes held for the person to approve (worker/pipeline.py);
# at most MAX_OVER of them, the rest named in the problem line and dropped.
OVER_CAP = "over_cap"
MAX_OVER = 40
_SNIPPET = 160
_MAX_CANDIDATES = 64
_ENVELOPE_KEYS = ("type", "subtype", "is_error", "result", "structured_output")
_DEEP = "claude's answer is nested too deep to read"
_DECODER = json.JSONDecoder()

# C0/C1 controls, DEL, line/paragraph separators and bidi overrides; \n and \t handled separately.
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]")
_SPACE = re.compile(r"\s+")
_FENCE = re.compile(r"```(?:json|JSON)?[ \t]*\n(.*?)```", re.S)
_STRUCTURE = re.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\]]', re.S)  # a string literal, or a bracket
_TAG_BAD = re.compile(r"[^a-z0-9._+#/-]+")

# field -> (kind, limit); kind: "short" one line, "long" text with newlines, "list" of short strings
_FIELDS: dict[str, dict[str, tuple[str, int]]] = {
    "decisions": {"summary": ("short", SHORT_CHARS), "context": ("long", LONG_CHARS),
                  "alternatives": ("list", ALT_CHARS), "rationale": ("long", LONG_CHARS), "tags": ("tags", 0),
                  "cues": ("cues", CUE_CHARS)},
    "failures": {"summary": ("short", SHORT_CHARS), "root_cause": ("long", LONG_CHARS),
                 "resolution": ("long", LONG_CHARS), "prevention": ("long", LONG_CHARS), "tags": ("tags", 0),
                 "cues": ("cues", CUE_CHARS)},
    "learnings": {"title": ("short", SHORT_CHARS), "learning": ("long", LONG_CHARS),
                  "context": ("long", LONG_CHARS), "scope": ("scope", 0), "tags": ("tags", 0),
                  "cues": ("cues", CUE_CHARS)},
}
_REQUIRED = {"decisions": ("summary",), "failures": ("summary",), "learnings": ("title", "learning")}


class _TooDeep:
    """What :func:`members` puts for a member nested past the interpreter's stack: never an answer."""

    def __repr__(self) -> str:
        return "TOO_DEEP"


TOO_DEEP = _TooDeep()


def _snippet(text: str) -> str:
    flat = _SPACE.sub(" ", text).strip()
    return flat if len(flat) <= _SNIPPET else flat[:_SNIPPET] + "..."


def parse_envelope(stdout: str, keys: tuple[str, ...] | None = KEYS) -> dict:
    """The answer object from the CLI's JSON output; raises ModelError when unusable.

    ``keys``: the answer's keys (its schema's properties); an object the model wrote as text counts
    as the answer only when it holds one of them (None: any object, for a schema without properties).
    """
    text = (stdout or "").strip()
    envelope = read_object(text)
    if envelope is None:  # why: a warning line printed before the JSON
        envelope = _first_object(text, _ENVELOPE_KEYS + (keys or ()))
    if envelope is None:
        raise ModelError(f"claude printed no JSON result: {_snippet(stdout or '(nothing)')!r}")
    if envelope.get("is_error") is True:
        # why: offline, claude prints subtype "success" beside is_error true; "(success)" read as nonsense.
        # The kind named is the terminal reason (api_error) or a subtype that says something (error_max_turns)
        kind = next((str(v) for v in (envelope.get("subtype"), envelope.get("terminal_reason"))
                     if isinstance(v, str) and v and v not in ("success", "completed")), "")
        detail = envelope.get("result")
        said = _snippet(detail if isinstance(detail, str) else "") or "it gave no detail"
        raise ModelError(f"claude reported an error{f' ({kind})' if kind else ''}: {said}")
    structured = envelope.get("structured_output")
    if isinstance(structured, dict):
        return _whole(structured)
    result = envelope.get("result")
    if "result" not in envelope and "structured_output" not in envelope and _holds(envelope, keys):
        return _whole(envelope)  # why: a bare answer object (e.g. an older CLI or a wrapper script)
    if TOO_DEEP in (structured, result):
        raise ModelError(_DEEP)
    if isinstance(result, str):
        found = extract_object(result, keys)
        if found is not None:
            return _whole(found)
        # why: the CLI's subtype says the call ended ("success"), not that the answer was usable: without
        # structured output, the answer was text (or it did not match the schema and the model gave up)
        raise ModelError("the model answered with text, not the structured answer the schema asks for: "
                         f"{_snippet(result) or '(empty)'!r}")
    raise ModelError(f"claude's result has no usable answer (subtype {envelope.get('subtype', '?')})")


def _whole(obj: dict) -> dict:
    """``obj``, refused when one of its members was nested too deep to read (an answer with a section
    left out would be stored as if that section were empty, and the session marked distilled)."""
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
    whole = read_object(text.strip())
    if _holds(whole, keys):
        return whole
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
            continue  # a whole string literal, escapes included
        if token in "{[":
            depth += 1
        else:
            depth -= 1
            if depth == 0:
                return pos if token in closer else None
            if depth < 0:
                return None


# --- validation -----------------------------------------------------------------------------------

def clean_text(value: str, limit: int, one_line: bool) -> tuple[str, list[str]]:
    """``value`` without control characters, on one line when asked, at most ``limit`` characters."""
    notes = []
    original = len(value)
    head = value[:limit * 2 + 64]  # why: a megabyte field is cut before any regex walks it
    text = head.replace("\r\n", "\n").replace("\r", "\n")
    cleaned = _CONTROLS.sub("", text)
    if len(cleaned) != len(text):
        notes.append("control characters removed")
    if one_line:
        flat = _SPACE.sub(" ", cleaned).strip()
        if "\n" in cleaned.strip() or "\t" in cleaned.strip():
            notes.append("made one line")
        cleaned = flat
    else:
        cleaned = cleaned.replace("\t", "    ").strip()
        cleaned = re.sub(r"\n{3,}", "\n\n", cleaned)
    if original > len(head) or len(cleaned) > limit:
        cleaned = cleaned[:limit].rstrip()
        notes.append(f"cut from {original} to {len(cleaned)} characters")
    return cleaned, notes


def _as_text(value: Any) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    return None


def _as_list(value: Any) -> tuple[list, str | None]:
    """A list from ``value``: a list as is, a lone string or object as a one-item list."""
    if value is None:
        return [], None
    if isinstance(value, list):
        return value, None
    if isinstance(value, (str, dict)):
        return [value], f"a {type(value).__name__} instead of a list, taken as one item"
    return [], f"a {type(value).__name__} instead of a list, ignored"


def _tag(value: Any) -> str:
    text = _as_text(value)
    if text is None:
        return ""
    text = _TAG_BAD.sub("-", _CONTROLS.sub("", text[:200]).strip().lower())
    return re.sub(r"-{2,}", "-", text).strip("-.")[:TAG_CHARS].strip("-.")


def _strings(values: Any, limit: int, count: int, notes: list[str], name: str) -> list[str]:
    items, note = _as_list(values)
    if note:
        notes.append(f"{name}: {note}")
    out = []
    for value in items:
        text = _as_text(value)
        if text is None:
            notes.append(f"{name}: a non-string element dropped")
            continue
        text, _ = clean_text(text, limit, one_line=True)
        if text:
            out.append(text)
    if len(out) > count:
        notes.append(f"{name}: {len(out)} items, kept {count}")
        out = out[:count]
    return out


def _scope(value: Any, title: Any, notes: list[str], given: bool) -> str:
    """``project`` or ``general``; anything else the model gave (``universal``, ``team``, an empty or
    null scope) is stored as ``project`` with a note naming the learning and the scope it had; a
    learning without the key (the schema leaves it out of ``required``) quietly gets ``project``.
    why: readers know only the two values, and ``project`` is the one that never shows a learning
    where it may not belong."""
    scope = _tag(value)
    if scope in SCOPES:
        return scope
    if given:
        named = _snippet(str(_as_text(title) or ""))
        notes.append(f"scope: {_snippet(str(value))!r} of learning {named!r} is not one of "
                     f"{' or '.join(SCOPES)}: stored as project")
    return "project"


def _item(section: str, raw: dict) -> tuple[dict | None, list[str]]:
    """One validated item (None when it must be dropped) and notes on what was changed."""
    notes: list[str] = []
    item: dict[str, Any] = {}
    for name, (kind, limit) in _FIELDS[section].items():
        value = raw.get(name)
        if kind == "tags":
            items, note = _as_list(value)
            if note:
                notes.append(f"tags: {note}")
            tags, seen = [], set()  # why: a set, so 100,000 distinct tags cost linear time, not quadratic
            for tag in (_tag(v) for v in items):
                if tag and tag not in seen:
                    seen.add(tag)
                    tags.append(tag)
            if len(tags) > MAX_TAGS:
                notes.append(f"tags: {len(tags)}, kept {MAX_TAGS}")
            item["tags"] = tags[:MAX_TAGS]
        elif kind == "list":
            item[name] = _strings(value, limit, MAX_ALTERNATIVES, notes, name)
        elif kind == "cues":
            cues = list(dict.fromkeys(_strings(value, limit, LIMITS["handoff"], notes, name)))
            if len(cues) > MAX_CUES:
                notes.append(f"cues: {len(cues)}, kept {MAX_CUES}")
            item[name] = cues[:MAX_CUES]
        elif kind == "scope":
            item["scope"] = _scope(value, raw.get("title"), notes, name in raw)
        else:
            text = _as_text(value)
            if value is not None and text is None:
                notes.append(f"{name}: a {type(value).__name__}, not text, ignored")
            text, fixes = clean_text(text or "", limit, one_line=(kind == "short"))
            notes.extend(f"{name}: {fix}" for fix in fixes)
            item[name] = text
    unknown = sorted(str(k) for k in raw if k not in _FIELDS[section])
    if unknown:
        notes.append("unknown keys ignored: " + ", ".join(_snippet(k)[:40] for k in unknown[:5])
                     + (" ..." if len(unknown) > 5 else ""))
    missing = [name for name in _REQUIRED[section] if not item.get(name)]
    if missing:
        return None, [f"missing {' and '.join(missing)}"] + notes
    if section == "failures" and not (item["root_cause"] or item["prevention"]):
        return None, ["neither root_cause nor prevention"] + notes
    if section == "learnings" and not ids.title_key(item["title"]):
        # why: the plan skips it as "learning without a title", which names neither it nor its title
        notes.append(f"title {_snippet(item['title'])!r} has no letter, digit or symbol: not written")
    return item, notes


def validate(obj: Any) -> tuple[dict, list[str]]:
    """The Distilled answer with only good items, and one problem line per dropped or fixed item."""
    result: dict[str, list] = {key: [] for key in KEYS}
    problems: list[str] = []
    if not isinstance(obj, dict):
        del result["handoff_closed"]
        return result, [f"answer: a {type(obj).__name__}, not an object; nothing kept"]
    unknown = sorted(str(k) for k in obj if k not in KEYS)
    if unknown:
        problems.append("answer: unknown keys ignored: " + ", ".join(_snippet(k)[:40] for k in unknown[:5]))
    for section in ("decisions", "failures", "learnings"):
        items, note = _as_list(obj.get(section))
        if note:
            problems.append(f"{section}: {note}")
        over: list[str] = []
        for index, raw in enumerate(items):
            where = f"{section}[{index}]"
            if len(result[section]) >= LIMITS[section]:
                over = _over_cap(section, items[index:], result, problems)
                break
            if not isinstance(raw, dict):
                problems.append(f"{where}: a {type(raw).__name__}, not an object, dropped")
                continue
            item, notes = _item(section, raw)
            if item is None:
                problems.append(f"{where}: {'; '.join(notes)}, dropped")
                continue
            if notes:
                problems.append(f"{where}: {'; '.join(notes)}")
            result[section].append(item)
        if over:
            problems.append(f"{section}: {len(items)} items, kept the first {LIMITS[section]}; "
                            + "; ".join(over))
    _handoff_strings(obj.get("handoff"), "handoff", result, problems)
    if "handoff_closed" in obj:  # why: optional; an answer without it is returned with the four keys it had
        _handoff_strings(obj.get("handoff_closed"), "handoff_closed", result, problems)
    else:
        del result["handoff_closed"]
    return result, problems


def _over_cap(section: str, rest: list, result: dict, problems: list[str]) -> list[str]:
    """The items of ``rest`` (past the cap) that validate, up to MAX_OVER of them, added to
    ``result[OVER_CAP]``; returns the phrases that say which were held and which dropped, by title."""
    title = "title" if section == "learnings" else "summary"
    held, dropped = [], []
    for raw in rest[:MAX_OVER * 4]:  # why: a runaway answer of 100,000 items is not validated to the end
        item = _item(section, raw)[0] if isinstance(raw, dict) else None
        if item is None:
            continue
        pairs = result.setdefault(OVER_CAP, [])
        if sum(1 for s, _ in pairs if s == section) < MAX_OVER:
            pairs.append([section, item])
            held.append(item[title])
        else:
            dropped.append(item[title])
    out = []
    if held:
        out.append(f"{len(held)} more written held for review (lh memory held): " + _titles(held))
    if len(rest) > MAX_OVER * 4:
        dropped.append(f"{len(rest) - MAX_OVER * 4} more not read")
    if dropped:
        out.append(f"{len(dropped)} more dropped: " + _titles(dropped))
    return out or ["the rest did not validate"]


def _titles(titles: list[str], shown: int = 10) -> str:
    named = ", ".join(repr(_snippet(t)[:80]) for t in titles[:shown])
    return named + (f" and {len(titles) - shown} more" if len(titles) > shown else "")


def _handoff_strings(value: Any, section: str, result: dict, problems: list[str]) -> None:
    """``handoff`` (new or restated items) and ``handoff_closed`` (ids or exact texts): one-line strings."""
    items, note = _as_list(value)
    if note:
        problems.append(f"{section}: {note}")
    for index, raw in enumerate(items):
        if len(result[section]) >= LIMITS[section]:
            problems.append(f"{section}: {len(items)} items, kept the first {LIMITS[section]}")
            break
        text = _as_text(raw)
        if text is None:
            problems.append(f"{section}[{index}]: a {type(raw).__name__}, not text, dropped")
            continue
        text, fixes = clean_text(text, SHORT_CHARS * 2, one_line=True)
        if not text:
            problems.append(f"{section}[{index}]: empty, dropped")
            continue
        if fixes:
            problems.append(f"{section}[{index}]: {'; '.join(fixes)}")
        result[section].append(text)
