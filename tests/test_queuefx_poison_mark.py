"""A poison task (its worker killed MAX_INTERRUPTIONS times) leaves the session's check mark, as a
failed model call does: the idle sweep forgets the session until its transcript grows again, instead
of queueing it anew every ``idle_minutes`` for another round of killed (and charged) calls."""

import os
import shutil

import pytest

from lazy_harness import queue
from lazy_harness.queue import sweep

SID = "55555555-6666-4777-8888-999999999999"
IDLE = 60.0


@pytest.fixture
def q(tmp_path):
    d = str(tmp_path / "queue")
    queue.ensure_layout(d)
    return d


def _transcript(tmp_path, mtime: float) -> str:
    path = str(tmp_path / f"{SID}.jsonl")
    with open(path, "w") as fh:
        fh.write('{"type":"user"}\n')
    os.utime(path, (mtime, mtime))
    return path


def _poisoned(q: str, transcript: str) -> str:
    payload = {"session_id": SID, "transcript_path": transcript, "cwd": "/p"}
    sweep.watch(q, payload)
    name = queue.enqueue(q, {"cwd": "/p", "session_jsonl": transcript, "session_id": SID, "memory_dir": "/m",
                             "event": "SessionEnd", "forced": "1"})
    for _ in range(queue.MAX_INTERRUPTIONS - 1):
        assert queue.claim(q, name)
        assert queue.recover(q) == [(name, "requeued")]
    assert queue.claim(q, name)
    assert queue.recover(q) == [(name, "poison")]
    return name


def test_queuefx_a_poison_task_marks_the_session_checked_with_an_error(q, tmp_path):
    transcript = _transcript(tmp_path, 1_000_000.0)
    name = _poisoned(q, transcript)
    assert queue.last_check(q, SID) == (1_000_000.0, queue.ERROR)
    record = queue.read_task(os.path.join(q, "failed", name))
    assert (record["transcript_mtime"], record["check"]) == (repr(1_000_000.0), queue.ERROR)


def test_queuefx_the_sweep_does_not_queue_a_poisoned_session_again_until_it_grows(q, tmp_path):
    transcript = _transcript(tmp_path, 1_000_000.0)
    _poisoned(q, transcript)
    now = 1_000_000.0 + 10 * IDLE
    assert sweep.sweep(q, now, IDLE) == []
    assert queue.pending(q) == []
    assert not os.path.exists(os.path.join(q, queue.OPEN, SID))  # checked as it is now: forgotten
    # a new turn: the session's next hook watches it again, and the sweep queues what is new
    sweep.watch(q, {"session_id": SID, "transcript_path": transcript, "cwd": "/p"})
    os.utime(transcript, (now + 5, now + 5))
    assert len(sweep.sweep(q, now + 5 + 2 * IDLE, IDLE)) == 1


def test_queuefx_growth_after_the_last_attempt_began_is_still_new(q, tmp_path):
    """recover() may run long after the kill: a turn written after the killed attempt took its task
    is not covered by the mark, so the sweep still queues it."""
    transcript = _transcript(tmp_path, 1_000_000.0)
    payload = {"session_id": SID, "transcript_path": transcript, "cwd": "/p"}
    sweep.watch(q, payload)
    name = queue.enqueue(q, {"cwd": "/p", "session_jsonl": transcript, "session_id": SID, "memory_dir": "/m",
                             "event": "SessionEnd", "forced": "1", "interruptions": "4"})
    assert queue.claim(q, name)
    taken = os.stat(os.path.join(q, "processing", name)).st_mtime
    os.utime(transcript, (taken + 100, taken + 100))  # the session went on after the worker died
    assert queue.recover(q) == [(name, "poison")]
    mark = queue.last_check(q, SID)
    assert mark is not None and mark[1] == queue.ERROR and mark[0] < taken + 100
    assert len(sweep.sweep(q, taken + 100 + 2 * IDLE, IDLE)) == 1


def test_queuefx_a_poison_task_keeps_a_newer_mark(q, tmp_path):
    transcript = _transcript(tmp_path, 1_000_000.0)
    queue.mark_done(q, SID, 2_000_000.0, 2_000_000.0, queue.DISTILLED)
    _poisoned(q, transcript)
    assert queue.last_check(q, SID) == (2_000_000.0, queue.DISTILLED)


def test_queuefx_a_kill_between_the_poison_record_and_its_mark_leaves_the_mark(q, tmp_path):
    transcript = _transcript(tmp_path, 1_000_000.0)
    name = _poisoned(q, transcript)
    os.unlink(queue.state_file(q, SID, "done"))  # as if killed before the mark was written
    shutil.copy(os.path.join(q, "failed", name), os.path.join(q, "processing", name))
    assert queue.recover(q) == [(name, "already finished")]
    assert queue.last_check(q, SID) == (1_000_000.0, queue.ERROR)


def test_queuefx_a_session_end_after_a_poison_task_is_skipped_while_the_transcript_is_unchanged(q, tmp_path):
    """A SessionEnd queued after the task died five times would die five times more: skipped unless the
    transcript grew (or the person asks: lh queue retry, handoff-now)."""
    from lazy_harness.worker import one_task

    transcript = _transcript(tmp_path, 1_000_000.0)
    _poisoned(q, transcript)
    fields = {"cwd": "/p", "session_jsonl": transcript, "session_id": SID, "event": "SessionEnd"}
    skipped = one_task._failed_before(q, fields)
    assert skipped is not None and skipped.status == "skipped", skipped
    assert one_task._failed_before(q, dict(fields, event="retry")) is None
    os.utime(transcript, (1_000_100.0, 1_000_100.0))  # a new turn
    assert one_task._failed_before(q, fields) is None
