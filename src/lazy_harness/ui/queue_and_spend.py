"""The queue (``lh queue``: the recent tasks of a project, a failed one with its error) and spend
(``lh cost --by day``) as the page lists them."""

from __future__ import annotations

import os
import time

from lazy_harness import paths
from lazy_harness import queue as spool
from lazy_harness.ui.file_reads import tail
from lazy_harness.ui.queue_tasks import STATES, task_names
from lazy_harness.ui.reading import of_project

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from lazy_harness.ui.reading import Project

QUEUE_RECENT = 20
SPEND_DAYS = 14


def queue(p: Project | None, env: Mapping[str, str] | None) -> dict:
    """``{"folder", "counts": {state: n}, "tasks": [...]}``: the recent tasks of the project (all
    projects when ``p`` is None), newest first; a failed one with its reason and its error's tail."""
    q = paths.queue_dir(env)
    counts, rows = {}, []
    for state, which in STATES:
        names = task_names(q, which)
        counts[state] = len(names)
        rows += [(n, state, os.path.join(spool.folder(q, which), n)) for n in names]
    rows.sort(key=lambda r: r[0], reverse=True)
    tasks: list[dict] = []
    seen: dict[str, str] = {}
    for name, state, path in rows:
        if len(tasks) >= QUEUE_RECENT:
            break
        try:
            fields = spool.read_task(path)
        except OSError:
            continue
        if p is not None and not of_project(fields.get("cwd", ""), p, env, seen):
            continue
        error = tail(path + ".error", 2000).decode("utf-8", "replace").strip() if state == "failed" else ""
        tasks.append({"id": spool.task_id(name), "when": spool.queued_at(name), "state": state,
                      "event": fields.get("event", "?"), "session": fields.get("session_id", ""),
                      "reason": fields.get("reason", "") or fields.get("wait_reason", ""), "error": error})
    return {"folder": q, "counts": counts, "tasks": tasks}


def spend(env: Mapping[str, str] | None, now: float, days: int = SPEND_DAYS) -> list[tuple[str, float, int]]:
    """(day, dollars, calls) for each of the last ``days`` days, oldest first (``lh cost --by day``)."""
    from lazy_harness.cost import ledger

    start = time.mktime(time.localtime(now - (days - 1) * 86400)[:3] + (0, 0, 0, 0, 0, -1))
    groups = ledger.group(ledger.read_since(start, env), "day")
    out = []
    for n in range(days):
        day = time.strftime("%Y-%m-%d", time.localtime(start + n * 86400 + 3600))
        t = groups.get(day)
        out.append((day, t.cost_usd if t else 0.0, t.calls if t else 0))
    return out
