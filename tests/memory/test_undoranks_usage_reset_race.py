"""``lh memory usage --reset ID`` while the worker recounts usage: the reset stays in the ranks file.
Without a lock, the worker's tally read before the reset was written after it, and the read-back's
budget cuts ranked ID by its old counts until that project's next recount."""

import threading
import time

from lazy_harness import paths
from lazy_harness.memory import usage, usage_log
from tests.support import memory_samples as ms
from tests.support import pausing

EID = "d-0123abcd"


def _counts(path: str, eid: str) -> tuple[int, int] | None:
    with open(path, encoding="utf-8") as fh:
        for row in fh:
            parts = row.split()
            if parts and parts[0] == eid:
                return int(parts[1]), int(parts[2])
    return None


def test_a_reset_during_a_recount_waits_for_it_and_stays(tmp_path, monkeypatch):
    mdir = paths.memory_dir(ms.make_project(str(tmp_path), "proj"))
    now = time.time()
    usage_log.append(mdir, [usage_log.line("shown", now - 100 - i, session=f"s{i}", id=EID, chars=10)
                            for i in range(5)]
                     + [usage_log.line("used", now - 90 - i, session=f"s{i}", id=EID) for i in range(3)])
    usage_log.refresh_ranks(None, mdir)
    ranks = usage.ranks_file(None, mdir)
    assert _counts(ranks, EID) == (5, 3)

    # the worker has tallied usage.jsonl as it was before the reset, and not written the ranks yet
    at_write = pausing.pause(monkeypatch, usage_log, "atomic_write", "worker")
    reset_waits = threading.Event()  # the reset waits for the worker's recount to be written
    pausing.on_lock(monkeypatch, usage_log, "_ranks_lock", "reset", reset_waits)
    worker = pausing.run("worker", usage_log.refresh_ranks, None, mdir)
    at_write.wait()
    reset = pausing.run("reset", usage_log.reset, None, mdir, EID, now, ended=reset_waits)  # or it ran to its end
    pausing.wait_for(reset_waits, "the reset neither reached the ranks lock nor ended")
    at_write.go()
    worker.join()
    reset.join()

    truth = usage_log.tally(usage_log.read(mdir)).entries.get(EID)
    assert truth is None or (len(truth.shown), len(truth.used)) == (0, 0)  # what usage.jsonl says
    assert _counts(ranks, EID) in (None, (0, 0))
