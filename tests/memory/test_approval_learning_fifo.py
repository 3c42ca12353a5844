"""A learning's file is read whole by the hold check (a sync round's arrivals, what it wrote) and by the
check of a learning's approval (the session start's read-back) with a plain ``open``: a FIFO named as a
learning held each of them in open() until a writer came. It now reads as an unreadable learning did:
no frontmatter and no text, so nothing it claims is counted as approved."""

import os

from lazy_harness.memory import approval
from tests.support.fifo_wait import call_beside


def test_a_fifo_named_as_a_learning_reads_as_unreadable_without_waiting(tmp_path):
    fifo = str(tmp_path / "cache-the-rates.md")
    os.mkfifo(fifo)

    assert call_beside([fifo], approval.learning_parts, fifo) is None
    assert call_beside([fifo], approval.learning_text, fifo) == ({}, "")

