"""``lh memory reindex`` when another writer lets go of the index within the first second: it says it
waited (it did not rebuild) and what the index holds, not "rebuilt: indexed 0 entries"."""

import os
import time

from lazy_harness import paths
from lazy_harness.atomic import try_lock
from lazy_harness.recall.index import writer
from tests.cli.lhrun import invoke
from tests.recall.index.test_writer import big_memory, rows


def test_reindex_that_waited_under_a_second_says_it_waited_and_what_the_index_holds(tmp_path, monkeypatch):
    _, mem = big_memory(tmp_path, 12)
    path = paths.recall_index_file()
    assert writer.update(path, [mem], None) == (12, 24)
    held = try_lock(writer.lock_file(path))
    assert held is not None
    real_sleep, slept = time.sleep, []

    def sleep(seconds: float) -> None:  # the other writer lets go while reindex waits its first second
        slept.append(seconds)
        if len(slept) == 1:
            os.close(held)
        real_sleep(0)

    monkeypatch.setattr(time, "sleep", sleep)
    got = invoke("memory", "reindex")
    assert got.code == 0, got
    assert slept, "reindex never waited: the lock was not held"
    lines = got.out.splitlines()
    assert lines[0].startswith("waiting for the index build running now (12 entries indexed so far"), got.out
    assert lines[-1].startswith("brought up to date after the build that was running"), got.out
    assert "the index holds 12 entries" in lines[-1], got.out
    assert rows(path)[:2] == (12, 12)


def test_reindex_alone_says_rebuilt_and_what_the_index_holds(tmp_path):
    _, mem = big_memory(tmp_path, 7)
    path = paths.recall_index_file()
    got = invoke("memory", "reindex")
    assert got.code == 0, got
    assert got.out.startswith("rebuilt: indexed 7 entries"), got.out
    assert "the index holds 7 entries" in got.out, got.out
    assert rows(path)[:2] == (7, 7)
