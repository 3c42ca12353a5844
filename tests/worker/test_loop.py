"""The worker end to end with a fake ``claude``: hooks as subprocesses -> detached worker -> files."""

import json
import os
import signal
import subprocess
import sys

import pytest
from filelock import FileLock, Timeout

from lazy_harness import paths, queue
from lazy_harness.worker import loop
from tests.hooks.hookrun import enable_loop, run_hook
from tests.support import fake_claude
from tests.support import memory_samples as ms
from tests.support.sessions import place, wait_finished


def _memory(project) -> str:
    return paths.memory_dir(str(project))


def _lines(path) -> list[dict]:
    with open(path) as fh:
        return [json.loads(line) for line in fh]


def _learnings() -> list[str]:
    root = paths.learnings_dir()
    return sorted(os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs)


def test_session_end_hook_drives_a_full_distillation(isolated_home, fake, project):
    enable_loop(isolated_home, retry_backoff_seconds=0)
    payload = place(project)
    result = run_hook("SessionEnd", payload)
    assert (result.returncode, result.stdout) == (0, b"")
    [done] = wait_finished(paths.queue_dir())
    task = queue.read_task(done)
    assert "/done/" in done and task["outcome"] == "processed", task
    mem = _memory(project)
    [decision] = _lines(os.path.join(mem, "decisions.jsonl"))
    assert decision["summary"] == fake_claude.DEFAULT_ANSWER["decisions"][0]["summary"]
    assert decision["session_id"] == payload["session_id"] and decision["type"] == "decision"
    assert decision["task_id"] == queue.task_id(os.path.basename(done))
    [failure] = _lines(os.path.join(mem, "failures.jsonl"))
    assert failure["prevention"] == fake_claude.DEFAULT_ANSWER["failures"][0]["prevention"]
    handoff = open(os.path.join(mem, "handoff.md")).read()
    assert "] finish the retry command\n" in handoff and payload["session_id"] in handoff
    [learning] = _learnings()
    assert os.path.basename(learning).endswith("-rename-is-the-atomic-commit-of-a-spool.md")
    [call] = fake_claude.calls(fake)
    assert call["marker"] == "1"
    assert call["cwd"] == paths.neutral_dir()
    for flag in ("-p", "--no-session-persistence", "--json-schema", "--output-format"):
        assert flag in call["argv"]
    assert call["argv"][call["argv"].index("--settings") + 1] == '{"disableAllHooks": true}'
    assert "Use a file queue" not in call["stdin"]  # the prompt carries the session, not the answer


def test_after_a_persist_the_new_entries_are_indexed_and_embedded_before_the_next_prompt(isolated_home, fake, project):
    from lazy_harness.recall.embed import static_model
    from lazy_harness.recall.index import store

    enable_loop(isolated_home, retry_backoff_seconds=0)
    payload = place(project)
    run_hook("SessionEnd", payload)
    [done] = wait_finished(paths.queue_dir())
    assert queue.read_task(done)["outcome"] == "processed"
    conn = store.connect(paths.recall_index_file())
    try:
        kinds = {r[0] for r in conn.execute("SELECT kind FROM entry")}
        have, total = ms.vector_counts(conn, static_model.MODEL_ID)
    finally:
        conn.close()
    assert "decision" in kinds and total > 0 and have == total


def test_the_next_session_start_finds_the_new_entries_checked(isolated_home, fake, project):
    """After a distillation the worker reads the memory as the next SessionStart will: that start
    finds the hold check's verdict on each new entry kept (working one out compiles the check's rules:
    some 40 ms) and rewrites nothing; it still shows the new entries."""
    from lazy_harness.memory import ids, trust, verdicts

    enable_loop(isolated_home, retry_backoff_seconds=0)
    payload = place(project)
    run_hook("SessionEnd", payload)
    [done] = wait_finished(paths.queue_dir())
    assert queue.read_task(done)["outcome"] == "processed"
    mem = _memory(project)
    kept = verdicts.kept_verdicts(mem, None)
    new = [trust.text_of(r, kind) for name, kind in (("decisions.jsonl", "decision"), ("failures.jsonl", "failure"))
           for r in _lines(os.path.join(mem, name))]
    assert new and all(kept.known.get(ids.text_digest(t)) == "" for t in new)
    before = os.stat(kept.path)
    start = run_hook("SessionStart", {**payload, "hook_event_name": "SessionStart", "source": "startup"})
    assert start.returncode == 0
    text = json.loads(start.stdout)["hookSpecificOutput"]["additionalContext"]
    assert fake_claude.DEFAULT_ANSWER["decisions"][0]["summary"] in text
    after = os.stat(kept.path)
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)


