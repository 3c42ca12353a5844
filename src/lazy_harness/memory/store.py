"""The write side of a project's memory: turn a distilled answer into file changes.

``plan()`` computes every change (lines to append, handoff items to open or close, learning files)
and writes nothing, so the worker persists only after everything is computed and
``lh distill --dry-run`` can print it. ``apply()`` performs a plan; ``persist()`` is both. The first
two live in ``memory.plan`` and ``memory.apply``; this module is where callers find all three.

Re-processing a task writes nothing twice: an entry whose normalised summary already has a whole line
in its file is not appended (checked again at apply time under a lock on the memory folder); a
handoff item already open (or closed) is not opened (or closed) again, computed again under the
same lock (``memory.handoff``); learnings are write-once and matched by origin and title
(``memory.learnings``), on any day. So after a crash part-way through ``apply``, running the
same task again completes what is missing and nothing else; handoff.md left behind its log by such a
crash is rendered again.

An entry the answer makes again that consolidation hid (a superseded decision, a merged failure, a
deprecated learning) comes back: the mark is removed (the learning set active) in a journalled run
``lh memory undo`` can revert, and no second line is written. One the person left out with
``lh memory forget`` stays hidden (ADR 0014).

Refuses, before writing anything, a memory folder outside ``<claude dir>/projects`` and any target
that resolves outside its folder (a symlink planted in the memory folder).
"""

from __future__ import annotations

import os

from lazy_harness.memory import files, handoff, ids, marks
from lazy_harness.memory.apply import Report, apply
from lazy_harness.memory.plan import RECENT_RECORDS, RECENT_TITLES, Plan, check_memory_dir, plan

# why: not ``from typing import TYPE_CHECKING``: memory never imports ``typing`` at run time (the hooks
# load its read side: house style section 3)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from lazy_harness.memory.shapes import Env

__all__ = ["RECENT_RECORDS", "RECENT_TITLES", "Plan", "Report", "apply", "check_memory_dir", "existing_memory",
           "persist", "plan", "read_handoff", "settle_met"]


def persist(distilled: dict, memory_dir: str, learnings_dir: str, meta: dict, now: float,
            env: Env | None = None) -> Report:
    """Plan, then apply: nothing is written unless the whole answer could be planned."""
    return apply(plan(distilled, memory_dir, learnings_dir, meta, now, env))


def settle_met(memory_dir: str, learnings_dir: str, now: float, env: Env | None = None,
               root: str | None = None) -> Report:
    """Settle the titles of ``memory_dir``'s project whose new texts met in a sync round (ADR 0063), as
    the next persist would: the newest text stands, the others deprecated by it in one ``rewrite`` run.
    A persist a killed writer left unfinished (a settling killed between its writes) is rolled back
    first. why before the plan, as the worker's persist does: planned against the half-done one, the
    round found the texts settled, and the rollback at the next writer showed both again."""
    from lazy_harness.memory import intent
    from lazy_harness.memory.plan import met

    check_memory_dir(memory_dir, env, root)  # why first: no lock taken in a folder not ours
    with files.FolderLock(memory_dir):
        recovered = intent.recover(memory_dir, env)
    meta = {"project": os.path.basename(os.path.normpath(memory_dir)), "session_id": "sync", "task_id": "sync"}
    report = apply(met(memory_dir, learnings_dir, meta, now, env, root))
    report.recovered = recovered + report.recovered
    return report


def existing_memory(memory_dir: str, learnings_dir: str) -> dict:
    """What the prompt shows for de-duplication, read from file tails: the cost does not grow with history."""
    from lazy_harness.memory.learnings import recent_titles
    state, _ = handoff.load(memory_dir)
    left_out = marks.hidden(memory_dir)
    out: dict = {"replaced": []}
    for key, name, kind in (("decisions", files.DECISIONS, "decision"), ("failures", files.FAILURES, "failure")):
        recs = files.tail_records(os.path.join(memory_dir, name), RECENT_RECORDS)
        # why: an entry consolidation replaced is not current; listed apart, so the model neither takes it
        # for current memory nor is kept from recording it again when a session goes back to it
        # why the id on each: the prompt names a decision by it, so a session can say which one it replaces
        out[key] = [{**r, "id": ids.of_record(r, kind)} for r in recs if ids.of_record(r, kind) not in left_out]
        out["replaced"] += [r for r in recs
                            if (left_out.get(ids.of_record(r, kind)) or {}).get("op") in marks.AUTOMATIC]
    out.update(learning_titles=recent_titles(learnings_dir, RECENT_TITLES),
               handoff_open=[(i["id"], i["text"]) for i in handoff.open_items(state)])
    return out


def read_handoff(memory_dir: str) -> dict | None:
    """``{"items": [open item texts, oldest first], "ids": [...]}``, or None when there is no handoff at all."""
    state, _ = handoff.load(memory_dir)
    if not state:
        return None
    opened = handoff.open_items(state)
    return {"items": [i["text"] for i in opened], "ids": [i["id"] for i in opened]}
