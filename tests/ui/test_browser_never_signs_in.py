"""``lh ui`` when the browser it started never comes to the page: Ubuntu's Firefox and Chromium are
snaps, and a snap cannot read a file in a hidden folder of the home (``~/.cache``, where the file that
leads to the page is): the browser shows "file not found". Once the token has not signed in for
``SIGN_IN_WAIT`` seconds after the browser started, one line on stderr says why and what to do; a
browser that followed the file in time leaves stderr quiet.

Each test runs ``lh ui`` in a subprocess with ``SIGN_IN_WAIT`` lowered to 0 (the first wake of the
main wait after the browser returned decides), or raised to an hour where the sign-in must decide,
and with a line of its own on stderr once the wait has decided: the test waits for that line, never
for a time."""

import http.client
import os
import queue
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import urlsplit

from lazy_harness import paths
from tests.support import memory_samples as ms

DECIDED = "test: the wait for the sign-in has decided"

_LH_UI = f"""
import sys
from lazy_harness.cli import main, ui

ui.SIGN_IN_WAIT = float(sys.argv[1])
_hint = ui._sign_in_hint

def _say():
    sys.stderr.write({DECIDED!r} + "\\n")
    sys.stderr.flush()

def _told(server, started):
    check = _hint(server, started)
    if check is None:  # nothing to wait for: signed in already, or no browser given the file
        _say()
        return None

    def told():
        done = check()
        if done:
            _say()
        return done

    return told

ui._sign_in_hint = _told
main(["ui"])
"""

# a browser that does with what it is given what a desktop browser does: reads the file and follows its
# refresh to the page (signing in); before it returns, or (``later``) after, as xdg-open returns at once
FOLLOWS = """#!{python}
import http.client, os, re, sys
from urllib.parse import unquote, urlsplit

if {later} and os.fork():
    sys.exit(0)

with open(unquote(urlsplit(sys.argv[1]).path), encoding="utf-8") as fh:
    url = urlsplit(re.search(r'url=([^"]+)"', fh.read()).group(1).replace("&amp;", "&"))
conn = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
conn.request("GET", f"{url.path}?{url.query}")
sys.exit(0 if conn.getresponse().status == 200 else 1)
"""


@contextmanager
def _lh_ui(root: str, browser: str, wait: float = 0.0) -> Iterator[tuple[subprocess.Popen, str, queue.Queue]]:
    """``lh ui`` opening ``browser``, ``SIGN_IN_WAIT`` = ``wait``: the process, its URL, and its stderr's
    lines as they come."""
    proc = subprocess.Popen([sys.executable, "-c", _LH_UI, str(wait)], cwd=root, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env={**os.environ, "BROWSER": browser})
    lines: queue.Queue = queue.Queue()

    def read() -> None:
        for line in proc.stderr:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=read, daemon=True).start()
    try:
        yield proc, proc.stdout.readline().strip(), lines
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()


def _next(lines: queue.Queue) -> str | None:
    return lines.get(timeout=60)  # a safety net: each line is waited for as it is written


def _rest(proc: subprocess.Popen, lines: queue.Queue) -> list[str]:
    """Ctrl-C; every line written after what was read."""
    proc.send_signal(signal.SIGINT)
    rest = []
    while (line := _next(lines)) is not None:
        rest.append(line)
    proc.wait(timeout=30)
    return rest


def test_a_browser_that_never_comes_to_the_page_gets_one_line_saying_why_and_what_to_do(tmp_path):
    root = ms.make_project(tmp_path, "proj")
    with _lh_ui(root, "/bin/true") as (proc, url, lines):
        assert _next(lines) == "lh ui: serving; Ctrl-C stops it\n"
        hint = _next(lines)
        assert hint is not None and hint.startswith("lh ui: the browser has not opened the page"), hint
        assert "snap" in hint and paths.cache_dir() in hint and hint.endswith(": open the URL above\n"), hint
        assert _next(lines) == DECIDED + "\n"
        parts = urlsplit(url)  # the person opens the URL printed above: it signs in
        conn = http.client.HTTPConnection("127.0.0.1", parts.port, timeout=30)
        conn.request("GET", f"{parts.path}?{parts.query}")
        assert conn.getresponse().status == 200
        conn.close()
        rest = _rest(proc, lines)
    assert proc.returncode == 0
    assert rest == ["lh ui: stopped\n"]  # one line, said once


def _browser(tmp_path, later: bool) -> str:
    browser = tmp_path / "browser"
    browser.write_text(FOLLOWS.replace("{python}", sys.executable).replace("{later}", str(later)))
    browser.chmod(0o755)
    return str(browser)


def test_a_browser_that_signs_in_before_it_returns_leaves_stderr_quiet(tmp_path):
    root = ms.make_project(tmp_path, "proj")
    with _lh_ui(root, _browser(tmp_path, later=False)) as (proc, url, lines):
        assert _next(lines) == "lh ui: serving; Ctrl-C stops it\n"
        assert _next(lines) == DECIDED + "\n"  # no hint before it
        rest = _rest(proc, lines)
    assert proc.returncode == 0
    assert rest == ["lh ui: stopped\n"]


def test_a_browser_that_signs_in_after_it_returned_and_in_time_leaves_stderr_quiet(tmp_path):
    """The wait is long (an hour): the line saying the wait has decided comes at the first wake after
    the sign-in, with no hint before it."""
    root = ms.make_project(tmp_path, "proj")
    with _lh_ui(root, _browser(tmp_path, later=True), wait=3600) as (proc, url, lines):
        assert _next(lines) == "lh ui: serving; Ctrl-C stops it\n"
        assert _next(lines) == DECIDED + "\n"
        rest = _rest(proc, lines)
    assert proc.returncode == 0
    assert rest == ["lh ui: stopped\n"]


class _SignsInOnceLookedAt:
    """A server whose token signs in (the server's thread drops the opener) just after the first look."""

    def __init__(self, opener: str) -> None:
        self._opener: str | None = opener

    @property
    def opener(self) -> str | None:
        opener, self._opener = self._opener, None
        return opener


def test_a_sign_in_that_lands_while_the_wait_sets_up_its_look_is_taken_as_signed_in(tmp_path, capsys):
    """The sign-in runs in the server's thread, at any moment: one landing between two looks at the
    opener made the second ``None``, and the main thread raised (lh ui stopped with a traceback)."""
    from lazy_harness.cli import ui

    check = ui._sign_in_hint(_SignsInOnceLookedAt(str(tmp_path / "ui-x" / "open.html")), 0.0)
    assert check is not None and check() is True
    assert capsys.readouterr().err == ""
