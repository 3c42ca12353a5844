"""A loopback stand-in for the OpenAI Responses API, for driving the real Codex CLI.

Stdlib only (the server is loopback.py's). Build a `ResponsesScript` (which answer goes to which request), start a
`ResponsesStandIn` on a free loopback port, point a Codex model provider at `standin.base_url`
(`codex_config()` writes the config.toml lines), then assert on `standin.requests`:

    with ResponsesStandIn(ResponsesScript(text="hi", structured={"ok": True})) as standin:
        ...run codex...
        assert standin.requests[0].last_user_text() == "hello"

A request that asks for a JSON schema (`text.format.type == "json_schema"`) gets `structured` as
JSON text; any other request gets `text`. Explicit rules (`on`) come first; a rule may call a
tool (`ResponsesReply.function_call`), whose output arrives in the next request.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from loopback import Loopback, LoopbackServer, QuietHandler
from standin_script import new_id

ENV_KEY = "LH_STANDIN_OPENAI_KEY"
KEPT_HEADERS = ("authorization", "originator", "session-id", "user-agent", "content-type")


def codex_config(base_url: str, model: str = "standin-model") -> str:
    """config.toml lines that send every Codex model call to the stand-in at `base_url`."""
    return (
        f'model = "{model}"\n'
        'model_provider = "standin"\n'
        "[model_providers.standin]\n"
        'name = "standin"\n'
        f'base_url = "{base_url}"\n'
        f'env_key = "{ENV_KEY}"\n'
        'wire_api = "responses"\n'
    )


def _content_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    return "".join(str(part.get("text", "")) for part in content if isinstance(part, dict))


@dataclass
class ResponsesRequest:
    """One recorded request: method, path, the kept headers and the parsed body."""

    method: str
    path: str
    headers: dict[str, str]
    body: Any
    at: float
    reply: ResponsesReply | None = None

    @property
    def items(self) -> list[dict[str, Any]]:
        body = self.body if isinstance(self.body, dict) else {}
        found = body.get("input")
        return [item for item in found if isinstance(item, dict)] if isinstance(found, list) else []

    @property
    def schema(self) -> dict[str, Any] | None:
        """The JSON schema the request asks the answer to follow, or None."""
        body = self.body if isinstance(self.body, dict) else {}
        text = body.get("text")
        fmt = text.get("format") if isinstance(text, dict) else None
        if isinstance(fmt, dict) and fmt.get("type") == "json_schema":
            schema = fmt.get("schema")
            return schema if isinstance(schema, dict) else {}
        return None

    def messages(self, role: str) -> list[str]:
        """The text of each input message with `role` (user, developer, assistant), in order."""
        return [
            _content_text(item.get("content"))
            for item in self.items
            if item.get("type", "message") == "message" and item.get("role") == role
        ]

    def last_user_text(self) -> str:
        found = self.messages("user")
        return found[-1] if found else ""

    def all_text(self) -> str:
        """Every message's text joined, for `in` checks."""
        return "\n".join(_content_text(item.get("content")) for item in self.items)

    def function_outputs(self) -> list[str]:
        return [
            str(item.get("output", "")) for item in self.items if item.get("type") == "function_call_output"
        ]


@dataclass(frozen=True)
class ResponsesReply:
    """One model answer: output items (assistant messages and function calls) and its usage."""

    items: tuple[dict[str, Any], ...]
    input_tokens: int = 120
    output_tokens: int = 0  # 0: estimated from the items

    @staticmethod
    def text(text: str) -> ResponsesReply:
        return ResponsesReply(({"type": "message", "text": text},))

    @staticmethod
    def function_call(name: str, arguments: dict[str, Any], text: str = "") -> ResponsesReply:
        """Call tool `name` with `arguments`; optional `text` is said before the call."""
        call = {"type": "function_call", "name": name, "arguments": json.dumps(arguments)}
        return ResponsesReply(({"type": "message", "text": text}, call) if text else (call,))

    def output(self) -> list[dict[str, Any]]:
        """The finished output items, fresh ids each time (a reply may be reused)."""
        out: list[dict[str, Any]] = []
        for item in self.items:
            if item["type"] == "function_call":
                out.append({**item, "id": new_id("fc"), "call_id": new_id("call"), "status": "completed"})
            else:
                content = [{"type": "output_text", "text": item["text"], "annotations": []}]
                out.append(
                    {
                        "type": "message",
                        "id": new_id("msg"),
                        "role": "assistant",
                        "status": "completed",
                        "content": content,
                    }
                )
        return out

    def usage(self, output: list[dict[str, Any]]) -> dict[str, Any]:
        produced = self.output_tokens or sum(len(json.dumps(item)) for item in output) // 4 + 1
        return {
            "input_tokens": self.input_tokens,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens": produced,
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": self.input_tokens + produced,
        }


Answer = ResponsesReply | Callable[[ResponsesRequest], ResponsesReply]
Match = Callable[[ResponsesRequest], bool]


@dataclass
class _Rule:
    match: Match
    answer: Answer
    left: int  # -1: unlimited


