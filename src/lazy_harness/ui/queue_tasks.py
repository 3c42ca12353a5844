"""The queue's task files as the page reads them: the names in each state, and ``{session id: cwd}``
from every task (how a session is tied to a project)."""

from __future__ import annotations

import os

from lazy_harness import paths
from lazy_harness import queue as spool

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

STATES = (("pending", spool.PENDING), ("processing", spool.PROCESSING), ("done", spool.DONE), ("failed", spool.FAILED))


def task_names(q: str, which: str) -> list[str]:
    try:
        return sorted(e.name for e in os.scandir(spool.folder(q, which))
                      if e.name.endswith(spool.SUFFIX) and e.is_file())
    except OSError:
        return []


def session_cwds(env: Mapping[str, str] | None) -> dict[str, str]:
    """``{session id: cwd}`` from the queue's tasks (every state): how a session is tied to a project."""
    q = paths.queue_dir(env)
    out: dict[str, str] = {}
    for _, which in STATES:
        for name in task_names(q, which):
            try:
                fields = spool.read_task(os.path.join(spool.folder(q, which), name))
            except OSError:
                continue
            if fields.get("session_id") and fields.get("cwd"):
                out.setdefault(fields["session_id"], fields["cwd"])
    return out
