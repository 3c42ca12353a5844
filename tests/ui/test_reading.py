"""What the page reads: which sessions of hooks.log belong to the project shown, and spend per day."""

import calendar
import os
import time

from lazy_harness import config, paths
from lazy_harness import queue as spool
from lazy_harness.ui import file_reads, hook_log, memory_lists, queue_and_spend, reading
from tests.support import memory_samples as ms
from tests.ui.conftest import DAY, NOW


def line(sid: str, said: str) -> str:
    return f"{ms.iso(NOW)} UserPromptSubmit session={sid} {said} (3.0 ms)\n"


def test_sessions_of_another_project_are_left_out_and_unknown_ones_marked(seeded, tmp_path):
    other = os.path.join(os.path.dirname(seeded.root), "other")
    q = paths.queue_dir()
    with open(os.path.join(spool.folder(q, spool.DONE), f"{int(NOW * 1e9)}-0therses.task"), "w") as fh:
        fh.write(spool.format_task({"session_id": "0therses-1", "cwd": other, "event": "Stop"}))
    with open(os.path.join(paths.logs_dir(), "hooks.log"), "a", encoding="utf-8") as fh:
        fh.write(line("0therses-1", "skipped: recall disabled"))
        fh.write(line("nobody-knows", "terms=2 candidates=0 passed=0 nothing passed the bar"))
        fh.write(f"{ms.iso(NOW)} Stop session={seeded.session} queued t1 (worker pid 1) (2.0 ms)\n")
    cfg = config.load_fast(os.environ)
    projects = reading.projects(seeded.root, cfg, os.environ)
    here = projects[0]
    sessions = {s["session"]: s for s in hook_log.injected(here, seeded.root, os.environ)}
    assert set(sessions) == {seeded.session, "nobody-knows"}
    assert sessions[seeded.session]["known"] and not sessions["nobody-knows"]["known"]
    assert [e["event"] for e in sessions[seeded.session]["events"]] == ["SessionStart", "UserPromptSubmit",
                                                                          "UserPromptSubmit"]  # not Stop
    there = next(p for p in projects if p.name == "other")
    assert {s["session"] for s in hook_log.injected(there, None, os.environ)} == {"0therses-1", "nobody-knows"}


def test_spend_per_day_sums_the_ledger_by_local_day(seeded):
    # why seeded.spent_at, not NOW: NOW is taken at import, minutes earlier; a run crossing midnight
    # counted the days from yesterday, where the seed had put "today's" spend
    now = seeded.spent_at
    days = queue_and_spend.spend(os.environ, now)
    assert len(days) == 14 and days[-1][0] == ms.iso(now)[:10]
    assert days[-1][1:] == (0.05, 1) and days[-2][0] == ms.iso(now - DAY)[:10] and days[-2][1:] == (0.12, 1)
    assert sum(d[1] for d in days[:-2]) == 0


def test_a_failure_line_without_type_or_id_is_a_failure_on_the_page_and_in_show(seeded):
    """Written by hand or before ids: its id comes from failures.jsonl's kind (f-...), as the read-back,
    the index and ``lh memory forget`` give it; read as a decision it had a d- id that no action found,
    or one that forgot a decision of the same summary."""
    import json

    from lazy_harness.memory import files, ids
    from tests.cli.lhrun import invoke

    mem = paths.memory_dir(seeded.root)
    line = {"ts": "2025-02-01T10:00:00Z", "project": "p", "summary": "Legacy failure about walrus parsing",
            "prevention": "check the grammar"}
    with open(os.path.join(mem, files.FAILURES), "a", encoding="utf-8") as fh:
        fh.write(json.dumps(line) + "\n")
    fid = ids.entry_id("failure", line["summary"])
    cfg = config.load_fast(os.environ)
    here = reading.projects(seeded.root, cfg, os.environ)[0]
    assert fid in [e["id"] for e in memory_lists.entries(here, "failure")]
    out = invoke("memory", "show", "--project", seeded.root).out
    # why the local day: show dates an entry in the person's zone, and the seed's zone is the one where the
    # wall clock is noon, so 10:00 UTC falls on 31 January or 1 February depending on the hour of the run
    day = time.strftime("%Y-%m-%d", time.localtime(calendar.timegm((2025, 2, 1, 10, 0, 0))))
    assert f"{fid}  {day}  Legacy failure about walrus parsing" in out
    assert invoke("memory", "forget", fid, "--project", seeded.root).code == 0
    file_reads._PARSED.clear()
    [row] = [e for e in memory_lists.entries(here, "failure") if e["id"] == fid]
    assert row.get("left_out") == "forgotten"