def test_lh_memory_held_after_a_distillation_finds_every_verdict_kept(isolated_home, fake, project, monkeypatch):
    """The worker also works out the verdicts the views of every entry keep (``lh memory held``,
    ``lh status``, ``show``, the page): after an upgrade their first run checked every entry (about
    1 ms each: 11 s at 9,000 entries); the worker does it in the background instead."""
    from lazy_harness.memory import held_review, trust

    enable_loop(isolated_home, retry_backoff_seconds=0)
    run_hook("SessionEnd", place(project))
    [done] = wait_finished(paths.queue_dir())
    assert queue.read_task(done)["outcome"] == "processed"
    checked: list[str] = []
    real = trust.reason
    monkeypatch.setattr(trust, "reason", lambda text, *a, **k: checked.append(text) or real(text, *a, **k))
    assert held_review.listing(_memory(project), paths.learnings_dir()) == []
    assert checked == []  # every verdict was kept by the worker


def test_a_start_that_cannot_be_prepared_is_logged_and_the_task_goes_on(isolated_home, monkeypatch):
    from lazy_harness import config
    from lazy_harness.recall.readback import digest
    from lazy_harness.worker import caches

    def broken(*args, **kwargs):
        raise OSError("disk gone")

    monkeypatch.setattr(digest, "build_context", broken)
    said: list[str] = []
    caches.prepare_next_start(str(isolated_home), config.load(), None, 0.0, said.append)
    assert said == ["session start not prepared: OSError: disk gone"]


def test_processing_the_same_session_again_writes_nothing_twice(isolated_home, fake, project):
    enable_loop(isolated_home, retry_backoff_seconds=0)
    payload = place(project)
    run_hook("SessionEnd", payload)
    wait_finished(paths.queue_dir(), count=1)
    mem = _memory(project)
    before = {n: open(os.path.join(mem, n), "rb").read() for n in ("decisions.jsonl", "failures.jsonl")}
    run_hook("SessionEnd", payload)
    finished = wait_finished(paths.queue_dir(), count=2)
    # the cursor says nothing new was said since: no second model call at all
    assert "nothing new" in " ".join(queue.read_task(f)["reason"] for f in finished)
    assert len(fake_claude.calls(fake)) == 1
    # without its cursor (a state folder wiped) the whole session goes to the model again
    os.unlink(os.path.join(paths.state_dir(), f"{payload['session_id']}.cursor"))
    run_hook("SessionEnd", payload)
    wait_finished(paths.queue_dir(), count=3)
    after = {n: open(os.path.join(mem, n), "rb").read() for n in ("decisions.jsonl", "failures.jsonl")}
    assert after == before
    assert len(_learnings()) == 1
    assert len(fake_claude.calls(fake)) == 2


def test_headless_session_is_finished_as_skipped_without_a_model_call(isolated_home, fake, project):
    enable_loop(isolated_home)
    run_hook("SessionEnd", place(project, "headless.jsonl"))
    [done] = wait_finished(paths.queue_dir())
    task = queue.read_task(done)
    assert task["outcome"] == "skipped" and "interactive" in task["reason"]
    assert fake_claude.calls(fake) == []
    assert not os.path.exists(_memory(project))


