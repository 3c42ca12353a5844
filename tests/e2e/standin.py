"""A loopback stand-in for the Anthropic Messages API, for driving the real Claude Code CLI.

Stdlib only. A test builds a `Script` (which answer goes to which request), starts a `StandIn`
on a free loopback port, points ANTHROPIC_BASE_URL at `standin.url`, and afterwards asserts on
`standin.log` (every request the CLI made, parsed and classified).
"""

from __future__ import annotations

import itertools
import json
import re
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable
from urllib.parse import parse_qs, urlsplit

STRUCTURED_OUTPUT = "StructuredOutput"
KEPT_HEADERS = ("user-agent", "anthropic-beta", "anthropic-version", "x-app", "x-api-key")

# Request kinds, see `classify`.
TURN = "turn"  # a model call for a turn of the main conversation (user text or tool results)
STRUCTURED = "structured"  # a main-conversation call offering the StructuredOutput tool
COMPACT = "compact"  # the summary request behind /compact
SIDE = "side"  # title generation, topic detection, quota checks and other background calls
COUNT_TOKENS = "count_tokens"
OTHER = "other"  # anything that is not a Messages API call

_ids = itertools.count(1)


def _new_id(prefix: str) -> str:
    return f"{prefix}_standin{next(_ids):06d}"


# ---------------------------------------------------------------------------------------------
# Answers


@dataclass(frozen=True)
class Reply:
    """One assistant message: content blocks plus the stop reason."""

    blocks: tuple[dict[str, Any], ...]
    stop_reason: str = "end_turn"

    @staticmethod
    def text(text: str) -> "Reply":
        return Reply(({"type": "text", "text": text},), "end_turn")

    @staticmethod
    def tool_use(name: str, tool_input: dict[str, Any], text: str = "") -> "Reply":
        block = {"type": "tool_use", "id": _new_id("toolu"), "name": name, "input": tool_input}
        blocks = ({"type": "text", "text": text}, block) if text else (block,)
        return Reply(blocks, "tool_use")

    def message(self, model: str, request_id: str = "") -> dict[str, Any]:
        blocks = [_fresh_ids(b) for b in self.blocks]
        return {
            "id": request_id or _new_id("msg"),
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": blocks,
            "stop_reason": self.stop_reason,
            "stop_sequence": None,
            "usage": _usage(blocks),
        }


def _fresh_ids(block: dict[str, Any]) -> dict[str, Any]:
    # why: a Reply reused for several requests must not repeat a tool_use id; the CLI keys
    # tool results by it.
    if block["type"] == "tool_use":
        return {**block, "id": _new_id("toolu")}
    return dict(block)


def _usage(blocks: list[dict[str, Any]]) -> dict[str, int]:
    out = sum(len(json.dumps(b)) for b in blocks) // 4 + 1
    return {
        "input_tokens": 100,
        "output_tokens": out,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 0,
    }


Answer = Reply | Callable[["Request"], Reply]
Match = Callable[["Request"], bool]


@dataclass
class Script:
    """Chooses the answer for each Messages request.

    Order: explicit rules (first match wins, optionally used up after `times`), then a
    StructuredOutput request gets `structured` as the tool input (and, once the tool result is
    back, `structured_done` as text), then side requests get `side_text`, then every other
    turn gets `text`.
    """

    text: str = "Stand-in reply."
    structured: dict[str, Any] | None = None
    structured_done: str = "Done."
    side_text: str = "Stand-in side answer"
    compact_summary: str = "Summary: the user and the assistant talked about a fictional project."
    rules: list[tuple[Match, Answer, list[int]]] = field(default_factory=list)

    def on(self, match: Match | str, answer: Answer | str, times: int | None = None) -> "Script":
        """Answer requests matched by `match` with `answer`.

        A str `match` is a regex searched in the last user text of a turn request; a str
        `answer` is plain text. `times` limits how many requests the rule answers.
        """
        if isinstance(match, str):
            pattern = re.compile(match)

            def match_fn(req: Request) -> bool:
                return req.kind == TURN and bool(pattern.search(req.last_user_text()))

            match = match_fn
        if isinstance(answer, str):
            answer = Reply.text(answer)
        self.rules.append((match, answer, [times if times is not None else -1]))
        return self

    def on_turn_tool(self, pattern: str, name: str, tool_input: dict[str, Any], then: str = "") -> "Script":
        """When a typed turn matches `pattern`, call tool `name`; after its result, say `then`."""
        regex = re.compile(pattern)

        def asks(req: Request) -> bool:
            return req.kind == TURN and not req.ends_with_tool_result() and bool(regex.search(req.last_user_text()))

        def answered(req: Request) -> bool:
            return req.kind == TURN and req.ends_with_tool_result() and bool(regex.search(req.last_typed_text()))

        self.on(asks, Reply.tool_use(name, tool_input))
        self.on(answered, Reply.text(then or self.text))
        return self

    def answer(self, req: "Request") -> Reply:
        for match, answer, left in self.rules:
            if left[0] != 0 and match(req):
                left[0] -= 1
                return answer(req) if callable(answer) else answer
        if req.kind == STRUCTURED:
            if req.ends_with_tool_result(STRUCTURED_OUTPUT):
                return Reply.text(self.structured_done)
            return Reply.tool_use(STRUCTURED_OUTPUT, self.structured or {})
        if req.kind == COMPACT:
            return Reply.text(self.compact_summary)
        if req.kind == SIDE:
            return Reply.text(self.side_text)
        return Reply.text(self.text)


