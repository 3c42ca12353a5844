"""A FIFO in place of an append-only file ``atomic.append_line`` writes (a memory file, a ledger): its
open for reading and writing never waited, but the line went into the pipe, never to disk, and only the
``fsync`` after it failed (`Invalid argument`); a line longer than the pipe's buffer waited for good, the
only reader being the writer itself. It now refuses the FIFO before writing, naming the file."""

import os
import stat

import pytest

from lazy_harness import atomic
from lazy_harness.regular_file import NotRegularFile
from tests.support.fifo_wait import call_beside


def test_append_line_names_a_fifo_in_the_files_place_and_writes_nothing(tmp_path):
    fifo = str(tmp_path / "decisions.jsonl")
    os.mkfifo(fifo)
    with pytest.raises(NotRegularFile) as caught:
        call_beside([fifo], atomic.append_line, fifo, '{"id": "d1"}')
    assert caught.value.filename == fifo
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
