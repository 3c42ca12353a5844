""""Show all" and the search box keep each other: the "show all" link of a cut list under a search
carries the search (``q``), and the search box of a page showing every entry carries ``all=1``; a
person who searched, then asked for every entry, no longer loses the search, nor the reverse."""

import html
import re
import time
from urllib.parse import parse_qs, urlsplit

from lazy_harness.memory import handoff
from tests.ui.test_server import cookie, page, request, server_key

SEARCH = 'recall index & <b>"fts5"</b> + #x'


def _body(server, query: dict[str, str]) -> str:
    from urllib.parse import urlencode

    status, _, body = request(server, "GET", page(server, "/?" + urlencode(query)), cookie(server))
    assert status == 200, body[:300]
    return body


def test_show_all_under_a_search_keeps_the_search(server, seeded):
    now = time.time()
    handoff.append(seeded.mdir, [handoff.record("open", f"open item number {k} of the long list", "sess-many",
                                                f"t{k}", now - 3600 + k) for k in range(150)])
    body = _body(server, {"project": server_key(server, seeded), "q": SEARCH})
    links = [html.unescape(h) for h in re.findall(r'<a href="([^"]+)">show all</a>', body)]
    assert links, "no cut list on the page"
    for link in links:
        sent = parse_qs(urlsplit(link).query)
        assert sent.get("all") == ["1"] and sent.get("q") == [SEARCH], link


def test_a_search_from_a_page_showing_all_keeps_all(server, seeded):
    body = _body(server, {"project": server_key(server, seeded), "all": "1"})
    box = re.search(r'<form class="search".*?</form>', body, re.S).group(0)
    fields = dict(re.findall(r'<input type="hidden" name="([^"]*)" value="([^"]*)">', box))
    assert fields.get("all") == "1", box
    plain = _body(server, {"project": server_key(server, seeded)})
    box = re.search(r'<form class="search".*?</form>', plain, re.S).group(0)
    assert 'name="all"' not in box, box
