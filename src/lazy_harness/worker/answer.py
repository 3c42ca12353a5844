"""Check the answer object (worker/answer_parse.py finds it in the model's output) and turn it into a
validated Distilled answer.

:func:`validate` treats that object as hostile: the model may return wrong types, unknown keys,
megabyte strings, titles with newlines and YAML-looking text. It keeps every good item, repairs what
can be repaired (caps, control characters, a string where a list belongs) and reports one readable
line per dropped or repaired item. It never raises.
"""

from __future__ import annotations

import re
from typing import Any

from lazy_harness.memory import ids
from lazy_harness.memory.sanitize import normalise

SHORT_CHARS = 200  # summaries, titles, one handoff line
LONG_CHARS = 2000  # context, rationale, root cause, learning text...
ALT_CHARS = 300
TAG_CHARS = 40
MAX_TAGS = 10
CUE_CHARS = 120  # one cue: a short request or question
MAX_CUES = 4
MAX_ALTERNATIVES = 10
MAX_REPLACES = 3  # recorded decisions one decision may say it replaces: a change of mind names one or two
SCOPES = ("project", "general")  # a learning's scope: the two values the prompt asks for
LIMITS = {"decisions": 20, "failures": 20, "learnings": 20, "handoff": 30, "handoff_closed": 100}
KEYS = ("decisions", "failures", "learnings", "handoff", "handoff_closed")
# Items past a section's cap (decisions, failures, learnings): not dropped but returned under this key
# as [section, item] pairs, which the worker writes held for the person to approve (worker/pipeline.py);
# at most MAX_OVER of them, the rest named in the problem line and dropped.
OVER_CAP = "over_cap"
MAX_OVER = 40
_SNIPPET = 160

# C0/C1 controls, DEL, line/paragraph separators and bidi overrides; \n and \t handled separately.
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]")
_SPACE = re.compile(r"\s+")
# what breaks a line besides \n (as str.splitlines reads them: VT, FF, the file, group and record
# separators, NEL, the line and paragraph separators): a line break, so the words either side stay apart
_BREAKS = str.maketrans(dict.fromkeys("\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029", "\n"))
_TAG_BAD = re.compile(r"[^a-z0-9._+#/-]+")

# field -> (kind, limit); kind: "short" one line, "long" text with newlines, "list" of short strings
_FIELDS: dict[str, dict[str, tuple[str, int]]] = {
    "decisions": {"summary": ("short", SHORT_CHARS), "context": ("long", LONG_CHARS),
                  "alternatives": ("list", ALT_CHARS), "rationale": ("long", LONG_CHARS), "tags": ("tags", 0),
                  "cues": ("cues", CUE_CHARS), "replaces": ("ids", 0)},
    "failures": {"summary": ("short", SHORT_CHARS), "root_cause": ("long", LONG_CHARS),
                 "resolution": ("long", LONG_CHARS), "prevention": ("long", LONG_CHARS), "tags": ("tags", 0),
                 "cues": ("cues", CUE_CHARS)},
    "learnings": {"title": ("short", SHORT_CHARS), "learning": ("long", LONG_CHARS),
                  "context": ("long", LONG_CHARS), "scope": ("scope", 0), "tags": ("tags", 0),
                  "cues": ("cues", CUE_CHARS)},
}
_REQUIRED = {"decisions": ("summary",), "failures": ("summary",), "learnings": ("title", "learning")}


def snippet(text: str) -> str:
    """``text`` on one line, cut to _SNIPPET characters: how a problem line or an error quotes the model."""
    flat = _SPACE.sub(" ", text).strip()
    return flat if len(flat) <= _SNIPPET else flat[:_SNIPPET] + "..."


# --- validation -----------------------------------------------------------------------------------

def clean_text(value: str, limit: int, one_line: bool) -> tuple[str, list[str]]:
    """``value`` without control characters, on one line when asked, at most ``limit`` characters."""
    notes = []
    original = len(value)
    head = value[:limit * 2 + 64]  # why: a megabyte field is cut before any regex walks it
    text = head.replace("\r\n", "\n").replace("\r", "\n").translate(_BREAKS)
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
        named = snippet(str(_as_text(title) or ""))
        notes.append(f"scope: {snippet(str(value))!r} of learning {named!r} is not one of "
                     f"{' or '.join(SCOPES)}: stored as project")
    return "project"


