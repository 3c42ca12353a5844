import os
import subprocess
import sys

import pytest

from lazy_harness import queue


def _fields(sid="11111111-2222-3333-4444-555555555555", **extra):
    base = {"cwd": "/p", "session_jsonl": "/t.jsonl", "session_id": sid, "memory_dir": "/m", "event": "Stop",
            "forced": "0"}
    base.update(extra)
    return base


@pytest.fixture
def q(tmp_path):
    d = str(tmp_path / "queue")
    queue.ensure_layout(d)
    return d


def test_task_round_trips_any_characters():
    fields = {"cwd": "/a b/c\nd\\e=f", "x": "é"}
    assert queue.parse_task(queue.format_task(fields)) == fields


def test_a_value_with_other_line_breaks_stays_one_field():
    fields = {"turn": "a\u2028b\x0cc\x85d\x1ce\nevent=forged", "event": "Stop"}
    assert queue.parse_task(queue.format_task(fields)) == fields


def test_enqueue_writes_required_fields_and_sortable_name(q):
    name = queue.enqueue(q, _fields(), now=1700000000.5)
    assert name == "1700000000500000000-11111111.task"
    task = queue.read_task(os.path.join(q, name))
    assert {"cwd", "session_jsonl", "session_id", "memory_dir", "timestamp", "event", "forced"} <= set(task)
    assert task["timestamp"].startswith("2023-11-1")
    assert os.listdir(os.path.join(q, "tmp")) == []


def test_one_pending_task_per_session_newest_wins_and_forced_is_kept(q):
    first = queue.enqueue(q, _fields(forced="1", event="SessionEnd"), now=100.0)
    second = queue.enqueue(q, _fields(), now=200.0)
    assert queue.pending(q) == [second]
    task = queue.read_task(os.path.join(q, second))
    assert task["forced"] == "1"
    assert task["replaces"] == queue.task_id(first)


def test_a_task_that_replaces_a_stop_keeps_the_turn_it_waits_for_unless_it_has_its_own(q):
    queue.enqueue(q, _fields(turn="Noted: the queue stays in Postgres."), now=100.0)
    end = queue.enqueue(q, _fields(event="SessionEnd"), now=200.0)
    assert queue.read_task(os.path.join(q, end))["turn"] == "Noted: the queue stays in Postgres."
    newer = queue.enqueue(q, _fields(turn="Done: migrations get a lock timeout."), now=300.0)
    assert queue.pending(q) == [newer]
    assert queue.read_task(os.path.join(q, newer))["turn"] == "Done: migrations get a lock timeout."


def test_sessions_do_not_replace_each_other(q):
    queue.enqueue(q, _fields(sid="aaaaaaaa-1"), now=1.0)
    queue.enqueue(q, _fields(sid="bbbbbbbb-1"), now=1.0)
    assert len(queue.pending(q)) == 2


ENQUEUE = r"""
import sys
from lazy_harness import queue
fields = dict(arg.split("=", 1) for arg in sys.argv[2:])
print("ready", flush=True)
sys.stdin.readline()  # the go signal, sent to every process at once
print(queue.enqueue(sys.argv[1], fields), flush=True)
"""


def test_concurrent_enqueues_leave_one_pending_task(q):
    """16 processes enqueue the same session at once: one pending task stays, nothing is left in tmp/."""
    argv = [sys.executable, "-c", ENQUEUE, q, *(f"{k}={v}" for k, v in _fields().items())]
    procs = [subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE) for _ in range(16)]
    assert [p.stdout.readline() for p in procs] == [b"ready\n"] * 16  # all loaded, none has enqueued
    for p in procs:
        p.stdin.write(b"go\n")
        p.stdin.flush()
    for p in procs:
        p.stdin.close()
    names = [p.stdout.read().decode().strip() for p in procs]
    assert [p.wait(timeout=30) for p in procs] == [0] * 16
    for p in procs:
        p.stdout.close()
    [kept] = queue.pending(q)
    assert kept in names and all(n.endswith(".task") for n in names)  # each process enqueued
    assert os.listdir(os.path.join(q, "tmp")) == []


def test_gate_debounce_then_growth(q, tmp_path):
    transcript = tmp_path / "s.jsonl"
    transcript.write_text("{}\n")
    os.utime(transcript, (1000.0, 1000.0))
    sid = "11111111-x"
    assert queue.gate(q, sid, str(transcript), 1000.0, 60, 120) is None  # never processed
    queue.enqueue(q, _fields(sid=sid), now=1000.0)
    assert queue.gate(q, sid, str(transcript), 1030.0, 60, 120) == \
        "debounced: this session's task queued 30 s ago still waits (debounce_seconds = 60)"
    assert queue.gate(q, sid, str(transcript), 1061.0, 60, 120) is None  # pending but older than the window
    name = queue.pending(q)[0]
    queue.claim(q, name)
    queue.finish(q, name, queue.read_task(os.path.join(q, "processing", name)), "processed", "ok")
    queue.mark_done(q, sid, 1000.0, 1070.0)
    os.utime(transcript, (1100.0, 1100.0))
    assert queue.gate(q, sid, str(transcript), 1200.0, 60, 120) == (  # issue 26: it said "no growth"
        "not queued yet: the transcript was written to for 100 s since its last distillation, less than "
        "reprocess_min_growth_seconds = 120; the session's end or the idle sweep queues the rest")
    os.utime(transcript, (1120.0, 1120.0))
    assert queue.gate(q, sid, str(transcript), 1200.0, 60, 120) is None


