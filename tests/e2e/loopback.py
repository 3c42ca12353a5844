"""What both loopback stand-ins share (the Anthropic Messages one, standin.py, and the OpenAI
Responses one, responses_standin.py): a quiet HTTP/1.1 handler that reads a JSON body and sends a
sized reply, and a server on 127.0.0.1 with a free port, run on a daemon thread.

Stdlib only. A stand-in subclasses :class:`QuietHandler` for its routes and :class:`Loopback` for
its state, naming its handler in ``handler``.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, ClassVar

from standin_script import new_id


class QuietHandler(BaseHTTPRequestHandler):
    """Logs nothing to stderr; ``request_id_header`` names the header each reply carries an id in."""

    protocol_version = "HTTP/1.1"
    request_id_header: ClassVar[str] = "request-id"
    server: LoopbackServer

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib signature
        pass

    def read_body(self) -> Any:
        """The request's body: parsed JSON, else its text (a test asserts on what was sent), else None."""
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            return json.loads(raw) if raw else None
        except ValueError:
            return raw.decode("utf-8", "replace")

    def kept_headers(self, names: tuple[str, ...]) -> dict[str, str]:
        return {k: v for k in names if (v := self.headers.get(k)) is not None}

    def _send(self, status: int, payload: bytes, content_type: str = "application/json") -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(payload)))
        self.send_header(self.request_id_header, new_id("req"))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(payload)


class LoopbackServer(ThreadingHTTPServer):
    daemon_threads = True
    standin: Any  # the Loopback subclass that started it: its handler reads its script and log


class Loopback:
    """The server on 127.0.0.1, a free port. Use as a context manager or start()/stop()."""

    handler: ClassVar[type[QuietHandler]]
    thread_name: ClassVar[str] = "standin"

    def __init__(self) -> None:
        self._server: LoopbackServer | None = None

    @property
    def port(self) -> int:
        if self._server is None:
            raise RuntimeError("stand-in not started")
        return self._server.server_address[1]

    def start(self) -> Any:
        self._server = LoopbackServer(("127.0.0.1", 0), self.handler)
        self._server.standin = self
        server = self._server
        # why: a short poll interval keeps stop() (and each test's teardown) well under 0.5 s.
        threading.Thread(target=lambda: server.serve_forever(poll_interval=0.05), name=self.thread_name,
                         daemon=True).start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> Any:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
