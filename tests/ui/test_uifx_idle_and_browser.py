"""``lh ui`` against clients that hold connections and send nothing (any local user can open them,
without the token), and with a browser that runs until the person quits it (a console browser over
SSH): the owner's page still answers, idle connections go at the head deadline, a client that goes
away leaves no traceback, accept errors (out of file descriptors) do not spin, and the page serves
while the browser runs."""

import http.client
import os
import re
import resource
import signal
import socket
import struct
import subprocess
import sys
import textwrap
import time
from urllib.parse import urlsplit

from lazy_harness import paths
from lazy_harness.ui import server as ui_server
from tests.cli.lhrun import lh_script
from tests.support import memory_samples as ms

LIMIT = 128  # the open files `lh ui` may hold in these tests (RLIMIT_NOFILE, soft and hard)
ATTACKERS = 400  # idle connections: more than the server could hold open at once


def get(port: int, path: str, headers=None, timeout: float = 10.0) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", path, headers=headers or {})
        resp = conn.getresponse()
        resp.read()
        return resp.status
    finally:
        conn.close()


def start(tmp_path, limit: int | None = None, env=None, args=("--no-open",)) -> subprocess.Popen:
    root = ms.make_project(tmp_path, "proj")

    def lower() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))

    return subprocess.Popen([*lh_script(), "ui", *args], cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env or dict(os.environ), preexec_fn=lower if limit else None)


def sign_in(proc: subprocess.Popen) -> tuple[int, str, dict]:
    """The port, the secret prefix and the session cookie, as the browser gets them from the URL."""
    url = urlsplit(proc.stdout.readline().strip())
    conn = http.client.HTTPConnection("127.0.0.1", url.port, timeout=10)
    try:
        conn.request("GET", f"{url.path}?{url.query}")
        resp = conn.getresponse()
        resp.read()
        assert resp.status == 200
        cookie = resp.getheader("Set-Cookie").split(";")[0]
    finally:
        conn.close()
    return url.port, url.path.rstrip("/"), {"Cookie": cookie}


