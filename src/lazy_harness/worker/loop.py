"""The worker: single instance, drains the queue, then looks once more.

Lock: ``<queue>/.worker.lock`` (``flock``, the same the hooks probe; never deleted). While holding
it the worker first returns the claims of a worker that died (queue.recover), then claims tasks
oldest first by renaming them into processing/, runs each through the pipeline and finishes it in
done/ or failed/; every finished task leaves the session's check mark (queue.mark_done), even an
internal error, so the Stop gates apply to it. With the queue empty it sweeps for idle sessions
(queue.sweep, throttled) and drains what that queued. After it releases the lock it looks at the
queue once more: a task enqueued while it was releasing (whose own spawned worker found the lock
taken and left) is drained now, not at some later hook.

An invalid config.toml pauses it (ADR 0016): it logs one line and leaves every task pending, like a
spend cap; the hooks start no worker until the file is valid again.

A write that fails for lack of room or with an I/O error (worker/storage.py, ADR 0021) puts the task
back and stops the drain; nothing is claimed until a probe write works. Tasks that wait (the API
unreachable, no room) are tried again by the worker itself: the detached worker (``linger``) stays
up to ``compound_loop.linger_minutes``, one at a time, sleeping until the next task's time or the next
probe, without the lock, so a hook's worker takes any new task meanwhile.
"""

from __future__ import annotations

import json
import os
import time
import traceback
from dataclasses import dataclass, field

from lazy_harness import config, logfile, paths, queue
from lazy_harness.atomic import atomic_write
from lazy_harness.errors import ConfigError
from lazy_harness.project_identity import project_name
from lazy_harness.queue import sweep

LOCK_NAME = queue.LOCK_NAME
_CHECK = {"processed": queue.DISTILLED, "skipped": queue.SKIPPED, "failed": queue.ERROR}


@dataclass
class Stats:
    processed: int = 0
    skipped: int = 0
    failed: int = 0
    lock_busy: bool = False
    waiting: int = 0  # tasks put back to wait (worker/waiting.py)
    paused: str = ""  # why the queue stopped for a spend cap
    storage: str = ""  # why the queue stopped for lack of room to write (worker/storage.py)
    last_success: str | None = None
    last_success_task: str | None = None
    # memory folder -> cwd of the tasks that wrote memory (for consolidation)
    projects: dict = field(default_factory=dict)

    @property
    def finished(self) -> int:
        return self.processed + self.skipped + self.failed


def _log(env, message: str) -> None:
    logfile.write(logfile.WORKER, message, env)


def state_file(env=None) -> str:
    return paths.worker_state_file(env)


def read_state(env=None) -> dict:
    try:
        with open(state_file(env), encoding="utf-8") as fh:
            data = json.load(fh)
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


def _result_fields(outcome) -> dict:
    """A short record of what a processed task wrote, kept in its done/ file."""
    report = outcome.report
    if report is None:
        return {}
    summary = getattr(report, "summary", None)
    out = {"written": summary() if callable(summary) else str(report)}
    if outcome.problems:
        out["answer_problems"] = str(len(outcome.problems))
    return out


def process_one(q: str, name: str, cfg: dict, env, sleep=time.sleep, projects: dict | None = None) -> str | None:
    """Claim and process one pending task. Returns its outcome status, or None if it was gone."""
    path = queue.claim(q, name)
    if path is None:
        return None
    started = time.monotonic()
    fields = queue.read_task(path)
    fields["task_id"] = queue.task_id(name)
    outcome, repeated = _run_task(q, fields, cfg, env, sleep)
    fields.update(_result_fields(outcome))
    if outcome.attempts:
        fields["attempts"] = str(outcome.attempts)
    if outcome.status == "waiting":  # spend, the API, no room: back to the queue, not failed (ADR 0013, 0021)
        return _requeue(q, name, fields, outcome, cfg, env)
    mark = _check_mark(q, fields, outcome, repeated)
    if not _finish(q, name, fields, outcome, mark, env):
        return "storage"
    if outcome.status == "processed" and projects is not None and fields.get("memory_dir"):
        projects[fields["memory_dir"]] = fields.get("cwd", "")
    from lazy_harness import retain

    retain.release(q, fields.get("session_id", ""))
    took = time.monotonic() - started
    detail = "".join(f" | {part}" for part in (fields.get("written", ""), outcome.read) if part)
    _log(env, f"task {fields['task_id']}: {outcome.status}: {outcome.reason}{detail} ({took:.2f} s)")
    _report_damaged_lines(env)
    return outcome.status


