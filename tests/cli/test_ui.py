"""``lh ui`` as a person runs it: the installed script in a subprocess; the URL with its token is the
first line of stdout, the server answers only with the token, and Ctrl-C stops it with exit 0."""

import http.client
import os
import re
import signal
import socket
import subprocess

from tests.cli.lhrun import invoke, lh_script
from tests.support import memory_samples as ms

URL = re.compile(r"^http://127\.0\.0\.1:(\d+)/\?token=([A-Za-z0-9_-]{40,})$")


def get(port: int, path: str, headers=None) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", path, headers=headers or {})
        return conn.getresponse().status
    finally:
        conn.close()


def test_lh_ui_prints_its_url_first_enforces_the_token_and_stops_on_ctrl_c(tmp_path):
    root = ms.make_project(tmp_path, "proj")
    proc = subprocess.Popen([*lh_script(), "ui", "--no-open"], cwd=root, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=dict(os.environ))
    try:
        first = proc.stdout.readline().strip()  # flushed before the server waits: no sleep needed
        m = URL.match(first)
        assert m, first
        port, token = int(m.group(1)), m.group(2)
        assert get(port, "/") == 401
        assert get(port, "/?token=" + token[::-1]) == 401
        assert get(port, "/?token=" + token) == 303
        assert get(port, "/", {"Cookie": f"lh_ui_{port}={token}"}) == 200
        with socket.socket() as s:  # 127.0.0.1 only: not on the machine's other addresses
            assert s.connect_ex(("127.0.0.2", port)) != 0
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err
    assert "Traceback" not in err and "lh ui: stopped" in err
    assert out == ""  # nothing after the URL


def test_a_port_in_use_is_one_line_and_exit_1(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        out = invoke("ui", "--no-open", "--port", str(port))
    assert out.code == 1
    assert out.err.startswith(f"lh: cannot listen on 127.0.0.1:{port}:") and "hint: lh ui --port 0" in out.err
    assert out.out == ""
