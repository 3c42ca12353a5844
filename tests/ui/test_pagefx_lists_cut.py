"""Every list of the page is cut as docs/how/ui.md says: the usage section's never-used and recurred
lists, the open handoff items and the learnings without a project show 100 rows, with a line saying
how many more there are and where every one is listed; a small memory shows every row, as before.
The usage counts are kept while usage.jsonl and marks.jsonl are unchanged."""

import re
import time
from urllib.parse import quote

from lazy_harness.memory import handoff, usage_log
from lazy_harness.ui import sections
from tests.support import memory_samples as ms
from tests.ui.test_server import cookie, page, request, server_key

LIMIT = sections.LIMIT


def _section(server, anchor: str, query: str = "") -> str:
    status, _, body = request(server, "GET", page(server, "/" + query), cookie(server))
    assert status == 200
    return body.split(f'id="{anchor}"', 1)[1].split("</section>", 1)[0]


def _ids(html: str, css: str) -> list[str]:
    """The data-id of each row of the ``<ul class="entries {css}">`` list, in order; of every entry
    of ``html`` when ``css`` is empty."""
    if css and f'class="entries {css}"' not in html:
        return []
    inner = html.split(f'class="entries {css}"', 1)[1].split("</ul>", 1)[0] if css else html
    return re.findall(r'<li class="entry[^"]*" data-id="([^"]+)"', inner)


def _shown_never_used(mdir: str, n: int, now: float) -> list[str]:
    """``n`` entries shown and never used, entry k in (k % 7) + 1 sessions; their ids."""
    ids = [f"d-{k:08x}" for k in range(n)]
    recs = [usage_log.line("shown", now - 600, session=f"s{j}", id=eid, chars=100)
            for k, eid in enumerate(ids) for j in range(k % 7 + 1)]
    usage_log.append(mdir, recs)
    return ids


def _expected_never_used(mdir: str) -> list[str]:
    t = usage_log.tally(usage_log.read(mdir), into=usage_log.merged_into(mdir))
    return [e.id for e in t.never_used()]


def test_the_never_used_list_shows_the_100_shown_most_and_says_how_many_more(server, seeded):
    now = time.time()
    _shown_never_used(seeded.mdir, LIMIT + 30, now)
    order = _expected_never_used(seeded.mdir)  # most shown first: the order lh memory usage counts
    section = _section(server, "usage")
    assert _ids(section, "never-used") == order[:LIMIT]
    more = section.split('class="entries never-used"', 1)[1].split("</ul>", 1)[1]
    line = more.split('<p class="more">', 1)[1].split("</p>", 1)[0]
    assert f"{len(order) - LIMIT} more" in line and "lh memory usage" in line
    assert f"project={quote(server_key(server, seeded))}&amp;all=1#usage" in line
    every = _section(server, "usage", f"?project={server_key(server, seeded)}&all=1")
    assert _ids(every, "never-used") == order and '<p class="more">' not in every


def test_the_recurred_list_shows_100_most_recurring_first_and_says_how_many_more(server, seeded):
    now = time.time()
    fids = [f"f-{k:08x}" for k in range(LIMIT + 12)]
    recs = []
    for k, fid in enumerate(fids):
        for j in range(1 + (k == LIMIT + 5)):  # one of the last recurred twice: it is among the shown
            sid = f"r{k}-{j}"
            recs += [usage_log.line("shown", now - 900, session=sid, id=fid, chars=90),
                     usage_log.line("recurred", now - 800, session=sid, id=fid)]
    usage_log.append(seeded.mdir, recs)
    section = _section(server, "usage")
    shown = _ids(section, "recurred")
    assert len(shown) == LIMIT and shown[0] == fids[LIMIT + 5] and shown[1:] == fids[:LIMIT - 1]
    told = section.split('class="entries recurred"', 1)[1].split("</ul>", 1)[1].split("</p>", 1)[0]
    assert "12 more" in told and "lh memory usage" in told
    every = _section(server, "usage", f"?project={server_key(server, seeded)}&all=1")
    assert sorted(_ids(every, "recurred")) == sorted(fids)