def test_model_failure_is_retried_then_lands_in_failed_with_the_reason(isolated_home, fake, project):
    enable_loop(isolated_home, retry_backoff_seconds=0, max_attempts=3)
    fake_claude.control(fake, mode="fail", code=7, stderr="Error: the answer stream broke off")
    run_hook("SessionEnd", place(project))
    [failed] = wait_finished(paths.queue_dir())
    assert "/failed/" in failed
    error = open(failed + ".error").read()
    assert "7" in error and "the answer stream broke off" in error
    assert len(fake_claude.calls(fake)) == 3
    assert queue.read_task(failed)["attempts"] == "3"


def test_transient_failure_then_success_is_processed(isolated_home, fake, project):
    enable_loop(isolated_home, retry_backoff_seconds=0)
    fake_claude.control(fake, mode="ok", answer=fake_claude.DEFAULT_ANSWER, fail_times=1)
    run_hook("SessionEnd", place(project))
    [done] = wait_finished(paths.queue_dir())
    assert queue.read_task(done)["outcome"] == "processed"
    assert queue.read_task(done)["attempts"] == "2"


def test_forged_task_cannot_point_the_worker_elsewhere(isolated_home, fake, project, tmp_path):
    enable_loop(isolated_home)
    outside = tmp_path / "outside"
    outside.mkdir()
    secret = outside / "secret.jsonl"
    secret.write_text((project.parent / "x").as_posix())
    q = paths.queue_dir()
    queue.enqueue(q, {"cwd": str(project), "session_jsonl": str(secret), "session_id": "forged-1",
                      "memory_dir": str(outside / "memory"), "event": "Stop", "forced": "1"})
    loop.run(dict(os.environ))
    [failed] = wait_finished(q)
    assert "/failed/" in failed and "untrusted" in queue.read_task(failed)["reason"]
    assert sorted(os.listdir(outside)) == ["secret.jsonl"]
    assert fake_claude.calls(fake) == []


def test_a_task_arriving_while_the_worker_releases_is_drained_now(isolated_home, fake, project, monkeypatch):
    """The lost wake-up: a task lands after the drain's last look but before the lock is released.
    Its own worker finds the lock taken and leaves; the running worker must still take it."""
    enable_loop(isolated_home, retry_backoff_seconds=0)
    q = paths.queue_dir()
    first = place(project, session_id="11111111-aaaa-bbbb-cccc-000000000001")
    late = place(project, session_id="22222222-aaaa-bbbb-cccc-000000000002")
    queue.enqueue(q, queue.task_fields(first, "SessionEnd", True))
    real_pending = queue.pending
    state = {"injected": False}

    def pending_then_inject(folder):
        names = real_pending(folder)
        if not names and not state["injected"]:
            state["injected"] = True
            queue.enqueue(q, queue.task_fields(late, "SessionEnd", True))
            other = FileLock(os.path.join(q, loop.LOCK_NAME))
            with pytest.raises(Timeout):
                other.acquire(timeout=0)  # the late task's own worker would leave here
        return names

    monkeypatch.setattr(queue, "pending", pending_then_inject)
    stats = loop.run(dict(os.environ))
    assert state["injected"]
    assert stats.processed == 2
    assert real_pending(q) == []


def test_only_one_worker_runs_at_a_time(isolated_home, fake, project):
    enable_loop(isolated_home)
    q = paths.queue_dir()
    queue.ensure_layout(q)
    with FileLock(os.path.join(q, loop.LOCK_NAME)):
        queue.enqueue(q, queue.task_fields(place(project), "SessionEnd", True))
        stats = loop.run(dict(os.environ))
        assert stats.lock_busy and stats.finished == 0
        assert len(queue.pending(q)) == 1
    assert os.path.exists(os.path.join(q, loop.LOCK_NAME))  # lock files are never deleted


