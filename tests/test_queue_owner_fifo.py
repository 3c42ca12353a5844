"""The queue's owner record (``<queue>/state/worker.owner``: the pid of the worker that took the queue)
and the worker's state (worker.json) were read with a plain ``open``: a FIFO in the record's place held a
worker that had just taken the queue's lock in open() for good (and every later worker with it), and
``lh status``; one in worker.json's place held the session start's "distillation is failing" line. Each
now reads as a missing or damaged file."""

import os

from lazy_harness.queue import consume, probe
from tests.support.fifo_wait import call_beside


def _fifo_owner(tmp_path) -> tuple[str, str]:
    q = str(tmp_path / "queue")
    fifo = os.path.join(q, consume.OWNER)
    os.makedirs(os.path.dirname(fifo))
    os.mkfifo(fifo)
    return q, fifo


def test_a_worker_taking_the_queue_passes_over_a_fifo_owner_record_and_records_itself(tmp_path):
    q, fifo = _fifo_owner(tmp_path)

    assert call_beside([fifo], consume.claim_queue, q) is None
    with open(fifo, encoding="utf-8") as fh:  # why plain: the worker wrote a regular file in the FIFO's place
        assert fh.read().split()[0] == str(os.getpid())


def test_the_queues_holder_reads_a_fifo_owner_record_as_none_without_waiting(tmp_path):
    q, fifo = _fifo_owner(tmp_path)

    assert call_beside([fifo], consume.holder, q) == (False, None, None)


def test_distill_trouble_passes_over_a_fifo_worker_state_without_waiting(tmp_path):
    q = str(tmp_path / "queue")
    os.makedirs(os.path.join(q, consume.FAILED))
    fifo = str(tmp_path / "worker.json")
    os.mkfifo(fifo)

    assert call_beside([fifo], probe.distill_trouble, q, fifo, lambda _: None) == (0, None)
