"""A lone surrogate in a memory file (a JSON ``\\ud800``: valid JSON, not encodable as UTF-8) is shown on
the page as its escape, as the commands show it, and the page still loads."""

import os

from lazy_harness.memory import files
from tests.ui.test_server import cookie, page, request


def test_the_page_loads_and_shows_the_escape(server, seeded):
    with open(os.path.join(seeded.mdir, files.DECISIONS), "a", encoding="utf-8") as fh:
        fh.write('{"summary": "Cache keys carry the \\ud800 locale", "rationale": "one key per locale", '
                 '"ts": "2026-11-20T10:00:00Z"}\n')
    status, _, body = request(server, "GET", page(server, "/?all=1"), cookie(server))
    assert status == 200, body[:500]
    assert "Cache keys carry the" in body
    assert "\ufffd" not in body.split("Cache keys carry the", 1)[1][:20]  # not a replacement character
    assert "Keep the recall index in SQLite FTS5" in body  # the rest of the memory is there too
