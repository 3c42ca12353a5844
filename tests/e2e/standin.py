"""A loopback stand-in for the Anthropic Messages API, for driving the real Claude Code CLI.

Stdlib only. Build a `Script` (which answer goes to which request), start a `StandIn` on a free
loopback port, point ANTHROPIC_BASE_URL at `standin.url`, then assert on `standin.log`:

    with StandIn(Script(text="hi", structured={"ok": True})) as standin:
        ...run claude...
        assert standin.log.user_turn_requests()[0].last_user_text() == "hello"
"""

from __future__ import annotations

import json
import time
from typing import Any
from urllib.parse import parse_qs, urlsplit

from loopback import Loopback, LoopbackServer, QuietHandler
from standin_log import (  # noqa: F401 - re-exported for tests
    COMPACT,
    COUNT_TOKENS,
    MODEL_KINDS,
    OTHER,
    SIDE,
    STRUCTURED,
    STRUCTURED_OUTPUT,
    SUBAGENT,
    TURN,
    Request,
    RequestLog,
    all_user_text,
    classify,
    inline_system_text,
    last_user_text,
    session_id,
    system_text,
)
from standin_script import Reply, Script, new_id  # noqa: F401 - re-exported for tests

KEPT_HEADERS = ("user-agent", "anthropic-beta", "anthropic-version", "x-app", "x-api-key", "content-type")


def sse_events(message: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The streaming events that deliver `message`, as the real API orders them."""
    head = {**message, "content": [], "stop_reason": None, "stop_sequence": None}
    head["usage"] = {**message["usage"], "output_tokens": 1}
    events: list[tuple[str, dict[str, Any]]] = [("message_start", {"type": "message_start", "message": head})]
    for i, block in enumerate(message["content"]):
        if block["type"] == "tool_use":
            start = {**block, "input": {}}
            delta_type, field, payload = "input_json_delta", "partial_json", json.dumps(block["input"])
        else:
            start = {"type": "text", "text": ""}
            delta_type, field, payload = "text_delta", "text", block["text"]
        events.append(("content_block_start", {"type": "content_block_start", "index": i, "content_block": start}))
        # why: several deltas per block, so the CLI's incremental assembly is exercised.
        for part in [payload[j : j + 40] for j in range(0, len(payload), 40)] or [""]:
            delta = {"type": delta_type, field: part}
            events.append(("content_block_delta", {"type": "content_block_delta", "index": i, "delta": delta}))
        events.append(("content_block_stop", {"type": "content_block_stop", "index": i}))
    stop = {"stop_reason": message["stop_reason"], "stop_sequence": None}
    usage = {"output_tokens": message["usage"]["output_tokens"]}
    events.append(("message_delta", {"type": "message_delta", "delta": stop, "usage": usage}))
    events.append(("message_stop", {"type": "message_stop"}))
    return events


def _sse_bytes(message: dict[str, Any]) -> bytes:
    return b"".join(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode() for name, data in sse_events(message))


class _Handler(QuietHandler):
    server: LoopbackServer

    def _record(self) -> Request:
        body = self.read_body()
        parts = urlsplit(self.path)
        kind = classify(parts.path, body) if self.command == "POST" else OTHER
        req = Request(self.command, parts.path, parse_qs(parts.query), self.kept_headers(KEPT_HEADERS), body,
                      time.time(), kind)
        self.server.standin.log.add(req)
        return req

    def _json(self, status: int, obj: Any) -> None:
        self._send(status, json.dumps(obj).encode())

    def _not_found(self, req: Request) -> None:
        self._json(
            404, {"type": "error", "error": {"type": "not_found_error", "message": f"stand-in has no {req.path}"}}
        )

    def do_POST(self) -> None:  # noqa: N802 - stdlib name
        req = self._record()
        if req.kind == COUNT_TOKENS:
            self._json(200, {"input_tokens": len(json.dumps(req.body)) // 4})
        elif req.kind == OTHER:
            self._not_found(req)
        else:
            req.reply = self.server.standin.script.answer(req)
            message = req.reply.message(req.model or "claude-standin")
            if req.body.get("stream"):
                self._send(200, _sse_bytes(message), "text/event-stream")
            else:
                self._json(200, message)

    def do_GET(self) -> None:  # noqa: N802
        # why: a quick, well-formed 404 makes optional startup look-ups give up at once.
        self._not_found(self._record())

    def do_HEAD(self) -> None:  # noqa: N802
        # why: the CLI probes HEAD /api/hello for connectivity when nonessential traffic is on.
        self._record()
        self._send(200, b"")


class StandIn(Loopback):
    """The server on 127.0.0.1, a free port. Use as a context manager or start()/stop()."""

    handler = _Handler

    def __init__(self, script: Script | None = None) -> None:
        super().__init__()
        self.script = script or Script()
        self.log = RequestLog()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> StandIn:
        return super().start()

    def __enter__(self) -> StandIn:
        return self.start()
