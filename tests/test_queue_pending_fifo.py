"""The session's pending marker (``<queue>/state/<session>.pending``) was read with a plain ``open`` when a
Stop or SessionEnd hook queued the session: a FIFO in its place held the hook in open() until a writer
came. It is now taken as a missing marker: the task is queued and its marker written in the FIFO's place."""

import os

from lazy_harness import queue
from tests.support.fifo_wait import call_beside

SID = "11111111-2222-3333-4444-555555555555"


def test_a_fifo_in_place_of_the_pending_marker_does_not_hold_the_enqueue(tmp_path):
    q = str(tmp_path / "queue")
    queue.ensure_layout(q)
    fifo = queue.state_file(q, SID, "pending")
    os.mkfifo(fifo)
    fields = {"cwd": "/p", "session_jsonl": "/t.jsonl", "session_id": SID, "memory_dir": "/m", "event": "Stop",
              "forced": "0"}

    name = call_beside([fifo], queue.enqueue, q, fields, now=1700000000.5)

    assert os.path.isfile(os.path.join(q, name))
    assert queue.read_state(q, SID, "pending")[0] == name
