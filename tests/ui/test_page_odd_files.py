"""Odd files where the page reads, each by a plain HTTP request (tests/ui/test_server.py's helpers): a
file in one of our folders that the page reads must not take the whole page down or hold a thread of
the server for good."""

import http.client
import os

from lazy_harness import paths
from lazy_harness import queue as spool
from tests.ui.conftest import serving
from tests.ui.test_server import cookie, page, request


def test_a_queued_task_named_with_a_time_past_the_clocks_range_does_not_take_the_page_down(seeded):
    """A task whose name starts with more digits than a time the clock can show (a file made by hand, a
    copy from elsewhere): the page shows it with "?" for when it was queued, as for a name that is no
    number. It raised OverflowError, which only ValueError was caught for: the whole page was a 500."""
    q = paths.queue_dir()
    name = "9" * 30 + "-5e551011.task"
    with open(os.path.join(spool.folder(q, spool.FAILED), name), "w", encoding="utf-8") as fh:
        fh.write(spool.format_task({"session_id": seeded.session, "cwd": seeded.root, "event": "Stop"}))
    with serving(seeded.root) as srv:
        status, _, body = request(srv, "GET", page(srv), cookie(srv))
    assert status == 200, body[:300]
    assert f"<code>{name[:-len('.task')]}</code></td><td>?</td>" in body


def _page_within(srv, seconds: float) -> int | str:
    """The page's status, or "hung" when it did not answer within ``seconds``."""
    conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=seconds)
    try:
        conn.putrequest("GET", page(srv), skip_host=True)
        conn.putheader("Host", f"127.0.0.1:{srv.port}")
        conn.putheader("Cookie", cookie(srv)["Cookie"])
        conn.endheaders()
        return conn.getresponse().status
    except TimeoutError:
        return "hung"
    finally:
        conn.close()


def _release(path: str) -> None:
    """Open the FIFO ``path`` for writing and close it: a reader blocked in its open goes on (the
    server's thread ends, and the test with it)."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
    except OSError:
        pass


def test_a_fifo_in_place_of_a_failed_tasks_error_or_hooks_log_does_not_hold_the_page(seeded):
    """The page reads the end of a failed task's ``.error`` and of hooks.log with a plain ``open``: a
    FIFO in either place (anything that is not a regular file) held that open until a writer came, so
    every load of the page hung, each holding a thread and one of the server's connections for good.
    Every other reader of such a file opens it without waiting (``regular_file``); the page now too, and
    shows the rest."""
    failed = spool.folder(paths.queue_dir(), spool.FAILED)
    task = next(n for n in os.listdir(failed) if n.endswith(spool.SUFFIX))
    fifos = [os.path.join(failed, task + ".error"), os.path.join(paths.logs_dir(), "hooks.log")]
    for path in fifos:
        if os.path.exists(path):
            os.remove(path)
        os.mkfifo(path, 0o600)
    with serving(seeded.root) as srv:
        try:
            status = _page_within(srv, 10)
        finally:
            for path in fifos:
                _release(path)
    assert status == 200
