"""``lh memory usage --reset ID`` while the worker recounts usage: the reset stays in the ranks file.
Without a lock, the worker's tally read before the reset was written after it, and the read-back's
budget cuts ranked ID by its old counts until that project's next recount."""

import threading
import time

from lazy_harness import paths
from lazy_harness.memory import usage, usage_log
from tests.support import memory_samples as ms

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

    at_write, go, reset_waits = threading.Event(), threading.Event(), threading.Event()
    real_write, real_lock = usage_log.atomic_write, getattr(usage_log, "_ranks_lock", None)

    def paused_write(path, *args, **kwargs):
        if threading.current_thread().name == "worker":
            at_write.set()  # the worker has tallied usage.jsonl as it was before the reset
            assert go.wait(30)
        return real_write(path, *args, **kwargs)

    def lock_seen(path):
        if threading.current_thread().name == "reset":
            reset_waits.set()  # the reset waits for the worker's recount to be written
        return real_lock(path)

    def resetting():
        try:
            usage_log.reset(None, mdir, EID, now)
        finally:
            reset_waits.set()  # or it ran to its end while the worker was paused

    monkeypatch.setattr(usage_log, "atomic_write", paused_write)
    monkeypatch.setattr(usage_log, "_ranks_lock", lock_seen, raising=False)
    worker = threading.Thread(target=usage_log.refresh_ranks, args=(None, mdir), name="worker")
    worker.start()
    assert at_write.wait(30)
    reset = threading.Thread(target=resetting, name="reset")
    reset.start()
    assert reset_waits.wait(30)
    go.set()
    worker.join(30)
    reset.join(30)
    assert not worker.is_alive() and not reset.is_alive()

    truth = usage_log.tally(usage_log.read(mdir)).entries.get(EID)
    assert truth is None or (len(truth.shown), len(truth.used)) == (0, 0)  # what usage.jsonl says
    assert _counts(ranks, EID) in (None, (0, 0))
