"""What ``lh ui`` answers about itself and to request lines a browser never sends, which any local user
can: the ``Server`` header names it without a trailing space; a request line without its HTTP version
(HTTP/0.9, ``GET /``), whose answer has no status line and no headers, is refused with a 400 that
carries the page's security headers, and spends no token; a request whose target names a server
(``GET http://evil.example/<secret>/``) other than the page's own address is a 400."""

import socket
from urllib.parse import urlsplit

from tests.ui.test_server import cookie, page, request


def raw(server, head: bytes) -> tuple[str, dict, str]:
    """The status line, headers and body of the answer to ``head`` (read to the end: the server closes)."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as s:
        s.sendall(head)
        got = b""
        while chunk := s.recv(65536):
            got += chunk
    top, _, body = got.decode("utf-8", "replace").partition("\r\n\r\n")
    status_line, *lines = top.split("\r\n")
    return status_line, dict(line.split(": ", 1) for line in lines if ": " in line), body


def signs_in(server) -> bool:
    url = urlsplit(server.url)
    status, headers, _ = request(server, "GET", f"{url.path}?{url.query}")
    return status == 200 and "Set-Cookie" in headers


def test_the_server_header_is_the_name_alone(server):
    status, headers, _ = request(server, "GET", page(server), cookie(server))
    assert status == 200 and headers["Server"] == "lh-ui", headers


def test_a_request_line_without_its_version_is_a_400_with_the_pages_headers_and_spends_no_token(server):
    """HTTP/0.9: the printed URL sent as ``GET <path>`` signed in and spent the token, its answer with
    neither the cookie nor any header; a client of HTTP/0.9 sends nothing after that line, so the
    answer comes at once, not after the head's deadline."""
    url = urlsplit(server.url)
    for head in (f"GET {url.path}?{url.query}\r\n", "GET /\r\n"):
        status_line, headers, body = raw(server, head.encode())
        assert status_line.startswith("HTTP/1.0 400 "), (head, status_line, body)
        assert "default-src 'none'" in headers["Content-Security-Policy"] and headers["X-Frame-Options"] == "DENY"
        assert headers["Content-Type"].startswith("text/plain") and "Set-Cookie" not in headers
        assert "HTTP/0.9" in body
    assert signs_in(server)


def test_a_request_line_the_library_refuses_before_its_version_carries_the_pages_headers(server):
    """A version that does not parse, or a line of one word: the library's own 400 and 505 were sent as
    HTTP/0.9, a bare body, without the security headers every other answer carries."""
    for head, code in ((b"GET / FOO\r\n\r\n", 400), (b"GET / HTTP/9.0\r\n\r\n", 505), (b"GET\r\n\r\n", 400)):
        status_line, headers, _ = raw(server, head)
        assert status_line.startswith(f"HTTP/1.0 {code} "), (head, status_line)
        assert "default-src 'none'" in headers["Content-Security-Policy"], head
        assert headers["Server"] == "lh-ui"


def test_a_target_naming_another_server_is_a_400_and_the_pages_own_address_is_served(server):
    url = urlsplit(server.url)
    host = f"127.0.0.1:{server.port}"
    for target in (f"http://evil.example{url.path}", f"http://evil.example:{server.port}{url.path}",
                   f"http://127.0.0.1:{server.port + 1}{url.path}", f"https://{host}{url.path}", f"http:{url.path}"):
        status, headers, body = request(server, "GET", target, cookie(server))
        assert status == 400 and "another server" in body, (target, status, body)
        assert "default-src 'none'" in headers["Content-Security-Policy"]
        status, headers, _ = request(server, "GET", f"{target}?{url.query}")
        assert status == 400 and "Set-Cookie" not in headers, target
        assert request(server, "POST", target + "action/forget", cookie(server), body="token=x")[0] == 400
    assert request(server, "GET", f"http://{host}{url.path}", cookie(server))[0] == 200
    assert request(server, "GET", f"http://localhost:{server.port}{url.path}", cookie(server))[0] == 200
    assert request(server, "GET", f"HTTP://LOCALHOST:{server.port}{url.path}", cookie(server))[0] == 200  # no case
    assert signs_in(server)  # no refused target spent the token
