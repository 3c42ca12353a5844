"""A waiting task's transcript survives Claude Code's cleanupPeriodDays: a hard link made at enqueue."""

import os

import pytest

from lazy_harness import paths, queue
from lazy_harness.queue import retain
from tests.support import fake_claude
from tests.support.sessions import place
from tests.worker.spendrig import configure, run_worker, spent, tasks

# why: spend written at the wall clock, "today" taken by the code's own clock: one local day for both
pytestmark = pytest.mark.usefixtures("one_local_day")


@pytest.fixture
def project(tmp_path):
    p = tmp_path / "shop"
    p.mkdir()
    return p


def _enqueue(payload) -> str:
    return queue.enqueue(paths.queue_dir(), queue.task_fields(payload, "SessionEnd", True))


def test_enqueue_links_the_transcript(isolated_home, project):
    payload = place(project)
    _enqueue(payload)
    kept = retain.kept_path(paths.queue_dir(), payload["session_id"])
    assert os.path.samefile(kept, payload["transcript_path"])  # a link: no copy, sees later appends
    _enqueue(payload)  # queued again: the same link stays
    assert os.stat(payload["transcript_path"]).st_nlink == 2


def test_a_transcript_deleted_while_waiting_is_still_distilled(isolated_home, tmp_path, monkeypatch, project):
    fake = fake_claude.use(tmp_path, monkeypatch)
    configure(isolated_home, budget={"daily_usd": 1.0})
    spent(1.0)
    payload = place(project)
    _enqueue(payload)
    assert run_worker().paused  # waits behind the cap
    os.unlink(payload["transcript_path"])  # cleanupPeriodDays went by
    configure(isolated_home, budget={"daily_usd": 5.0})
    assert run_worker().processed == 1
    assert "We need to decide how the billing service" in fake_claude.calls(fake)[0]["stdin"]
    assert not os.path.exists(retain.kept_path(paths.queue_dir(), payload["session_id"]))  # done: released
    assert tasks("done")[0]["outcome"] == "processed"


def test_release_keeps_the_link_while_a_task_of_the_session_waits(isolated_home, project):
    payload = place(project)
    _enqueue(payload)
    q = paths.queue_dir()
    retain.release(q, payload["session_id"])
    assert os.path.exists(retain.kept_path(q, payload["session_id"]))


def test_where_no_link_can_be_made_the_hook_copies_nothing_and_the_worker_copies_a_waiting_task(
        isolated_home, tmp_path, monkeypatch, project):
    """Another filesystem: the hook's enqueue keeps nothing (a copy of a long transcript took it a
    second), the worker copies the transcript of a task left waiting behind the cap, again only once
    the transcript grew, and that copy is what it distills once the original is gone."""
    fake = fake_claude.use(tmp_path, monkeypatch)
    configure(isolated_home, budget={"daily_usd": 1.0})
    spent(1.0)
    payload = place(project)

    real = os.link

    def no_links(src, dst, **kw):  # the transcript is on another filesystem than the queue
        if os.sep + retain.KEPT + os.sep in str(dst):
            raise OSError(18, "Invalid cross-device link")
        return real(src, dst, **kw)

    monkeypatch.setattr(os, "link", no_links)
    q = paths.queue_dir()
    kept = retain.kept_path(q, payload["session_id"])
    _enqueue(payload)
    assert not os.path.exists(kept)
    assert run_worker().paused  # waits behind the cap: now its transcript is kept
    assert not os.path.samefile(kept, payload["transcript_path"])
    assert open(kept, "rb").read() == open(payload["transcript_path"], "rb").read()
    ino = os.stat(kept).st_ino
    assert retain.keep_waiting(q) == []  # as new as the original: not copied again
    with open(payload["transcript_path"], "a", encoding="utf-8") as fh:
        fh.write("\n")
    assert retain.keep_waiting(q) == [payload["session_id"]] and os.stat(kept).st_ino != ino
    os.unlink(payload["transcript_path"])  # cleanupPeriodDays went by
    configure(isolated_home, budget={"daily_usd": 5.0})
    assert run_worker().processed == 1
    assert "We need to decide how the billing service" in fake_claude.calls(fake)[0]["stdin"]
    assert [n for n in os.listdir(os.path.dirname(kept)) if n.endswith(".tmp")] == []


def test_only_regular_files_are_kept(isolated_home, tmp_path):
    q = paths.queue_dir()
    assert retain.hold(q, "s1", str(tmp_path)) is None
    assert retain.hold(q, "s1", str(tmp_path / "missing.jsonl")) is None
    assert not os.path.exists(os.path.join(q, retain.KEPT, "s1.jsonl"))
