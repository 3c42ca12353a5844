"""A FIFO in a learning file's place: ``read_frontmatter_values`` (read by the prompt hook for a project
learning indexed before project keys were recorded, by the worker and the commands) waited in
``open()`` for a writer that never came. It reads as a file with no frontmatter now."""

import os

from lazy_harness.memory import frontmatter
from tests.support.fifo_wait import HUNG, call_beside


def test_a_fifo_reads_as_no_frontmatter(tmp_path):
    path = str(tmp_path / "2026-01-02-a-learning.md")
    os.mkfifo(path)
    got = call_beside([path], frontmatter.read_frontmatter_values, path, ("title", "origin"))
    assert got is not HUNG and got == {}


def test_a_fifo_reads_as_a_file_that_cannot_be_read(tmp_path):
    path = str(tmp_path / "2026-01-02-a-learning.md")
    os.mkfifo(path)
    got = call_beside([path], frontmatter.file_not_closed, path)
    assert got is not HUNG and got is False
