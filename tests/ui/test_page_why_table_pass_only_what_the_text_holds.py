"""The page's "why" table words a candidate as ``lh memory show --prompt`` does: ``pass`` only for what
the prompt's text holds. An entry that passes the bar but that SessionStart's digest already shows a new
session (so the prompt never repeats it) is marked ``shown``, its row not styled as passing."""

import html
import re
from urllib.parse import quote

from tests.cli.lhrun import invoke
from tests.ui.test_server import cookie, page, request, server_key

QUERY = "why keep the recall index in sqlite fts5 with bm25"


def _rows(body: str) -> dict[str, tuple[str, str]]:
    """id -> (the row's css class, its first cell) of the search section's table."""
    section = body.split('id="search"', 1)[1].split("</section>", 1)[0]
    return {i: (css, html.unescape(first)) for css, i, first in
            re.findall(r'<tr class="([a-z]+)" data-id="([^"]+)"><td>([^<]*)</td>', section)}


def _show(root: str) -> dict[str, str]:
    """id -> the first column ``lh memory show --prompt`` gives it."""
    out = invoke("memory", "show", "--project", root, "--prompt", QUERY)
    assert out.code == 0, out.err
    table = out.out.split("\n\n==== why", 1)[1]
    return {m.group(2): m.group(1).strip() for line in table.splitlines()[1:]
            if (m := re.match(r"(\S*(?: room)?)\s+[\d.]+\s+\d+%.*?\b([dflh]-[0-9a-f]{8})\b", line))}


def test_a_passing_entry_the_start_already_shows_is_shown_not_pass_as_show_says(server, seeded):
    body = request(server, "GET", page(server, f"/?project={server_key(server, seeded)}&q={quote(QUERY)}"),
                   cookie(server))[2]
    rows = _rows(body)
    text = html.unescape(body.split('<pre class="injected">', 1)[1].split("</pre>", 1)[0])
    said = _show(seeded.root)
    assert rows and said
    shown = [i for i, (_, first) in rows.items() if first == "shown"]
    assert shown, rows  # the seeded decision about the index passes the bar and the digest shows it
    for i, (css, first) in rows.items():
        assert first == said[i], (i, first, said[i])
        assert (first == "pass") == (i in text), (i, first)
        assert (css == "pass") == (first == "pass"), (i, css, first)
