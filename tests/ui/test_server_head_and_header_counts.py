"""What ``lh ui`` answers to requests a browser does not send but any local program can: two Host
headers are a 400 whichever comes first (one reader takes the first, another the last); a Content-Length
that is not one number of bytes (``abc``, ``-1``, ``1e3``, two of them) is a 400, not the 413 of a form too
large; and a HEAD is answered as its GET without a body, changing nothing: the printed URL's token is
not spent and sets no cookie, and the file that opened the browser stays."""

import os
from urllib.parse import urlencode, urlsplit

from tests.ui.test_server import cookie, log_in, page, request, server_key
from tests.ui.test_server_request_line import raw


def _head(*lines: str) -> bytes:
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def test_two_host_headers_are_a_400_whichever_comes_first(server):
    ours, jar = f"127.0.0.1:{server.port}", f"Cookie: {server.cookie}={server.session}"
    target = f"GET {page(server)} HTTP/1.1"
    for hosts in ((ours, "evil.example"), ("evil.example", ours), (ours, ours), (ours, f"localhost:{server.port}")):
        status_line, headers, body = raw(server, _head(target, *(f"Host: {h}" for h in hosts), jar))
        assert status_line.startswith("HTTP/1.0 400 "), (hosts, status_line)
        assert "Host header" in body and "Keep the recall index" not in body
        assert "default-src 'none'" in headers["Content-Security-Policy"]
    status_line, _, body = raw(server, _head(target, f"Host: {ours}", jar))
    assert status_line.startswith("HTTP/1.0 200 ") and "Keep the recall index" in body  # one Host: the page


def test_a_content_length_that_is_no_number_of_bytes_is_a_400_not_a_413(server, seeded):
    form = urlencode({"project": server_key(server, seeded), "id": seeded.sqlite, "token": server.form_token})
    ours, jar = f"Host: 127.0.0.1:{server.port}", f"Cookie: {server.cookie}={server.session}"
    target = f"POST {page(server, '/action/forget')} HTTP/1.1"
    for lengths in (["abc"], ["-1"], ["0x10"], ["1e3"], ["+5"], ["1_0"], ["٣"], [""], ["5", "7"]):
        status_line, _, body = raw(server, _head(target, ours, jar, *(f"Content-Length: {n}" for n in lengths)))
        assert status_line.startswith("HTTP/1.0 400 "), (lengths, status_line, body)
        assert "Content-Length" in body, body
    status_line, _, body = raw(server, _head(target, ours, jar, "Content-Length: 70000"))
    assert status_line.startswith("HTTP/1.0 413 ") and "at most 65536 bytes" in body  # too large: still 413
    status, headers, _ = request(server, "POST", page(server, "/action/forget"), cookie(server), body=form)
    assert status == 303 and "note=" in headers["Location"]  # a right one is served


def test_head_is_answered_as_get_without_a_body(server):
    for path in ("/", "/static/ui.css", "/nowhere"):
        got, head = (request(server, method, page(server, path), cookie(server)) for method in ("GET", "HEAD"))
        assert head[0] == got[0] and head[2] == "", (path, got[0], head)
        assert head[1]["Content-Type"] == got[1]["Content-Type"]
        assert head[1]["Content-Security-Policy"] == got[1]["Content-Security-Policy"]
    css = request(server, "HEAD", page(server, "/static/ui.css"), cookie(server))[1]
    assert int(css["Content-Length"]) == len(request(server, "GET", page(server, "/static/ui.css"), cookie(server))[2])
    assert request(server, "HEAD", page(server))[0] == 401  # no cookie: as GET


def test_head_of_the_printed_url_spends_no_token_and_leaves_the_opener(server, tmp_path):
    """A link preview or a checker may ask HEAD of the URL before the person's browser opens it: the
    browser must still sign in with it, and the file that opened it stays until then."""
    folder = tmp_path / "ui-opener"
    folder.mkdir()
    opener = folder / "open.html"
    opener.write_text("<!doctype html>")
    server.opener = str(opener)
    url = urlsplit(server.url)
    for _ in range(2):
        status, headers, body = request(server, "HEAD", f"{url.path}?{url.query}")
        assert status == 200 and "Set-Cookie" not in headers and body == "", (status, headers)
    assert os.path.exists(opener)
    pair, _ = log_in(server)  # the person's browser: signed in, the opener removed
    assert not os.path.exists(opener)
    status, headers, _ = request(server, "HEAD", f"{url.path}?{url.query}")
    assert status == 403 and "Set-Cookie" not in headers  # spent, without the cookie: as GET says
    assert request(server, "HEAD", f"{url.path}?{url.query}", {"Cookie": pair})[0] == 200