def _run_task(q: str, fields: dict, cfg: dict, env, sleep):
    """The task through the pipeline (or the skip of a repeated failure): (outcome, the skip or None).
    An exception becomes a failed outcome, or a waiting one when writing failed for lack of room."""
    from lazy_harness.worker import pipeline

    repeated = None
    try:
        repeated = _failed_before(q, fields)
        return repeated or pipeline.distill(fields, cfg, env, time.time(), sleep=sleep), repeated
    except Exception as exc:  # why: one bad task must not stop the queue; keep the evidence
        from lazy_harness.errors import LhError
        from lazy_harness.worker import storage

        why = storage.cause(exc)
        expected = isinstance(exc, LhError)
        reason = str(exc) if expected else f"internal error: {type(exc).__name__}: {exc}"
        if why:  # why: not the task's fault; the persist rolled itself back (memory.intent)
            return pipeline.Outcome("waiting", f"memory not written, {why}; nothing of it was kept, it runs "
                                               "again once writing works", None, storage=True), repeated
        return pipeline.Outcome("failed", reason, _mtime(fields.get("session_jsonl", "")),
                                error_text=reason if expected else traceback.format_exc()), repeated


def _requeue(q: str, name: str, fields: dict, outcome, cfg: dict, env) -> str:
    """A task that waits goes back to the queue with its next time; returns storage, paused or waiting."""
    from lazy_harness.worker import storage, waiting

    first = float(cfg["compound_loop"].get("wait_seconds", waiting.FIRST_WAIT))
    what = waiting.requeue(q, name, fields, outcome.reason, time.time(), outcome.paused or outcome.storage, first)
    _log(env, f"task {fields['task_id']}: {what}: {outcome.reason}")
    _report_damaged_lines(env)
    if outcome.storage:
        storage.stop(env, outcome.reason.split("; ", 1)[0].removeprefix("memory not written, "))
        return "storage"
    return "paused" if outcome.paused else "waiting"


def _check_mark(q: str, fields: dict, outcome, repeated) -> tuple[float, str] | None:
    """The session's check mark the finished task leaves (transcript mtime, check), also kept in its
    record; None when the task read no transcript."""
    check = _CHECK.get(outcome.status, queue.ERROR)
    if outcome is repeated:
        check = queue.ERROR  # why: still not in memory; the next change of the session tries again
    if outcome.transcript_mtime is None:
        return None
    # why: the record carries the mark, so recover() can restore it after a kill in between
    fields["transcript_mtime"] = repr(outcome.transcript_mtime)
    fields["check"] = check
    mark = (outcome.transcript_mtime, check)
    if check == queue.ERROR:
        last = queue.last_check(q, fields.get("session_id", "")) if fields.get("session_id") else None
        if last is not None and last[1] == queue.DISTILLED and last[0] >= mark[0]:
            # why: a redo (lh knowledge handoff-now, a retry) of what memory already holds failed: nothing
            # is missing, and the session must not look undistilled to the gates or to SessionStart
            mark = last
    return mark


def _finish(q: str, name: str, fields: dict, outcome, mark, env) -> bool:
    """Move the task to done/ or failed/ with its mark; False when its record could not be written for
    lack of room (the task is back in the queue and the drain stops)."""
    try:
        queue.finish(q, name, fields, outcome.status, outcome.reason, outcome.error_text, mark)
    except OSError as exc:
        from lazy_harness.worker import storage

        why = storage.cause(exc)
        if not why:
            raise
        # why: memory holds the session, its record does not: back to the queue, where a run once there is
        # room again writes nothing twice (the store's de-duplication) and records it
        try:
            os.replace(os.path.join(q, queue.PROCESSING, name), os.path.join(q, name))
        except OSError:
            pass
        _log(env, f"task {fields['task_id']}: waiting: its record not written, {why}")
        storage.stop(env, why)
        return False
    return True


def _report_damaged_lines(env) -> None:
    """One worker.log line per memory file in which the task salvaged or skipped a line."""
    from lazy_harness.memory import damage

    try:
        damage.report(logfile.WORKER, env)
    except Exception as exc:  # why: a report must not fail the queue
        _log(env, f"memory: damaged lines not reported: {type(exc).__name__}: {exc}")


