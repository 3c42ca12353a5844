"""Session check marks, the sweep, recover after a kill between the record and the claim's removal,
unique temp names, the one worker lock, and purging session state (the queue package)."""

import fcntl
import os
import subprocess
import sys

from filelock import FileLock

from lazy_harness import paths, queue
from lazy_harness.queue import sweep
from lazy_harness.queue.task import tmp_path_for

SID = "5f0c2a8e-9d1b-4e7a-8c3f-2b6d1e0a9f47"


def _q() -> str:
    q = paths.queue_dir()
    queue.ensure_layout(q)
    return q


def _transcript(tmp_path, mtime: float, sid: str = SID) -> str:
    folder = os.path.join(paths.projects_dir(), "-proj")
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, f"{sid}.jsonl")
    with open(path, "a") as fh:
        fh.write("{}\n")
    os.utime(path, (mtime, mtime))
    return path


def _fields(path: str, sid: str = SID) -> dict:
    return queue.task_fields({"session_id": sid, "transcript_path": path, "cwd": "/proj"}, "Stop", False)


def test_gate_after_a_skip_requeues_on_any_growth_after_a_distillation_only_on_real_growth(tmp_path):
    q = _q()
    path = _transcript(tmp_path, 1000.0)
    queue.mark_done(q, SID, 1000.0, 1001.0, queue.SKIPPED)
    assert (queue.gate(q, SID, path, 2000.0, 60, 120)
            == "not queued: the transcript has not changed since its last check")
    os.utime(path, (1001.0, 1001.0))
    assert queue.gate(q, SID, path, 2000.0, 60, 120) is None
    for kind in (queue.DISTILLED, queue.ERROR):
        queue.mark_done(q, SID, 1000.0, 1001.0, kind)
        assert queue.gate(q, SID, path, 2000.0, 60, 120).startswith(
            "not queued yet: the transcript was written to for 1 s")


def test_a_mark_written_before_kinds_existed_counts_as_distilled(tmp_path):
    q = _q()
    with open(os.path.join(q, "state", f"{SID}.done"), "w") as fh:
        fh.write("1000.0\n1001.0\n")
    assert queue.last_check(q, SID) == (1000.0, queue.DISTILLED)


def test_sweep_queues_only_idle_grown_sessions_and_caps_each_round(tmp_path):
    q = _q()
    now = 100_000.0
    sids = [f"{i:08d}-0000-4000-8000-000000000000" for i in range(5)]
    for sid in sids:
        path = _transcript(tmp_path, now - 3600, sid)
        sweep.watch(q, {"session_id": sid, "transcript_path": path, "cwd": "/proj"})
    queue.mark_done(q, sids[0], now - 3600, now, queue.DISTILLED)  # checked as it is
    os.utime(_transcript(tmp_path, 0, sids[1]), (now - 10, now - 10))  # still active
    first = sweep.sweep(q, now, 600, cap=2)
    second = sweep.sweep(q, now + 30, 600, cap=2)
    assert second == []  # throttled
    third = sweep.sweep(q, now + 61, 600, cap=2)
    fourth = sweep.sweep(q, now + 122, 600, cap=2)
    queued = [queue.read_task(os.path.join(q, n))["session_id"] for n in first + third + fourth]
    assert queued == sids[2:]  # each round goes on where the last stopped: all three in three rounds
    assert not os.path.exists(os.path.join(q, "state", "open", sids[0]))
    assert os.path.exists(os.path.join(q, "state", "open", sids[1]))


def test_a_transcript_path_holding_a_nul_never_stops_the_sweep_nor_the_hooks(tmp_path):
    """A payload's ``transcript_path`` with a NUL names no file: Stop and SessionEnd take it as no
    transcript (exit 0, nothing kept to fail on later), and a record an earlier version wrote with one
    is dropped by the sweep, which queues the other idle sessions as ever."""
    import json

    from tests.hooks.hookrun import enable_loop, hook_log, run_hook

    enable_loop(os.environ["HOME"])
    q = _q()
    bad = {"session_id": "bad-session", "transcript_path": "/tmp/x\u0000y.jsonl", "cwd": "/proj"}
    for event in ("Stop", "SessionEnd"):
        done = run_hook(event, json.dumps({**bad, "hook_event_name": event}))
        assert done.returncode == 0 and done.stdout == b"" and done.stderr == b""
        assert "error" not in hook_log(paths.claude_dir())[-1]
    assert not os.path.exists(os.path.join(q, "state", "open", "bad-session"))
    assert [n for n in os.listdir(q) if n.endswith(".task")] == []
    now = 100_000.0
    good = _transcript(tmp_path, now - 3600)
    sweep.watch(q, {"session_id": SID, "transcript_path": good, "cwd": "/proj"})
    with open(os.path.join(q, "state", "open", "bad-session"), "w") as fh:  # as an earlier version wrote it
        fh.write(queue.format_task({"session_id": "bad-session", "transcript": "/tmp/x\u0000y.jsonl", "cwd": "/proj"}))
    queued = sweep.sweep(q, now, 600)
    assert [queue.read_task(os.path.join(q, n))["session_id"] for n in queued] == [SID]
    assert not os.path.exists(os.path.join(q, "state", "open", "bad-session"))


def test_sweep_skips_a_session_whose_task_waits(tmp_path):
    q = _q()
    path = _transcript(tmp_path, 1000.0)
    sweep.watch(q, {"session_id": SID, "transcript_path": path, "cwd": "/proj"})
    queue.enqueue(q, _fields(path), now=1000.0)
    assert sweep.sweep(q, 10_000.0, 600) == []


