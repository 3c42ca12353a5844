"""A task whose call times out (or meets a usage limit) while its session's next turn queued a newer
task: the newer one takes over its wait and its counts (worker/waiting.py), as a task replaced while
pending does (queue/produce.py): a call that always times out still reaches max_attempts."""

import os
import time

import pytest

from lazy_harness import queue
from lazy_harness.worker import waiting
from tests.test_queue import _fields as queue_fields

SID = "12121212-3434-4565-8787-909090909090"


def _fields(**extra: str) -> dict:
    return queue_fields(SID, **extra)


@pytest.fixture
def q(tmp_path):
    d = str(tmp_path / "queue")
    queue.ensure_layout(d)
    return d


def _mid_call_then_newer(q: str, newer_event: str = "Stop") -> tuple[str, dict, str]:
    """The session's task claimed (its call under way), then a newer task queued by the next turn."""
    old = queue.enqueue(q, _fields(), now=time.time() - 10)
    assert queue.claim(q, old)
    fields = queue.read_task(os.path.join(q, queue.PROCESSING, old))
    fields["task_id"] = queue.task_id(old)
    fields["timeouts"] = "2"  # what one_task counted for this call and the ones before
    newer = queue.enqueue(q, _fields(event=newer_event), now=time.time())
    assert queue.read_task(os.path.join(q, newer)).get("timeouts") is None
    return old, fields, newer


def test_leftfx_a_timed_out_call_hands_its_wait_and_counts_to_the_newer_task(q):
    old, fields, newer = _mid_call_then_newer(q)
    now = time.time()
    assert waiting.requeue(q, old, fields, "no answer within 1 s", now, False, first_wait=60.0) == "superseded"
    task = queue.read_task(os.path.join(q, newer))
    assert task["timeouts"] == "2" and task["waits"] == "1"
    assert float(task["not_before"]) == pytest.approx(now + 60.0)
    assert task["wait_reason"] == "no answer within 1 s"
    assert task["event"] == "Stop"


def test_leftfx_a_usage_limit_keeps_the_newer_task_until_the_reset(q):
    old, fields, newer = _mid_call_then_newer(q)
    now = time.time()
    reset = now + 3 * 3600
    assert waiting.requeue(q, old, fields, "usage limit reached", now, False, until=reset) == "superseded"
    task = queue.read_task(os.path.join(q, newer))
    assert float(task["not_before"]) == pytest.approx(reset)
    assert task["wait_reason"] == "usage limit reached"


@pytest.mark.parametrize("event", ["handoff-now", "retry"])
def test_leftfx_what_the_person_asked_for_starts_afresh(q, event):
    old, fields, newer = _mid_call_then_newer(q, newer_event=event)
    assert waiting.requeue(q, old, fields, "no answer within 1 s", time.time(), False) == "superseded"
    task = queue.read_task(os.path.join(q, newer))
    assert "timeouts" not in task and "not_before" not in task and "waits" not in task
    assert task["event"] == event


def test_leftfx_an_asked_task_handed_over_keeps_its_event_and_its_wait(q):
    """Like a pending task replaced (queue/produce.py _merged): the asked event and the wait both pass."""
    old = queue.enqueue(q, _fields(event="handoff-now"), now=time.time() - 10)
    assert queue.claim(q, old)
    fields = queue.read_task(os.path.join(q, queue.PROCESSING, old))
    fields["task_id"] = queue.task_id(old)
    newer = queue.enqueue(q, _fields(), now=time.time())
    now = time.time()
    assert waiting.requeue(q, old, fields, "no answer within 1 s", now, False, first_wait=60.0) == "superseded"
    task = queue.read_task(os.path.join(q, newer))
    assert task["event"] == "handoff-now" and task["waits"] == "1" and float(task["not_before"]) > now
