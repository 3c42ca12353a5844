"""Which answer the stand-in gives to which request."""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from standin_log import COMPACT, SIDE, STRUCTURED, STRUCTURED_OUTPUT, SUBAGENT, TURN, Request

_ids = itertools.count(1)


def new_id(prefix: str) -> str:
    return f"{prefix}_standin{next(_ids):06d}"


@dataclass(frozen=True)
class Reply:
    """One assistant message: content blocks plus the stop reason."""

    blocks: tuple[dict[str, Any], ...]
    stop_reason: str = "end_turn"

    @staticmethod
    def text(text: str) -> Reply:
        return Reply(({"type": "text", "text": text},), "end_turn")

    @staticmethod
    def tool_use(name: str, tool_input: dict[str, Any], text: str = "") -> Reply:
        """Call tool `name`; optional `text` is said before the call."""
        block = {"type": "tool_use", "id": "", "name": name, "input": tool_input}
        blocks = ({"type": "text", "text": text}, block) if text else (block,)
        return Reply(blocks, "tool_use")

    def message(self, model: str) -> dict[str, Any]:
        # why: a Reply reused for several requests must not repeat a tool_use id; the CLI pairs
        # each tool_result with its call by that id.
        blocks = [{**b, "id": new_id("toolu")} if b["type"] == "tool_use" else dict(b) for b in self.blocks]
        return {
            "id": new_id("msg"),
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": blocks,
            "stop_reason": self.stop_reason,
            "stop_sequence": None,
            "usage": {
                "input_tokens": 100,
                "output_tokens": sum(len(json.dumps(b)) for b in blocks) // 4 + 1,
                "cache_creation_input_tokens": 0,
                "cache_read_input_tokens": 0,
            },
        }


Answer = Reply | Callable[[Request], Reply]
Match = Callable[[Request], bool]


@dataclass
class _Rule:
    match: Match
    answer: Answer
    left: int  # -1: unlimited


@dataclass
class Script:
    """Chooses the answer for each model request.

    Explicit rules first (first match wins; a rule with `times` is used up after that many
    answers). Otherwise by kind: a StructuredOutput request gets a call of that tool with
    `structured` as input (`structured_done` as text once the result is back); /compact gets
    `compact_summary`; a sub-agent says `subagent_text`; a side request gets `side_text` (or
    JSON matching the schema it asks for); any other turn gets `text`.
    """

    text: str = "Stand-in reply."
    structured: dict[str, Any] | None = None
    structured_done: str = "Done."
    compact_summary: str = "The user and the assistant discussed a fictional project."
    subagent_text: str = "Sub-agent report: nothing to add."
    side_text: str = "Stand-in title"
    rules: list[_Rule] = field(default_factory=list)

    def on(self, match: Match | str, answer: Answer | str, times: int | None = None) -> Script:
        """Answer requests that `match` with `answer`.

        A str `match` is a regex searched in the user text of a TURN request (not tool-result
        continuations, not StructuredOutput requests). A str `answer` is plain text.
        """
        if isinstance(match, str):
            match = _typed_turn_matching(match)
        if isinstance(answer, str):
            answer = Reply.text(answer)
        self.rules.append(_Rule(match, answer, -1 if times is None else times))
        return self

    def on_turn_tool(self, pattern: str, name: str, tool_input: dict[str, Any], then: str | None = None) -> Script:
        """When a typed turn matches `pattern`, call tool `name`; once its result is back, say `then`."""
        regex = re.compile(pattern)

        def answered(req: Request) -> bool:
            return req.kind == TURN and req.ends_with_tool_result() and bool(regex.search(req.last_typed_text()))

        self.on(_typed_turn_matching(pattern), Reply.tool_use(name, tool_input))
        self.on(answered, Reply.text(self.text if then is None else then))
        return self

    def answer(self, req: Request) -> Reply:
        for rule in self.rules:
            if rule.left != 0 and rule.match(req):
                rule.left -= 1 if rule.left > 0 else 0
                return rule.answer(req) if callable(rule.answer) else rule.answer
        if req.kind == STRUCTURED:
            if req.ends_with_tool_result(STRUCTURED_OUTPUT):
                return Reply.text(self.structured_done)
            return Reply.tool_use(STRUCTURED_OUTPUT, self.structured or {})
        if req.kind == COMPACT:
            # why: the compact prompt demands an <analysis> block then a <summary> block.
            return Reply.text(
                f"<analysis>\nStand-in analysis.\n</analysis>\n\n<summary>\n{self.compact_summary}\n</summary>"
            )
        if req.kind == SUBAGENT:
            return Reply.text(self.subagent_text)
        if req.kind == SIDE:
            schema = _asked_schema(req)
            return Reply.text(json.dumps(_example(schema, self.side_text)) if schema else self.side_text)
        return Reply.text(self.text)


def _typed_turn_matching(pattern: str) -> Match:
    regex = re.compile(pattern)

    def match(req: Request) -> bool:
        return req.kind == TURN and not req.ends_with_tool_result() and bool(regex.search(req.last_user_text()))

    return match


def _asked_schema(req: Request) -> dict[str, Any] | None:
    fmt = (req.body.get("output_config") or {}).get("format") if isinstance(req.body, dict) else None
    return fmt.get("schema") if isinstance(fmt, dict) and fmt.get("type") == "json_schema" else None


def _example(schema: dict[str, Any], text: str) -> Any:
    """A minimal instance of a JSON schema: every property present, strings set to `text`."""
    kind = schema.get("type")
    if kind == "object":
        return {name: _example(sub, text) for name, sub in (schema.get("properties") or {}).items()}
    return {"array": [], "string": text, "integer": 0, "number": 0, "boolean": False}.get(str(kind))
