"""The worker: single instance, drains the queue, then looks once more.

Lock: ``<queue>/.worker.lock`` (filelock, never deleted). While holding it the worker first returns
the claims of a worker that died (queue.recover), then claims tasks oldest first by renaming them
into processing/, runs each through the pipeline and finishes it in done/ or failed/. After it
releases the lock it looks at the queue once more: a task enqueued while it was releasing (whose
own spawned worker found the lock taken and left) is drained now, not at some later hook.
"""

from __future__ import annotations

import json
import os
import time
import traceback
from dataclasses import dataclass

from lazy_harness import config, logfile, paths, queue
from lazy_harness.atomic import atomic_write

LOCK_NAME = ".worker.lock"


@dataclass
class Stats:
    processed: int = 0
    skipped: int = 0
    failed: int = 0
    lock_busy: bool = False
    last_success: str | None = None
    last_success_task: str | None = None
    projects: dict = None  # memory folder -> cwd of the tasks that wrote memory (for consolidation)

    def __post_init__(self) -> None:
        self.projects = {} if self.projects is None else self.projects

    @property
    def finished(self) -> int:
        return self.processed + self.skipped + self.failed


def _log(env, message: str) -> None:
    logfile.write(logfile.WORKER, message, env)


def state_file(env=None) -> str:
    return os.path.join(paths.state_dir(env), "worker.json")


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
    from lazy_harness.worker import pipeline

    path = queue.claim(q, name)
    if path is None:
        return None
    started = time.monotonic()
    fields = queue.read_task(path)
    fields["task_id"] = queue.task_id(name)
    try:
        outcome = pipeline.distill(fields, cfg, env, time.time(), sleep=sleep)
    except Exception as exc:  # why: one bad task must not stop the queue; keep the evidence
        from lazy_harness.errors import LhError

        expected = isinstance(exc, LhError)
        reason = str(exc) if expected else f"internal error: {type(exc).__name__}: {exc}"
        outcome = pipeline.Outcome("failed", reason, error_text=reason if expected else traceback.format_exc())
    fields.update(_result_fields(outcome))
    if outcome.attempts:
        fields["attempts"] = str(outcome.attempts)
    queue.finish(q, name, fields, outcome.status, outcome.reason, outcome.error_text)
    if outcome.status == "processed" and projects is not None and fields.get("memory_dir"):
        projects[fields["memory_dir"]] = fields.get("cwd", "")
    if outcome.transcript_mtime is not None:
        queue.mark_done(q, fields.get("session_id", ""), outcome.transcript_mtime, time.time())
    took = time.monotonic() - started
    detail = fields.get("written", "")
    _log(env, f"task {fields['task_id']}: {outcome.status}: {outcome.reason}"
              f"{' | ' + detail if detail else ''} ({took:.2f} s)")
    return outcome.status


def drain(q: str, cfg: dict, env, stats: Stats, limit: int | None = None, sleep=time.sleep) -> None:
    while True:
        names = queue.pending(q)
        if not names:
            return
        for name in names:
            if limit is not None and stats.finished >= limit:
                return
            status = process_one(q, name, cfg, env, sleep, stats.projects)
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
            result = consolidate.run(mdir, learnings, paths.project_name(cwd) if cwd else "unknown", cfg, env,
                                     automatic=True)
        except Exception as exc:  # why: consolidation is housekeeping; it must never stop the queue
            _log(env, f"consolidate {mdir}: error {type(exc).__name__}: {exc}")
            continue
        _log(env, f"consolidate {mdir}: {result.status}: {result.reason}")
    stats.projects.clear()


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


def run(env=None, limit: int | None = None, sleep=time.sleep) -> Stats:
    """Drain the queue under the single-instance lock; returns what was done."""
    from filelock import FileLock, Timeout

    env = os.environ if env is None else env
    q = paths.queue_dir(env)
    queue.ensure_layout(q)
    stats = Stats()
    started = time.time()
    lock = FileLock(os.path.join(q, LOCK_NAME), mode=0o600, preserve_lock_file=True)
    while True:
        try:
            lock.acquire(timeout=0)
        except Timeout:
            stats.lock_busy = True
            _log(env, f"worker {os.getpid()}: another worker holds the lock; leaving the queue to it")
            break
        try:
            cfg = config.load(env)
            for name, what in queue.recover(q):
                _log(env, f"task {queue.task_id(name)}: recovered from a dead worker: {what}")
            drain(q, cfg, env, stats, limit, sleep)
            consolidate_touched(cfg, env, stats)
        finally:
            lock.release()
        if (limit is not None and stats.finished >= limit) or not queue.pending(q):
            break
    if not stats.lock_busy or stats.finished:
        _save_state(env, started, stats)
    return stats
