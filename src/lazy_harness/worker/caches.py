"""The caches the worker fills once a distillation has written memory, so that no reader works
them out itself: the recall index (the worker is its writer), the next SessionStart's verdicts and
heads, the held listing's verdicts. A failure here is logged and never fails the task.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from lazy_harness import paths

if TYPE_CHECKING:
    from collections.abc import Callable

    from lazy_harness.config.typed import Config
    from lazy_harness.memory.shapes import Env

    Log = Callable[[str], object]  # one line for worker.log


def prepare_next_start(cwd: str, cfg: Config, env: Env | None, now: float, log: Log) -> None:
    """Read the memory once as the project's next SessionStart will (recall/readback/digest.py), for
    the caches that start reads: the hold check's verdicts on the texts it screens and the learnings'
    heads. Without this the first start after every distillation worked out the verdicts of the new
    entries itself, and compiling the check's rules cost it some 40 ms (about 5x a bare start instead
    of 2x at 18,000 entries: benchmarks/bench_session_start.py), and the read-back itself, which the
    next start in ``cwd`` uses while what it was made from is unchanged (recall/readback/prepared.py).
    Nothing is held or written to memory here; the start still holds what its check leaves out."""
    try:  # why: caches only, and a failure here must never fail the task
        from lazy_harness.recall.readback import digest, prepared

        e = os.environ if env is None else env
        got, seen = prepared.record(e, lambda watched: digest.build_context(cwd, cfg, watched, now, "worker"))
        # why: kept for the start, which then reads none of it (prepared.py); not when it has to hold or tell
        if prepared.keepable(got[1]) and (problem := prepared.save(e, cwd, cfg, got, seen)):
            log(problem)
    except Exception as exc:
        log(f"session start not prepared: {type(exc).__name__}: {exc}")


def refresh_starts(cfg: Config, env: Env | None, now: float, log: Log) -> None:
    """Make again the newest kept read-backs that no longer hold (``prepared.out_of_date``: another
    project's new learning, this run's consolidation, an index task's hand edit or pull), so the next
    start in each folder prints one without reading the memory."""
    try:  # why: caches only, and a failure here must never fail the worker's run
        from lazy_harness.recall.readback import prepared

        for cwd in prepared.out_of_date(os.environ if env is None else env, cfg, now):
            prepare_next_start(cwd, cfg, env, now, log)
    except Exception as exc:
        log(f"kept read-backs not refreshed: {type(exc).__name__}: {exc}")


def prepare_listing(memory_dir: str, learnings_dir: str, log: Log, env: Env | None = None) -> None:
    """Work out the hold check's verdicts that the views of every entry keep (``lh memory held``, ``lh
    status``, ``show``, the page: memory/held_review.py ``States``), so none of them checks every entry
    itself: after an upgrade that changed the rules, about 1 ms an entry (11 s at 9,000 entries)."""
    try:  # why: a cache only, and a failure here must never fail the task
        from lazy_harness.memory import held_review

        held_review.listing(memory_dir, learnings_dir, env=env)
    except Exception as exc:
        log(f"held listing not prepared: {type(exc).__name__}: {exc}")


def update_index(env: Env | None, memory_dir: str, learnings_dir: str, log: Log) -> None:
    """Index (and embed) the new entries now, so the next prompt judges them by meaning: the worker
    is the index's writer (recall/index/writer.py); the hooks only read it."""
    try:  # why: the index is a cache, and a failure here must never fail the task
        from lazy_harness.recall.index import writer

        # why: waits for another writer (a command, lh memory reindex) rather than leave the index behind
        writer.update(paths.recall_index_file(env), [memory_dir], learnings_dir,
                      waiting=lambda entries: None)
    except Exception as exc:
        log(f"search index not updated: {type(exc).__name__}: {exc}")
