"""A FIFO in place of a memory file the index's writer reads (decisions.jsonl, failures.jsonl, a learning
file): the writer held it in ``open()`` for good (``sources.check``, ``sources.read_learning``), and with
it the index's lock: ``lh memory reindex`` and ``lh memory search`` never ended, the worker never ended
(holding the worker's lock: no session distilled again) and every later writer waited behind it. Now
such a file is a file that cannot be read: nothing of it indexed, the rest is."""

import os
import time

import pytest

from lazy_harness import paths
from lazy_harness.memory import files
from lazy_harness.recall.index import writer
from tests.recall.index.test_writer import rows
from tests.support import memory_samples as ms
from tests.support.fifo_wait import HUNG, call_beside

NOW = time.time()


@pytest.fixture
def indexed(tmp_path):
    root = ms.make_project(tmp_path, "proj")
    mem, ldir = paths.memory_dir(root), paths.learnings_dir()
    ms.write_jsonl(os.path.join(mem, files.DECISIONS), [ms.decision(NOW - 9, "Keep the stylesheet in one file")])
    ms.write_jsonl(os.path.join(mem, files.FAILURES), [ms.failure(NOW - 8, "The queue stalled", "restart it")])
    learning = ms.write_learning(ldir, "Stripe sends webhook events out of order", "proj", NOW - 7,
                                 learning="Stripe does not guarantee the order of webhook events.")
    assert writer.update(paths.recall_index_file(), [mem], ldir)[0] == 3
    return mem, ldir, learning


@pytest.mark.parametrize("name", [files.DECISIONS, files.FAILURES, "learning"])
def test_a_fifo_in_a_memory_files_place_does_not_hold_the_writer(indexed, name):
    mem, ldir, learning = indexed
    path = learning if name == "learning" else os.path.join(mem, name)
    os.unlink(path)
    os.mkfifo(path)
    got = call_beside([path], writer.update, paths.recall_index_file(), [mem], ldir)
    assert got is not HUNG, f"the writer waited on the FIFO {path}"
    assert rows(paths.recall_index_file())[0] == 2  # the other two entries stay; the FIFO's is gone
