"""The share of the daily cap a backfill leaves to today's sessions, kept by the worker (ADR 0013).

``lh backfill`` checks the share once, when it queues, against an estimate; the worker checks it
again before each ``Backfill`` task, priced by the ledger as it is then. It takes every other task
first (:func:`next_tasks`), and once a ``Backfill`` task would eat into the share (:func:`waits`) it
puts every ready one back with the reason (:func:`hold`), which ``lh queue`` shows.
"""

from __future__ import annotations

import os
import time
from typing import TYPE_CHECKING

from lazy_harness import queue

if TYPE_CHECKING:
    from collections.abc import Callable

    from lazy_harness.config.typed import Config
    from lazy_harness.memory.shapes import Env

BACKFILL = "Backfill"  # the event of a task lh backfill queued (cli/backfill.py)


def next_tasks(q: str, held: str = "") -> list[tuple[str, dict]]:
    """The ready tasks in the order the worker takes them: every other task oldest first, then the
    Backfill tasks oldest first (none while they wait for the share kept for today: ``held``, the
    reason). A task file that cannot be read comes with the others: its claim fails it with the reason."""
    from lazy_harness.worker import waiting

    live: list[tuple[str, dict]] = []
    backfill: list[tuple[str, dict]] = []
    for name in waiting.ready(q, queue.pending(q), time.time()):
        try:
            fields = queue.read_task(os.path.join(q, name))
        except OSError:
            fields = {}
        (backfill if fields.get("event") == BACKFILL else live).append((name, fields))
    return live if held else live + backfill


def waits(cfg: Config, env: Env | None, fields: dict) -> str | None:
    """Why the Backfill task of ``fields`` waits (spend plus its estimate would leave less than the
    share kept for today's sessions: cost/budget.py), or None."""
    from lazy_harness.cost import budget

    return budget.backfill_waits(cfg, env, time.time(), _estimate(cfg, env, fields))


def hold(q: str, names: list[str], reason: str, log: Callable[[str], object]) -> None:
    """Put every pending Backfill task of ``names`` back with ``reason`` (no time of its own, as a task
    a cap paused), unless it already says so."""
    for name in names:
        _hold_one(q, name, reason, log)


def _hold_one(q: str, name: str, reason: str, log: Callable[[str], object]) -> None:
    from lazy_harness.worker import waiting

    try:
        fields = queue.read_task(os.path.join(q, name))
    except OSError:
        return
    if fields.get("event") != BACKFILL or fields.get("wait_reason") == " ".join(reason.split())[:500]:
        return
    path = queue.claim(q, name)
    if path is None:
        return
    try:
        fields = queue.read_task(path)
    except OSError:
        os.replace(path, os.path.join(q, name))
        return
    what = waiting.requeue(q, name, fields, reason, time.time(), True)
    if what != "waiting":
        log(f"task {queue.task_id(name)}: {what}")


def _estimate(cfg: Config, env: Env | None, fields: dict) -> float:
    """What the Backfill task likely costs now: its prompt's length as lh backfill measured it, priced
    by the ledger's calls at the model's price as they are now (by the model's price while there are
    none), plus the model check's share it was priced with. A task without them (a hand edit) is
    priced at the largest prompt."""
    from lazy_harness.cost import budget, ledger

    loop = cfg["compound_loop"]
    try:
        chars = int(fields.get("backfill_chars", ""))
    except ValueError:
        chars = 0
    if not 0 < chars <= ledger.MAX_PROMPT_CHARS:
        chars = int(loop["prompt_max_chars"])
    try:
        check = float(fields.get("backfill_check_usd", ""))
    except ValueError:
        check = -1.0
    if not 0 <= check <= ledger.MAX_COST_USD:
        from lazy_harness.worker import model_check

        check = model_check.MAX_USD if cfg.get("trust", {}).get("model_check", True) else 0.0
    from lazy_harness.worker import calls

    return budget.estimate(chars, env, time.time(), *calls.guessed_at(cfg, env)) + check
