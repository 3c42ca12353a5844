"""worker.json as lh status, lh doctor and lh hooks status read it was opened with a plain ``open``: a FIFO
in its place held each command in open() until a writer came. It is now named as a worker.json that cannot
be read, as a folder in its place was."""

import os

from lazy_harness import paths
from lazy_harness.cli import hooks_worker
from tests.support.fifo_wait import call_beside


def test_a_fifo_in_place_of_worker_json_is_named_unreadable_without_waiting(isolated_home):
    fifo = os.path.join(paths.state_dir(), "worker.json")
    os.makedirs(os.path.dirname(fifo), exist_ok=True)
    os.mkfifo(fifo)

    state = call_beside([fifo], hooks_worker.worker_state)

    assert state == {hooks_worker.UNREADABLE: f"cannot read {fifo}: not a regular file"}
