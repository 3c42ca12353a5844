"""What ``lh ui`` answers a request whose target does not parse as a URL (``GET http://[x/``): any local
user can send one, without a secret. It is a 400, and the terminal running ``lh ui`` stays quiet:
before, each such request dropped the connection and printed a traceback there, so anyone on the
machine could flood the person's terminal and bury the URL it shows first."""

import os
import signal
import socket
import subprocess
from urllib.parse import urlsplit

from tests.cli.lhrun import lh_script
from tests.support import memory_samples as ms

TARGETS = ("http://[x/", "http://a]b/", "http://[zz]/", "http://[\x1b]0;owned\x07]/")


def answer(port: int, head: str) -> tuple[int, str]:
    """The status and body of the answer to ``head`` (read to the end: each connection carries one request)."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
        s.sendall(head.encode("latin-1"))
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    if not data:
        return 0, ""  # the connection was dropped without an answer
    status = int(data.split(b" ", 2)[1])
    return status, data.partition(b"\r\n\r\n")[2].decode("utf-8", "replace")


def test_a_request_target_that_does_not_parse_is_400_and_prints_nothing(tmp_path):
    root = ms.make_project(tmp_path, "proj")
    proc = subprocess.Popen([*lh_script(), "ui", "--no-open"], cwd=root, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=dict(os.environ))
    try:
        url = urlsplit(proc.stdout.readline().strip())
        host = f"127.0.0.1:{url.port}"
        for method in ("GET", "POST"):
            for target in TARGETS:
                status, body = answer(url.port, f"{method} {target} HTTP/1.1\r\nHost: {host}\r\n"
                                                "Content-Length: 0\r\n\r\n")
                assert status == 400, (method, target)
                assert body.count("\n") == 1 and "\x1b" not in body
        # the person's own URL still signs in
        status, _ = answer(url.port, f"GET {url.path}?{url.query} HTTP/1.1\r\nHost: {host}\r\n\r\n")
        assert status == 200
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0
    assert "Traceback" not in err and "Exception occurred" not in err, err
