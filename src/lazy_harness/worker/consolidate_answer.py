"""Consolidation's answer: the schema the model answers to, and what of its answer may be applied.

The answer is hostile input: ids must name live entries of this project and of the right kind, an
entry is changed at most once per run, chains and cycles are cut, reasons are one short redacted
line, and at most ``max_changes`` changes are made. Whatever is refused is one problem line.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lazy_harness.memory import changes as edits
from lazy_harness.memory.sanitize import one_line
from lazy_harness.worker.consolidate_prompt import Candidates

if TYPE_CHECKING:
    from collections.abc import Iterable

REASON_CHARS = edits.REASON_CHARS
ACTIONS = ("supersede", "deprecate_learnings", "merge_failures", "close_handoff")
_PAIR = {"supersede": ("old", "new"), "deprecate_learnings": ("id", "by"), "merge_failures": ("drop", "keep"),
         "close_handoff": ("id", None)}

_REASON = {"type": "string", "maxLength": REASON_CHARS}
SCHEMA = {
    "type": "object",
    "properties": {
        "supersede": {"type": "array", "items": {"type": "object", "properties": {
            "old": {"type": "string"}, "new": {"type": "string"}, "reason": _REASON}, "required": ["old", "new"]}},
        "deprecate_learnings": {"type": "array", "items": {"type": "object", "properties": {
            "id": {"type": "string"}, "by": {"type": "string"}, "reason": _REASON}, "required": ["id", "by"]}},
        "merge_failures": {"type": "array", "items": {"type": "object", "properties": {
            "keep": {"type": "string"}, "drop": {"type": "string"}, "reason": _REASON}, "required": ["keep", "drop"]}},
        "close_handoff": {"type": "array", "items": {"type": "object", "properties": {
            "id": {"type": "string"}, "reason": _REASON}, "required": ["id"]}},
    },
}


@dataclass
class Change:
    action: str
    target: str
    other: str | None
    reason: str

    def __str__(self) -> str:
        verb = {"supersede": "supersede {t} by {o}", "deprecate_learnings": "deprecate {t} for {o}",
                "merge_failures": "merge {t} into {o}", "close_handoff": "close {t}"}[self.action]
        return verb.format(t=self.target, o=self.other) + (f": {self.reason}" if self.reason else "")


_KINDS = {"supersede": "decision", "deprecate_learnings": "learning", "merge_failures": "failure",
          "close_handoff": "handoff"}


def validate(obj: object, c: Candidates, max_changes: int,
             extra_patterns: Iterable[str] = ()) -> tuple[list[Change], list[str]]:
    """The changes an answer may make, in its order; one problem line per thing refused."""
    from lazy_harness.redact import redact

    if not isinstance(obj, dict):
        return [], [f"answer is not an object: {type(obj).__name__}"]
    problems = [f"unknown key {one_line(key)[:40]!r} ignored" for key in obj if key not in ACTIONS]
    live = c.by_id()
    changed: set[str] = set()   # entries this run marks: each at most once
    targets: set[str] = set()   # entries this run names as the one that stays
    out: list[Change] = []
    for action in ACTIONS:
        items = obj.get(action)
        if items is None:
            continue
        if not isinstance(items, list):
            problems.append(f"{action}: expected a list, got {type(items).__name__}")
            continue
        first, second = _PAIR[action]
        for raw in items:
            if not isinstance(raw, dict):
                problems.append(f"{action}: not an object")
                continue
            target, other = raw.get(first), raw.get(second) if second else None
            why = _refusal(action, target, other, live, changed, targets)
            if why is None and len(out) >= max_changes:
                why = f"over max_changes ({max_changes})"
            if why is not None or not isinstance(target, str):  # _refusal refuses a non-str target: for mypy
                problems.append(f"{action} {one_line(target)[:20]!r}: {why}, ignored")
                continue
            reason = one_line(raw.get("reason") if isinstance(raw.get("reason"), str) else "")[:REASON_CHARS]
            reason = redact(reason, tuple(extra_patterns))[0]
            changed.add(target)
            if other is not None:
                targets.add(other)
            out.append(Change(action, target, other, reason))
    return out, problems


def _refusal(action: str, target: object, other: object, live: dict, changed: set[str],
             targets: set[str]) -> str | None:
    """Why one change of the answer may not be made (its ids, a chain with another change of this run,
    the order of a supersede), or None when it may."""
    kind = _KINDS[action]
    second = _PAIR[action][1]
    if not isinstance(target, str) or live.get(target) is None or live[target].kind != kind:
        return f"unknown {kind} id"
    if second and (not isinstance(other, str) or live.get(other) is None or live[other].kind != kind):
        return f"{second} {one_line(other)[:20]!r} is not a live {kind}"
    if other == target:
        return "names itself"
    if target in changed or target in targets or (other is not None and other in changed):
        return "chained with another change of this run"
    # why not line order alone: an entry a session made again after consolidation hid it keeps its old
    # line; it is as new as when it came back (``Entry.newer_than``), in either direction
    if action == "supersede" and not live[other].newer_than(live[target]):
        restored, made = live[target].restored, live[other].made()
        if restored is not None and made is not None and made < restored:
            return f"{target} was made again after {other}"
        return f"{other} is not newer"
    return None