def test_worker_killed_mid_task_is_retried_and_poison_after_five(isolated_home, fake, project):
    """Five workers in a row are killed inside their model call for one task: the next run sends it
    to failed/. Each kill waits until that worker's call has started, so every round counts."""
    enable_loop(isolated_home, timeout_seconds=60)
    fake_claude.control(fake, mode="ok", answer=fake_claude.DEFAULT_ANSWER, hold=[1, 2, 3, 4, 5])  # until killed
    q = paths.queue_dir()
    queue.enqueue(q, queue.task_fields(place(project), "SessionEnd", True))
    try:
        for round_ in range(1, 6):
            worker = subprocess.Popen([sys.executable, "-m", "lazy_harness.worker"], env=dict(os.environ),
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            call = fake_claude.wait_calls(fake, round_)[-1]
            assert (call["n"], call["ppid"], call["end"]) == (round_, worker.pid, None)  # this worker, mid-call
            assert len(os.listdir(os.path.join(q, "processing"))) == 1
            worker.send_signal(signal.SIGKILL)
            worker.wait()
            fake_claude.kill_running(fake)  # the killed worker's model call outlives it
            assert [c["end"] for c in fake_claude.calls(fake)] == [None] * round_  # no call ever returned
        loop.run(dict(os.environ))
        [failed] = wait_finished(q)
        assert "/failed/" in failed
        assert "interrupted 5 times" in open(failed + ".error").read()
        assert os.listdir(os.path.join(q, "processing")) == []
        assert len(fake_claude.calls(fake)) == 5  # poison: not asked a sixth time
    finally:
        fake_claude.kill_running(fake)


def test_next_session_start_restarts_a_worker_for_stranded_tasks(isolated_home, fake, project):
    """A worker died with a task claimed and no hook has run since: SessionStart starts a worker."""
    enable_loop(isolated_home, retry_backoff_seconds=0)
    q = paths.queue_dir()
    name = queue.enqueue(q, queue.task_fields(place(project), "SessionEnd", True))
    assert queue.claim(q, name)  # claimed by a worker that then died
    assert queue.needs_worker(q)
    result = run_hook("SessionStart", {"session_id": "new-session", "cwd": str(project), "source": "startup"})
    assert result.returncode == 0
    [done] = wait_finished(q)
    assert queue.read_task(done)["outcome"] == "processed"
    assert not queue.needs_worker(q)


def test_needs_worker_is_false_while_a_worker_holds_the_lock(isolated_home, fake, project):
    q = paths.queue_dir()
    queue.enqueue(q, queue.task_fields(place(project), "SessionEnd", True))
    with FileLock(os.path.join(q, loop.LOCK_NAME)):
        assert not queue.needs_worker(q)
    assert queue.needs_worker(q)


def test_a_session_end_after_a_failure_on_the_same_transcript_costs_no_second_round_of_calls(
        isolated_home, fake, project):
    enable_loop(isolated_home, retry_backoff_seconds=0, max_attempts=3)
    fake_claude.control(fake, mode="fail", code=7, stderr="the answer holds no JSON object")
    payload = place(project)
    run_hook("SessionEnd", payload)
    [failed] = wait_finished(paths.queue_dir())
    assert len(fake_claude.calls(fake)) == 3
    run_hook("SessionEnd", payload)  # the transcript has not changed since it failed
    finished = wait_finished(paths.queue_dir(), count=2)
    [second] = [f for f in finished if f != failed]
    task = queue.read_task(second)
    assert task["outcome"] == "skipped" and "already failed" in task["reason"]
    assert len(fake_claude.calls(fake)) == 3
    assert queue.last_check(paths.queue_dir(), payload["session_id"])[1] == queue.ERROR


def test_a_failed_redo_of_a_distilled_session_raises_no_alarm_and_keeps_its_mark(isolated_home, fake, project):
    """lh knowledge handoff-now of a session memory already holds, failing: the person sees the
    failure there; nothing is missing, so SessionStart says nothing and the session stays distilled."""
    from lazy_harness.memory.files import iso_epoch
    from lazy_harness.worker import pipeline

    enable_loop(isolated_home, retry_backoff_seconds=0, max_attempts=1)
    payload = place(project)
    run_hook("SessionEnd", payload)
    [done] = wait_finished(paths.queue_dir())
    assert queue.read_task(done)["outcome"] == "processed"
    distilled = queue.last_check(paths.queue_dir(), payload["session_id"])
    fake_claude.control(fake, mode="fail", code=7, stderr="Error: the answer stream broke off")
    queue.enqueue(paths.queue_dir(), {**queue.task_fields(payload, pipeline.WHOLE_SESSION_EVENT, True),
                                      queue.AGAIN: "1"})
    loop.run()
    failed = [f for f in wait_finished(paths.queue_dir(), count=2) if "/failed/" in f]
    assert len(failed) == 1
    assert queue.last_check(paths.queue_dir(), payload["session_id"]) == distilled
    assert queue.distill_trouble(paths.queue_dir(), paths.worker_state_file(), iso_epoch)[0] == 0


def test_a_removed_lock_file_never_lets_a_second_worker_take_the_running_ones_task(isolated_home, fake, project):
    """The person cleans up the queue folder and deletes .worker.lock while a worker is in its model
    call: the next worker locks a new file at that name. It finds the first one still running and
    leaves; it does not take that worker's task for a dead worker's and distil it a second time."""
    enable_loop(isolated_home, timeout_seconds=60)
    fake_claude.control(fake, mode="ok", answer=fake_claude.DEFAULT_ANSWER, hold=[1])  # until killed
    q = paths.queue_dir()
    queue.enqueue(q, queue.task_fields(place(project), "SessionEnd", True))
    first = subprocess.Popen([sys.executable, "-m", "lazy_harness.worker"], env=dict(os.environ),
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        fake_claude.wait_calls(fake, 1)
        os.unlink(os.path.join(q, queue.LOCK_NAME))
        second = loop.run(dict(os.environ))
        assert second.lock_busy and second.finished == 0
        assert len(fake_claude.calls(fake)) == 1 and len(os.listdir(os.path.join(q, "processing"))) == 1
        with open(os.path.join(paths.logs_dir(), "worker.log"), encoding="utf-8") as fh:
            assert f"worker {first.pid} still runs, its lock file removed" in fh.read()
    finally:
        first.send_signal(signal.SIGKILL)
        first.wait()
        fake_claude.kill_running(fake)
    # the first one gone (killed: its holder record stays), the next worker recovers its task
    fake_claude.control(fake, mode="ok", answer=fake_claude.DEFAULT_ANSWER)
    loop.run(dict(os.environ))
    [done] = wait_finished(q)
    assert queue.read_task(done)["outcome"] == "processed" and len(fake_claude.calls(fake)) == 2


def test_a_failure_of_another_session_whose_id_starts_alike_does_not_hide_this_ones(isolated_home, fake, project):
    """Task names hold 8 characters of the session id, which Codex's ids (UUID v7: a clock first) share
    with every session started in the same minute: the skip reads this session's own failed task."""
    enable_loop(isolated_home, retry_backoff_seconds=0, max_attempts=3)
    fake_claude.control(fake, mode="fail", code=7, stderr="the answer holds no JSON object")
    payload = place(project, session_id="01a22f82-00c8-7e71-8d59-5ffeaa338001")
    run_hook("SessionEnd", payload)
    [failed] = wait_finished(paths.queue_dir())
    assert len(fake_claude.calls(fake)) == 3
    other = dict(queue.read_task(failed), session_id="01a22f82-0f49-7531-aa13-dd7948e9e86f",
                 session_jsonl=str(project / "other.jsonl"))
    folder = os.path.dirname(failed)
    later = f"{int(os.path.basename(failed).split('-', 1)[0]) + 1}-01a22f82{queue.SUFFIX}"
    with open(os.path.join(folder, later), "w", encoding="utf-8") as fh:
        fh.write(queue.format_task(other))
    run_hook("SessionEnd", payload)  # this session's transcript has not changed since it failed
    finished = wait_finished(paths.queue_dir(), count=3)
    [second] = [f for f in finished if f not in (failed, os.path.join(folder, later))]
    assert queue.read_task(second)["outcome"] == "skipped"
    assert len(fake_claude.calls(fake)) == 3
