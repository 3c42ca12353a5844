"""A FIFO in place of an append-only memory file that ``atomic.rewrite`` changes (``lh memory forget``,
an undo, a persist's rollback in the worker): it opened the file with a plain ``os.open`` and waited
there for a writer for good. It now raises the error naming the file, and writes nothing in its place."""

import os
import stat

import pytest

from lazy_harness import atomic
from lazy_harness.regular_file import NotRegularFile
from tests.support.fifo_wait import call_beside


def test_rewrite_names_a_fifo_in_the_files_place_without_waiting(tmp_path):
    fifo = str(tmp_path / "decisions.jsonl")
    os.mkfifo(fifo)
    with pytest.raises(NotRegularFile) as caught:
        call_beside([fifo], atomic.rewrite, fifo, lambda data: data + b"x\n")
    assert caught.value.filename == fifo
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
