"""Persisting one answer, all or nothing, and keeping the promise its commit carries (worker/owed.py):
the session's cursor moved past what was distilled, the checks over what was written
(worker/hold_checks.py), the session's usage counted. A worker killed after the commit leaves the
promise to the next one (:func:`settle_owed`).
"""

from __future__ import annotations

import os
import time
from typing import TYPE_CHECKING

from lazy_harness.atomic import sweep_stale_temps
from lazy_harness.worker.caches import update_index
from lazy_harness.worker.hold_checks import owed_checks, run_checks

if TYPE_CHECKING:
    from collections.abc import Callable

    from lazy_harness.config.typed import Config
    from lazy_harness.memory.apply import Report
    from lazy_harness.memory.intent import Intent
    from lazy_harness.memory.plan import Plan
    from lazy_harness.memory.shapes import Env
    from lazy_harness.worker.owed import Owing

    Log = Callable[[str], object]  # one line for worker.log
    Sleep = Callable[[float], object]


def persist_and_check(distilled: dict, over: list, path: str, read_to: int, dirs: tuple[str, str], meta: dict,
                      at: tuple[float, str], cfg: Config, env: Env | None, sleep: Sleep,
                      log: Log) -> tuple[Plan, Report]:
    """Persist the answer, its commit carrying the promise of its checks, of the cursor's move to
    ``read_to`` and of the session's usage accounting (worker/owed.py); then keep the promise: count
    the usage, move the cursor, run the checks, forget it."""
    from lazy_harness.worker import cursor, owed

    now, memory_root = at
    sid = str(meta.get("session_id") or "")
    task = "" if meta.get("task_id") in (None, "", "-") else str(meta["task_id"])  # "-": no task (worker/pipeline.py)
    # why the answer's failures only: all the accounting reads of the answer (worker/usage.py ``recurred``)
    accounting = {"session_id": sid, "path": path, "failures": distilled.get("failures") or [], "at": now}
    promised: list[tuple[dict, Owing | None]] = []
    promise = _promise(env, over, dirs, meta, cursor.position(sid, path, read_to, now, task), accounting, promised)
    try:
        plan, report = _persist(distilled, dirs[0], dirs[1], meta, now, env, memory_root, log, promise)
    except BaseException:
        for _, owing in promised:  # why: rolled back with the persist, or committed and left to the next worker
            owed.done(owing, remove=False)
        raise
    # nothing written: no promise to keep, and the checks find nothing to judge
    checks, owing = promised[0] if promised else (dict(owed_checks(plan, report, over, dirs, meta),
                                                        usage=accounting), None)
    with owed.holding(owing):  # why: locked until the checks ran, so a worker starting meanwhile leaves them
        # why before the cursor moves: a persist that wrote nothing saved no promise, so a worker killed
        # after the move left a task that, run again, is skipped as nothing new and never counted the
        # session; counted first, the task runs again and counts what is missing (a line already
        # written counts once)
        _account_usage(checks, env, log)
        cursor.advance(env, sid, path, read_to, now, task)  # after the persist, never before
        report.held = run_checks(checks, cfg, env, now, sleep, log)
    return plan, report


def _promise(env: Env | None, over: list, dirs: tuple[str, str], meta: dict, move: dict | None,
             accounting: dict, promised: list) -> Callable[[Plan, Report, Intent], None]:
    """The persist's last step before its commit (memory/apply.py ``before_commit``): the record of the
    checks it owes, of the cursor's move and of the usage accounting, named in its undo record first so
    that a rollback removes it, then saved locked; appended to ``promised`` as (record, Owing). What it
    raises (a full disk) rolls the persist back: its entries never stand without their checks."""
    from lazy_harness.worker import owed

    task_id = str(meta.get("task_id") or "")

    def before_commit(plan: Plan, report: Report, intent: Intent) -> None:
        checks = dict(owed_checks(plan, report, over, dirs, meta), cursor=move, intent=intent.path,
                      usage=accounting)
        intent.promising(owed.path_for(env, task_id))
        promised.append((checks, owed.save(env, task_id, checks)))

    return before_commit



def settle_owed(cfg: Config, env: Env | None, log: Log, sleep: Sleep = time.sleep) -> None:
    """Keep the promises a killed process's persist left (worker/owed.py): move the session's cursor,
    run the checks, then forget them. A record whose lock a live process holds (``lh distill`` in its
    checks) is left to it: the checks run once. This process holds each record it settles, so a
    second settler leaves it too. A record its persist's undo record still names is left to that
    persist's rollback (``intent.recover_all``, run first), which removes it."""
    from lazy_harness.memory import intent
    from lazy_harness.worker import owed

    for path in owed.left_over(env):
        owing = owed.claim(path)
        if owing is None:
            continue  # why no log line: a live process is running these checks now, or just ran them
        record = owed.read(owing)
        if record is not None and isinstance(record.get("intent"), str) and intent.pending(record["intent"], path):
            owed.done(owing, remove=False)
            log(f"checks owed left for now: {path}: the persist that owes them is not rolled back yet")
            continue
        with owed.holding(owing):
            if record is None:
                log(f"checks owed by an earlier persist not readable: {path}; removed (SessionStart's check "
                    "still reads its entries)")
                continue
            log(f"task {os.path.basename(path)[:-len('.json')]}: running the checks a killed worker owed its entries")
            _keep_promise(record, cfg, env, sleep, log)


