"""memory/journal_format.py and memory/journal.py read every journal of a project (``lh memory history``,
``lh memory undo``, the page, a forget's give-back) with a plain ``open``: a FIFO named as a journal
held each of them in open() until a writer came. It is now one unreadable journal like any other: left
out of the runs, and named with why."""

import os
import time

from lazy_harness import paths
from lazy_harness.memory import files, ids, journal
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms
from tests.support.fifo_wait import call_beside

NOW = time.time()
SUMMARY = "Kafka consumers own one partition"


def test_a_fifo_named_as_a_journal_is_left_out_and_named_without_waiting(tmp_path):
    root = ms.make_project(tmp_path, "proj")
    mdir = paths.memory_dir(root)
    ms.write_jsonl(os.path.join(mdir, files.DECISIONS), [ms.decision(NOW - 90, SUMMARY)])
    assert invoke("memory", "forget", ids.entry_id("decision", SUMMARY), "--project", root).code == 0
    run = journal.runs(mdir)[0]["run"]
    fifo = os.path.join(journal.folder(mdir), "29990101-000000000000-abcd.json")
    os.mkfifo(fifo)  # why this name: it sorts first, so every reader meets it before the real run

    assert [data["run"] for data in call_beside([fifo], journal.runs, mdir)] == [run]
    assert call_beside([fifo], journal.unreadable_runs, mdir) == [(fifo, "not a regular file")]
