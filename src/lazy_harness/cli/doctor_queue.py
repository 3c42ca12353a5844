"""``lh doctor``'s checks of the queue and the worker: pending tasks and how old, the claims in
processing/, failed tasks, the worker's line, damaged lines of its cost ledger, and the
``distillation:`` line ``lh status`` prints too (how many tasks failed, since when)."""

from __future__ import annotations

import os
import shlex
import time

from lazy_harness import paths, queue
from lazy_harness.cli.doctor_report import Report
from lazy_harness.cli.queue import clipped, task_names
from lazy_harness.cli.hooks_worker import pending_tasks, worker_report, worker_state
from lazy_harness.logfile import terminal_safe

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    Row = tuple[str, str, str, str | None]

STALE_SECONDS = 15 * 60  # a pending task this old means no worker is draining the queue


def check_ledger_lines(r: Report, unread: Callable[[], tuple[list[tuple[int, str]], list[int]]]) -> None:
    """Damaged lines of the cost ledger, and the lines that carry this machine's key id but not its MAC:
    a count, then each named by file and line. ``unread``: what finds them (a ``snapshot.Snapshot``'s:
    the command's one read of the ledger)."""
    from lazy_harness.cli.cost import CLAIMED_WHY, claimed_lines, skipped_lines
    from lazy_harness.cli.doctor_folders import refused_holder

    ledger = paths.ledger_file()
    refused = refused_holder(os.path.abspath(ledger))
    if refused:  # why: a file in a folder that is not the person's own is not read (ADR 0031)
        r.line("fail", "ledger lines", f"{ledger}: not read while {refused[1]}")
        return
    damaged, claimed = unread()
    if not damaged and not claimed:
        r.line("ok", "ledger lines", f"no damaged line in {ledger}")
    if damaged:
        r.warn_each("ledger lines", f"{len(damaged):,} damaged line(s) skipped: their spend is not counted",
                    "fix or remove them by hand (lh cost lists them)", skipped_lines(damaged))
    if claimed:
        r.warn_each("ledger lines", f"{len(claimed):,} line(s) with this machine's id but not its MAC: the caps "
                    f"count nothing of them; {CLAIMED_WHY}",
                    "a line edited here counts again once it is as it was written; another machine's never does",
                    claimed_lines(claimed))


def check_queue(r: Report, now: float) -> None:
    q = paths.queue_dir()
    for which in (queue.TMP, queue.PROCESSING, queue.DONE, queue.FAILED, queue.STATE):
        where = queue.folder(q, which)
        if os.path.lexists(where) and not os.path.isdir(where):  # why: the worker cannot claim or finish a task
            r.line("fail", "queue", f"{where} is not a folder: no task can be distilled",
                   f"move it aside (mv {shlex.quote(where)} {shlex.quote(where + '.aside')}); the worker makes the "
                   "folder again")
    names = pending_tasks()
    oldest = None
    for name in names[:1]:
        try:
            oldest = now - int(name.split("-", 1)[0]) / 1e9
        except ValueError:
            pass
    if oldest is not None and oldest > STALE_SECONDS:
        r.line("warn", "queue", f"{len(names)} pending, the oldest {int(oldest // 60)} min old: no worker is "
               "draining it", "lh worker run --once")
    else:
        r.line("ok", "queue", f"{len(names)} pending")
    claimed = _check_claims(r, q)
    # why task_names: counted as lh queue counts them; a folder named like a task is named, not counted
    failed = task_names(q, queue.FAILED)
    if failed:
        word = "task" if len(failed) == 1 else "tasks"
        r.line("warn", "failed tasks", f"{len(failed)} {word} in {os.path.join(q, queue.FAILED)}",
               "lh queue, then lh queue retry --failed")
    else:
        r.line("ok", "failed tasks", "none")
    _check_worker(r, q, bool(names), claimed)


