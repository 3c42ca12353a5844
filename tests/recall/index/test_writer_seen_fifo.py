"""The index writer's record of what it saw of a folder (``<recall>/seen/<key>``, ``seen/#learnings``) was
read with a plain ``open`` when the session start asked whether the index is behind: a FIFO in its place
held the start in open() until a writer came. It now reads as no record: the index is behind."""

import json
import os

from lazy_harness import paths
from lazy_harness.recall.index import writer
from tests.support.fifo_wait import call_beside


def test_a_fifo_in_place_of_the_writers_record_reads_as_behind_without_waiting(isolated_home, tmp_path):
    mdir = str(tmp_path / "demo")
    os.makedirs(mdir)
    (tmp_path / "demo" / "decisions.jsonl").write_text(json.dumps({"summary": "a"}) + "\n")
    fifo = writer.seen_file(paths.recall_index_file(), mdir)
    os.makedirs(os.path.dirname(fifo), exist_ok=True)
    os.mkfifo(fifo)

    assert call_beside([fifo], writer.behind, None, mdir, None) is True
