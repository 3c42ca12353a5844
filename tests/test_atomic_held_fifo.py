"""Whether another process holds a lock file (``atomic.held``: lh status, lh doctor, the hooks' probe of
the worker's lock) was asked by opening the file with a plain ``open``: a FIFO in the lock file's place
held the asker in open() until a writer came. It now reads as a lock nobody holds, as a missing file does.
The same for a file's bytes (``atomic.read_bytes``): refused at once."""

import os

import pytest

from lazy_harness import atomic
from lazy_harness.regular_file import NotRegularFile
from tests.support.fifo_wait import call_beside


def test_a_fifo_in_place_of_a_lock_file_is_held_by_nobody_without_waiting(tmp_path):
    fifo = str(tmp_path / ".worker.lock")
    os.mkfifo(fifo)

    assert call_beside([fifo], atomic.held, fifo) is False


def test_the_bytes_of_a_fifo_in_a_files_place_are_refused_without_waiting(tmp_path):
    """``atomic.read_bytes`` (the journal's before and after of a memory file, the settings files'
    check before a write): a FIFO is named, not waited on; a missing file is still None."""
    fifo = str(tmp_path / "decisions.jsonl")
    os.mkfifo(fifo)

    with pytest.raises(NotRegularFile) as raised:
        call_beside([fifo], atomic.read_bytes, fifo)
    assert raised.value.filename == fifo
    assert atomic.read_bytes(str(tmp_path / "missing.jsonl")) is None
    (tmp_path / "plain.jsonl").write_bytes(b'{"a": 1}\n')
    assert atomic.read_bytes(str(tmp_path / "plain.jsonl")) == b'{"a": 1}\n'
