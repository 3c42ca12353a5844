"""After Forget, Close, Approve or Undo the page comes back as it was: with "show all" (``all=1``), the
search (``q``) and the section the button was in (``#decisions``), and the note of what was done. The
view is taken from the action's form, which the page writes it into, and only what the page reads of it
goes into the redirect: a value is escaped, a section is one of the page's, anything else is dropped."""

import html
import os
import re
from urllib.parse import parse_qsl, urlencode, urlsplit

from lazy_harness.memory import files, held
from tests.support import memory_samples as ms
from tests.ui.test_held_states import POISON
from tests.ui.test_server import cookie, page, request, server_key
from tests.ui.test_uifx_page_agrees_with_show import _section

SEARCH = 'recall index & <b>"fts5"</b> #decisions'


def _fields(body: str, anchor: str, action: str, **match: str) -> list[tuple[str, str]]:
    """The fields the browser sends with the first ``action`` form of section ``anchor`` whose hidden
    fields hold ``match``."""
    for form in re.findall(rf'<form class="act" method="post" action="[^"]*/action/{action}"[^>]*>(.*?)</form>',
                           _section(body, anchor), re.S):
        sent = [(html.unescape(k), html.unescape(v))
                for k, v in re.findall(r'<input type="hidden" name="([^"]*)" value="([^"]*)">', form)]
        if set(match.items()) <= set(sent):
            return sent
    raise AssertionError(f"no {action} form with {match} under #{anchor}")


def _send(server, fields: list[tuple[str, str]], action: str) -> tuple[str, list[tuple[str, str]], str]:
    """(path, query pairs, fragment) of where the action sends the browser."""
    status, headers, body = request(server, "POST", page(server, f"/action/{action}"), cookie(server),
                                    body=urlencode(fields))
    assert status == 303, body
    assert "\r" not in headers["Location"] and "\n" not in headers["Location"]
    where = urlsplit(headers["Location"])
    return where.path, parse_qsl(where.query, keep_blank_values=True), where.fragment


def _held_decision(seeded) -> str:
    path = os.path.join(seeded.mdir, files.DECISIONS)
    ms.write_jsonl(path, [*files.read_entries(path), ms.decision(0, "Setup step", POISON)])
    found = held.scan_records(seeded.mdir)
    held.hold(seeded.mdir, seeded.ldir, found, "proj", 1.0, "seeded")
    return found[0][1]


def test_each_action_comes_back_to_show_all_the_search_and_its_section(server, seeded):
    key = server_key(server, seeded)
    eid = _held_decision(seeded)
    view = "/?" + urlencode({"project": key, "all": "1", "q": SEARCH})
    status, _, body = request(server, "GET", page(server, view), cookie(server))
    assert status == 200, body[:300]
    item = re.search(r'data-id="(h-[0-9a-f]+)"', _section(body, "handoff")).group(1)
    for anchor, action, match in (("decisions", "forget", {"id": seeded.sqlite}), ("handoff", "close", {"item": item}),
                                  ("held", "approve", {"id": eid}), ("runs", "undo", {})):
        path, query, fragment = _send(server, _fields(body, anchor, action, **match), action)
        assert path == page(server, "/") and fragment == anchor, (action, path, fragment)
        assert [k for k, _ in query] == ["project", "all", "q", "note"], (action, query)
        assert dict(query)["project"] == key and dict(query)["all"] == "1" and dict(query)["q"] == SEARCH
    status, _, back = request(server, "GET", f"{path}?{urlencode(query)}", cookie(server))
    assert status == 200 and '<p class="flash">undid ' in back, back[-3000:]  # the note of the last action
    box = re.search(r'<input type="search" name="q" value="([^"]*)"', back).group(1)
    assert html.unescape(box) == SEARCH  # the search is still in its box, and its result on the page
    assert '<input type="hidden" name="all" value="1">' in _section(back, "decisions")  # still every entry


def test_only_the_pages_own_view_goes_into_the_redirect_escaped(server, seeded):
    key = server_key(server, seeded)
    status, _, body = request(server, "GET", page(server, "/?" + urlencode({"project": key})), cookie(server))
    sent = _fields(body, "decisions", "forget", id=seeded.sqlite)
    assert ("section", "decisions") in sent and not {k for k, _ in sent} & {"all", "q"}  # a plain page: no view
    forged = [*(f for f in sent if f[0] != "section"), ("all", "yes"), ("evil", "1"), ("note", "x"),
              ("q", "a\r\nLocation: http://evil.example/"), ("section", "decisions\r\nSet-Cookie: x=1")]
    path, query, fragment = _send(server, forged, "forget")
    assert [k for k, _ in query] == ["project", "q", "note"] and fragment == "", (query, fragment)
    assert dict(query)["q"] == "a\r\nLocation: http://evil.example/" and dict(query)["note"] != "x"
    for section in ("nowhere", "search\" onload=\"x", ""):
        _, _, fragment = _send(server, [*(f for f in sent if f[0] != "section"), ("section", section)], "forget")
        assert fragment == "", section
    path, query, fragment = _send(server, sent, "forget")
    assert fragment == "decisions" and [k for k, _ in query] == ["project", "note"]
