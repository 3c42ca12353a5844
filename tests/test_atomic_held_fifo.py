"""Whether another process holds a lock file (``atomic.held``: lh status, lh doctor, the hooks' probe of
the worker's lock) was asked by opening the file with a plain ``open``: a FIFO in the lock file's place
held the asker in open() until a writer came. It now reads as a lock nobody holds, as a missing file does."""

import os

from lazy_harness import atomic
from tests.support.fifo_wait import call_beside


def test_a_fifo_in_place_of_a_lock_file_is_held_by_nobody_without_waiting(tmp_path):
    fifo = str(tmp_path / ".worker.lock")
    os.mkfifo(fifo)

    assert call_beside([fifo], atomic.held, fifo) is False