def test_the_open_items_show_the_newest_100_and_say_how_many_more(server, seeded):
    now = time.time()
    before = [i["id"] for i in handoff.open_items(handoff.load(seeded.mdir)[0])]
    texts = [f"open item number {k} of the long list" for k in range(150)]
    handoff.append(seeded.mdir, [handoff.record("open", t, "sess-many", f"t{k}", now - 3600 + k)
                                 for k, t in enumerate(texts)])
    every = [i["id"] for i in handoff.open_items(handoff.load(seeded.mdir)[0])]
    assert len(every) == len(before) + 150
    section = _section(server, "handoff")
    assert _ids(section, "") == every[-LIMIT:]  # oldest first, as before: the newest 100
    assert f"Shown: the newest {LIMIT} of {len(every)}" in section and "&amp;all=1#handoff" in section
    assert _ids(_section(server, "handoff", f"?project={server_key(server, seeded)}&all=1"), "") == every


def test_the_learnings_without_a_project_show_100_and_say_how_many_more(server, seeded):
    now = time.time()
    for k in range(LIMIT + 4):
        ms.write_learning(seeded.ldir, f"Unowned learning {k}", "nowhere-project", now - 86400 + k * 10,
                          slug=f"unowned-{k}", scope="project")
    section = _section(server, "unassigned")
    assert section.count("lh memory assign l-") == LIMIT
    assert f"Shown: the newest {LIMIT} of {LIMIT + 5}" in section  # and the seeded one
    every = _section(server, "unassigned", f"?project={server_key(server, seeded)}&all=1")
    assert every.count("lh memory assign l-") == LIMIT + 5


def test_a_small_memory_shows_every_row_as_before_with_no_line(server, seeded):
    now = time.time()
    ids = _shown_never_used(seeded.mdir, 9, now)
    usage_log.append(seeded.mdir, [usage_log.line("shown", now - 500, session="sr", id="f-0000abcd", chars=80),
                                   usage_log.line("recurred", now - 400, session="sr", id="f-0000abcd")])
    usage = _section(server, "usage")
    assert _ids(usage, "never-used") == _expected_never_used(seeded.mdir)
    assert sorted(_ids(usage, "never-used")) == [*ids, "f-0000abcd"]
    assert _ids(usage, "recurred") == ["f-0000abcd"]
    items = [i["id"] for i in handoff.open_items(handoff.load(seeded.mdir)[0])]
    hand = _section(server, "handoff")
    assert _ids(hand, "") == items and len(items) == 2
    for anchor in ("usage", "handoff", "unassigned"):
        assert '<p class="more">' not in _section(server, anchor)


def test_the_usage_counts_are_kept_while_usage_jsonl_and_marks_are_unchanged(server, seeded, monkeypatch):
    now = time.time()
    _shown_never_used(seeded.mdir, 3, now)
    reads: list[str] = []
    real = usage_log.read
    monkeypatch.setattr(usage_log, "read", lambda mdir: reads.append(mdir) or real(mdir))
    first = _section(server, "usage")
    assert _section(server, "usage") == first and len(reads) == 1  # a reload reads nothing again
    usage_log.append(seeded.mdir, [usage_log.line("used", now - 10, session="s0", id="d-00000000", evidence="x")])
    after = _section(server, "usage")
    assert len(reads) == 2 and "d-00000000" not in _ids(after, "never-used")  # a new line: counted again
    with open(f"{seeded.mdir}/marks.jsonl", "a") as fh:  # a merge moves the counts: read again too
        fh.write(f'{{"op": "merge", "id": "d-00000001", "by": "d-00000000", "ts": {now}, "run": "r1"}}\n')
    merged = _section(server, "usage")
    assert len(reads) == 3 and "d-00000001" not in _ids(merged, "never-used")
