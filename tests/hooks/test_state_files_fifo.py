"""A FIFO in place of one of the small files SessionStart reads beside the queue or in the cache: the
worker's notice (``<queue>/state/notice``), the line kept for a disk found full (``<queue>/state/storage``),
the held entries already told (``<queue>/state/held-told``), the ids ``lh sync`` brought in
(``<queue>/state/synced-in``) and the usage ranks of the project's entries (``<cache>/usage/<key>.counts``).
Each was read with a plain ``open``, which waited there for a writer until Claude Code killed the hook:
every session started without memory. Each is read as no file now, never waited on."""

import os
import subprocess
import time

import pytest

from lazy_harness import notice, paths
from lazy_harness.memory import files, usage
from tests.hooks.test_readback_review_damaged import _start
from tests.support import memory_samples as ms

NOW = time.time()


def _state(name: str) -> str:
    return os.path.join(paths.state_dir(), name)


PLACES = {
    "notice": lambda mem: paths.notice_file(),
    "storage": lambda mem: _state(notice.STORAGE),
    "held-told": lambda mem: _state("held-told"),
    "synced-in": lambda mem: paths.synced_in_file(),
    "usage-ranks": lambda mem: usage.ranks_file(None, mem),
}


@pytest.mark.parametrize("place", list(PLACES))
def test_a_fifo_in_place_of_a_state_file_does_not_hold_the_start(isolated_home, tmp_path, place):
    project = ms.make_project(tmp_path, "demo")
    mem = paths.memory_dir(project)
    ms.write_jsonl(os.path.join(mem, files.DECISIONS), [ms.decision(NOW - 9000, "ship the ledger export", "r",
                                                                    project="demo")])
    ms.write_learning(paths.learnings_dir(None), "ledger exports are idempotent", "demo", NOW - 100,
                      learning="a marker")
    fifo = PLACES[place](mem)
    os.makedirs(os.path.dirname(fifo), mode=0o700, exist_ok=True)
    os.mkfifo(fifo)
    try:
        text = _start(project)
    except subprocess.TimeoutExpired:  # why caught: the hook held in open() until its timeout
        text = None
    assert text is not None and "ship the ledger export" in text and "ledger exports are idempotent" in text
    assert os.path.exists(fifo)  # read as no file, left where it is
