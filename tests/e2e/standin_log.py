"""What the stand-in received: parsed requests, their classification, and text helpers.

Classification comes from watching Claude Code 2.1.328's traffic (see
tests/fixtures/transcripts/README.md): every model call is POST /v1/messages?beta=true; the
main loop always offers tools; sub-agents mark their billing line with cc_is_subagent=true;
/compact sends a text-only summary prompt; title generation (only without
CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC) offers no tools and asks for JSON via output_config.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

STRUCTURED_OUTPUT = "StructuredOutput"

TURN = "turn"  # main conversation: a typed/piped prompt, or tool results coming back
STRUCTURED = "structured"  # main conversation offering StructuredOutput (claude -p --json-schema)
COMPACT = "compact"  # the summary request behind /compact (and auto-compaction)
SUBAGENT = "subagent"  # a call made by an Agent-tool sub-agent (sidechain)
SIDE = "side"  # background calls with no tools: session title and the like
COUNT_TOKENS = "count_tokens"
OTHER = "other"  # anything that is not a Messages API call (probes such as HEAD /api/hello)

MODEL_KINDS = (TURN, STRUCTURED, COMPACT, SUBAGENT, SIDE)

# Text blocks the CLI adds to a user message around what the person typed.
_WRAPPER_PREFIXES = (
    "<system-reminder>",
    "<local-command-caveat>",
    "<command-name>",
    "<command-message>",
    "<local-command-stdout>",
    "<local-command-stderr>",
)
_COMPACT_MARKER = "create a detailed summary of the conversation"
_SUBAGENT_MARKER = "cc_is_subagent=true"


@dataclass
class Request:
    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]
    body: Any
    time: float
    kind: str = OTHER
    reply: Any = None  # the script.Reply sent back, for model calls

    @property
    def tools(self) -> list[str]:
        if not isinstance(self.body, dict):
            return []
        return [t.get("name", "") for t in self.body.get("tools") or [] if isinstance(t, dict)]

    @property
    def messages(self) -> list[dict[str, Any]]:
        if not isinstance(self.body, dict):
            return []
        return [m for m in self.body.get("messages") or [] if isinstance(m, dict)]

    @property
    def model(self) -> str:
        return str(self.body.get("model", "")) if isinstance(self.body, dict) else ""

    def system_text(self) -> str:
        return system_text(self)

    def last_user_text(self) -> str:
        return last_user_text(self)

    def last_typed_text(self) -> str:
        """Text of the newest user message that has any, skipping tool-result messages."""
        for msg in reversed(self.messages):
            if msg.get("role") == "user":
                text = "\n".join(_texts(msg.get("content"), skip_wrappers=True))
                if text:
                    return text
        return ""

    def ends_with_tool_result(self, tool_name: str | None = None) -> bool:
        """Is the newest user message a tool_result (for a call of `tool_name`)?"""
        last = _last_non_system(self.messages)
        if last is None or last.get("role") != "user":
            return False
        results = [b for b in _blocks(last) if b.get("type") == "tool_result"]
        if not results or tool_name is None:
            return bool(results)
        called = {
            b.get("id")
            for m in self.messages
            if m.get("role") == "assistant"
            for b in _blocks(m)
            if b.get("name") == tool_name
        }
        return any(r.get("tool_use_id") in called for r in results)

    def tool_results(self) -> list[dict[str, Any]]:
        """Every tool_result block in the conversation, oldest first."""
        return [
            b for m in self.messages if m.get("role") == "user" for b in _blocks(m) if b.get("type") == "tool_result"
        ]


def _last_non_system(messages: list[dict[str, Any]]) -> dict[str, Any] | None:
    # why: the CLI appends a role "system" message (environment, hook context) after the user turn.
    rest = [m for m in messages if m.get("role") != "system"]
    return rest[-1] if rest else None


def _blocks(msg: dict[str, Any]) -> list[dict[str, Any]]:
    content = msg.get("content")
    return [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []


def _texts(content: Any, skip_wrappers: bool = False) -> list[str]:
    if isinstance(content, str):
        texts = [content]
    elif isinstance(content, list):
        texts = [b.get("text", "") for b in content if isinstance(b, dict) and b.get("type") == "text"]
    else:
        texts = []
    if skip_wrappers:
        texts = [t for t in texts if t.strip() and not t.lstrip().startswith(_WRAPPER_PREFIXES)]
    return texts


def system_text(req: Request) -> str:
    """The top-level `system` prompt of a Messages request as one string."""
    system = req.body.get("system") if isinstance(req.body, dict) else None
    return "\n".join(_texts(system))


def inline_system_text(req: Request) -> str:
    """Text of role "system" entries inside `messages` (environment, SessionStart hook context)."""
    return "\n".join(t for m in req.messages if m.get("role") == "system" for t in _texts(m.get("content")))


def last_user_text(req: Request) -> str:
    """What the newest user message says, minus reminders and slash-command wrappers.

    Empty for a message that only carries tool results or notifications.
    """
    for msg in reversed(req.messages):
        if msg.get("role") == "user":
            return "\n".join(_texts(msg.get("content"), skip_wrappers=True))
    return ""


def all_user_text(req: Request) -> str:
    """Every text block of every user message, reminders included."""
    return "\n".join(t for m in req.messages if m.get("role") == "user" for t in _texts(m.get("content")))


def session_id(req: Request) -> str:
    """The CLI session that sent `req`, or "".

    2.1.328 puts it in `metadata.user_id`, a JSON string: {"device_id", "account_uuid", "session_id"}.
    """
    meta = req.body.get("metadata") if isinstance(req.body, dict) else None
    raw = meta.get("user_id") if isinstance(meta, dict) else None
    try:
        data = json.loads(raw) if isinstance(raw, str) else None
    except ValueError:
        return ""
    return str(data.get("session_id") or "") if isinstance(data, dict) else ""


def classify(path: str, body: Any) -> str:
    if path.endswith("/count_tokens"):
        return COUNT_TOKENS
    if not path.endswith("/v1/messages") or not isinstance(body, dict):
        return OTHER
    req = Request("POST", path, {}, {}, body, 0.0)
    if STRUCTURED_OUTPUT in req.tools:
        return STRUCTURED
    last = _last_non_system(req.messages)
    if (
        last is not None
        and last.get("role") == "user"
        and _COMPACT_MARKER in "\n".join(_texts(last.get("content"))).lower()
    ):
        return COMPACT
    if _SUBAGENT_MARKER in system_text(req):
        return SUBAGENT
    if not req.tools:
        return SIDE
    return TURN


class RequestLog:
    """Thread-safe list of every request the stand-in received, with queries tests need."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._items: list[Request] = []

    def add(self, req: Request) -> None:
        with self._lock:
            self._items.append(req)

    def all(self) -> list[Request]:
        with self._lock:
            return list(self._items)

    def __len__(self) -> int:
        return len(self.all())

    def of_kind(self, *kinds: str) -> list[Request]:
        return [r for r in self.all() if r.kind in kinds]

    def model_requests(self) -> list[Request]:
        """Every POST /v1/messages, whatever its kind."""
        return self.of_kind(*MODEL_KINDS)

    def turn_requests(self) -> list[Request]:
        """Main-conversation calls, tool-result continuations included."""
        return self.of_kind(TURN, STRUCTURED)

    def user_turn_requests(self) -> list[Request]:
        """Main-conversation calls that carry new text from the user (typed, piped or -p)."""
        return [r for r in self.turn_requests() if not r.ends_with_tool_result() and r.last_user_text()]

    def side_requests(self) -> list[Request]:
        return self.of_kind(SIDE)

    def requests_with_tool(self, name: str) -> list[Request]:
        return [r for r in self.all() if name in r.tools]

    def typed_texts(self) -> list[str]:
        """The user text of each user-turn request, in order."""
        return [r.last_user_text() for r in self.user_turn_requests()]

    def wait_for(self, pred: Callable[[RequestLog], bool], timeout: float = 10.0) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if pred(self):
                return True
            time.sleep(0.05)
        return pred(self)

    def summary(self) -> str:
        """One line per request, for assertion messages."""
        lines = []
        for r in self.all():
            line = f"{r.method} {r.path} [{r.kind}]"
            if r.kind in MODEL_KINDS:
                line += f" model={r.model} tools={len(r.tools)} last={last_user_text(r)[:60]!r}"
            lines.append(line)
        return "\n".join(lines)