def _keep_promise(record: dict, cfg: Config, env: Env | None, sleep: Sleep, log: Log) -> None:
    """What a killed process's committed persist still owed: the cursor moved past what it distilled
    (so its task, run again, makes no second model call), its checks, the session's usage (a line
    already written counts once), its entries in the index."""
    from lazy_harness.worker import cursor

    moved = record.get("cursor")
    if isinstance(moved, dict):
        fd, _ = cursor.hold(env, str(moved.get("session_id") or ""))
        try:
            if cursor.catch_up(env, moved):
                log(f"session {moved['session_id']}: cursor moved past what the killed worker distilled")
        except (OSError, KeyError, TypeError, ValueError) as exc:  # why: a damaged record: the task distills again
            log(f"cursor not moved: {type(exc).__name__}: {exc}")
        finally:
            cursor.release(fd)
    try:
        run_checks(record, cfg, env, time.time(), sleep, log)
    except Exception as exc:  # why: a record of ours but damaged (a key missing): never the queue's end
        log(f"checks owed not run: {type(exc).__name__}: {exc}")
        return
    _account_usage(record, env, log)
    update_index(env, str(record["memory_dir"]), str(record["learnings_dir"]), log)


def _account_usage(owed: dict, env: Env | None, log: Log) -> None:
    """What the session was shown and used (worker/usage.py, ADR 0036), as the persist's record
    ``owed`` carries it (``usage``: none in a record from before it, nothing to count). why: after the
    persist, and never failing the task: usage is a record about memory, not memory."""
    acc = owed.get("usage")
    if isinstance(acc, dict):
        account_usage(acc, str(owed["memory_dir"]), str(owed["learnings_dir"]), env, log)


def account_usage(acc: dict, memory_dir: str, learnings_dir: str, env: Env | None, log: Log) -> None:
    """:func:`_account_usage` of the accounting ``acc`` (session_id, path, failures, at); logs what it
    raises, never raises."""
    from lazy_harness.worker import usage

    try:
        words = usage.account(str(acc["session_id"]), str(acc["path"]), {"failures": list(acc["failures"])},
                              memory_dir, learnings_dir, env, float(acc["at"]))
    except Exception as exc:
        log(f"usage not counted: {type(exc).__name__}: {exc}")
        return
    if words:
        log(words)


def _persist(distilled: dict, memory_dir: str, learnings_dir: str, meta: dict, now: float, env: Env | None,
             memory_root: str, log: Log,
             before_commit: Callable[[Plan, Report, Intent], object] | None = None) -> tuple[Plan, Report]:
    """Plan the answer's changes against the memory and apply them, all or nothing: (plan, report);
    ``before_commit`` as memory/apply.py's."""
    from lazy_harness.memory import store

    sweep_stale_temps(memory_dir)  # what a killed worker may have left half-written
    _roll_back_killed(memory_dir, env, memory_root, log)
    plan = store.plan(distilled, memory_dir, learnings_dir, meta, now, env=env, root=memory_root)
    for problem in plan.problems:  # what only the memory can tell: an unknown item closed
        log(f"answer: {problem}")
    return plan, store.apply(plan, before_commit)


def _roll_back_killed(memory_dir: str, env: Env | None, memory_root: str, log: Log) -> None:
    """Roll back a persist of ``memory_dir`` a killed writer left unfinished (memory/intent.py), under the
    folder's lock, before this one is planned; each line it returns logged (a learning of it kept, as the
    person edited it since, is named). The worker's start rolls such a persist back too; this covers a
    persist that comes first (``lh distill``, a worker whose own rollback failed).

    why before the plan: planned against it, the re-run took the killed persist's lines and learning for
    written, then the rollback in ``store.apply`` took them out: lost; and what it kept went unsaid."""
    from lazy_harness.memory import files, intent, plan

    if not os.path.isdir(memory_dir):
        return  # a folder not made yet holds no persist
    plan.check_memory_dir(memory_dir, env, memory_root)  # why first: no lock taken in a folder not ours
    with files.FolderLock(memory_dir):
        said = intent.recover(memory_dir, env)
    for line in said:
        log(f"{memory_dir}: {line}")
