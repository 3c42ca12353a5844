"""The worker's state (worker.json: its last run, its last success) was read with a plain ``open`` at the
end of each drain: a FIFO in its place held the worker in open() for good. It now reads as a missing or
damaged state: none."""

import os

from lazy_harness.worker import loop
from tests.support.fifo_wait import call_beside


def test_a_fifo_in_place_of_the_workers_state_reads_as_none_without_waiting(isolated_home):
    fifo = loop.state_file()
    os.makedirs(os.path.dirname(fifo), exist_ok=True)
    os.mkfifo(fifo)

    assert call_beside([fifo], loop.read_state) == {}
