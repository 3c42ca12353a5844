"""``lh memory search`` dates each hit in the reader's local time zone, whatever zone it was written in:
a decision written in London at 07:00Z on Dec 1 is listed on Nov 30 when read in Los Angeles, as the
SessionStart digest, prompt recall and ``lh memory show`` date it. A time that does not parse is
listed as written."""

import json
import os


from lazy_harness import paths
from lazy_harness.recall import search
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms
from tests.support.zones import LON, LONDON, LOS_ANGELES



def test_date_of_is_the_readers_day_and_keeps_what_does_not_parse(zone):
    zone(LOS_ANGELES)
    assert search.date_of("2026-12-01T07:00:00+00:00") == "2026-11-30"
    assert search.date_of("2026-12-01T07:00:00.123Z") == "2026-11-30"
    assert search.date_of("2026-12-01") == "2026-12-01"  # a bare date is a day, in no zone
    assert search.date_of("2026-12-01T99:99 by hand") == "2026-12-01"  # as written: its first ten
    assert search.date_of("yesterday, by hand") == "yesterday,"
    assert search.date_of(None) == "undated" and search.date_of("short") == "undated"


def test_the_listing_dates_a_london_decision_in_los_angeles_time(tmp_path, zone):
    project = ms.make_project(tmp_path, "proj", branch="main")
    zone(LONDON)
    mdir = paths.memory_dir(project, os.environ)
    ms.write_jsonl(os.path.join(mdir, "decisions.jsonl"), [ms.decision(LON, "rotate the backup keys weekly")])
    zone(LOS_ANGELES)
    out = invoke("memory", "search", "backup", "--project", project)
    assert out.code == 0, out.err
    [line] = [ln for ln in out.out.splitlines() if "rotate the backup keys" in ln]
    assert "  2026-11-30  " in line and "2026-12-01" not in line, line
    got = invoke("memory", "search", "backup", "--project", project, "--json")
    assert json.loads(got.out.splitlines()[0])["date"] == "2026-11-30", got.out
