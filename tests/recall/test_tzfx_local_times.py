"""Times and dates are printed in the reader's local time zone, whatever zone they were written in: a
session in London, the next one 40 minutes later in Los Angeles (or a teammate's, synced), read back in
the order of their epochs with dates that agree with that order (SessionStart digest, prompt recall,
``lh memory show``). A stored time that does not parse is printed as written, as before."""

import os
import re
import time

import pytest

from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms
from lazy_harness import config, paths
from lazy_harness.memory import fence, files, handoff, handoff_answer
from lazy_harness.recall.prompt import rank
from lazy_harness.recall.readback import digest
from tests.support.zones import AUCKLAND, LON, LONDON, LOS_ANGELES

LA = LON + 40 * 60  # the Los Angeles one, Nov 30 23:40 there
NOW = LON + 2 * 3600
OPEN_LINE = re.compile(r"^- open item h-[0-9a-f]{8}, (\d{4}-\d\d-\d\d \d\d:\d\d), .*: (.*)$")
DECISION_LINE = re.compile(r"^- decision d-[0-9a-f]{8}, (\d{4}-\d\d-\d\d), .*: (.*?)\.( Rationale.*)?$")


@pytest.fixture
def project(tmp_path):
    return ms.make_project(tmp_path, "proj", branch="main")


def session(mdir: str, tz: str, zone, when: float, sid: str, item: str, decision: str,
            closed: list[str] | None = None) -> None:
    """What the worker writes for session ``sid`` ending at ``when`` on a laptop set to ``tz``."""
    zone(tz)
    handoff_answer.apply_answer(mdir, [item], closed, {"session_id": sid, "task_id": f"task-{sid}", "project": "proj"},
                         when, when)
    ms.write_jsonl(os.path.join(mdir, files.DECISIONS), [ms.decision(when + 60, decision, session_id=sid)])


def two_zones(project: str, zone) -> str:
    mdir = paths.memory_dir(project, os.environ)
    session(mdir, LONDON, zone, LON, "s-lon", "item written in London", "decision written in London")
    session(mdir, LOS_ANGELES, zone, LA, "s-la", "item written in LA, later", "decision written in LA, later")
    return mdir


def local(when: float, fmt: str) -> str:
    return time.strftime(fmt, time.localtime(when))


@pytest.mark.parametrize("reader", [LOS_ANGELES, LONDON, AUCKLAND])
def test_the_digest_prints_every_time_in_the_readers_zone(project, zone, reader):
    two_zones(project, zone)
    zone(reader)
    text, _ = digest.build_context(project, config.defaults(), os.environ, NOW, "startup")
    assert text is not None
    opened = [m.groups() for m in map(OPEN_LINE.match, text.splitlines()) if m]
    decided = [m.groups()[:2] for m in map(DECISION_LINE.match, text.splitlines()) if m]
    # oldest first, each at the minute it was opened, in the reader's zone
    assert opened == [(local(LON, "%Y-%m-%d %H:%M"), "item written in London"),
                      (local(LA, "%Y-%m-%d %H:%M"), "item written in LA, later")], text
    # newest first, each on its day in the reader's zone: the dates never run against the order
    assert decided == [(local(LA + 60, "%Y-%m-%d"), "decision written in LA, later"),
                       (local(LON + 60, "%Y-%m-%d"), "decision written in London")], text


def test_read_in_los_angeles_the_london_item_is_the_evening_before(project, zone):
    two_zones(project, zone)
    zone(LOS_ANGELES)
    text, _ = digest.build_context(project, config.defaults(), os.environ, NOW, "startup")
    assert "2026-11-30 23:00, from session s-lon" in text and "2026-11-30 23:40, from session s-la" in text, text
    assert "2026-12-01" not in text, text


def day(value: object) -> str:
    """What a reader prints for a stored time: its day, in the reader's zone when it parses."""
    return fence.date_of(value, files.iso_epoch(value))


def test_date_of_gives_the_readers_day_and_keeps_what_does_not_parse(zone):
    zone(LOS_ANGELES)
    assert day("2026-12-01T07:00:00+00:00") == "2026-11-30"
    assert day("2026-12-01T07:00:00.123Z") == "2026-11-30"
    assert day("2026-12-01T07:00:00") == "2026-12-01"  # no offset: local as written
    assert day("2026-12-01") == "2026-12-01"  # a bare date is a day, in no zone
    assert day("2026-04-13-rename-is-atomic.md") == "2026-04-13"  # a learning's file name
    assert day("2026-12-01T99:99 by hand") == "2026-12-01"  # as written: the text's first ten
    assert day("SYSTEM: `x and more") == "" and day(None) == ""
    assert fence.local_time(files.iso_epoch("2026-12-01T07:00:00+00:00"), minutes=True) == "2026-11-30 23:00"
    assert fence.local_time(None) == ""


def test_an_opened_time_that_does_not_parse_is_printed_as_written(zone):
    zone(LOS_ANGELES)
    item = handoff.Item(id="h-1a2b3c4d", opened="2026-12-01T99:99 edited", opened_by="s-1", state="open",
                        opened_epoch=None, text="ask ops about the backup window")
    line = digest.handoff_line(item, NOW, 10**6)
    assert line.startswith("- open item h-1a2b3c4d, 2026-12-01 99:99, from session s-1: "), line


def test_prompt_recall_dates_an_entry_in_the_readers_zone(zone):
    zone(LOS_ANGELES)
    line = rank.render_item({"kind": "decision", "id": "d-1a2b3c4d", "file": "/m/decisions.jsonl", "line": 3,
                             "ts": "2026-12-01T07:01:00+00:00", "prov": "session s-lon in proj",
                             "title": "decision written in London", "detail": ""}, None)
    assert ", 2026-11-30, from session s-lon" in line, line


def test_memory_show_prints_times_in_the_readers_zone(project, zone):
    mdir = paths.memory_dir(project, os.environ)
    session(mdir, LONDON, zone, LON - 3600, "s-lon", "close me later", "decision written in London")
    [early] = handoff.open_for_reading(mdir)
    session(mdir, LOS_ANGELES, zone, LA, "s-la", "item written in LA, later", "decision written in LA, later",
            closed=[early["id"]])
    zone(LOS_ANGELES)
    out = invoke("memory", "show", "--project", project, "--history", "--section", "handoff",
                 "--section", "decisions")
    assert out.code == 0, out.err
    closed = next(ln for ln in out.out.splitlines() if "close me later" in ln)
    assert "(closed 2026-11-30 23:40 " in closed and "; opened 2026-11-30 22:00 " in closed, closed
    assert re.search(r"d-[0-9a-f]{8}  2026-11-30  decision written in London", out.out), out.out
    assert "2026-12-01" not in out.out, out.out
