"""A task the worker died on too often goes to failed/ (queue.recover, called by the worker loop) and
lets go of the transcript kept for it (queue/retain.py), as every other finished task does."""

import os

from lazy_harness import queue
from lazy_harness.queue import retain

SID = "31313131-4242-4535-a6a6-979797979797"


def _fields(transcript: str) -> dict:
    return {"cwd": "/p", "session_jsonl": transcript, "session_id": SID, "memory_dir": "/m", "event": "SessionEnd",
            "forced": "1"}


def _poisoned(q: str, transcript: str) -> str:
    name = queue.enqueue(q, _fields(transcript))
    for _ in range(queue.MAX_INTERRUPTIONS - 1):
        assert queue.claim(q, name)
        assert queue.recover(q) == [(name, "requeued")]
    assert queue.claim(q, name)
    return name


def test_leftfx_a_poison_task_releases_its_kept_transcript(tmp_path):
    q = str(tmp_path / "queue")
    transcript = tmp_path / "s.jsonl"
    transcript.write_text('{"type":"user"}\n')
    name = _poisoned(q, str(transcript))
    kept = retain.kept_path(q, SID)
    assert os.path.exists(kept)
    assert queue.recover(q) == [(name, "poison")]
    assert not os.path.exists(kept)
    assert transcript.exists() and os.stat(transcript).st_nlink == 1


def test_leftfx_a_poison_task_keeps_the_transcript_of_a_newer_task_of_its_session(tmp_path):
    q = str(tmp_path / "queue")
    transcript = tmp_path / "s.jsonl"
    transcript.write_text('{"type":"user"}\n')
    name = _poisoned(q, str(transcript))
    queue.enqueue(q, _fields(str(transcript)))  # the next turn, queued while the dying claim stayed
    with open(os.path.join(q, queue.PROCESSING, name), encoding="utf-8") as fh:
        assert "interruptions=4" in fh.read()
    kept = retain.kept_path(q, SID)
    assert os.path.exists(kept)
    assert queue.recover(q) == [(name, "poison")]
    assert os.path.exists(kept)  # the newer task still reads it