def test_gate_debounces_while_the_task_is_being_distilled_too(q, tmp_path):
    """A free worker claims the task within a second: a Stop a second later (no check recorded until
    the task finishes) is debounced as while it waited, and queues once the window is over."""
    transcript = tmp_path / "s.jsonl"
    transcript.write_text("{}\n")
    os.utime(transcript, (1000.0, 1000.0))
    sid = "22222222-x"
    queue.enqueue(q, _fields(sid=sid), now=1000.0)
    name = queue.pending(q)[0]
    queue.claim(q, name)
    os.utime(transcript, (1001.0, 1001.0))
    assert queue.gate(q, sid, str(transcript), 1001.0, 60, 120) == \
        "debounced: this session's task queued 1 s ago is being distilled (debounce_seconds = 60)"
    assert queue.gate(q, sid, str(transcript), 1061.0, 60, 120) is None  # distilled for long: the turns since queue
    queue.finish(q, name, queue.read_task(os.path.join(q, "processing", name)), "processed", "ok")
    queue.mark_done(q, sid, 1001.0, 1010.0)
    os.utime(transcript, (1030.0, 1030.0))
    assert queue.gate(q, sid, str(transcript), 1031.0, 60, 120).startswith("not queued yet: the transcript was")


def test_gate_never_looks_at_history(q, tmp_path):
    """The gates read two small state files of one session: done/ is never listed or opened."""
    os.rmdir(os.path.join(q, "done"))
    with open(os.path.join(q, "done"), "w") as fh:  # any scan of done/ would now raise
        fh.write("not a folder")
    transcript = tmp_path / "s.jsonl"
    transcript.write_text("{}\n")
    assert queue.gate(q, "deadbeef-1", str(transcript), 1e9, 60, 120) is None
    queue.mark_done(q, "deadbeef-1", transcript.stat().st_mtime, 1e9)
    assert queue.gate(q, "deadbeef-1", str(transcript), 1e9, 60, 120) == \
        "not queued: the transcript has not changed since its last check"


def test_claim_is_exclusive(q):
    name = queue.enqueue(q, _fields())
    assert queue.claim(q, name) is not None
    assert queue.claim(q, name) is None


def test_recover_requeues_then_poisons_after_five_interruptions(q):
    name = queue.enqueue(q, _fields())
    for expected in range(1, 5):
        assert queue.claim(q, name)
        assert queue.recover(q) == [(name, "requeued")]
        assert queue.read_task(os.path.join(q, name))["interruptions"] == str(expected)
    assert queue.claim(q, name)
    assert queue.recover(q) == [(name, "poison")]
    assert queue.pending(q) == []
    failed = os.path.join(q, "failed", name)
    assert "interrupted 5 times" in open(failed + ".error").read()
    assert os.listdir(os.path.join(q, "processing")) == []


def test_recover_drops_a_claim_superseded_by_a_newer_task(q):
    old = queue.enqueue(q, _fields(), now=1.0)
    queue.claim(q, old)
    new = queue.enqueue(q, _fields(), now=2.0)
    assert queue.recover(q) == [(old, "superseded")]
    assert queue.pending(q) == [new]
    assert queue.read_task(os.path.join(q, "done", old))["outcome"] == "skipped"


def test_finish_writes_the_check_mark_before_it_lets_go_of_the_claim(q, monkeypatch):
    fields = _fields()
    name = queue.enqueue(q, fields)
    queue.claim(q, name)
    seen = []
    real_unlink = os.unlink

    def unlink(path, *args, **kwargs):
        if os.path.dirname(path) == os.path.join(q, "processing"):
            seen.append(queue.last_check(q, fields["session_id"]))
        return real_unlink(path, *args, **kwargs)

    monkeypatch.setattr(os, "unlink", unlink)
    queue.finish(q, name, fields, "failed", "internal error: boom", "Traceback\n", mark=(12.5, queue.ERROR))
    assert [check[:2] for check in seen] == [(12.5, queue.ERROR)]
    assert os.listdir(os.path.join(q, "processing")) == []


def test_files_are_private(q):
    name = queue.enqueue(q, _fields())
    assert os.stat(os.path.join(q, name)).st_mode & 0o777 == 0o600
    assert os.stat(os.path.join(q, "state")).st_mode & 0o777 == 0o700


def test_a_folder_named_like_a_task_is_not_pending_and_does_not_stop_the_worker(q, isolated_home):
    from tests.cli.lhrun import invoke

    os.makedirs(os.path.join(q, "100-stray000.task"))
    name = queue.enqueue(q, _fields(), now=1700000000.5)
    assert queue.pending(q) == [name]
    home_queue = os.path.join(str(isolated_home), ".claude", "queue")
    queue.ensure_layout(home_queue)
    os.makedirs(os.path.join(home_queue, "100-stray000.task"))
    r = invoke("worker", "run", "--once")
    assert r.code == 0, r.err
    assert os.path.isdir(os.path.join(home_queue, "100-stray000.task"))  # left where it was, untouched
    assert os.listdir(os.path.join(home_queue, "processing")) == []


