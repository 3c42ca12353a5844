"""A task that replaces a waiting one of its session keeps the wait: its count of timed-out calls
(``compound_loop.max_attempts`` still fails it), its count of waits (the next wait keeps doubling)
and, while it is still to come, the time it waits for with its reason (a usage limit's reset: no
call before it). Only what the person asks for (``lh knowledge handoff-now``, ``lh queue retry``)
starts afresh."""

import os

import pytest

from lazy_harness import queue
from lazy_harness.worker import waiting

SID = "66666666-7777-4888-9999-aaaaaaaaaaaa"
NOW = 1_700_000_000.0
LIMIT = "the account's usage limit is reached (claude reported an error: You've hit your limit · resets 11pm (UTC))"


@pytest.fixture
def q(tmp_path):
    d = str(tmp_path / "queue")
    queue.ensure_layout(d)
    return d


def _fields(**extra):
    base = {"cwd": "/p", "session_jsonl": "/t.jsonl", "session_id": SID, "memory_dir": "/m", "event": "Stop",
            "forced": "0"}
    base.update(extra)
    return base


def _waiting(q: str, until: float | None, timeouts: str | None = None) -> str:
    """The session's Stop task, taken by a worker and put back to wait (until ``until``, else the
    doubling wait from NOW)."""
    name = queue.enqueue(q, _fields(), now=NOW - 10)
    assert queue.claim(q, name)
    fields = queue.read_task(os.path.join(q, "processing", name))
    if timeouts:
        fields["timeouts"] = timeouts
    reason = LIMIT if until else "no answer within 1 s"
    assert waiting.requeue(q, name, fields, reason, NOW, False, 60.0, until) == "waiting"
    return name


def _one(q: str) -> dict:
    [name] = queue.pending(q)
    return queue.read_task(os.path.join(q, name))


@pytest.mark.parametrize("event", ["Stop", "SessionEnd"])
def test_queuefx_a_task_that_replaces_one_waiting_for_a_limit_waits_as_long(q, event):
    old = _waiting(q, NOW + 3 * 3600)
    queue.enqueue(q, _fields(event=event), now=NOW + 60)
    task = _one(q)
    assert task["replaces"] == queue.task_id(old)
    assert float(task["not_before"]) == NOW + 3 * 3600
    assert task["wait_reason"].startswith("the account's usage limit is reached")
    assert task["waits"] == "1"
    assert waiting.ready(q, queue.pending(q), NOW + 60) == []  # no call before the reset


def test_queuefx_a_task_that_replaces_a_timed_out_one_keeps_its_count(q):
    _waiting(q, None, timeouts="2")
    queue.enqueue(q, _fields(), now=NOW + 30)
    task = _one(q)
    assert (task["timeouts"], task["waits"]) == ("2", "1")
    assert float(task["not_before"]) == NOW + 60
    assert task["wait_reason"] == "no answer within 1 s"
    # and the task after it too: each replacement keeps the count
    queue.enqueue(q, _fields(event="SessionEnd"), now=NOW + 40)
    assert (_one(q)["timeouts"], _one(q)["waits"]) == ("2", "1")


def test_queuefx_a_wait_already_over_is_not_carried_but_the_counts_are(q):
    _waiting(q, None, timeouts="1")
    queue.enqueue(q, _fields(), now=NOW + 61)
    task = _one(q)
    assert "not_before" not in task and "wait_reason" not in task
    assert (task["timeouts"], task["waits"]) == ("1", "1")


@pytest.mark.parametrize("asked", ["handoff-now", "retry"])
def test_queuefx_what_the_person_asks_for_starts_afresh(q, asked):
    _waiting(q, NOW + 3 * 3600, timeouts="2")
    queue.enqueue(q, _fields(event=asked, forced="1"), now=NOW + 60)
    task = _one(q)
    assert task["event"] == asked
    assert not {"timeouts", "waits", "not_before", "wait_reason"} & set(task)
    # a later turn replacing the asked-for task keeps its event and has no wait to keep
    queue.enqueue(q, _fields(), now=NOW + 120)
    task = _one(q)
    assert task["event"] == asked and not {"timeouts", "waits", "not_before", "wait_reason"} & set(task)
