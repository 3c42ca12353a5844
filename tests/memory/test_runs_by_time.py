"""A run's name is its local time: after a flight east to west (or a daylight saving fall-back, a clock set
back) a newer run's name sorts before an older one's. History lists runs, and a plain `lh memory undo`
picks the newest, by when each started (its time with its offset), not by name."""

import os

from lazy_harness import paths
from lazy_harness.memory import by_hand, files, ids, journal, marks, project_runs
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms

T = 1_780_000_000.0  # 2026-05-28, summer: Tokyo is 8 hours ahead of London


def test_the_newest_run_is_the_one_that_started_last_whatever_its_name(isolated_home, tmp_path, zone):
    root = ms.make_project(str(tmp_path), "demo")
    mdir = paths.memory_dir(root)
    ms.write_jsonl(os.path.join(mdir, files.DECISIONS), [ms.decision(T - 900, "Use Redis streams", project="demo"),
                                                         ms.decision(T - 800, "Use Kafka", project="demo")])
    zone("Asia/Tokyo")
    in_tokyo = by_hand.forget(mdir, paths.learnings_dir(), "demo", ids.entry_id("decision", "Use Redis streams"),
                              "", T)
    zone("Europe/London")  # landed: an hour later by the clock of the world, 7 hours earlier by the name
    in_london = by_hand.forget(mdir, paths.learnings_dir(), "demo", ids.entry_id("decision", "Use Kafka"), "", T + 3600)
    assert in_tokyo and in_london and in_london < in_tokyo  # the names alone put Tokyo's last

    assert [r["run"] for r in journal.runs(mdir)] == [in_london, in_tokyo]
    assert [r["run"] for r, _ in project_runs.runs(root, mdir, "demo")] == [in_london, in_tokyo]
    undone = invoke("memory", "undo", "--project", root)
    assert undone.code == 0 and in_london in undone.out, undone.out + undone.err
    assert set(marks.hidden(mdir)) == {ids.entry_id("decision", "Use Redis streams")}
