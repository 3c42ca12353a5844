"""The checks a persist still owes what it wrote: the hold check by the rules and the learned check,
the holds of what came past an answer's cap, and the model check (worker/pipeline.py).

    <queue>/state/owed/<task id>.json
    {"memory_dir", "learnings_dir", "meta", "written": [[kind, id, path, record, kind]],
     "texts": [[kind, id, path, text]], "over": [[kind, id, path, reason]]}

They run after the persist, whose entries are in the files by then. A worker killed between the two
left those entries unchecked for good: its task, run again, found nothing new to distill (the
session's cursor had moved), so the entries past the cap and what only the learned or model check
would hold reached every session. The record is written before the cursor moves and removed once the
checks ran; the next worker settles any left over before it drains the queue. Machine-local, never
synced.
"""

from __future__ import annotations

import json
import os

from typing import TYPE_CHECKING

from lazy_harness import paths
from lazy_harness.atomic import atomic_write, ensure_dir

if TYPE_CHECKING:
    from lazy_harness.memory.shapes import Env

FOLDER = "owed"


def folder(env: Env | None = None) -> str:
    return os.path.join(paths.state_dir(env), FOLDER)


def save(env: Env | None, task_id: str, record: dict) -> str:
    """Write ``record`` for ``task_id``; returns its path (for :func:`done`)."""
    ensure_dir(folder(env))
    # why: a task id is the queue's own name, but never a path of the record's choosing
    path = os.path.join(folder(env), os.path.basename(task_id or "task") + ".json")
    atomic_write(path, json.dumps(record, ensure_ascii=False))
    return path


def done(path: str | None) -> None:
    """Forget a record once its checks ran (None: none was written)."""
    if path is None:
        return
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def left_over(env: Env | None = None) -> list[tuple[str, dict | None]]:
    """(path, record) of every record a killed worker left; None for one that cannot be read."""
    try:
        names = sorted(n for n in os.listdir(folder(env)) if n.endswith(".json"))
    except OSError:
        return []
    out: list[tuple[str, dict | None]] = []
    for name in names:
        path = os.path.join(folder(env), name)
        try:
            with open(path, encoding="utf-8") as fh:
                data = json.load(fh)
        except (OSError, ValueError, RecursionError):
            data = None
        lists = isinstance(data, dict) and all(isinstance(data.get(k), list) for k in ("written", "texts", "over"))
        out.append((path, data if lists and isinstance(data.get("meta"), dict) else None))
    return out