@pytest.mark.parametrize("asked", ["handoff-now", "retry"])
def test_a_task_the_person_asked_for_keeps_its_event_when_a_later_turn_or_the_end_replaces_it(q, asked):
    """``lh knowledge handoff-now`` asks for the session re-read whole: the session's end (or its next
    turn) queued before the worker got to it replaced the task and with it the ask."""
    queue.enqueue(q, _fields(event=asked, forced="1"), now=100.0)
    end = queue.enqueue(q, _fields(event="SessionEnd"), now=200.0)
    assert queue.read_task(os.path.join(q, end))["event"] == asked
    turn = queue.enqueue(q, _fields(event="Stop"), now=300.0)
    assert queue.read_task(os.path.join(q, turn))["event"] == asked
    other = queue.enqueue(q, _fields(sid="99999999-2222-3333-4444-555555555555", event="SessionEnd"), now=400.0)
    assert queue.read_task(os.path.join(q, other))["event"] == "SessionEnd"  # another session's own


def test_a_waiting_task_the_person_asked_for_hands_its_event_to_the_task_that_supersedes_it(q):
    from lazy_harness.worker import waiting

    first = queue.enqueue(q, _fields(event="handoff-now", forced="1"), now=100.0)
    assert queue.claim(q, first)
    fields = queue.read_task(os.path.join(q, "processing", first))
    newer = queue.enqueue(q, _fields(event="SessionEnd"), now=200.0)
    assert waiting.requeue(q, first, fields, "the API is unreachable", 250.0, False) == "superseded"
    assert queue.pending(q) == [newer] and queue.read_task(os.path.join(q, newer))["event"] == "handoff-now"


def test_a_claim_whose_file_cannot_be_read_fails_with_the_error_and_leaves_processing(q, monkeypatch):
    """Left in processing/, it was passed over at every start, shown as being distilled for good, and
    made every hook start a worker."""
    from lazy_harness.queue import consume

    name = queue.enqueue(q, _fields())
    assert queue.claim(q, name)
    real = consume.read_task

    def refused(path):
        if path.endswith(name):
            raise PermissionError(13, "Permission denied", path)
        return real(path)

    monkeypatch.setattr(consume, "read_task", refused)
    [(got, why)] = queue.recover(q)
    assert got == name and "unreadable" in why and "Permission denied" in why
    assert os.listdir(os.path.join(q, "processing")) == [] and queue.pending(q) == []
    assert "Permission denied" in open(os.path.join(q, "failed", name + ".error")).read()
    assert not queue.needs_worker(q)


def test_the_worker_fails_a_task_it_cannot_read_and_goes_on_with_the_next(q, monkeypatch, isolated_home):
    from lazy_harness import config
    from lazy_harness.worker import one_task

    bad = queue.enqueue(q, _fields())
    real = queue.read_task

    def refused(path):
        if path.endswith(bad) and "processing" in path:
            raise PermissionError(13, "Permission denied", path)
        return real(path)

    monkeypatch.setattr(queue, "read_task", refused)
    assert one_task.process_one(q, bad, config.defaults(), None) == "failed"
    assert os.listdir(os.path.join(q, "processing")) == [] and os.path.exists(os.path.join(q, "failed", bad))


def test_an_enqueue_makes_two_fsyncs_the_task_and_the_queue_folder(q, monkeypatch):
    """Stop runs after every turn: on a slow disk (a network home, a busy drive) each fsync held it for
    seconds, and five of them took it past its timeout. The task's bytes and its link are what a power
    cut must keep."""
    queue.enqueue(q, _fields(), now=100.0)  # the folders exist from here on
    synced = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(os.readlink(f"/proc/self/fd/{fd}")), real(fd)))
    name = queue.enqueue(q, _fields(), now=200.0)
    assert len(synced) == 2, synced
    assert synced[0].endswith(".task") and os.path.samefile(synced[1], q)
    assert queue.pending(q) == [name]


def test_the_start_of_a_running_process_and_none_for_a_zombie_or_a_gone_one():
    """What tells a running worker from a dead one whose pid was recycled (queue.consume.claim_queue):
    a killed worker not reaped yet (a zombie) has exited."""
    import signal
    import time

    from lazy_harness.queue import consume

    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        assert consume._start_of(child.pid) is not None
        assert consume._start_of(child.pid) != consume._start_of(os.getpid())
        os.kill(child.pid, signal.SIGKILL)
        deadline = time.monotonic() + 30
        while consume._start_of(child.pid) is not None and time.monotonic() < deadline:
            time.sleep(0.01)  # why: the kill lands at once, the state a moment later; never reaped here
        assert consume._start_of(child.pid) is None
    finally:
        child.wait()
    assert consume._start_of(child.pid) is None
