"""``lh doctor``'s checks of the queue and the worker: pending tasks and how old, the claims in
processing/, failed tasks, the worker's line, and damaged lines of its cost ledger."""

from __future__ import annotations

import os

from lazy_harness import paths, queue
from lazy_harness.cli.doctor_report import Report
from lazy_harness.cli.hooks_worker import failed_tasks, pending_tasks, worker_report, worker_state

STALE_SECONDS = 15 * 60  # a pending task this old means no worker is draining the queue


def check_ledger_lines(r: Report) -> None:
    """Damaged lines of the cost ledger: a count, then each named by file and line."""
    from lazy_harness.cli.cost import skipped_lines
    from lazy_harness.cli.doctor_folders import refused_holder

    ledger = paths.ledger_file()
    refused = refused_holder(os.path.abspath(ledger))
    if refused:  # why: a file in a folder that is not the person's own is not read (ADR 0031)
        r.line("fail", "ledger lines", f"{ledger}: not read while {refused[1]}")
        return
    lines = skipped_lines()
    if not lines:
        r.line("ok", "ledger lines", f"no damaged line in {ledger}")
        return
    r.warn_each("ledger lines", f"{len(lines)} damaged line(s) skipped: their spend is not counted",
                "fix or remove them by hand (lh cost lists them)", lines)


def check_queue(r: Report, now: float) -> None:
    q = paths.queue_dir()
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
    failed = failed_tasks()
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