# ---------------------------------------------------------------------------------------------
# The request log


@dataclass
class Request:
    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]
    body: Any
    time: float
    kind: str = OTHER
    reply: Reply | None = None

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

    def system_text(self) -> str:
        return system_text(self)

    def last_user_text(self) -> str:
        return last_user_text(self)

    def last_typed_text(self) -> str:
        """Text of the newest user message that has text outside tool results."""
        for msg in reversed(self.messages):
            if msg.get("role") == "user" and _texts(msg.get("content"), skip_reminders=True):
                return "\n".join(_texts(msg.get("content"), skip_reminders=True))
        return ""

    def ends_with_tool_result(self, tool_name: str | None = None) -> bool:
        """Is the last message a user message carrying a tool_result (for `tool_name`)?"""
        # why: the CLI appends a role "system" message (environment, date) after the user turn.
        msgs = [m for m in self.messages if m.get("role") != "system"]
        if not msgs or msgs[-1].get("role") != "user":
            return False
        content = msgs[-1].get("content")
        results = [b for b in content if isinstance(b, dict) and b.get("type") == "tool_result"] if isinstance(content, list) else []
        if not results:
            return False
        if tool_name is None:
            return True
        called = {b.get("id") for m in msgs if m.get("role") == "assistant" for b in _blocks(m) if b.get("name") == tool_name}
        return any(r.get("tool_use_id") in called for r in results)


