"""The verdicts kept of a project's texts (``.cache/lazy-harness/verdicts/<key>.json``) were read with a
plain ``open`` at every session start: a FIFO in the file's place held the start in open() until a
writer came. It now reads as a missing or damaged file did: nothing kept, every text worked out again."""

import os

from lazy_harness.memory import verdicts
from tests.support.fifo_wait import call_beside


def test_a_fifo_in_place_of_the_kept_verdicts_reads_as_none_kept_without_waiting(tmp_path):
    fifo = str(tmp_path / "demo.json")
    os.mkfifo(fifo)

    kept = call_beside([fifo], verdicts.Kept, fifo)

    assert kept != "hung" and kept.known == {}