def threads(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/task"))


def open_files(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def dropped(held: list[socket.socket]) -> int:
    """How many of ``held`` the server has closed (readable: the end of the stream)."""
    import selectors

    with selectors.DefaultSelector() as sel:
        for s in held:
            sel.register(s, selectors.EVENT_READ)
        return len(sel.select(0))


def until(condition, seconds: float) -> bool:
    """Whether ``condition()`` came true before ``seconds`` passed (polled: the event is another process's)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def stop(proc: subprocess.Popen) -> tuple[str, str]:
    proc.send_signal(signal.SIGINT)
    return proc.communicate(timeout=30)


def idle_connections(port: int, count: int) -> list[socket.socket]:
    """Up to ``count`` connections that never send a request, one after the other as fast as the
    server takes them; stops at the first the server does not take (its listen queue stays full)."""
    held = []
    for _ in range(count):
        try:
            held.append(socket.create_connection(("127.0.0.1", port), timeout=3))
        except OSError:
            break
    return held


def test_idle_connections_past_the_open_files_limit_do_not_stop_the_owners_page(tmp_path):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    assert soft > ATTACKERS + 64, "the test needs room for the attacker's sockets"
    proc = start(tmp_path, LIMIT)
    held: list[socket.socket] = []
    try:
        port, prefix, cookie = sign_in(proc)
        calm = threads(proc.pid)
        held = idle_connections(port, ATTACKERS)
        # the attack has taken hold: the server holds all the descriptors it may, or dropped the excess
        assert until(lambda: open_files(proc.pid) >= LIMIT - 8 or dropped(held) >= ATTACKERS - LIMIT, 20)
        assert get(port, prefix + "/", cookie, timeout=5) == 200  # answered before a 5 s deadline
        # the idle ones are dropped at the head deadline, while the attacker still holds its end
        assert until(lambda: threads(proc.pid) <= calm, ui_server.HEAD_TIMEOUT + 3), threads(proc.pid)
        assert get(port, prefix + "/", cookie) == 200
    finally:
        for s in held:
            s.close()
        out, err = stop(proc) if proc.poll() is None else proc.communicate()
    assert proc.returncode == 0, err
    assert "Traceback" not in err and "Error" not in err, err[:2000]


def test_a_client_that_goes_away_mid_request_leaves_no_traceback(tmp_path):
    """Half a request head, then a reset: the server's answer meets a closed socket (BrokenPipeError,
    ConnectionResetError), which is no news for the terminal."""
    proc = start(tmp_path)
    try:
        port, prefix, cookie = sign_in(proc)
        calm = threads(proc.pid)
        for _ in range(40):
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            s.sendall(f"GET {prefix}/ HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n".encode())
            s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # close sends RST
            s.close()
        assert until(lambda: threads(proc.pid) <= calm, 10)
        assert get(port, prefix + "/", cookie) == 200
        out, err = stop(proc)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err
    assert "Traceback" not in err and "Error" not in err, err[:2000]


def test_a_request_head_sent_a_line_at_a_time_is_cut_at_the_deadline(tmp_path):
    """A per-read timeout alone lets a client keep a connection by sending a byte before each read
    times out; the head as a whole has ``HEAD_TIMEOUT`` seconds."""
    proc = start(tmp_path)
    try:
        port, _, _ = sign_in(proc)
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
        began = time.monotonic()
        s.sendall(b"GET / HTTP/1.1\r\n")
        s.settimeout(0.5)
        closed_after = None
        while time.monotonic() - began < 30:
            try:
                if s.recv(1024) == b"":
                    closed_after = time.monotonic() - began
                    break
            except TimeoutError:
                s.sendall(b"X-Slow: 1\r\n")  # one more header line, never the blank line that ends the head
            except ConnectionResetError:
                closed_after = time.monotonic() - began
                break
        s.close()
        assert closed_after is not None, "the server kept a connection that never finished its head"
        # why the upper bound's room: the deadline is looked at every half second, and a loaded machine
        # runs the server late; without the deadline the connection stays for the whole loop
        assert ui_server.HEAD_TIMEOUT - 0.5 <= closed_after <= ui_server.HEAD_TIMEOUT + 10, closed_after
        out, err = stop(proc)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err
    assert "Traceback" not in err, err[:2000]


# The server out of file descriptors: a connection waits in the listen queue, and accept fails
# (EMFILE) each time it is tried. The script counts the tries over one second.
OUT_OF_FILES = textwrap.dedent("""
    import os, resource, sys, threading, time
    from lazy_harness.ui.server import UiServer
    resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))
    srv = UiServer(0, os.getcwd(), os.environ)
    tries = []
    real = srv.get_request
    def counted():
        tries.append(time.monotonic())
        return real()
    srv.get_request = counted
    threading.Thread(target=srv.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    fillers = []
    try:
        while True:
            fillers.append(os.open(os.devnull, os.O_RDONLY))
    except OSError:
        pass
    print(srv.port, flush=True)
    sys.stdin.readline()  # the test's connection waits in the listen queue
    begun = len(tries)
    threading.Event().wait(1.0)  # the window the tries are counted over
    print(len(tries) - begun, flush=True)
    for fd in fillers:
        os.close(fd)
    sys.stdin.readline()
    srv.shutdown()
""")


def test_out_of_file_descriptors_the_accept_loop_backs_off_then_serves(tmp_path):
    root = ms.make_project(tmp_path, "proj")
    proc = subprocess.Popen([sys.executable, "-c", OUT_OF_FILES], cwd=root, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        port = int(proc.stdout.readline())
        conn = socket.create_connection(("127.0.0.1", port), timeout=10)
        proc.stdin.write("connected\n")
        proc.stdin.flush()
        tries = int(proc.stdout.readline())
        assert tries <= 30, f"{tries} accept tries in one second: the loop spins"
        conn.sendall(f"GET / HTTP/1.0\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
        answer = conn.recv(100)
        assert answer.startswith(b"HTTP/1.0 404"), answer  # served once descriptors are free again
        conn.close()
        proc.stdin.write("stop\n")
        proc.stdin.flush()
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err
    assert "Traceback" not in err, err[:2000]


# A console browser (w3m, lynx, links as www-browser; Python's webbrowser runs it when TERM is set and
# there is no DISPLAY, and waits for it to exit): it follows the file lh ui gives it to the page, notes
# the answer, then runs until the test lets it go (as a person quits it).
CONSOLE_BROWSER = """#!{python}
import html, os, re, sys, time, urllib.request
text = open(sys.argv[1].removeprefix("file://"), encoding="utf-8").read()
url = html.unescape(re.search(r'url=([^"]+)"', text).group(1))
try:
    said = str(urllib.request.urlopen(url, timeout=10).status)
except Exception as exc:
    said = type(exc).__name__
with open("{record}.tmp", "w") as fh:
    fh.write(said)
os.replace("{record}.tmp", "{record}")
for _ in range(1200):  # a person still reading the page, until the test lets go (at most a minute)
    if os.path.exists("{release}"):
        break
    time.sleep(0.05)
"""


def test_the_page_answers_while_a_console_browser_runs_and_ctrl_c_stops_it(tmp_path):
    record, release = tmp_path / "answered", tmp_path / "release"
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    browser = bin_dir / "www-browser"
    browser.write_text(CONSOLE_BROWSER.format(python=sys.executable, record=record, release=release))
    browser.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "BROWSER")}
    env.update(TERM="xterm", PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '')}")
    proc = start(tmp_path, env=env, args=())
    try:
        url = proc.stdout.readline().strip()
        assert re.match(r"^http://127\.0\.0\.1:\d+/", url), url
        assert until(record.exists, 20), "the console browser never got an answer"
        assert record.read_text() == "200"  # answered while the browser still runs (it waits for release)
        proc.send_signal(signal.SIGINT)  # Ctrl-C with the browser still open
        proc.wait(timeout=30)
    finally:
        release.touch()  # the person quits the browser (it holds lh ui's stdout and stderr until then)
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    out, err = proc.communicate(timeout=90)
    assert proc.returncode == 0, err
    assert "Traceback" not in err and "lh ui: stopped" in err, err
    cache = paths.cache_dir(None)
    assert not os.path.isdir(cache) or not [n for n in os.listdir(cache) if n.startswith("ui-")]  # opener gone
