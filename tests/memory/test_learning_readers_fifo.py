"""The learning readers of the commands that change or judge a learning (``lh memory forget`` and
``approve``, ``check``, the copy rule of every view, the read-back's damage check) opened the file with a
plain ``open``: a FIFO named as a learning held each of them until a writer came. Each now reads it as a
file that cannot be read, without waiting."""

import os

from lazy_harness.memory import held_review, learning_damage, learnings
from tests.support.fifo_wait import call_beside


def test_a_fifo_named_as_a_learning_holds_no_reader(tmp_path):
    fifo = str(tmp_path / "2026-01-02-pin-the-wheel.md")
    os.mkfifo(fifo)
    assert call_beside([fifo], held_review.copy_text, fifo, seconds=5) == fifo  # unreadable: its path
    assert call_beside([fifo], learnings.damaged, fifo, seconds=5) is None
    assert call_beside([fifo], learning_damage.refusal, fifo, seconds=5) is None
