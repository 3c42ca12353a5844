"""The worker: single instance, drains the queue, then looks once more.

Lock: ``<queue>/.worker.lock`` (``flock``, the same the hooks probe; never deleted). While holding
it the worker first returns the claims of a worker that died (queue.recover), then claims tasks
oldest first by renaming them into processing/, runs each through the pipeline and finishes it in
done/ or failed/ (one task's life: worker/one_task.py); every finished task leaves the session's
check mark (queue.mark_done), even an internal error, so the Stop gates apply to it. With the queue
empty it sweeps for idle sessions (queue.sweep, throttled) and drains what that queued. After it
releases the lock it looks at the queue once more: a task enqueued while it was releasing (whose own
spawned worker found the lock taken and left) is drained now, not at some later hook.

An invalid config.toml pauses it (ADR 0016): it logs one line and leaves every task pending, like a
spend cap; the hooks start no worker until the file is valid again.

A write that fails for lack of room or with an I/O error (worker/storage.py, ADR 0021) puts the task
back and stops the drain; nothing is claimed until a probe write works. Tasks that wait (the API
unreachable, no room) are tried again by the worker itself: the detached worker (``linger``) stays
up to ``compound_loop.linger_minutes``, one at a time, sleeping until the next task's time or the next
probe, without the lock, so a hook's worker takes any new task meanwhile.

The drain itself is worker/drain.py's; the sweeps, the index tasks, consolidation and adoption
worker/housekeeping.py's.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from typing import TYPE_CHECKING

from lazy_harness import config, logfile, paths, queue
from lazy_harness.atomic import atomic_write
from lazy_harness.errors import ConfigError
from lazy_harness.queue import index_task
from lazy_harness.regular_file import open_regular
from lazy_harness.worker import housekeeping
from lazy_harness.worker.drain import Stats, drain

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from lazy_harness.config.typed import Config
    from lazy_harness.memory.shapes import Env

    Sleep = Callable[[float], object]

LOCK_NAME = queue.LOCK_NAME
# under the queue: "<pid> <wake epoch>" of the worker lingering now, locked while it sleeps (lh status)
LINGERING = os.path.join(queue.STATE, "worker.linger")


def _log(env: Env | None, message: str) -> None:
    logfile.write(logfile.WORKER, message, env)


def state_file(env: Env | None = None) -> str:
    return paths.worker_state_file(env)


def read_state(env: Env | None = None) -> dict:
    try:  # why open_regular: a FIFO in worker.json's place held the worker in open() at the end of each drain
        with open(open_regular(state_file(env))[0], encoding="utf-8") as fh:
            data = json.load(fh)
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


def _save_state(env: Env | None, started: float, stats: Stats) -> None:
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


WAKE_SECONDS = 0.5  # the longest a SIGTERM waits for its handler while the worker sleeps (see nap)


def nap(seconds: float) -> None:
    """Sleep ``seconds`` in steps of :data:`WAKE_SECONDS`, the worker's sleep (``run``). why in steps:
    a SIGTERM that arrives after the last check for a signal and before the sleep blocks only sets a
    flag, so its handler ran when the sleep ended: a lingering worker stayed until the next waiting
    task's time (minutes). Each return to Python runs a handler pending by then."""
    end = time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0:
        time.sleep(min(WAKE_SECONDS, left))


def run(env: Env | None = None, limit: int | None = None, sleep: Sleep = nap, linger: bool = False) -> Stats:
    """Drain the queue under the single-instance lock; returns what was done. With ``linger`` (the
    detached worker) stay for tasks that wait and try them again at their time (module docstring)."""
    env = os.environ if env is None else env
    with _stopped_by_sigterm():
        return _run(env, limit, sleep, linger)