def test_recover_drops_a_claim_whose_record_was_written_and_restores_the_mark(tmp_path):
    q = _q()
    path = _transcript(tmp_path, 1000.0)
    name = queue.enqueue(q, _fields(path), now=1000.0)
    claimed = queue.claim(q, name)
    fields = queue.read_task(claimed)
    fields.update(transcript_mtime="1000.0", check=queue.DISTILLED)
    # the worker wrote done/<name> and was killed before removing its claim and marking the session
    with open(os.path.join(q, "done", name), "w") as fh:
        fh.write(queue.format_task({**fields, "outcome": "processed", "reason": "distilled"}))
    assert queue.recover(q) == [(name, "already finished")]
    assert queue.pending(q) == [] and os.listdir(os.path.join(q, "processing")) == []
    assert queue.last_check(q, SID) == (1000.0, queue.DISTILLED)


def test_producers_racing_on_one_task_name_never_share_a_temp_file(tmp_path):
    q = _q()
    path = _transcript(tmp_path, 1000.0)
    names = {os.path.basename(tmp_path_for(q, "1-5f0c2a8e.task")) for _ in range(200)}
    assert len(names) == 200 and all(n.endswith(queue.SUFFIX) for n in names)
    code = ("import sys; from lazy_harness import queue; "
            "print(queue.enqueue(sys.argv[1], queue.task_fields({'session_id': sys.argv[2], "
            "'transcript_path': sys.argv[3], 'cwd': '/proj'}, 'Stop', False), now=1000.0))")
    procs = [subprocess.Popen([sys.executable, "-c", code, q, f"{SID[:8]}-{i}", path], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for i in range(6)]
    results = [p.communicate(timeout=30) for p in procs]
    assert all(p.returncode == 0 for p in procs), [r[1] for r in results]
    assert len({out.strip() for out, _ in results}) == 6  # same ns and short id: six distinct tasks
    assert len(queue.pending(q)) == 6


def test_the_worker_lock_and_the_probe_see_each_other(tmp_path):
    q = _q()
    path = _transcript(tmp_path, 1000.0)
    queue.enqueue(q, _fields(path), now=1000.0)
    fd = queue.acquire_worker_lock(q)
    assert fd is not None
    try:
        assert queue.needs_worker(q) is False
        assert queue.acquire_worker_lock(q) is None
    finally:
        queue.release_worker_lock(fd)
    assert queue.needs_worker(q) is True
    with FileLock(os.path.join(q, queue.LOCK_NAME)):  # an older worker's lock is seen as well
        assert queue.acquire_worker_lock(q) is None


def test_purge_forgets_old_sessions_but_not_one_with_a_task_waiting(tmp_path):
    q = _q()
    old, busy = SID, "11111111-2222-4333-8444-555555555555"
    p_old, p_busy = _transcript(tmp_path, 1000.0, old), _transcript(tmp_path, 1000.0, busy)
    for sid, path in ((old, p_old), (busy, p_busy)):
        sweep.watch(q, {"session_id": sid, "transcript_path": path, "cwd": "/proj"})
        queue.enqueue(q, _fields(path, sid), now=1000.0)
        queue.mark_done(q, sid, 1000.0, 1000.0)
    claimed = queue.claim(q, queue.pending_of(q, old)[0])
    os.unlink(claimed)  # the old session's task finished long ago (and was purged)
    state = os.path.join(q, "state")
    for name in os.listdir(state):
        if os.path.isfile(os.path.join(state, name)):
            os.utime(os.path.join(state, name), (1000.0, 1000.0))
    assert sweep.purge_session_state(q, cutoff=5000.0) == 1
    left = sorted(n for n in os.listdir(state) if n.startswith(("5f0c", "1111")))
    assert left == [f"{busy}.done", f"{busy}.lock", f"{busy}.pending"]
    assert os.listdir(os.path.join(state, "open")) == [busy]


def test_purge_forgets_what_an_old_session_was_shown_too(tmp_path):
    """``<session>.seen`` (usage.note) and ``<session>.shown`` (already_shown) are written for every
    session that got memory, one that never queued a task too: purged with the rest once old."""
    from lazy_harness.memory import usage
    from lazy_harness.recall.prompt import already_shown

    q = _q()
    env = dict(os.environ)
    recent = "22222222-3333-4444-8555-666666666666"
    for sid in (SID, recent):
        usage.note(env, sid, "startup", 120, [("d-1a2b3c4d", 120)], 1000.0)
        already_shown.add(env, sid, ["d-1a2b3c4d"])
    state = os.path.join(q, "state")
    for name in os.listdir(state):
        if name.startswith(SID[:8]):
            os.utime(os.path.join(state, name), (1000.0, 1000.0))
    assert sweep.purge_session_state(q, cutoff=5000.0) == 1
    assert sorted(n for n in os.listdir(state) if n.startswith(("5f0c", "2222"))) == [
        f"{recent}.seen", f"{recent}.shown"]


def test_purge_leaves_a_session_whose_enqueue_holds_its_lock(tmp_path):
    q = _q()
    _transcript(tmp_path, 1000.0)
    queue.mark_done(q, SID, 1000.0, 1000.0)
    lock = os.path.join(q, "state", f"{SID}.lock")
    fd = os.open(lock, os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        for name in os.listdir(os.path.join(q, "state")):
            if name.startswith(SID):
                os.utime(os.path.join(q, "state", name), (1000.0, 1000.0))
        assert sweep.purge_session_state(q, cutoff=5000.0) == 0
    finally:
        os.close(fd)
    assert os.path.exists(os.path.join(q, "state", f"{SID}.done"))
