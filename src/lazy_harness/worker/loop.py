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
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from lazy_harness import config, logfile, paths, queue
from lazy_harness.atomic import atomic_write
from lazy_harness.errors import ConfigError
from lazy_harness.project_identity import project_name
from lazy_harness.queue import index_task, sweep
from lazy_harness.worker import one_task

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from lazy_harness.config.typed import Config
    from lazy_harness.memory.shapes import Env

    Sleep = Callable[[float], object]

LOCK_NAME = queue.LOCK_NAME
# under the queue: "<pid> <wake epoch>" of the worker lingering now, locked while it sleeps (lh status)
LINGERING = os.path.join(queue.STATE, "worker.linger")


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


def state_file(env: Env | None = None) -> str:
    return paths.worker_state_file(env)


def read_state(env: Env | None = None) -> dict:
    try:
        with open(state_file(env), encoding="utf-8") as fh:
            data = json.load(fh)
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


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
            status = one_task.process_one(q, name, cfg, env, sleep, stats.projects)
            if not _count(stats, name, status):
                return
            if backfill:
                break  # why: listed again, so a task queued meanwhile by a session's end goes first


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


def consolidate_touched(cfg: Config, env: Env | None, stats: Stats) -> None:
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
        _log_problems(env, mdir, result.problems)
        if result.run:  # why: what it marked leaves recall now; the hooks only read the index (ADR 0042)
            from lazy_harness.worker import pipeline

            def log(m: str, where: str = mdir) -> None:
                _log(env, f"consolidate {where}: {m}")

            pipeline.update_index(env, mdir, learnings, log)
    stats.projects.clear()


PROBLEMS_LOGGED = 10  # problem lines of one consolidation written to worker.log; a count stands for the rest


def _log_problems(env: Env | None, mdir: str, problems: list[str]) -> None:
    """What a consolidation refused (an id it does not know, a learning left out), one line each, as
    ``lh memory consolidate`` prints them on stderr: the first PROBLEMS_LOGGED, then how many more."""
    for problem in problems[:PROBLEMS_LOGGED]:
        _log(env, f"consolidate {mdir}: ignored: {problem[:1000]}")
    if len(problems) > PROBLEMS_LOGGED:
        _log(env, f"consolidate {mdir}: ignored: {len(problems) - PROBLEMS_LOGGED} more problem line(s) not shown")


ADOPT_EVERY = 24 * 3600  # seconds between two looks for project learnings without a project


def adopt_orphans(cfg: Config, env: Env | None, now: float | None = None) -> None:
    """Project learnings written before keys were recorded go to the one project of their name
    (memory/owners.py): at the first run after an upgrade, then once a day (learnings synced from a
    machine still on an older version). The others wait for ``lh memory unassigned``."""
    from lazy_harness.memory import owners

    now = time.time() if now is None else now
    stamp = os.path.join(paths.state_dir(env), "adopted")
    try:
        if now - os.stat(stamp).st_mtime < ADOPT_EVERY:
            return
    except OSError:
        pass
    try:
        done, left = owners.adopt_orphans(paths.memory_root(cfg["memory"]["path"] or None, env),
                                          paths.learnings_dir(cfg["knowledge"]["path"] or None, env), now, env)
    except Exception as exc:  # why: housekeeping; it must never stop the queue
        _log(env, f"adopt: error {type(exc).__name__}: {exc}")
        return
    for line in done:
        _log(env, f"adopt: {line}")
    if left:
        _log(env, f"adopt: {len(left)} project learning(s) have no single project; lh memory unassigned lists them")
    atomic_write(stamp, logfile.stamp(now) + "\n")


def _index_tasks(cfg: Config, env: Env | None) -> bool:
    """The index tasks waiting (worker/reindex.py): before the sessions' tasks, which need no model
    call to wait for, and the next prompts search what they index. False when one failed (it stays
    for the next worker; this one does not go round again for it)."""
    from lazy_harness.worker import reindex

    try:
        reindex.run_tasks(env, paths.memory_root(cfg["memory"]["path"] or None, env),
                          paths.learnings_dir(cfg["knowledge"]["path"] or None, env),
                          lambda m: _log(env, f"worker {os.getpid()}: {m}"))
        return True
    except Exception as exc:  # why: the index is a cache; it must never stop the queue (the task stays)
        _log(env, f"worker {os.getpid()}: index task failed: {type(exc).__name__}: {exc}")
        return False