def _blocks(msg: dict[str, Any]) -> list[dict[str, Any]]:
    content = msg.get("content")
    return [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []


def _texts(content: Any, skip_reminders: bool = False) -> list[str]:
    if isinstance(content, str):
        texts = [content]
    elif isinstance(content, list):
        texts = [b.get("text", "") for b in content if isinstance(b, dict) and b.get("type") == "text"]
    else:
        texts = []
    if skip_reminders:
        # why: the CLI packs <system-reminder> blocks into the same user message as the typed text.
        texts = [t for t in texts if t.strip() and not t.lstrip().startswith("<system-reminder>")]
    return texts


def system_text(req: Request) -> str:
    """The system prompt of a Messages request as one string."""
    system = req.body.get("system") if isinstance(req.body, dict) else None
    return "\n".join(_texts(system)) if system is not None else ""


def last_user_text(req: Request) -> str:
    """The text the newest user message carries, minus <system-reminder> blocks."""
    for msg in reversed(req.messages):
        if msg.get("role") == "user":
            return "\n".join(_texts(msg.get("content"), skip_reminders=True))
    return ""


def all_user_text(req: Request) -> str:
    """Every text block of every user message, reminders included."""
    return "\n".join(t for m in req.messages if m.get("role") == "user" for t in _texts(m.get("content")))


_SIDE_SYSTEM_MARKERS = (
    "generate a concise",
    "session title",
    "isNewTopic",
    "new conversation topic",
    "summarize this coding conversation",
)
_COMPACT_MARKERS = (
    "create a detailed summary of the conversation",
    "your task is to create a detailed summary",
)


def classify(path: str, body: Any) -> str:
    if path.endswith("/count_tokens"):
        return COUNT_TOKENS
    if not path.endswith("/v1/messages") or not isinstance(body, dict):
        return OTHER
    req = Request("POST", path, {}, {}, body, 0.0)
    tools = req.tools
    if STRUCTURED_OUTPUT in tools:
        return STRUCTURED
    last = last_user_text(req).lower()
    if any(m in last for m in _COMPACT_MARKERS):
        return COMPACT
    system = system_text(req)
    # why: the main loop always offers tools (unless --tools ""); side calls (title, topic,
    # quota) offer none and carry a short task-specific system prompt or a one-word message.
    if not tools and (
        any(m.lower() in system.lower() for m in _SIDE_SYSTEM_MARKERS)
        or body.get("max_tokens", 0) <= 1
        or last.strip() == "quota"
    ):
        return SIDE
    return TURN


class RequestLog:
    """Thread-safe list of every request the stand-in received."""

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

    def messages_requests(self) -> list[Request]:
        return [r for r in self.all() if r.kind in (TURN, STRUCTURED, COMPACT, SIDE)]

    def user_turn_requests(self) -> list[Request]:
        """Main-conversation calls that carry a new typed/piped user prompt (not tool results)."""
        return [r for r in self.all() if r.kind in (TURN, STRUCTURED) and not r.ends_with_tool_result()]

    def turn_requests(self) -> list[Request]:
        """Every main-conversation call, tool-result continuations included."""
        return [r for r in self.all() if r.kind in (TURN, STRUCTURED)]

    def side_requests(self) -> list[Request]:
        return [r for r in self.all() if r.kind == SIDE]

    def requests_with_tool(self, name: str) -> list[Request]:
        return [r for r in self.all() if name in r.tools]

    def of_kind(self, kind: str) -> list[Request]:
        return [r for r in self.all() if r.kind == kind]

    def wait_for(self, pred: Callable[["RequestLog"], bool], timeout: float = 10.0) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if pred(self):
                return True
            time.sleep(0.05)
        return pred(self)

    def summary(self) -> str:
        """One line per request; handy in assertion messages."""
        lines = []
        for r in self.all():
            extra = f" tools={len(r.tools)} last={last_user_text(r)[:60]!r}" if r.kind != OTHER else ""
            lines.append(f"{r.method} {r.path} [{r.kind}]{extra}")
        return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# The server


def _sse(message: dict[str, Any]) -> bytes:
    head = {**message, "content": [], "stop_reason": None, "stop_sequence": None}
    head["usage"] = {**message["usage"], "output_tokens": 1}
    events: list[tuple[str, dict[str, Any]]] = [("message_start", {"type": "message_start", "message": head})]
    for i, block in enumerate(message["content"]):
        if block["type"] == "text":
            events.append(("content_block_start", {"type": "content_block_start", "index": i, "content_block": {"type": "text", "text": ""}}))
            text = block["text"]
            for part in [text[j : j + 40] for j in range(0, len(text), 40)] or [""]:
                events.append(("content_block_delta", {"type": "content_block_delta", "index": i, "delta": {"type": "text_delta", "text": part}}))
        else:
            start = {**block, "input": {}}
            events.append(("content_block_start", {"type": "content_block_start", "index": i, "content_block": start}))
            raw = json.dumps(block["input"])
            for part in [raw[j : j + 40] for j in range(0, len(raw), 40)]:
                events.append(("content_block_delta", {"type": "content_block_delta", "index": i, "delta": {"type": "input_json_delta", "partial_json": part}}))
        events.append(("content_block_stop", {"type": "content_block_stop", "index": i}))
    events.append(("message_delta", {"type": "message_delta", "delta": {"stop_reason": message["stop_reason"], "stop_sequence": None}, "usage": {"output_tokens": message["usage"]["output_tokens"]}}))
    events.append(("message_stop", {"type": "message_stop"}))
    return b"".join(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode() for name, data in events)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: "_Server"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib signature
        pass

    def _read_body(self) -> Any:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            return json.loads(raw) if raw else None
        except ValueError:
            return raw.decode("utf-8", "replace")

    def _record(self, body: Any) -> Request:
        parts = urlsplit(self.path)
        headers = {k: self.headers[k] for k in KEPT_HEADERS if self.headers.get(k) is not None}
        req = Request(self.command, parts.path, parse_qs(parts.query), headers, body, time.time(), classify(parts.path, body) if self.command == "POST" else OTHER)
        self.server.standin.log.add(req)
        return req

    def _send(self, status: int, payload: bytes, content_type: str = "application/json") -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(payload)))
        self.send_header("request-id", _new_id("req"))
        self.end_headers()
        self.wfile.write(payload)

    def _json(self, status: int, obj: Any) -> None:
        self._send(status, json.dumps(obj).encode())

    def do_POST(self) -> None:  # noqa: N802 - stdlib name
        req = self._record(self._read_body())
        if req.kind == COUNT_TOKENS:
            self._json(200, {"input_tokens": len(json.dumps(req.body)) // 4})
            return
        if req.kind == OTHER:
            self._json(404, {"type": "error", "error": {"type": "not_found_error", "message": f"stand-in: no {req.path}"}})
            return
        reply = self.server.standin.script.answer(req)
        req.reply = reply
        message = reply.message(str(req.body.get("model", "claude-standin")))
        if req.body.get("stream"):
            self._send(200, _sse(message), "text/event-stream")
        else:
            self._json(200, message)

    def do_GET(self) -> None:  # noqa: N802
        self._record(None)
        # why: startup probes (model lists, settings, feature flags) only need a quick, valid
        # answer so the CLI does not wait on a timeout.
        self._json(404, {"type": "error", "error": {"type": "not_found_error", "message": "stand-in"}})

    def do_HEAD(self) -> None:  # noqa: N802
        self._record(None)
        self._send(200, b"")


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    standin: "StandIn"


class StandIn:
    """The server. Use as a context manager or call start()/stop()."""

    def __init__(self, script: Script | None = None) -> None:
        self.script = script or Script()
        self.log = RequestLog()
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        assert self._server is not None, "stand-in not started"
        return self._server.server_address[1]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> "StandIn":
        self._server = _Server(("127.0.0.1", 0), _Handler)
        self._server.standin = self
        self._thread = threading.Thread(target=self._server.serve_forever, name="standin", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> "StandIn":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