@dataclass
class ResponsesScript:
    """Chooses the answer: explicit rules first (first match wins; `times` uses a rule up), then
    `structured` as JSON text for a request with a schema, else `text`."""

    text: str = "Done."
    structured: dict[str, Any] = field(
        default_factory=lambda: {"decisions": [], "failures": [], "learnings": []}
    )
    rules: list[_Rule] = field(default_factory=list)

    def on(self, match: Match, answer: Answer, times: int = -1) -> ResponsesScript:
        self.rules.append(_Rule(match, answer, times))
        return self

    def answer(self, req: ResponsesRequest) -> ResponsesReply:
        for rule in self.rules:
            if rule.left != 0 and rule.match(req):
                if rule.left > 0:
                    rule.left -= 1
                return rule.answer(req) if callable(rule.answer) else rule.answer
        if req.schema is not None:
            return ResponsesReply.text(json.dumps(self.structured))
        return ResponsesReply.text(self.text)


def _delta_events(index: int, item: dict[str, Any]) -> list[dict[str, Any]]:
    if item["type"] == "function_call":
        args = item["arguments"]
        return [
            {
                "type": "response.function_call_arguments.delta",
                "item_id": item["id"],
                "output_index": index,
                "delta": args,
            }
        ]
    text = item["content"][0]["text"]
    # why: several deltas per message, so the CLI's incremental assembly is exercised.
    parts = [text[j : j + 40] for j in range(0, len(text), 40)] or [""]
    return [
        {
            "type": "response.output_text.delta",
            "item_id": item["id"],
            "output_index": index,
            "content_index": 0,
            "delta": part,
        }
        for part in parts
    ]


def sse_events(response_id: str, model: str, reply: ResponsesReply) -> list[dict[str, Any]]:
    """The streaming events that deliver `reply`, in the order the real API sends them."""
    output = reply.output()
    head = {"id": response_id, "object": "response", "status": "in_progress", "model": model, "output": []}
    events: list[dict[str, Any]] = [{"type": "response.created", "response": head}]
    for index, item in enumerate(output):
        started = {**item, "content": []} if item["type"] == "message" else {**item, "arguments": ""}
        events.append({"type": "response.output_item.added", "output_index": index, "item": started})
        events.extend(_delta_events(index, item))
        events.append({"type": "response.output_item.done", "output_index": index, "item": item})
    done = {**head, "status": "completed", "output": output, "usage": reply.usage(output)}
    events.append({"type": "response.completed", "response": done})
    return events


def _sse_bytes(events: list[dict[str, Any]]) -> bytes:
    return b"".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n".encode() for e in events)


class _Handler(QuietHandler):
    request_id_header = "x-request-id"
    server: LoopbackServer

    def _record(self) -> ResponsesRequest:
        req = ResponsesRequest(self.command, self.path.split("?", 1)[0], self.kept_headers(KEPT_HEADERS),
                               self.read_body(), time.time())
        self.server.standin.add(req)
        return req

    def _not_found(self, req: ResponsesRequest) -> None:
        error = {"error": {"type": "not_found", "message": f"stand-in has no {req.method} {req.path}"}}
        self._send(404, json.dumps(error).encode())

    def do_POST(self) -> None:  # noqa: N802 - stdlib name
        req = self._record()
        if not req.path.endswith("/responses") or not isinstance(req.body, dict):
            self._not_found(req)
            return
        req.reply = self.server.standin.script.answer(req)
        model = str(req.body.get("model") or "standin-model")
        events = sse_events(new_id("resp"), model, req.reply)
        if req.body.get("stream"):
            self._send(200, _sse_bytes(events), "text/event-stream")
        else:
            self._send(200, json.dumps(events[-1]["response"]).encode())

    def do_GET(self) -> None:  # noqa: N802
        # why: a quick, well-formed 404 makes optional look-ups (models list) give up at once.
        self._not_found(self._record())


class ResponsesStandIn(Loopback):
    """The server on 127.0.0.1, a free port. Use as a context manager or start()/stop()."""

    handler = _Handler
    thread_name = "responses"

    def __init__(self, script: ResponsesScript | None = None) -> None:
        super().__init__()
        self.script = script or ResponsesScript()
        self.requests: list[ResponsesRequest] = []
        self._lock = threading.Lock()
        self._arrived = threading.Condition(self._lock)

    def add(self, req: ResponsesRequest) -> None:
        with self._arrived:
            self.requests.append(req)
            self._arrived.notify_all()

    def model_requests(self) -> list[ResponsesRequest]:
        """The POST /responses requests, in arrival order."""
        with self._lock:
            return [r for r in self.requests if r.method == "POST" and r.path.endswith("/responses")]

    def turn_requests(self) -> list[ResponsesRequest]:
        """The agent's turns: the model requests without an answer schema. The TUI asks for a thread
        title with one, and its request carries the typed prompt too; it may arrive before the turn's
        (the turn waits for SessionStart's hook), and it holds no hook context."""
        return [r for r in self.model_requests() if r.schema is None]

    def wait_for(self, count: int, timeout: float = 30.0) -> list[ResponsesRequest]:
        """Block until `count` model requests have arrived (raise TimeoutError after `timeout`)."""
        deadline = time.monotonic() + timeout
        with self._arrived:
            while sum(1 for r in self.requests if r.method == "POST") < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"{count} model requests expected, {len(self.requests)} arrived")
                self._arrived.wait(left)
        return self.model_requests()

    @property
    def base_url(self) -> str:
        """The provider base URL (with /v1), for `base_url` in Codex's config."""
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> ResponsesStandIn:
        return super().start()

    def __enter__(self) -> ResponsesStandIn:
        return self.start()


if __name__ == "__main__":
    # why: `python responses_standin.py` serves until interrupted, for trying Codex by hand.
    with ResponsesStandIn() as running:
        print(codex_config(running.base_url), flush=True)
        threading.Event().wait()