def _failed_before(q: str, fields: dict):
    """A skip for a task whose transcript already failed to distill and has not changed since (a
    SessionEnd queued while the Stop task of the same turn was failing): the same prompt would fail
    the same way, at the same cost. A retry or ``lh knowledge handoff-now`` is asked for: it runs."""
    from lazy_harness.worker import pipeline

    if fields.get("event") in ("retry", pipeline.WHOLE_SESSION_EVENT):
        return None
    sid, transcript = fields.get("session_id", ""), fields.get("session_jsonl", "")
    last = queue.last_check(q, sid) if sid else None
    if last is None or last[1] != queue.ERROR:
        return None
    # why: only the model's failure is worth skipping (it costs calls and would repeat); a refused
    # task (untrusted, a planted link) is refused again, with its own record
    failed = queue.folder(q, queue.FAILED)
    try:
        mine = sorted(n for n in os.listdir(failed) if n.endswith(f"-{queue.safe_session_id(sid)[:8]}{queue.SUFFIX}"))
        previous = queue.read_task(os.path.join(failed, mine[-1])) if mine else {}
    except OSError:
        return None
    if (previous.get("session_id") != sid or previous.get("session_jsonl") != transcript
            or not previous.get("reason", "").startswith("model call failed")
            or previous.get("transcript_mtime") != repr(last[0]) or _mtime(transcript) != last[0]):
        return None
    return pipeline.Outcome("skipped", "this transcript already failed to distill and is unchanged since "
                            "(lh queue retry --failed tries again)", last[0])


def _mtime(path: str) -> float | None:
    try:
        return os.stat(path).st_mtime if path else None
    except OSError:
        return None


def drain(q: str, cfg: dict, env, stats: Stats, limit: int | None = None, sleep=time.sleep) -> None:
    from lazy_harness.worker import calls, storage, waiting

    while True:
        names = waiting.ready(q, queue.pending(q), time.time())
        if not names:
            return
        for name in names:
            if limit is not None and stats.finished >= limit:
                return
            stats.paused = calls.cap_reached(cfg, env, time.time()) or ""
            if stats.paused:  # why: tasks stay pending; a later hook or the next day starts a worker
                _log(env, f"worker {os.getpid()}: paused, {stats.paused}")
                return
            stats.storage = storage.room(cfg, env, lambda m: _log(env, f"worker {os.getpid()}: {m}")) or ""
            if stats.storage:  # why: no model call for an answer that could not be kept
                storage.stop(env, stats.storage)
                _log(env, f"worker {os.getpid()}: memory writing waits: {stats.storage}; tasks stay pending")
                return
            status = process_one(q, name, cfg, env, sleep, stats.projects)
            if status == "storage":
                stats.waiting += 1
                stats.storage = "no room to write"
                return
            if status in ("waiting", "paused"):
                stats.waiting += 1
                if status == "paused":
                    stats.paused = "the next call does not fit under a spend cap"
                    return
            if status == "processed":
                stats.processed += 1
                stats.last_success = logfile.stamp(time.time())
                stats.last_success_task = queue.task_id(name)
            elif status == "skipped":
                stats.skipped += 1
            elif status == "failed":
                stats.failed += 1


def consolidate_touched(cfg: dict, env, stats: Stats) -> None:
    """After a drain: each project that got new memory is consolidated when its gates pass."""
    if not cfg.get("consolidate", {}).get("enabled"):
        return
    from lazy_harness.worker import consolidate

    learnings = paths.learnings_dir(cfg["knowledge"]["path"] or None, env)
    for mdir, cwd in list(stats.projects.items()):
        try:
            result = consolidate.run(mdir, learnings, project_name(cwd) if cwd else "unknown", cfg, env,
                                     automatic=True)
        except Exception as exc:  # why: consolidation is housekeeping; it must never stop the queue
            _log(env, f"consolidate {mdir}: error {type(exc).__name__}: {exc}")
            continue
        _log(env, f"consolidate {mdir}: {result.status}: {result.reason}")
    stats.projects.clear()


def _sweep(q: str, cfg: dict, env) -> None:
    idle = float(cfg["compound_loop"].get("idle_minutes", 10)) * 60
    try:
        queued = sweep.sweep(q, time.time(), idle, env)
    except OSError as exc:
        _log(env, f"sweep failed: {exc}")
        return
    for name in queued:
        _log(env, f"task {queue.task_id(name)}: queued by the sweep (session idle, grew since its last check)")


