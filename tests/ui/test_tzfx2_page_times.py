"""The page prints every time in the reader's local time zone, whatever zone it was written in, as the
SessionStart digest and ``lh memory show`` do: a decision and an open item written in London at 07:00Z
on Dec 1 read on Nov 30 (23:00) in Los Angeles. A time that does not parse is shown as written."""

import os


from lazy_harness.memory import files, handoff_answer
from lazy_harness.ui import markup
from tests.support import memory_samples as ms
from tests.ui.test_server import cookie, page, request
from tests.support.zones import LON, LONDON, LOS_ANGELES



def test_day_of_and_when_of_give_the_readers_time_and_keep_what_does_not_parse(zone):
    zone(LOS_ANGELES)
    assert markup.day_of("2026-12-01T07:00:00+00:00") == "2026-11-30"
    assert markup.when_of("2026-12-01T07:00:00.123+00:00") == "2026-11-30 23:00"
    assert markup.when_of("2026-12-01T07:00:00") == "2026-12-01 07:00"  # no offset: local as written
    assert markup.day_of("2026-12-01") == "2026-12-01"  # a bare date is a day, in no zone
    assert markup.day_of("2026-12-01T99:99 by hand") == "2026-12-01"  # as written
    assert markup.when_of("2026-12-01T99:99 by hand") == "2026-12-01 99:99"
    assert markup.day_of(None) == "undated" and markup.when_of(None) == "?" and markup.when_of("soon") == "soon"


def test_the_page_shows_what_london_wrote_in_los_angeles_time(server, seeded, zone):
    zone(LONDON)
    meta = {"session_id": "s-lon", "task_id": "task-s-lon", "project": "proj"}
    handoff_answer.apply_answer(seeded.mdir, ["ask ops about the backup window"], None, meta, LON, LON)
    ms.write_jsonl(os.path.join(seeded.mdir, files.DECISIONS), [ms.decision(LON, "rotate the backup keys weekly")])
    zone(LOS_ANGELES)
    body = request(server, "GET", page(server, "/?all=1"), cookie(server))[2]
    decision = body.split("rotate the backup keys weekly", 1)[0].rsplit('<span class="meta">', 1)[1]
    assert decision.startswith("2026-11-30</span>"), decision
    item = body.split("ask ops about the backup window", 1)[1].split("</span>", 2)[1]
    assert "opened 2026-11-30 23:00 " in item, item
