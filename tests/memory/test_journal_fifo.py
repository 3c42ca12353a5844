"""memory/journal_format.py and memory/journal.py read every journal of a project (``lh memory history``,
``lh memory undo``, the page, a forget's give-back) with a plain ``open``: a FIFO named as a journal
held each of them in open() until a writer came. It is now one unreadable journal like any other: left
out of the runs, and named with why."""

import os

from lazy_harness.memory import journal
from tests.memory.test_journal_nested_json import forgotten_run
from tests.support.fifo_wait import call_beside


def test_a_fifo_named_as_a_journal_is_left_out_and_named_without_waiting(tmp_path):
    _, mdir, run = forgotten_run(tmp_path)
    fifo = os.path.join(journal.folder(mdir), "29990101-000000000000-abcd.json")
    os.mkfifo(fifo)  # why this name: it sorts first, so every reader meets it before the real run

    assert [data["run"] for data in call_beside([fifo], journal.runs, mdir)] == [run]
    assert call_beside([fifo], journal.unreadable_runs, mdir) == [(fifo, "not a regular file")]
