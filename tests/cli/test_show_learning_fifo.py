"""A FIFO named like a learning in the learnings folder: ``lh memory show`` read each learning file with
a plain ``open`` and waited on the FIFO for a writer for good. It lists the rest and names the file on
stderr in one line, as it names a memory file it cannot read."""

import os
import time

from lazy_harness import paths
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms
from tests.support.fifo_wait import HUNG, call_beside

NOW = time.time()


def test_show_names_a_fifo_in_a_learnings_place_and_lists_the_rest(tmp_path):
    root = ms.make_project(tmp_path, "alpha")
    ldir = paths.learnings_dir()
    ms.write_learning(ldir, "Feed the zebrafish tank twice a day", "alpha", NOW - 30, slug="tank", scope="project")
    fifo = ms.write_learning(ldir, "Pin the wheel", "alpha", NOW - 60, slug="wheel")
    os.remove(fifo)
    os.mkfifo(fifo)
    shown = call_beside([fifo], invoke, "memory", "show", "--section", "learnings", "--project", root)
    assert shown != HUNG
    assert shown.code == 0 and "Feed the zebrafish tank" in shown.out, shown
    said = [ln for ln in shown.err.splitlines() if fifo in ln]
    assert len(said) == 1 and "not a regular file" in said[0], shown.err
