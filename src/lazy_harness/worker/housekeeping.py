"""What the worker does under its lock besides the sessions' tasks (worker/loop.py): the index tasks
first, the sweep for idle sessions, the temp files killed writers left, and after a drain the
consolidation of the projects that got new memory and the adoption of project learnings without a
project. Housekeeping: what fails here is logged and never stops the queue.
"""

from __future__ import annotations

import contextlib
import os
import time
from typing import TYPE_CHECKING

from lazy_harness import logfile, paths, queue
from lazy_harness.atomic import atomic_write
from lazy_harness.project_identity import project_name
from lazy_harness.queue import sweep

if TYPE_CHECKING:
    from lazy_harness.config.typed import Config
    from lazy_harness.memory.shapes import Env
    from lazy_harness.worker.drain import Stats


def _log(env: Env | None, message: str) -> None:
    logfile.write(logfile.WORKER, message, env)


def after_drain(cfg: Config, env: Env | None, stats: Stats, changed: bool) -> None:
    """After the drains: the projects that got new memory consolidated, orphan learnings adopted
    (``changed``: an index task ran), then, last, after what this run wrote, the kept read-backs that
    no longer hold made again (worker/caches.py ``refresh_starts``)."""
    from lazy_harness.worker import caches

    consolidate_touched(cfg, env, stats)
    adopt_orphans(cfg, env, changed=changed)
    caches.refresh_starts(cfg, env, time.time(), lambda m: _log(env, f"worker {os.getpid()}: {m}"))


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
            from lazy_harness.worker import caches

            def log(m: str, where: str = mdir) -> None:
                _log(env, f"consolidate {where}: {m}")

            caches.update_index(env, mdir, learnings, log)
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


def adopt_orphans(cfg: Config, env: Env | None, now: float | None = None, changed: bool = False) -> None:
    """Project learnings written before keys were recorded go to the one project of their name
    (memory/owners.py): at the first run after an upgrade, then once a day (learnings synced from a
    machine still on an older version), and whenever ``changed``: an index task ran, so files changed
    other than through the worker (a learning written by hand with only its project's name, a sync
    pull), and the next start should have them. The others wait for ``lh memory unassigned``."""
    from lazy_harness.memory import owners

    now = time.time() if now is None else now
    stamp = os.path.join(paths.state_dir(env), "adopted")
    try:
        if now - os.stat(stamp).st_mtime < ADOPT_EVERY and not changed:
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


def index_tasks(cfg: Config, env: Env | None) -> bool:
    """The index tasks waiting (worker/reindex.py): before the sessions' tasks, which need no model
    call to wait for, and the next prompts search what they index. False when one failed (it stays
    for the next worker; this one does not go round again for it)."""
    from lazy_harness.worker import reindex

    return reindex.run_logged(cfg, env, lambda m: _log(env, f"worker {os.getpid()}: {m}"))


def sweep_idle(q: str, cfg: Config, env: Env | None) -> None:
    idle = float(cfg["compound_loop"].get("idle_minutes", 10)) * 60
    try:
        queued = sweep.sweep(q, time.time(), idle, env)
    except OSError as exc:
        _log(env, f"sweep failed: {exc}")
        return
    for name in queued:
        _log(env, f"task {queue.task_id(name)}: queued by the sweep (session idle, grew since its last check)")


def sweep_temps(cfg: Config, env: Env | None) -> None:
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
    from lazy_harness.memory import approval_key, journal, verdicts
    from lazy_harness.worker import owed

    learnings, data = paths.learnings_dir(cfg["knowledge"]["path"] or None, env), paths.data_dir(env)
    files = (paths.learning_heads_file(env), paths.hold_verdicts_file("-", env), paths.usage_ranks_file("-", env),
             os.path.join(paths.recall_seen_dir(paths.recall_index_file(env)), "-"), paths.last_key_file("-", env),
             hotload.bundle_file(env=env), approval_key.key_file(env), verdicts.listing_verdicts("-", env).path)
    memory_dirs = [d for d in paths.all_memory_dirs(env, cfg["memory"]["path"] or None) if not os.path.islink(d)]
    # why the older version's markers' folder too: a writer of that version killed mid-write left its temp there
    folders = [paths.persist_intents_dir(env), owed.folder(env), markers.open_calls_dir(env),
               markers.legacy_open_calls_dir(env), paths.recall_dir(env), learnings, data,
               *(os.path.dirname(f) for f in files), *memory_dirs, *(journal.folder(d) for d in memory_dirs)]
    for parent in (learnings, data):
        with contextlib.suppress(OSError):
            folders += [e.path for e in os.scandir(parent) if e.is_dir(follow_symlinks=False)]
    return list(dict.fromkeys(folders))
