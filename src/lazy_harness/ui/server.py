"""The local server of ``lh ui``: the standard library's ThreadingHTTPServer on 127.0.0.1 (ADR 0023).

Who may look: the person who started it. Four random secrets, each made at start:

- the *prefix*, a secret first path segment: the whole page (links, forms, assets, redirects) lives
  under it, and every other path is 404, without a page or a cookie. The cookie is scoped to it
  (``Path=<prefix>``): browsers do not keep cookies apart by port, so a cookie of ``Path=/`` would go
  to every other server on 127.0.0.1 (a dev server, a notebook, another user's service);
- the *token* in the printed URL, good for one sign-in: the first request carrying it gets the
  session cookie (HttpOnly, SameSite=Strict) and a page that moves the browser on to the same URL
  without it. Then it is spent: a request with it and that cookie (the browser's reload, another of
  its tabs) is moved on without a new cookie; one without the cookie (whoever read the URL later in
  shell history, a screen share, a browser's history) gets 403, no cookie, a word to run ``lh ui``
  again, and a link to the page without the token (the signed-in browser, come without its cookie);
- the *session*, that cookie's value: every request under the prefix without it gets 401;
- the *form token*, which only the page carries, in each of its forms: an action is a POST under the
  prefix with the session cookie, the form token in its form (else 403) and an Origin, when sent, of
  this server (else 403). A cookie that leaked alone changes nothing.

A request whose Host header is not this server's address gets 403 (another site's name pointed at
127.0.0.1, DNS rebinding), one with two Host headers 400. Secrets are compared with ``hmac.compare_digest``.
A HEAD is answered as its GET without a body, and changes nothing (it never signs in).

Who may hold it up: nobody (ui/connections.py).
"""

from __future__ import annotations

import errno
import hmac
import html
import re
import secrets
import socket
import sys
import threading
import time
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any
from urllib.parse import SplitResult, parse_qs, urlencode, urlsplit

from lazy_harness import config, detach, private
from lazy_harness.errors import LhError
from lazy_harness.ui import actions, reading, sections
from lazy_harness.ui.connections import HEAD_TIMEOUT, Connections, cap

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

