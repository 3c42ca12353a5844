"""Index tasks (``queue.index_task``), done by the worker: the index's one writer brings it up to
date for each memory folder a task names (``recall.index.writer``), then the task is removed. A worker
killed meanwhile leaves the task, and the next one goes on from the last part the index committed.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from lazy_harness import paths
from lazy_harness.queue import index_task

if TYPE_CHECKING:
    from collections.abc import Callable

    from lazy_harness.config.typed import Config
    from lazy_harness.memory.shapes import Env


def run_logged(cfg: Config, env: Env | None, log: Callable[[str], object]) -> bool:
    """:func:`run_tasks` for the memory root and learnings of ``cfg``; False when one failed, logged
    (it stays for the next worker)."""
    try:  # why: the index is a cache; it must never stop the queue (the task stays)
        run_tasks(env, paths.memory_root(cfg["memory"]["path"] or None, env),
                  paths.learnings_dir(cfg["knowledge"]["path"] or None, env), log)
        return True
    except Exception as exc:
        log(f"index task failed: {type(exc).__name__}: {exc}")
        return False


def run_tasks(env: Env | None, root: str, ldir: str, log: Callable[[str], object]) -> int:
    """Every index task waiting, each memory folder once, with the learnings folder ``ldir``; ``root``:
    the memory root a task's folder must be in (another is dropped, logged). Returns how many folders
    were brought up to date."""
    from lazy_harness.recall.index import writer

    todo: dict[str, list[str]] = {}
    for path in index_task.waiting(paths.queue_dir(env)):
        where = index_task.read(path)
        if where is None or os.path.dirname(os.path.realpath(where)) != os.path.realpath(root):
            log(f"index task {os.path.basename(path)}: not a memory folder under {root}: dropped")
            index_task.done(path)
            continue
        todo.setdefault(where, []).append(path)
    if todo and _made_anew(env):
        # why: an index removed (damaged) or made anew (another version, after an upgrade) holds no
        # project's entries; the prompt that found it asked for its own folder only, and every other
        # project's prompts would find nothing until its next session start asked too
        for mdir in paths.all_memory_dirs(env, root):
            todo.setdefault(mdir, [])
    for mdir, tasks in todo.items():
        got = writer.update(paths.recall_index_file(env), [mdir], ldir, log,
                            waiting=lambda entries: None)
        log(f"index task for {mdir}: {got[0] if got else 0} entries indexed, {got[1] if got else 0} texts embedded")
        for path in tasks:
            index_task.done(path)
    if todo:
        from lazy_harness import logfile
        from lazy_harness.memory import damage

        damage.report(logfile.WORKER, env)  # the lines the index could not read whole, once per file state
    return len(todo)


def _made_anew(env: Env | None) -> bool:
    """Whether the index holds no folder the writer brought up to date: no record of what it saw (the
    records go with the index, ``store.forget_seen``)."""
    try:
        return not os.listdir(paths.recall_seen_dir(paths.recall_index_file(env)))
    except OSError:
        return True
