"""``lh memory usage`` prints last shown and last used in the reader's local time zone, whatever zone the
usage lines were written in: a session in London showing and using an entry at 07:00Z on Dec 1 reads
as Nov 30 23:00 in Los Angeles."""

import json


from lazy_harness import paths
from lazy_harness.memory import usage_log
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms
from tests.support.zones import LON, LONDON, LOS_ANGELES

F = "f-00000001"


def test_last_shown_and_used_are_the_readers_time(tmp_path, monkeypatch, zone):
    project = ms.make_project(str(tmp_path), "app")
    monkeypatch.chdir(project)
    zone(LONDON)
    line = usage_log.line
    usage_log.append(paths.memory_dir(project), [
        line("session", LON, session="s1", chars=500), line("shown", LON, session="s1", id=F, chars=300),
        line("used", LON + 120, session="s1", id=F, evidence="make deploy")])
    zone(LOS_ANGELES)
    r = invoke("memory", "usage")
    assert r.code == 0, r.err
    [row] = [ln for ln in r.out.splitlines() if ln.startswith(F)]
    assert row.split()[-4:] == ["2026-11-30", "23:00", "2026-11-30", "23:02"], row
    got = json.loads(invoke("memory", "usage", "--json").out)
    assert got["entries"][0]["last_shown"].startswith("2026-11-30T23:00:00.000-08:00"), got