HOST = "127.0.0.1"
MAX_BODY = 64 * 1024
NOTES_KEPT = 50
ANSWER_TIMEOUT = 30.0  # seconds each read or write may take once the head is in (a form's body, the page)
ACCEPT_PAUSES = (0.01, 0.25)  # out of file descriptors: the first pause before accept again, the longest
_OUT_OF = {errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM}
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
    request_queue_size = 64  # why: a burst (a page's assets, a browser's preconnects) waits, not refused

    def __init__(self, port: int, cwd: str, env: Mapping[str, str] | None, token: str | None = None) -> None:
        refused = private.refusal(env)
        if refused is not None:  # why: never a page over memory or an index another user can write (ADR 0031)
            raise LhError(refused[0], hint=refused[1])
        try:
            super().__init__((HOST, port), Handler)
        except OSError as exc:
            raise LhError(f"cannot listen on {HOST}:{port}: {exc.strerror or exc}",
                          hint="lh ui --port 0 (any free port)") from None
        self.port = self.server_address[1]
        self.prefix = "/" + secrets.token_urlsafe(32)
        self.token = token or secrets.token_urlsafe(32)
        self.session = secrets.token_urlsafe(32)
        self.form_token = secrets.token_urlsafe(32)
        self.token_spent = False  # why: one sign-in per URL; anyone who reads it later gets no cookie
        self.spending = threading.Lock()
        self.cwd, self.env = cwd, env
        self.cookie = f"lh_ui_{self.port}"
        self.hosts = {f"{HOST}:{self.port}", f"localhost:{self.port}"}
        self.origins = {f"http://{h}" for h in self.hosts}
        self.notes: dict[str, list[str]] = {}
        self.noting = threading.Lock()  # why: the threads answering forms keep and drop notes at once
        self.changing = threading.Lock()  # one action at a time: they write the memory files
        self.opener: str | None = None  # the file that led the browser here (ui/launch.py), until signed in
        self.connections = Connections(cap())
        self.pause = 0.0  # the current pause before accept again, while out of file descriptors

    # --- connections (who may hold the server up: nobody) ---

    def get_request(self) -> tuple[socket.socket, object]:
        try:
            got = super().get_request()
        except OSError as exc:
            if exc.errno in _OUT_OF:
                # why: the connection stays in the listen queue, so the loop would try again at once and
                # spin a core; a connection waiting for its head gives its descriptor back, and a pause
                # (doubled up to the longest while it lasts) lets handlers finish
                self.connections.drop_oldest()
                self.pause = min(ACCEPT_PAUSES[1], self.pause * 2 or ACCEPT_PAUSES[0])
                time.sleep(self.pause)
            raise
        self.pause = 0.0
        return got

    def process_request(self, request: Any, client_address: Any) -> None:  # why Any: socketserver's own types
        if not self.connections.admit(request, time.monotonic()):
            self.shutdown_request(request)  # why: closed at once, not queued behind the busy ones
            return
        super().process_request(request, client_address)

    def shutdown_request(self, request: Any) -> None:
        self.connections.done(request)
        super().shutdown_request(request)

    def service_actions(self) -> None:
        self.connections.expire(time.monotonic())  # why: a head sent a byte at a time has a deadline too
        detach.reap_started()  # why: the sync a forget starts, the worker: each ended one is reaped here

    def handle_error(self, request: Any, client_address: Any) -> None:
        if isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            return  # why: a client that went away or never spoke is no news: no traceback on the terminal
        super().handle_error(request, client_address)

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}{self.prefix}/?token={self.token}"

    def under_prefix(self, path: str) -> str | None:
        """The rest of ``path`` under the secret prefix (``/`` for the prefix itself), or None."""
        first, _, rest = path.removeprefix("/").partition("/")
        return "/" + rest if same(first, self.prefix[1:]) else None

    def valid(self, token: str | None) -> bool:
        return same(token, self.token)

    def spend_token(self) -> bool:
        """Whether the token is still good for its one sign-in; it is spent from now on. why a lock:
        two requests bringing it at once, only one gets the cookie."""
        with self.spending:
            fresh, self.token_spent = not self.token_spent, True
            return fresh

    def keep_note(self, text: str) -> str:
        key = secrets.token_hex(8)
        with self.noting:
            self.notes[key] = [text]
            while len(self.notes) > NOTES_KEPT:
                self.notes.pop(next(iter(self.notes)))
        return key


def same(given: str | None, secret: str) -> bool:
    """Whether ``given`` is ``secret``, in a time that does not tell how much of it matched."""
    if not given:
        return False
    return hmac.compare_digest(given.encode("utf-8", "replace"), secret.encode())