@contextlib.contextmanager
def _stopped_by_sigterm() -> Iterator[None]:
    """SIGTERM raises SystemExit while the worker runs, so ``finally`` blocks run: proc.run kills the
    model call's process group (started in a session of its own, the default action left it running
    and spending) and the call is settled in the ledger. The handler before is put back after."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield  # why: signal handlers can only be set in the main thread
        return

    def stop(signum: int, frame: object) -> None:
        raise SystemExit(128 + signum)

    before = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


def _run(env: Env, limit: int | None, sleep: Sleep, linger: bool) -> Stats:
    from lazy_harness.worker import waiting

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
            with _lingering(q, wake):
                _log(env, f"worker {os.getpid()}: waiting tasks; trying again at {logfile.stamp(wake)}")
                sleep(max(0.0, wake - time.time()))
            stats.storage = ""
    except SystemExit:  # why: a worker SIGTERM stopped ran all the same (lh status said "never ran")
        _save_state(env, started, stats)
        raise
    finally:
        if linger_fd is not None:
            os.close(linger_fd)
    if not stats.lock_busy or stats.finished:
        _save_state(env, started, stats)
        _bundle_hook_modules(env)
    return stats


@contextlib.contextmanager
def _lingering(q: str, wake: float) -> Iterator[None]:
    """While the worker sleeps until ``wake`` holding no queue lock, :data:`LINGERING` says so: written
    already locked, its lock held until it wakes (the kernel drops it if the worker dies), then removed.
    Written before the log line, so whoever read that line finds it."""
    from lazy_harness.atomic import write_locked

    path = os.path.join(q, LINGERING)
    try:
        fd = write_locked(path, f"{os.getpid()} {wake!r}\n".encode())
    except OSError:
        fd = None  # why: only lh status reads it; the retry must not wait on it
    try:
        yield
    finally:
        if fd is not None:
            with contextlib.suppress(OSError):
                os.unlink(path)  # why before the lock goes: one lingers at a time, so the file is this one's
            os.close(fd)


def _bundle_hook_modules(env: Env | None) -> None:
    """After an upgrade (or an edit of the package) the hooks' bundle is written again here, so the
    hooks load from it after the next session; the first time for a plugin's user, who never runs lh
    hooks install (lazy_harness/hotload.py). A stat per module when it is current."""
    from lazy_harness import hotload

    try:
        hotload.refresh(env=env)
    except (OSError, SyntaxError, ValueError):
        # why not logged: a cache, and the hooks work without it; lh doctor says why it is not there
        return


def _after_writing(env: Env | None, cfg: Config, started: float, stats: Stats) -> None:
    # why: after the lock is released, so a slow remote never holds up the queue (sync has its own lock);
    # a process of its own (detach.spawn_sync), as SessionStart's pull: the worker does not run sync
    s = cfg.get("sync", {})
    if s.get("remote") and s.get("auto"):
        from lazy_harness.detach import spawn_sync

        try:
            spawn_sync(env)
        except OSError as exc:
            _log(env, f"sync not started: {exc}")
    _save_state(env, started, stats)


def _another_worker(q: str, fd: int, env: Env | None) -> bool:
    """Whether another worker still runs on a lock file someone removed (queue.consume.claim_queue);
    then the lock is let go and the queue left to it."""
    from lazy_harness.queue import consume

    try:
        other = consume.claim_queue(q)
    except OSError as exc:  # why: a record of the holder that cannot be written must not stop the queue
        _log(env, f"worker {os.getpid()}: the lock's holder not recorded: {exc}")
        return False
    if other is None:
        return False
    queue.release_worker_lock(fd)
    _log(env, f"worker {os.getpid()}: worker {other} still runs, its lock file removed; leaving the queue to it")
    return True


def _rounds(q: str, env: Env | None, stats: Stats, limit: int | None, sleep: Sleep) -> Config | None:
    """Drain (and sweep) under the lock until nothing is ready; the config used, None if none was read."""
    from lazy_harness.memory import intent

    synced_cfg = None
    indexed = False
    stats.held = ""  # why: checked again at each start (a new day, a raised cap); within it, spend only grows
    while True:
        fd = queue.acquire_worker_lock(q)
        if fd is None:
            stats.lock_busy = True
            _log(env, f"worker {os.getpid()}: another worker holds the lock; leaving the queue to it")
            break
        other = _another_worker(q, fd, env)
        if other:
            stats.lock_busy = True
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
            housekeeping.sweep_temps(cfg, env)
            try:
                for line in intent.recover_all(env):
                    _log(env, f"worker {os.getpid()}: {line}")
            except OSError as exc:  # why: retried at the next start, and by the folder's next writer
                _log(env, f"worker {os.getpid()}: an unfinished persist not rolled back yet: {exc}")
            from lazy_harness.worker import persist

            persist.settle_owed(cfg, env, lambda line: _log(env, f"worker {os.getpid()}: {line}"))
            reindexed, indexed = bool(index_task.waiting(q)), housekeeping.index_tasks(cfg, env)  # by hand, a pull
            drain(q, cfg, env, stats, limit, sleep)
            if (limit is None or stats.finished < limit) and not stats.paused and not stats.storage:
                housekeeping.sweep_idle(q, cfg, env)
                drain(q, cfg, env, stats, limit, sleep)
            if not stats.paused and not stats.storage:
                housekeeping.after_drain(cfg, env, stats, changed=reindexed and indexed)
            from lazy_harness.queue import retain

            for sid in retain.keep_waiting(q):  # why: the tasks left waiting may wait for weeks
                _log(env, f"session {sid}: its transcript copied into the queue's kept folder (no link possible)")
            synced_cfg = cfg
        finally:
            from lazy_harness.queue import consume

            consume.release_queue(q)
            queue.release_worker_lock(fd)
        from lazy_harness.worker import backfill_share

        if ((limit is not None and stats.finished >= limit) or stats.paused or stats.storage
                or not (backfill_share.next_tasks(q, stats.held) or (indexed and index_task.waiting(q)))):
            break
    return synced_cfg