def _check_worker(r: Report, q: str, queued: bool, claimed: int) -> None:
    """The ``worker:`` line lh status and lh hooks status print (cli/hooks_worker.py ``worker_report``), with
    a warning when the worker needs a hand."""
    # why q: a worker draining the queue now, or lingering to retry, has no worker.json yet
    report = worker_report(worker_state(), q)
    if report.kind == "unreadable":
        r.line("warn", "worker", report.line, "lh worker run --once (it writes the file again)")
    elif report.kind == "died":
        r.line("warn", "worker", report.line, "lh worker run --once")
    elif report.kind == "never" and queued:
        r.line("warn", "worker", f"{report.line}, but tasks are waiting", "lh worker run --once")
    elif report.kind == "never":
        # why: a claim with no worker's run finished yet: the processing line above says more
        r.line("ok", "worker", report.line + ("" if claimed else " (nothing queued yet)"))
    else:
        r.line("ok", "worker", f"{report.line}; last successful distillation: {report.success}")


def _check_claims(r: Report, q: str) -> int:
    """The tasks in processing/: being distilled by a worker that holds the lock, or interrupted (the
    worker that claimed them was killed, and none runs to return them to the queue). Returns how many."""
    from lazy_harness.cli.queue import INTERRUPTED, dead_claims, task_names

    claims = task_names(q, queue.PROCESSING)
    dead = len(dead_claims(q).intersection(claims))
    if dead:
        r.line("warn", "processing", f"{dead} task{'s' if dead > 1 else ''} {INTERRUPTED}", "lh worker run --once")
    elif claims:
        r.line("ok", "processing", f"{len(claims)} task{'s' if len(claims) > 1 else ''} being distilled now")
    else:
        r.line("ok", "processing", "nothing being distilled")
    return len(claims)


def with_failing(rows: list[Row], q: str) -> list[Row]:
    """``cli.cost.spend_lines`` with its ``distillation`` row told how many tasks failed and since when
    (:func:`failing`): that row in place of the notice's, added when no notice was left."""
    found = failing(q)
    if found is None:
        return rows
    kept = [row for row in rows if row[1] != "distillation"]
    return [*kept, ("warn", "distillation", *found)]


def failing(q: str) -> tuple[str, str] | None:
    """(detail, hint) of the ``distillation:`` line of ``lh status`` and ``lh doctor`` while tasks fail:
    how many failed since the last successful distillation (``queue.distill_trouble``, as SessionStart
    counts them), since when (the first of them), and the newest one's reason; None while none has.
    why: the failing notice alone said "distillation failing, <reason>", with neither a count nor a
    time, so one failure an hour ago and fifty since yesterday read the same."""
    from lazy_harness.memory.files import iso_epoch

    try:
        count, last = queue.distill_trouble(q, paths.worker_state_file(), iso_epoch)
    except OSError:
        return None
    if not count:
        return None
    after = iso_epoch(last) if last else None
    found = []
    for name in task_names(q, queue.FAILED):
        path = os.path.join(queue.folder(q, queue.FAILED), name)
        try:
            mtime = os.stat(path).st_mtime
        except OSError:
            continue
        if after is None or mtime > after:
            found.append((mtime, name, path))
    if not found:
        return None
    found.sort()
    first, (_, newest, path) = found[0][0], found[-1]
    try:
        reason = "" if os.path.islink(path) else queue.read_task(path).get("reason", "")
    except OSError:
        reason = ""
    tid = queue.task_id(newest)
    ok = f"the last successful distillation {last}" if last else "no distillation has succeeded yet"
    word = "task" if count == 1 else "tasks"
    detail = (f"failing: {count} {word} failed since {time.strftime('%Y-%m-%d %H:%M', time.localtime(first))} "
              f"({ok}); the newest: {clipped(reason or '?', tid)}")
    return terminal_safe(detail), f"lh queue show {tid}; lh logs --worker; lh queue retry --failed"