class Handler(BaseHTTPRequestHandler):
    server: UiServer
    target: SplitResult  # the request's target, parsed (``_where``)
    raw_requestline: bytes  # the request line as read (the library's, undeclared in its types)
    server_version = "lh-ui"
    # why: a request line refused before its version is read (``GET / FOO``) was answered as HTTP/0.9,
    # a bare body without a status line or the page's headers
    default_request_version = "HTTP/1.0"
    timeout = HEAD_TIMEOUT  # each read until the head is in; the whole head's deadline is Connections'

    def version_string(self) -> str:
        return self.server_version  # why: the library's "name version" left "lh-ui " with no version

    def parse_request(self) -> bool:
        # why: HTTP/0.9 (``GET /``, two words as the library splits them): an answer without headers
        if len(str(self.raw_requestline, "iso-8859-1").split()) == 2:
            return self._no_http_09()
        ok = super().parse_request()
        self.server.connections.heard(self.request)
        self.connection.settimeout(ANSWER_TIMEOUT)
        return ok

    def _no_http_09(self) -> bool:
        """A 400, with a status line and the page's headers, to a request line without its HTTP version,
        at once (its client sends no headers to wait for). why: HTTP/0.9's answer is the body alone,
        without the security headers, and the printed URL sent so spent the token without a cookie."""
        self.command, self.request_version = "", "HTTP/1.0"
        self.requestline = str(self.raw_requestline, "iso-8859-1").rstrip("\r\n")
        self.send_error(400, "a request line without its HTTP version (HTTP/0.9) is not answered")
        return False

    def log_message(self, format: str, *args: object) -> None:
        pass  # why: stdout's first line is the URL; a line per request would bury it

    # --- answers ---

    def _send(self, status: int, body: bytes | None, ctype: str = "text/plain; charset=utf-8",
              extra: dict[str, str] | None = None) -> None:
        """An answer; a HEAD gets its status and headers alone. ``body`` None: a HEAD of the page, which
        is not made (:meth:`do_HEAD`), so no Content-Length (RFC 9110 8.6: only the length a GET would send)."""
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        if body is not None:
            self.send_header("Content-Length", str(len(body)))
        for key, value in {**SECURITY_HEADERS, **(extra or {})}.items():
            self.send_header(key, value)
        self.end_headers()
        if self.command != "HEAD" and body:
            self.wfile.write(body)

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """The HTTP library's own answers (an unsupported method, a request line or a header too long to
        read) as plain text with the page's headers, not its HTML page without them; the connection closes."""
        self.close_connection = True
        try:
            phrase = HTTPStatus(code).phrase
        except ValueError:
            phrase = "Error"
        self._send(code, f"{code} {phrase}: {message or phrase}\n".encode(), extra={"Connection": "close"})

    def _refuse(self, status: int, why: str) -> None:
        self._send(status, f"{status} {HTTPStatus(status).phrase}: {why}\n".encode())

    def _folders_ours(self) -> bool:
        """Whether every folder of ours is still the person's own (ADR 0031); else a 503 saying which
        and what to run. why: a folder can change hands while the page is open, and the page reads
        the memory and an action writes it and the index."""
        refused = private.refusal(self.server.env)
        if refused is None:
            return True
        self._refuse(503, f"lh: {LhError(refused[0], hint=refused[1])}")
        return False

    def _sign_in(self, location: str) -> None:
        """The answer to the printed URL, the first time: the session cookie, and a page that goes on to
        ``location`` (the same address without the token)."""
        # why: Path is the secret prefix, so the browser sends the cookie to no other server on
        # 127.0.0.1 (cookies are not kept apart by port), only to URLs under the prefix
        cookie = (f"{self.server.cookie}={self.server.session}; Path={self.server.prefix}; HttpOnly; "
                  "SameSite=Strict")
        self._drop_opener()
        self._move_on(location, {"Set-Cookie": cookie})

    def _move_on(self, location: str, extra: dict[str, str] | None = None) -> None:
        """A page that sends the browser on to ``location``. why a page, not a redirect: `lh ui` opens
        the URL from a file:// page, and a browser sends no SameSite=Strict cookie along a redirect
        that another site (a file) started; a navigation this page starts is same-site, and carries it."""
        link = html.escape(location, quote=True)
        body = (f'<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" '
                f'content="0; url={link}"><title>lh ui</title></head><body><p><a href="{link}">Open the page'
                f'</a></p></body></html>')
        self._send(200, body.encode(), "text/html; charset=utf-8", extra)

    def _token_spent(self, location: str) -> None:
        """403 to the token once spent, without the cookie: no cookie, what to do, and a link to the page
        for the browser that signed in and came back without its cookie (SameSite=Strict: a navigation a
        file:// page started carries none; one from this page does). Anyone else's link gives 401."""
        link = html.escape(location, quote=True)
        body = ('<!doctype html><html lang="en"><head><meta charset="utf-8"><title>lh ui</title></head><body>'
                '<p>403 Forbidden: this URL signed in a browser already, and signs in only once: run '
                f'<code>lh ui</code> again for a new one.</p><p>This browser signed in? <a href="{link}">'
                'Open the page</a></p></body></html>')
        self._send(403, body.encode(), "text/html; charset=utf-8")

    def _drop_opener(self) -> None:
        """The file that gave the browser the URL has done its work once the token signed in: removed
        now, not left holding the URL on disk while the page serves (again at stop: nothing to do)."""
        from lazy_harness.ui import launch

        opener, self.server.opener = self.server.opener, None
        if opener is not None:
            launch.remove(opener)

    def _redirect(self, location: str, extra: dict | None = None) -> None:
        self._send(HTTPStatus.SEE_OTHER, b"", extra={"Location": location, **(extra or {})})

    # --- checks ---

    def _where(self) -> str | None:
        """The request's path under the secret prefix, or None once refused (its Host, a target that
        does not parse or names another server, or a path outside the prefix: 404, as if nothing were
        served here). Keeps the target's parts in ``self.target``."""
        if len(self.headers.get_all("Host") or ()) > 1:
            # why: RFC 9112 3.2; one reader takes the first Host, a proxy or a check the last
            self._refuse(400, "a request with more than one Host header is not answered")
            return None
        if self.headers.get("Host", "").lower() not in self.server.hosts:  # why lower: a host name has no case
            self._refuse(403, "this server answers only to its own address (Host header)")
            return None
        try:
            self.target = urlsplit(self.path)
        except ValueError:  # why: ``GET http://[x/`` raised in the handler: a traceback on the terminal per request
            self._refuse(400, "the request's target is not a URL")
            return None
        if (self.target.scheme or self.target.netloc) and not (
                self.target.scheme == "http" and self.target.netloc.lower() in self.server.hosts):
            # why: a target of the absolute form names the server it is for; the Host check alone let
            # ``GET http://evil.example/<secret>/`` in
            self._refuse(400, "the request's target names another server than this one")
            return None
        rest = self.server.under_prefix(self.target.path)
        if rest is None:
            self._refuse(404, "no such page")
        return rest

    def _has_cookie(self) -> bool:
        for part in self.headers.get("Cookie", "").split(";"):
            name, _, value = part.strip().partition("=")
            if name == self.server.cookie and same(value, self.server.session):
                return True
        return False

    def _signed_in(self) -> bool:
        if self._has_cookie():
            return True
        self._refuse(401, "open the URL lh ui printed (it holds the access token)")
        return False

    # --- methods ---

    def do_GET(self) -> None:
        rest = self._where()
        if rest is None:
            return
        query = parse_qs(self.target.query)
        given = query["token"][0] if query.get("token") else None
        if given is not None and self.server.valid(given):
            self._with_token(rest, query)
            return
        if not self._signed_in():
            return
        if rest == "/":
            if not self._folders_ours():
                return
            if self.command == "HEAD":  # why not made: making it settles writers' intents, fills caches
                self._send(200, None, "text/html; charset=utf-8")
            else:
                self._safely(self._page, query)
        elif rest.startswith("/static/"):
            self._asset(rest[len("/static/"):])
        else:
            self._refuse(404, "no such page")

    def do_HEAD(self) -> None:
        """GET's status and headers, without a body, and nothing changed: the printed URL's token is not
        spent and sets no cookie (a link preview or a checker asks HEAD first; the person's browser then
        signs in), the file that opened the browser stays, and the page is not made (its answer has no
        Content-Length). why answered, not 501: GET of the same URL is 200."""
        self.do_GET()

    def _with_token(self, rest: str, query: dict[str, list[str]]) -> None:
        """The answer to a request bringing the printed URL's token: a sign-in the first time, a page that
        moves on to ``rest`` without it for the browser that signed in, else 403. A HEAD only says which."""
        kept = urlencode([(k, v) for k, vs in query.items() if k != "token" for v in vs])
        location = self.server.prefix + rest + ("?" + kept if kept else "")
        if self._has_cookie():  # why first: the signed-in browser's reload is moved on, not refused
            self._move_on(location)
        elif self.command == "HEAD":  # why: a HEAD never spends the token (do_HEAD)
            (self._token_spent if self.server.token_spent else self._move_on)(location)
        elif self.server.spend_token():
            self._sign_in(location)
        else:
            self._token_spent(location)

    def do_POST(self) -> None:
        rest = self._where()
        if rest is None:
            return
        origin = self.headers.get("Origin")
        if origin is not None and origin.lower() not in self.server.origins:
            self._refuse(403, "a page of another site cannot change the memory (Origin header)")
            return
        if not self._signed_in():
            return
        size = self._body_size()
        if size is None:
            return
        form = {k: v[0] for k, v in parse_qs(self.rfile.read(size).decode("utf-8", "replace")).items()}
        # why: the form token, not the cookie's value: a cookie that reached another server alone
        # must not change the memory; only the page itself carries this token
        if not same(form.get("token"), self.server.form_token):
            self._refuse(403, "the form does not hold the page's form token")
            return
        if self._folders_ours():
            self._safely(self._act, rest.removeprefix("/action/"), form)

    def _body_size(self) -> int | None:
        """The size of the form the Content-Length header gives (0 without one), or None once refused:
        400 when it is not one number of digits (``-1``, ``abc``, ``1e3``, two headers), 413 past MAX_BODY."""
        given = self.headers.get_all("Content-Length") or ["0"]
        value = given[0].strip()
        if len(given) > 1 or not (value.isascii() and value.isdigit()):  # why isascii: "²" is a digit to isdigit
            self._refuse(400, "the Content-Length header is not one number of bytes")
            return None
        if int(value) > MAX_BODY:
            self._refuse(413, f"a form of at most {MAX_BODY} bytes")
            return None
        return int(value)

    def _safely(self, answer: Callable[..., None], *args: object) -> None:
        """``answer(*args)``; anything it raises is a 500 naming it, its traceback on the terminal that
        runs lh ui. why: raised in a handler, it dropped the connection: the browser showed an empty
        page and said nothing (a synced file of an unexpected shape did it)."""
        try:
            answer(*args)
        except (ConnectionError, TimeoutError):
            raise  # why: the browser went away mid-answer: nobody to show a 500 to (UiServer.handle_error)
        except Exception as exc:
            import traceback

            traceback.print_exc()
            self._refuse(500, f"{type(exc).__name__}: {exc} (the terminal running lh ui has the details)")

    def _act(self, name: str, form: dict[str, str]) -> None:
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
        project.folder = reading.folder_of(project, self.server.env)  # what the undo it offers names
        try:
            with self.server.changing:
                said = act(project, form, cfg, time.time())
                if unindexed := actions.index_after(project, self.server.env):
                    said = f"{said}; {unindexed}"
        except LhError as exc:
            said = f"lh: {exc}"
        self._redirect(self._back(project.key, form, self.server.keep_note(said)))

    def _back(self, key: str, form: dict[str, str], note: str) -> str:
        """Where an action sends the browser: the page it was sent from as it was, with the note of what
        was done. The view comes from the form (the page writes it into each action form: ``View.act``),
        only what the page reads of it: every entry (``all=1``), the search (``q``), and the section the
        button was in, one of the page's; each value escaped. why the form, not the Referer: a browser
        may send none (``Referrer-Policy``), and a form is the page's own word."""
        view = [("project", key)]
        if form.get("all") == "1":
            view.append(("all", "1"))
        if form.get("q"):
            view.append(("q", form["q"]))
        view.append(("note", note))
        anchor = form.get("section")
        at = f"#{anchor}" if anchor in sections.ANCHORS else ""
        return f"{self.server.prefix}/?{urlencode(view)}{at}"

    # --- pages ---

    def _page(self, query: dict) -> None:
        cfg = config.load_fast(self.server.env)
        projects = reading.projects(self.server.cwd, cfg, self.server.env)
        project = sections.project_of(projects, (query.get("project") or [None])[0])
        notes = self.server.notes.get((query.get("note") or [""])[0], [])
        view = sections.View(project, projects, cfg, self.server.env, time.time(), self.server.form_token,
                             self.server.cwd, self.server.prefix, (query.get("q") or [None])[0],
                             (query.get("all") or [""])[0] == "1", notes)
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
