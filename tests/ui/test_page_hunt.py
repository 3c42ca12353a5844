"""What a security review of the page found, each by a plain HTTP request (tests/ui/test_server.py's
helpers): a file in one of our folders that the page reads must not take the whole page down or hold a
thread of the server for good."""

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
