"""The local server of ``lh ui``: the standard library's ThreadingHTTPServer on 127.0.0.1 (ADR 0023).

Who may look: the person who started it. The URL printed holds a random token; the first request
carrying it gets the token as a cookie (HttpOnly, SameSite=Strict) and is sent on to the same URL
without it. Every request without the token, by query or cookie, gets 401; one whose Host header is
not this server's address gets 403 (another site's name pointed at 127.0.0.1, DNS rebinding). An
action is a POST whose form holds the token (the page puts it there; another site cannot read it)
and whose Origin, when sent, is this server; a cross-site form therefore gets 403 too.
Tokens are compared with ``hmac.compare_digest``.
"""

from __future__ import annotations

import hmac
import re
import secrets
import threading
import time
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from urllib.parse import parse_qs, urlencode, urlsplit

from lazy_harness import config
from lazy_harness.errors import LhError
from lazy_harness.ui import actions, reading, sections

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

HOST = "127.0.0.1"
MAX_BODY = 64 * 1024
NOTES_KEPT = 50
_ASSET = re.compile(r"^[a-z0-9_-]+\.(css|js|png|svg)$")
_TYPES = {"css": "text/css; charset=utf-8", "js": "text/javascript; charset=utf-8", "png": "image/png",
          "svg": "image/svg+xml"}
SECURITY_HEADERS = {
    "Content-Security-Policy": ("default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; "
                                "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",  # why: "no-referrer" makes a browser send Origin: null with a form
    "Cache-Control": "no-store",
    "X-Frame-Options": "DENY",
}


class UiServer(ThreadingHTTPServer):
    """One page over the memory; ``url`` (with the token) is what the person opens."""

    daemon_threads = True

    def __init__(self, port: int, cwd: str, env: Mapping[str, str] | None, token: str | None = None) -> None:
        try:
            super().__init__((HOST, port), Handler)
        except OSError as exc:
            raise LhError(f"cannot listen on {HOST}:{port}: {exc.strerror or exc}",
                          hint="lh ui --port 0 (any free port)") from None
        self.port = self.server_address[1]
        self.token = token or secrets.token_urlsafe(32)
        self.cwd, self.env = cwd, env
        self.cookie = f"lh_ui_{self.port}"
        self.hosts = {f"{HOST}:{self.port}", f"localhost:{self.port}"}
        self.origins = {f"http://{h}" for h in self.hosts}
        self.notes: dict[str, list[str]] = {}
        self.changing = threading.Lock()  # one action at a time: they write the memory files

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}/?token={self.token}"

    def valid(self, token: str | None) -> bool:
        if not token:
            return False
        return hmac.compare_digest(token.encode("utf-8", "replace"), self.token.encode())

    def keep_note(self, text: str) -> str:
        key = secrets.token_hex(8)
        self.notes[key] = [text]
        while len(self.notes) > NOTES_KEPT:
            self.notes.pop(next(iter(self.notes)))
        return key


class Handler(BaseHTTPRequestHandler):
    server: UiServer
    server_version = "lh-ui"
    sys_version = ""

    def log_message(self, format: str, *args: object) -> None:
        pass  # why: stdout's first line is the URL; a line per request would bury it

    # --- answers ---

    def _send(self, status: int, body: bytes, ctype: str = "text/plain; charset=utf-8",
              extra: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        for key, value in {**SECURITY_HEADERS, **(extra or {})}.items():
            self.send_header(key, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _refuse(self, status: int, why: str) -> None:
        self._send(status, f"{status} {HTTPStatus(status).phrase}: {why}\n".encode())

    def _redirect(self, location: str, extra: dict | None = None) -> None:
        self._send(HTTPStatus.SEE_OTHER, b"", extra={"Location": location, **(extra or {})})

    # --- checks ---

    def _host_ok(self) -> bool:
        if self.headers.get("Host", "") in self.server.hosts:
            return True
        self._refuse(403, "this server answers only to its own address (Host header)")
        return False

    def _cookie_token(self) -> str | None:
        for part in self.headers.get("Cookie", "").split(";"):
            name, _, value = part.strip().partition("=")
            if name == self.server.cookie:
                return value
        return None

    # --- methods ---

    def do_GET(self) -> None:
        if not self._host_ok():
            return
        url = urlsplit(self.path)
        query = parse_qs(url.query)
        given = query["token"][0] if query.get("token") else None
        if given is not None and self.server.valid(given):
            rest = urlencode([(k, v) for k, vs in query.items() if k != "token" for v in vs])
            cookie = f"{self.server.cookie}={self.server.token}; Path=/; HttpOnly; SameSite=Strict"
            self._redirect(url.path + ("?" + rest if rest else ""), {"Set-Cookie": cookie})
            return
        if not self.server.valid(self._cookie_token()):
            self._refuse(401, "open the URL lh ui printed (it holds the access token)")
            return
        if url.path == "/":
            self._page(query)
        elif url.path.startswith("/static/"):
            self._asset(url.path[len("/static/"):])
        else:
            self._refuse(404, "no such page")

    def do_POST(self) -> None:
        if not self._host_ok():
            return
        origin = self.headers.get("Origin")
        if origin is not None and origin not in self.server.origins:
            self._refuse(403, "a page of another site cannot change the memory (Origin header)")
            return
        try:
            size = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            size = -1
        if not 0 <= size <= MAX_BODY:
            self._refuse(413, f"a form of at most {MAX_BODY} bytes")
            return
        form = {k: v[0] for k, v in parse_qs(self.rfile.read(size).decode("utf-8", "replace")).items()}
        if not self.server.valid(form.get("token")):
            self._refuse(403, "the form does not hold the access token")
            return
        name = urlsplit(self.path).path.removeprefix("/action/")
        act = actions.ACTIONS.get(name)
        if act is None:
            self._refuse(404, f"no action {name!r}")
            return
        cfg = config.load_fast(self.server.env)
        project = next((p for p in reading.projects(self.server.cwd, cfg, self.server.env)
                        if p.key == form.get("project")), None)
        if project is None:  # why: never the current project by default: the id was another's
            self._refuse(404, f"no project {form.get('project')!r}")
            return
        try:
            with self.server.changing:
                said = act(project, form, cfg, time.time())
                actions.index_after(project, self.server.env)
        except LhError as exc:
            said = f"lh: {exc}"
        note = self.server.keep_note(said)
        self._redirect("/?" + urlencode({"project": project.key, "note": note}))

    # --- pages ---

    def _page(self, query: dict) -> None:
        cfg = config.load_fast(self.server.env)
        projects = reading.projects(self.server.cwd, cfg, self.server.env)
        project = sections.project_of(projects, (query.get("project") or [None])[0])
        notes = self.server.notes.get((query.get("note") or [""])[0], [])
        view = sections.View(project, projects, cfg, self.server.env, time.time(), self.server.token,
                             self.server.cwd, (query.get("q") or [None])[0], (query.get("all") or [""])[0] == "1",
                             notes)
        self._send(200, sections.page(view).encode("utf-8"), "text/html; charset=utf-8")

    def _asset(self, name: str) -> None:
        if not _ASSET.match(name):
            self._refuse(404, "no such file")
            return
        try:
            data = (resources.files("lazy_harness.ui") / "static" / name).read_bytes()
        except (OSError, FileNotFoundError):
            self._refuse(404, "no such file")
            return
        self._send(200, data, _TYPES[name.rsplit(".", 1)[1]])
