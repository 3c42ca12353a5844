"""The approvals adopted on this machine (``approvals-adopted.json``) were read with a plain ``open``
whenever an approval was checked (the session start's read-back among them): a FIFO in the file's place
held the start in open() until a writer came. It now reads as a missing or damaged file: none adopted."""

import os

from lazy_harness.memory import approval_key
from tests.support.fifo_wait import call_beside


def test_a_fifo_in_place_of_the_adopted_approvals_reads_as_none_without_waiting(isolated_home):
    fifo = approval_key.adopted_file()
    os.makedirs(os.path.dirname(fifo), exist_ok=True)
    os.mkfifo(fifo)

    assert call_beside([fifo], approval_key.adopted_data, None) == {}
