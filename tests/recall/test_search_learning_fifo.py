"""A learning file replaced by a FIFO while the worker holds the index (the search then reads what the
index holds): ``lh memory search`` opened the hit's file with a plain ``open`` to label it, and waited
there for a writer for good. It now lists the rest and names the file on stderr in one line."""

import os
import time

from lazy_harness import paths
from lazy_harness.atomic import try_lock
from lazy_harness.recall.index import writer
from tests.cli.lhrun import invoke
from tests.support import memory_samples as ms
from tests.support.fifo_wait import HUNG, call_beside

NOW = time.time()


def test_search_names_a_fifo_in_a_learnings_place_without_waiting(tmp_path):
    root = ms.make_project(tmp_path, "alpha")
    ldir = paths.learnings_dir()
    path = ms.write_learning(ldir, "Pin the zebrafish wheel in the vendor folder", "alpha", NOW - 60, slug="wheel")
    ms.write_learning(ldir, "Feed the zebrafish tank twice a day", "alpha", NOW - 30, slug="tank")
    ms.index_now()
    os.remove(path)
    os.mkfifo(path)
    held = try_lock(writer.lock_file(paths.recall_index_file()))  # the worker writing: the index is read as it is
    assert held is not None
    try:
        found = call_beside([path], invoke, "memory", "search", "zebrafish", "--project", root)
    finally:
        os.close(held)
    assert found != HUNG
    assert "Feed the zebrafish tank" in found.out, found.out
    said = [ln for ln in found.err.splitlines() if path in ln]
    assert len(said) == 1 and "not a regular file" in said[0], found.err


def test_search_names_a_fifo_in_place_of_the_decisions_file(tmp_path):
    """As it named a folder there: the index reads past it, and nothing said why its decisions were gone."""
    root = ms.make_project(tmp_path, "alpha")
    ms.write_learning(paths.learnings_dir(), "Feed the zebrafish tank twice a day", "alpha", NOW - 30, slug="tank")
    os.makedirs(paths.memory_dir(root), exist_ok=True)
    decisions = os.path.join(paths.memory_dir(root), "decisions.jsonl")
    os.mkfifo(decisions)
    found = call_beside([decisions], invoke, "memory", "search", "zebrafish", "--project", root)
    assert found != HUNG and "Feed the zebrafish tank" in found.out, found
    said = [ln for ln in found.err.splitlines() if decisions in ln]
    assert len(said) == 1 and "not a regular file" in said[0], found.err
