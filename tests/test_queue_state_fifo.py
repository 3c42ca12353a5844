"""A session's state files in the queue (``<queue>/state/<session>.seen`` and the others) were read with a
plain ``open`` by the hooks after every turn: a FIFO in one's place held SessionStart, the prompt and
Stop hooks in open() until a writer came. It now reads as a missing file: no state."""

import os

from lazy_harness.queue import state
from tests.support.fifo_wait import call_beside

SID = "5b2f7c11-8e3a-4d69-a0b4-2c9d7e1f6a83"


def test_a_fifo_in_place_of_a_sessions_state_file_reads_as_no_state_without_waiting(tmp_path):
    fifo = state.state_file(str(tmp_path), SID, "seen")
    os.makedirs(os.path.dirname(fifo))
    os.mkfifo(fifo)

    assert call_beside([fifo], state.read_state, str(tmp_path), SID, "seen") == []