def _sweep(q: str, cfg: Config, env: Env | None) -> None:
    idle = float(cfg["compound_loop"].get("idle_minutes", 10)) * 60
    try:
        queued = sweep.sweep(q, time.time(), idle, env)
    except OSError as exc:
        _log(env, f"sweep failed: {exc}")
        return
    for name in queued:
        _log(env, f"task {queue.task_id(name)}: queued by the sweep (session idle, grew since its last check)")


def _sweep_temps(cfg: Config, env: Env | None) -> None:
    """The temp files killed writers left where no writer of the folder sweeps before it writes
    (``queue.recover`` sweeps the queue's folders, worker.json's among them): the folders of
    :func:`_temp_folders`. A live writer's temp (its pid alive) is left."""
    from lazy_harness.atomic import sweep_stale_temps

    for folder in _temp_folders(cfg, env):
        sweep_stale_temps(folder)


def _temp_folders(cfg: Config, env: Env | None) -> list[str]:
    """Every folder of ours that a writer writes whole files in, the queue's aside: undo records of
    persists, the checks owed, the markers of model calls, the projects' last memory keys, the caches
    (the hooks' bundle, the recall folder and what it keeps), each memory folder and its journal,
    the learnings and their month folders, the approval key's folder, the data folder and the folders
    in it (the sync repository's git folder, the settings backups). Never the person's own folders
    (a project's ``.claude/``, a config file named by ``$LH_CONFIG``), never a folder behind a link
    met on the way (a subfolder is entered only when it is no link)."""
    from lazy_harness import hotload
    from lazy_harness.cost import markers
    from lazy_harness.memory import approval, held, journal
    from lazy_harness.worker import owed

    learnings, data = paths.learnings_dir(cfg["knowledge"]["path"] or None, env), paths.data_dir(env)
    files = (paths.learning_heads_file(env), paths.hold_verdicts_file("-", env), paths.usage_ranks_file("-", env),
             os.path.join(paths.recall_seen_dir(paths.recall_index_file(env)), "-"), paths.last_key_file("-", env),
             hotload.bundle_file(env=env), approval.key_file(env), held.listing_verdicts("-", env).path)
    memory_dirs = [d for d in paths.all_memory_dirs(env, cfg["memory"]["path"] or None) if not os.path.islink(d)]
    # why the older version's markers' folder too: a writer of that version killed mid-write left its temp there
    folders = [paths.persist_intents_dir(env), owed.folder(env), markers.open_calls_dir(env),
               markers.legacy_open_calls_dir(env), paths.recall_dir(env), learnings, data,
               *(os.path.dirname(f) for f in files), *memory_dirs, *(journal.folder(d) for d in memory_dirs)]
    for parent in (learnings, data):
        with contextlib.suppress(OSError):
            folders += [e.path for e in os.scandir(parent) if e.is_dir(follow_symlinks=False)]
    return list(dict.fromkeys(folders))


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


def run(env: Env | None = None, limit: int | None = None, sleep: Sleep = time.sleep, linger: bool = False) -> Stats:
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
            _sweep_temps(cfg, env)
            try:
                for line in intent.recover_all(env):
                    _log(env, f"worker {os.getpid()}: {line}")
            except OSError as exc:  # why: retried at the next start, and by the folder's next writer
                _log(env, f"worker {os.getpid()}: an unfinished persist not rolled back yet: {exc}")
            from lazy_harness.worker import pipeline

            pipeline.settle_owed(cfg, env, lambda line: _log(env, f"worker {os.getpid()}: {line}"))
            indexed = _index_tasks(cfg, env)
            drain(q, cfg, env, stats, limit, sleep)
            if (limit is None or stats.finished < limit) and not stats.paused and not stats.storage:
                _sweep(q, cfg, env)
                drain(q, cfg, env, stats, limit, sleep)
            if not stats.paused and not stats.storage:
                consolidate_touched(cfg, env, stats)
                adopt_orphans(cfg, env)
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
