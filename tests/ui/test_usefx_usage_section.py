"""The page's usage section after review r4 (ADR 0036): an entry the audit cannot measure is not listed
"Never used" (no Forget for that reason), and an id no longer in memory is marked, without Forget."""

import time

from lazy_harness.memory import ids, usage_log
from tests.ui.test_server import cookie, page, request


def _section(server) -> str:
    body = request(server, "GET", page(server), cookie(server))[2]
    return body.split('id="usage"', 1)[1].split("</section>", 1)[0]


def test_an_unmeasurable_entry_is_not_offered_for_forget_and_a_gone_one_is_marked(server, seeded):
    now = time.time()
    plain = ids.entry_id("decision", "Render handoff.md from handoff.jsonl")
    fts = ids.entry_id("decision", "Keep the recall index in SQLite FTS5")
    gone = "d-0000dead"
    line = usage_log.line
    usage_log.append(seeded.mdir, [line("shown", now - 60 + k, session=f"s{k}", id=i, chars=300, **flag)
                                   for k in range(3)
                                   for i, flag in ((plain, {"measurable": False}), (fts, {}), (gone, {}))])
    never_used = _section(server).split('class="entries never-used"', 1)[1]
    assert fts in never_used and plain not in never_used
    items = never_used.split("<li")
    gone_item = next(item for item in items if gone in item)
    assert "no longer in memory" in gone_item and "Forget" not in gone_item
    assert "Forget" in next(item for item in items if fts in item)
