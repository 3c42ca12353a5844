"""The record of a project's last memory key was read with a plain ``open`` at every session start and by
the readers of aliases: a FIFO in its place held them in open() until a writer came. It now reads as a
record that cannot be read: no key."""

import os

from lazy_harness import paths
from lazy_harness.memory import last_key
from tests.support.fifo_wait import call_beside


def test_a_fifo_in_place_of_a_last_key_record_reads_as_none_without_waiting(isolated_home, tmp_path):
    fifo = paths.last_key_file(str(tmp_path / "demo"))
    last_key.private_folder(os.path.dirname(fifo))
    os.mkfifo(fifo)

    assert call_beside([fifo], last_key.read_record, fifo) == ("", None, "")
    assert call_beside([fifo], last_key.recorded_roots) == []
