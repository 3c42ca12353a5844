"""``lh ui`` as a person runs it: the installed script in a subprocess; the URL with its secret path
and token is the first line of stdout, the server answers only under that path and with the token,
the browser is given a private file that leads to the URL (never the URL itself: a command line is
readable by every user), and Ctrl-C stops it with exit 0 and removes the file."""

import http.client
import os
import re
import signal
import socket
import stat
import subprocess
from urllib.parse import parse_qs, urlsplit

from tests.cli.lhrun import invoke, lh_script
from tests.support import memory_samples as ms

URL = re.compile(r"^http://127\.0\.0\.1:(\d+)(/[A-Za-z0-9_-]{32,})/\?token=([A-Za-z0-9_-]{40,})$")


def get(port: int, path: str, headers=None) -> tuple[int, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", path, headers=headers or {})
        resp = conn.getresponse()
        return resp.status, dict(resp.getheaders())
    finally:
        conn.close()


def stop(proc) -> tuple[str, str]:
    """Ctrl-C, then what the process wrote."""
    proc.send_signal(signal.SIGINT)
    return proc.communicate(timeout=30)


def test_lh_ui_prints_its_url_first_enforces_the_token_and_stops_on_ctrl_c(tmp_path):
    root = ms.make_project(tmp_path, "proj")
    proc = subprocess.Popen([*lh_script(), "ui", "--no-open"], cwd=root, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=dict(os.environ))
    try:
        first = proc.stdout.readline().strip()  # flushed before the server waits: no sleep needed
        m = URL.match(first)
        assert m, first
        port, prefix, token = int(m.group(1)), m.group(2), m.group(3)
        assert get(port, "/")[0] == 404 and get(port, "/?token=" + token)[0] == 404  # outside the secret path
        assert get(port, prefix + "/")[0] == 401
        assert get(port, prefix + "/?token=" + token[::-1])[0] == 401
        status, headers = get(port, prefix + "/?token=" + token)
        assert status == 200 and f"Path={prefix};" in headers["Set-Cookie"]
        assert get(port, prefix + "/", {"Cookie": headers["Set-Cookie"].split(";")[0]})[0] == 200
        with socket.socket() as s:  # 127.0.0.1 only: not on the machine's other addresses
            assert s.connect_ex(("127.0.0.2", port)) != 0
        out, err = stop(proc)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err
    assert "Traceback" not in err and "lh ui: stopped" in err
    assert out == ""  # nothing after the URL


BROWSER = """#!/bin/sh
# a browser that notes what it was given: its arguments, and the file's mode, folder's mode and text
printf '%s\\n' "$@" > {record}/argv
file="${{1#file://}}"
stat -c %a "$file" > {record}/mode 2>/dev/null
stat -c %a "$(dirname "$file")" > {record}/folder-mode 2>/dev/null
cat "$file" > {record}/text 2>/dev/null
exit 0
"""


def test_the_browser_is_given_a_private_file_never_the_url_and_the_file_goes_with_the_server(tmp_path):
    """Any user of the machine reads a process's arguments (``ps``): the browser's must not hold the
    token or the secret path. It gets file://<a 0600 file in a 0700 folder of ours> that leads on."""
    root = ms.make_project(tmp_path, "proj")
    record = tmp_path / "record"
    record.mkdir()
    browser = tmp_path / "browser"
    browser.write_text(BROWSER.format(record=record))
    browser.chmod(0o755)
    proc = subprocess.Popen([*lh_script(), "ui"], cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env={**os.environ, "BROWSER": str(browser)})
    try:
        url = proc.stdout.readline().strip()
        token = parse_qs(urlsplit(url).query)["token"][0]
        assert proc.stderr.readline() == "lh ui: serving; Ctrl-C stops it\n"  # the browser ran and returned
        argv = (record / "argv").read_text().splitlines()
        assert len(argv) == 1 and argv[0].startswith("file:///"), argv
        assert token not in argv[0] and urlsplit(url).path not in argv[0]
        opened = argv[0].removeprefix("file://")
        assert (record / "mode").read_text().strip() == "600"
        assert (record / "folder-mode").read_text().strip() == "700"
        assert stat.S_IMODE(os.stat(opened).st_mode) == 0o600 and os.stat(opened).st_uid == os.getuid()
        text = (record / "text").read_text()
        assert f'<meta http-equiv="refresh" content="0; url={url}">' in text and f'href="{url}"' in text
        assert get(urlsplit(url).port, f"{urlsplit(url).path}?{urlsplit(url).query}")[0] == 200  # it serves
        out, err = stop(proc)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err
    assert not os.path.exists(opened) and not os.path.exists(os.path.dirname(opened))


def test_a_port_in_use_is_one_line_and_exit_1(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        out = invoke("ui", "--no-open", "--port", str(port))
    assert out.code == 1
    assert out.err.startswith(f"lh: cannot listen on 127.0.0.1:{port}:") and "hint: lh ui --port 0" in out.err
    assert out.out == ""