def _save_state(env, started: float, stats: Stats) -> None:
    previous = read_state(env)
    data = {
        "started": logfile.stamp(started),
        "finished": logfile.stamp(time.time()),
        "pid": os.getpid(),
        "last_success": stats.last_success or previous.get("last_success"),
        "last_success_task": stats.last_success_task or previous.get("last_success_task"),
        "processed": stats.processed,
        "skipped": stats.skipped,
        "failed": stats.failed,
    }
    try:
        atomic_write(state_file(env), json.dumps(data, indent=2) + "\n")
    except OSError:
        pass


def run(env=None, limit: int | None = None, sleep=time.sleep, linger: bool = False) -> Stats:
    """Drain the queue under the single-instance lock; returns what was done. With ``linger`` (the
    detached worker) stay for tasks that wait and try them again at their time (module docstring)."""
    from lazy_harness.worker import waiting

    env = os.environ if env is None else env
    q = paths.queue_dir(env)
    queue.ensure_layout(q)
    stats = Stats()
    started = time.time()
    synced_cfg = None
    until = linger_fd = None
    delay = 0.0
    synced = 0  # processed tasks already followed by a sync
    try:
        while True:
            synced_cfg = _rounds(q, env, stats, limit, sleep) or synced_cfg
            if stats.processed > synced and synced_cfg is not None:
                # why: before any lingering sleep, so memory written now is synced and its state saved now
                synced = stats.processed
                _after_writing(env, synced_cfg, started, stats)
            if (not linger or synced_cfg is None or stats.lock_busy or stats.paused
                    or (limit is not None and stats.finished >= limit)):
                break
            loop_cfg = synced_cfg["compound_loop"]
            if until is None:
                linger_fd = waiting.linger_lock(q)
                if linger_fd is None or float(loop_cfg.get("linger_minutes", 0)) <= 0:
                    break
                until = time.time() + float(loop_cfg["linger_minutes"]) * 60
            first = float(loop_cfg.get("wait_seconds", 60))
            delay = min(600.0, delay * 2 if stats.storage and delay else first)
            wake = waiting.next_wake(q, time.time(), time.time() + delay if stats.storage else None)
            if wake is None or wake > until:
                break
            _log(env, f"worker {os.getpid()}: waiting tasks; trying again at {logfile.stamp(wake)}")
            sleep(max(0.0, wake - time.time()))
            stats.storage = ""
    finally:
        if linger_fd is not None:
            os.close(linger_fd)
    if not stats.lock_busy or stats.finished:
        _save_state(env, started, stats)
    return stats


def _after_writing(env, cfg: dict, started: float, stats: Stats) -> None:
    # why: after the lock is released, so a slow remote never holds up the queue (sync has its own lock)
    from lazy_harness.sync import auto_sync

    said = auto_sync(cfg, env)
    if said:
        _log(env, said)
    _save_state(env, started, stats)


def _rounds(q: str, env, stats: Stats, limit: int | None, sleep) -> dict | None:
    """Drain (and sweep) under the lock until nothing is ready; the config used, None if none was read."""
    from lazy_harness.memory import intent

    synced_cfg = None
    while True:
        fd = queue.acquire_worker_lock(q)
        if fd is None:
            stats.lock_busy = True
            _log(env, f"worker {os.getpid()}: another worker holds the lock; leaving the queue to it")
            break
        try:
            try:
                cfg = config.load(env)
            except ConfigError as exc:
                stats.paused = f"config.toml invalid: {exc.message}"
                _log(env, f"worker {os.getpid()}: paused, {stats.paused}; tasks stay pending "
                     "(hint: lh config validate)")
                break
            for name, what in queue.recover(q):
                _log(env, f"task {queue.task_id(name)}: recovered from a dead worker: {what}")
            try:
                for line in intent.recover_all(env):
                    _log(env, f"worker {os.getpid()}: {line}")
            except OSError as exc:  # why: retried at the next start, and by the folder's next writer
                _log(env, f"worker {os.getpid()}: an unfinished persist not rolled back yet: {exc}")
            drain(q, cfg, env, stats, limit, sleep)
            if (limit is None or stats.finished < limit) and not stats.paused and not stats.storage:
                _sweep(q, cfg, env)
                drain(q, cfg, env, stats, limit, sleep)
            if not stats.paused and not stats.storage:
                consolidate_touched(cfg, env, stats)
            synced_cfg = cfg
        finally:
            queue.release_worker_lock(fd)
        from lazy_harness.worker.waiting import ready

        if ((limit is not None and stats.finished >= limit) or stats.paused or stats.storage
                or not ready(q, queue.pending(q), time.time())):
            break
    return synced_cfg