def _replaces(value: Any, notes: list[str]) -> list[str]:
    """The ids a decision says it replaces: decision ids only, each once, at most MAX_REPLACES.
    Whether each names a live decision of this project is the store's to check (memory/plan.py)."""
    items, note = _as_list(value)
    if note:
        notes.append(f"replaces: {note}")
    out: list[str] = []
    dropped: list[str] = []
    for raw in items[:MAX_REPLACES * 10]:  # why: a runaway list is not walked to its end
        text = raw[:200].strip() if isinstance(raw, str) else None  # why the cut: an id is 42 characters at most
        if text is not None and len(raw) <= 200 and text.startswith("d-") and ids.is_id(text):
            if text not in out:
                out.append(text)
        else:
            dropped.append(repr(snippet(text)[:60]) if text is not None else f"a {type(raw).__name__}")
    if dropped:
        notes.append(f"replaces: {len(dropped)} not a decision id, dropped: " + ", ".join(dropped[:3])
                     + (" ..." if len(dropped) > 3 else ""))
    if len(out) > MAX_REPLACES:
        notes.append(f"replaces: {len(out)} ids, kept {MAX_REPLACES}")
    return out[:MAX_REPLACES]


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
        elif kind == "ids":
            replaced = _replaces(value, notes)
            if replaced:  # why only then: an answer without it validates to the item it always did
                item[name] = replaced
        else:
            text = _as_text(value)
            if value is not None and text is None:
                notes.append(f"{name}: a {type(value).__name__}, not text, ignored")
            text, fixes = clean_text(text or "", limit, one_line=(kind == "short"))
            notes.extend(f"{name}: {fix}" for fix in fixes)
            item[name] = text
    unknown = sorted(str(k) for k in raw if k not in _FIELDS[section])
    if unknown:
        notes.append("unknown keys ignored: " + ", ".join(snippet(k)[:40] for k in unknown[:5])
                     + (" ..." if len(unknown) > 5 else ""))
    refused = _refused(section, item)
    if refused:
        return None, [refused] + notes
    if section == "learnings" and not ids.title_key(item["title"]):
        # why: the plan skips it as "learning without a title", which names neither it nor its title
        notes.append(f"title {snippet(item['title'])!r} has no letter, digit or symbol: not written")
    return item, notes


def _refused(section: str, item: dict) -> str | None:
    """Why the checked ``item`` of ``section`` cannot be kept, or None."""
    missing = [name for name in _REQUIRED[section] if not item.get(name)]
    if missing:
        return f"missing {' and '.join(missing)}"
    if section == "failures" and not (item["root_cause"] or item["prevention"]):
        return "neither root_cause nor prevention"
    if section != "learnings" and not normalise(item["summary"]):
        # why: the store keys an entry by its normalised summary; one of symbols only (emoji) has none and
        # was skipped there without naming it (a learning's title of symbols is one: ids.title_key)
        return f"summary {snippet(item['summary'])!r} is only symbols or punctuation"
    return None


def _says_nothing(item: str) -> bool:
    """Whether the handoff ``item`` is empty once the store reads it (memory/handoff_log.py: an unticked
    box taken off, then an id it names): no id, and nothing left by ``normalise``. An item naming an id is
    the store's to judge (an open item restated); a ticked one it drops as a close."""
    from lazy_harness.memory.handoff_log import split_ref

    if item[:3] in ("[x]", "[X]"):
        return False
    hid, text = split_ref(item[3:].strip() if item[:3] == "[ ]" else item)
    return hid is None and not normalise(text)


def validate(obj: Any) -> tuple[dict, list[str]]:
    """The Distilled answer with only good items, and one problem line per dropped or fixed item."""
    result: dict[str, list] = {key: [] for key in KEYS}
    problems: list[str] = []
    if not isinstance(obj, dict):
        del result["handoff_closed"]
        return result, [f"answer: a {type(obj).__name__}, not an object; nothing kept"]
    unknown = sorted(str(k) for k in obj if k not in KEYS)
    if unknown:
        problems.append("answer: unknown keys ignored: " + ", ".join(snippet(k)[:40] for k in unknown[:5]))
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
    held, dropped, repeats = [], [], 0
    # why: an item repeating one within the cap is that entry (the store keys both by this text); held
    # past the cap, the hold found it by its text and hid the one within the cap (memory/held_written.py)
    within = {normalise(item[title]) for item in result[section]}
    for raw in rest[:MAX_OVER * 4]:  # why: a runaway answer of 100,000 items is not validated to the end
        item = _item(section, raw)[0] if isinstance(raw, dict) else None
        if item is None:
            continue
        if normalise(item[title]) in within:
            repeats += 1
            continue
        item.pop("replaces", None)  # why: written held for review, it must not hide a decision that is shown
        pairs = result.setdefault(OVER_CAP, [])
        if sum(1 for s, _ in pairs if s == section) < MAX_OVER:
            pairs.append([section, item])
            held.append(item[title])
        else:
            dropped.append(item[title])
    out = [f"{repeats} repeating one within the cap, written once"] if repeats else []
    if held:
        out.append(f"{len(held)} more written held for review (lh memory held): " + _titles(held))
    # why apart from the titles: counted as one of them, the items not read were one more, not their number
    unread = max(0, len(rest) - MAX_OVER * 4)
    if dropped or unread:
        said = f"{len(dropped) + unread} more dropped" + (": " + _titles(dropped) if dropped else "")
        out.append(said + (f" ({unread} of them not read)" if unread else ""))
    return out or ["the rest did not validate"]


def _titles(titles: list[str], shown: int = 10) -> str:
    named = ", ".join(repr(snippet(t)[:80]) for t in titles[:shown])
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
        if section == "handoff" and _says_nothing(text):
            problems.append(f"{section}[{index}]: {snippet(text)!r} is only symbols or punctuation, dropped")
            continue
        if section == "handoff" and text[:3] in ("[x]", "[X]"):
            # why: the store drops a ticked item (memory/handoff_log.py ``items``); said, not silent
            problems.append(f"{section}[{index}]: {snippet(text)!r} is ticked as done: not opened (a close "
                            "goes in handoff_closed), dropped")
            continue
        if fixes:
            problems.append(f"{section}[{index}]: {'; '.join(fixes)}")
        result[section].append(text)
