"""Draining the ready tasks one at a time, under the worker's lock (worker/loop.py): the config read
again before each, a spend cap or no room to write stopping the drain, Backfill tasks after every
other and within their share; and :class:`Stats`, the count of what a worker's run did.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from lazy_harness import config, logfile, queue
from lazy_harness.errors import ConfigError
from lazy_harness.worker import one_task

if TYPE_CHECKING:
    from collections.abc import Callable

    from lazy_harness.config.typed import Config
    from lazy_harness.memory.shapes import Env

    Sleep = Callable[[float], object]


@dataclass
class Stats:
    processed: int = 0
    skipped: int = 0
    failed: int = 0
    lock_busy: bool = False
    waited: set[str] = field(default_factory=set)  # the tasks put back to wait (worker/waiting.py) and not done since
    paused: str = ""  # why the queue stopped for a spend cap
    held: str = ""  # why the Backfill tasks wait in this run (the share kept for today's sessions)
    storage: str = ""  # why the queue stopped for lack of room to write (worker/storage.py)
    last_success: str | None = None
    last_success_task: str | None = None
    # memory folder -> cwd of the tasks that wrote memory (for consolidation)
    projects: dict[str, str] = field(default_factory=dict)

    @property
    def finished(self) -> int:
        return self.processed + self.skipped + self.failed

    @property
    def waiting(self) -> int:
        """Tasks left waiting: each once however often it waited, none the lingering worker then finished."""
        return len(self.waited)


def _log(env: Env | None, message: str) -> None:
    logfile.write(logfile.WORKER, message, env)


def _current(cfg: Config, env: Env | None) -> tuple[Config, str]:
    """config.toml as it is now, read before each task: a cap lowered to 0, or the loop switched off,
    while the worker drains a backlog stops the calls it has not made yet (read once per round, the
    whole backlog was paid for); and why to pause instead, if so."""
    try:
        now = config.load(env)
    except ConfigError as exc:
        return cfg, f"config.toml invalid: {exc.message}"
    if cfg["compound_loop"]["enabled"] and not now["compound_loop"]["enabled"]:
        return now, "switched off (compound_loop.enabled = false) while it ran; tasks stay pending"
    return now, ""


def drain(q: str, cfg: Config, env: Env | None, stats: Stats, limit: int | None = None,
          sleep: Sleep = time.sleep) -> None:
    """Process the ready tasks until none is left, a cap pauses the queue or writing stops. Backfill
    tasks come after every other task, and wait once they would eat into the share kept for today's
    sessions (worker/backfill_share.py); after each of them the queue is listed again, so a session that
    ended meanwhile goes next."""
    from lazy_harness.worker import backfill_share, calls, storage

    indexing = True  # why: an index task that failed stays for the next worker, tried once here
    while True:
        tasks = backfill_share.next_tasks(q, stats.held)
        if not tasks:
            return
        for name, fields in tasks:
            if limit is not None and stats.finished >= limit:
                return
            cfg, stats.paused = _current(cfg, env)
            stats.paused = stats.paused or calls.cap_reached(cfg, env, time.time()) or ""
            if stats.paused:  # why: tasks stay pending; a later hook or the next day starts a worker
                _log(env, f"worker {os.getpid()}: paused, {stats.paused}")
                return
            backfill = fields.get("event") == backfill_share.BACKFILL
            held = backfill_share.waits(cfg, env, fields) if backfill else None
            if held:  # why: none is taken again in this run; the next start looks again (a new day, a raised cap)
                stats.held = held
                _log(env, f"worker {os.getpid()}: backfill tasks wait: {held}")
                backfill_share.hold(q, [n for n, _ in tasks], held, lambda m: _log(env, m))
                break
            stats.storage = storage.room(cfg, env, lambda m: _log(env, f"worker {os.getpid()}: {m}")) or ""
            if stats.storage:  # why: no model call for an answer that could not be kept
                storage.stop(env, stats.storage)
                _log(env, f"worker {os.getpid()}: memory writing waits: {stats.storage}; tasks stay pending")
                return
            indexing = indexing and _index_first(q, cfg, env)
            status = one_task.process_one(q, name, cfg, env, sleep, stats.projects)
            if not _count(stats, name, status):
                return
            if backfill:
                break  # why: listed again, so a task queued meanwhile by a session's end goes first


def _index_first(q: str, cfg: Config, env: Env | None) -> bool:
    """The index tasks that arrived since the drain began (a hand edit a session start found), before
    the next session's task: they need no model call, and a run of sessions' calls takes minutes.
    False when one failed."""
    from lazy_harness.queue import index_task

    if not index_task.waiting(q):
        return True
    from lazy_harness.worker import reindex

    return reindex.run_logged(cfg, env, lambda m: _log(env, f"worker {os.getpid()}: {m}"))


def _count(stats: Stats, name: str, status: str | None) -> bool:
    """Count one task's outcome; False when the drain stops (a spend cap, no room to write)."""
    if status in ("storage", "waiting", "paused"):
        stats.waited.add(name)  # why by name: a task that waits goes back under its own name
    else:
        stats.waited.discard(name)
    if status == "storage":
        stats.storage = "no room to write"
        return False
    if status == "paused":
        stats.paused = "the next call does not fit under a spend cap"
        return False
    if status == "processed":
        stats.processed += 1
        stats.last_success = logfile.stamp(time.time())
        stats.last_success_task = queue.task_id(name)
    elif status == "skipped":
        stats.skipped += 1
    elif status == "failed":
        stats.failed += 1
    return True
