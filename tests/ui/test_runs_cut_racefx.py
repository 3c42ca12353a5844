"""The page's "Changes, and undo" is cut as every other list of the page: a line says what was cut and
links to the page with every run (``?all=1``), which lists each run ``lh memory history`` lists."""

import html
import re

from lazy_harness.memory import journal
from tests.ui.conftest import NOW
from tests.ui.test_server import cookie, page, request


def _runs_section(server, query: str = "") -> str:
    status, _, body = request(server, "GET", page(server, "/" + query), cookie(server))
    assert status == 200, body[:300]
    return body.split('<section id="runs">', 1)[1].split("</section>", 1)[0]


def _seed_runs(mdir: str, n: int) -> None:
    for i in range(n):
        j = journal.Journal(mdir, "forget", "proj", NOW + i)
        j.note(f"forget d-{i:08x}: seeded")
        j.save()


def test_a_cut_list_of_runs_says_so_and_all_lists_every_run(server, seeded):
    _seed_runs(seeded.mdir, 25)
    every = [r["run"] for r in journal.runs(seeded.mdir)]  # what lh memory history lists
    assert len(every) >= 25
    cut = _runs_section(server)
    shown = re.findall(r'data-run="([^"]+)"', cut)
    assert 0 < len(shown) < len(every)
    assert shown == every[:len(shown)]  # the newest
    [more] = re.findall(r'<p class="more">(.*?)</p>', cut, re.S)
    said = html.unescape(re.sub(r"<[^>]+>", "", more))
    assert f"{len(shown)} of {len(every)}" in said and "show all" in said, said
    [link] = re.findall(r'<p class="more">.*?href="([^"]+)"', cut, re.S)
    assert "all=1" in html.unescape(link) and html.unescape(link).endswith("#runs")
    everything = _runs_section(server, "?all=1")
    assert re.findall(r'data-run="([^"]+)"', everything) == every
    assert '<p class="more">' not in everything


def test_a_short_list_of_runs_has_no_cut_line(server, seeded):
    every = journal.runs(seeded.mdir)
    assert every  # the seeded forget
    section = _runs_section(server)
    assert re.findall(r'data-run="([^"]+)"', section) == [r["run"] for r in every]
    assert '<p class="more">' not in section
