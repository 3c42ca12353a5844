"""``lh queue``: what is pending, running, done and failed, and why.

Task fields hold what hooks were given and what the worker wrote (paths, reasons, errors): every
one is printed through ``logfile.terminal_safe``, so an escape sequence in them is shown, not run.
"""

from __future__ import annotations

import os
import re
import shlex
import time

import click

from lazy_harness import logfile, paths
from lazy_harness import queue as spool
from lazy_harness.cli.queue_files import INTERRUPTED, STATE_WIDTH, STATES, dead_claims, find_task, not_a_task
from lazy_harness.cli.queue_files import shown_state, stray, task_names
from lazy_harness.cli.queue_waits import REASON_CHARS, PendingWhy, clipped, not_before, waiting_reason
from lazy_harness.errors import LhError
from lazy_harness.logfile import terminal_safe
from lazy_harness.project_identity import project_name
from lazy_harness.queue import sweep
from lazy_harness.regular_file import read_regular
from lazy_harness.queue.task import AGENT, TRANSCRIPTS

# why: what lh status, lh doctor and cli.hooks_worker import from here, split out into queue_files and
# queue_waits along what they read; the names stay where those commands find them
__all__ = ["INTERRUPTED", "REASON_CHARS", "STATES", "clipped", "dead_claims", "not_a_task", "not_before", "queue",
           "task_names", "waiting_reason"]


@click.group(invoke_without_command=True)
@click.option("-n", "recent", default=10, show_default=True, type=click.IntRange(min=1),
              help="How many recent tasks to list.")
@click.pass_context
def queue(ctx: click.Context, recent: int) -> None:
    """Counts per folder and the most recent tasks with their state and reason."""
    if ctx.invoked_subcommand is not None:
        return
    q = paths.queue_dir()
    click.echo(terminal_safe(f"queue: {q}"))
    dead = dead_claims(q)
    notes = {spool.DONE: "  (distilled or skipped: see below)", spool.PROCESSING: f"  ({INTERRUPTED})"}
    rows = []
    for state, which in STATES:
        names = task_names(q, which)
        noted = bool(names) and (which != spool.PROCESSING or bool(dead))
        click.echo(f"  {state:<11} {len(names)}" + (notes.get(which, "") if noted else ""))
        rows += [(n, "interrupted" if which == spool.PROCESSING and n in dead else state,
                  os.path.join(spool.folder(q, which), n)) for n in names[-recent:]]
    rows.sort(key=lambda r: r[0])
    if rows:
        click.echo("recent:")
    why = PendingWhy(q)
    for name, state, path in rows[-recent:]:
        try:
            fields = {} if os.path.islink(path) else spool.read_task(path)
        except OSError:
            continue
        tid = spool.task_id(name)
        odd = "" if fields.get("reason") else not_a_task(path, fields)  # why: the worker's verdict comes first
        reason = (f"{odd} (lh queue show {tid})" if odd else fields.get("reason", "")
                  or (why(fields) if state == "pending" else waiting_reason(fields)))
        reason = clipped(reason, tid)
        where = project_name(fields["cwd"]) if fields.get("cwd") else "?"
        click.echo(terminal_safe(f"  {tid}  {spool.queued_at(name)}  {shown_state(state, fields):<{STATE_WIDTH}} "
                                 f"{fields.get('event', '?'):<11} {where:<20} {reason}"))


@queue.command("show")
@click.argument("ident")
def show(ident: str) -> None:
    """Every field of one task (and its .error, if it failed)."""
    q = paths.queue_dir()
    state, path = find_task(q, ident)
    if os.path.islink(path):  # why: never read through a link; what it points at is not ours to print
        click.echo(f"state: {state}")
        click.echo(terminal_safe(f"file: {path} ({not_a_task(path, {}).removeprefix('not a task: ')}; not read)"))
        return
    try:
        fields = spool.read_task(path)
    except OSError as exc:
        raise LhError(terminal_safe(f"cannot read {path}: {exc.strerror or exc}")) from None
    if state == "processing" and os.path.basename(path) in dead_claims(q):
        click.echo(f"state: interrupted (in processing/): {INTERRUPTED.partition(': ')[2]}")
    else:
        shown = shown_state(state, fields)
        click.echo(f"state: {shown}" + (" (in done/)" if shown != state else ""))
    for key, value in [("file", path), *fields.items()]:
        click.echo(terminal_safe(f"{key}: {value}"))  # why: a newline in a value must not forge a field
    tid, log = spool.task_id(os.path.basename(path)), logfile.log_path(logfile.WORKER)
    # why: the .error holds the last error only; the log holds each step (waits, retries, the model's calls)
    click.echo(terminal_safe(f"log: {log} (the worker's lines of this task: grep {tid} {shlex.quote(log)})"))
    if os.path.exists(path + ".error"):
        try:  # why read_regular: a FIFO in its place held the command in open(); now named on one line
            said = read_regular(path + ".error").decode("utf-8", "replace")
        except OSError as exc:
            click.echo(terminal_safe(f"error: cannot read {path}.error: {exc.strerror or exc}"))
            return
        click.echo("error:\n" + terminal_safe(said.rstrip(), keep="\n\t"))


# What a retried task keeps of the finished one: which session, where its transcript is and how to
# read it, as queue.task_fields wrote them (the turn a Stop task waits for, the agent and its
# transcripts folder); enqueue gives it a new name and timestamp.
# why: an allow-list: every other field is the old run's (its id and time, waits, wait_reason,
# not_before, the transcript mtime it read, its check, what it replaced, wrote, why it failed); one
# kept made the retry "wait for the API" while ready, and a kept ``waits`` doubled its next wait.
RETRY_KEEPS = ("cwd", "session_jsonl", "session_id", "memory_dir", AGENT, TRANSCRIPTS, spool.TURN)


def _requeue(q: str, path: str) -> str:
    """Queue a finished task anew, as a fresh task (new id and time) of the same session; LhError
    naming the file when it cannot be (unreadable, or not a task: the worker moves whatever lands
    in the queue to failed/, garbage included)."""
    tid = spool.task_id(os.path.basename(path))
    try:
        finished = spool.read_task(path)
        fields = {key: finished[key] for key in RETRY_KEEPS if finished.get(key)}
        fields.update(forced="1", event="retry", retry_of=tid)
        name = spool.enqueue(q, fields)
    except LhError as exc:
        raise LhError(f"cannot retry {path}: {exc.message}", hint=f"lh queue show {tid}") from None
    except OSError as exc:
        raise LhError(f"cannot retry {path}: {exc.strerror or exc}", hint=f"lh queue show {tid}") from None
    for old in (path, path + ".error"):  # the new task replaces the finished one
        try:
            os.unlink(old)
        except FileNotFoundError:
            pass
    return name


def _replaced(q: str, name: str) -> str:
    """The id of the task that queued task ``name`` replaced ("" for none, or once a worker took it)."""
    try:
        return spool.read_task(os.path.join(q, name)).get("replaces") or ""
    except (OSError, LhError):
        return ""


@queue.command("retry")
@click.argument("ident", required=False)
@click.option("--failed", "all_failed", is_flag=True, help="Retry every task in failed/.")
def retry(ident: str | None, all_failed: bool) -> None:
    """Put a finished task (or every failed one) back in the queue and start the worker.

    With --failed, a task that cannot be retried (unreadable, or not a task at all) is reported on
    one line and left in failed/; the others are retried and the worker started. Exit status 1 when
    any task could not be retried.
    """
    from lazy_harness.queue.submit import spawn_worker

    q = paths.queue_dir()
    if ident and all_failed:
        raise click.UsageError("give a task id or --failed, not both")
    if not ident and not all_failed:
        raise click.UsageError("give a task id or --failed")
    if ident:  # (then not --failed: both were refused above)
        state, path = find_task(q, ident, prefer="failed")  # why: of a session's tasks, the failed one is to retry
        if state in ("pending", "processing"):
            raise LhError(f"task {ident} is {state}, not finished")
        click.echo(terminal_safe(f"queued {spool.task_id(_requeue(q, path))} "
                                 f"(retry of {spool.task_id(os.path.basename(path))})"))
        spawn_worker()
        return
    targets = [os.path.join(spool.folder(q, spool.FAILED), n) for n in task_names(q, spool.FAILED)]
    if not targets:
        click.echo("nothing to retry")
        return
    stuck = 0
    queued: dict[str, list[str]] = {}  # a task queued -> the failed tasks it retries
    for path in targets:
        try:
            name = _requeue(q, path)
        except LhError as exc:
            click.echo(terminal_safe(f"lh: {exc}"), err=True)
            stuck += 1
            continue
        # why: a second failed task of one session replaces the first's retry in the queue (one task per
        # session waits), and an id printed for the first named a task no longer there
        queued[spool.task_id(name)] = queued.pop(_replaced(q, name), []) + [spool.task_id(os.path.basename(path))]
    for tid, retried in queued.items():
        click.echo(terminal_safe(f"queued {tid} (retry of {', '.join(retried)})"))
    if stuck < len(targets):
        spawn_worker()
    if stuck:
        raise LhError(f"{stuck} of {len(targets)} failed task(s) could not be retried; they stay in failed/",
                      hint="lh queue show <id>, then delete the file")


_SHORT_AGE = re.compile(r"^\s*(\d+)\s*(s|min)\s*$")
AGES = "30s, 90min, 12h, 30d, 2w, 1m (m is a month: 30 days, as in lh cost --since), a bare number of days"


# why: one reading of the unit letters across commands: ``1m`` once meant a minute here and a month
# in ``lh cost`` and ``lh backfill``, and purging "1m" forgot sessions that were then queued and paid
# for again. Minutes are spelt ``min``; anything else (``1M``, ``1mo``) is refused.
def _age_seconds(text: str, now: float | None = None) -> float:
    """``--older-than`` in seconds: ``s`` and ``min``, then whatever ``lh cost --since`` reads."""
    from lazy_harness.cli.cost import parse_since

    now = time.time() if now is None else now
    short = _SHORT_AGE.match(text)
    if short:
        seconds = float(int(short.group(1)) * (1 if short.group(2) == "s" else 60))
    else:
        try:
            seconds = now - parse_since(text, now)
        except LhError as exc:
            why = exc.message.removeprefix("--since: ")
            raise click.BadParameter(f"{why}; expected {AGES}, or a date YYYY-MM-DD",
                                     param_hint="'--older-than'") from None
    if seconds < 0:
        raise click.BadParameter(f"{text!r} is in the future", param_hint="'--older-than'")
    return seconds


@queue.command("purge")
@click.option("--done", "do_done", is_flag=True, help="Purge finished tasks in done/.")
@click.option("--failed", "do_failed", is_flag=True, help="Purge tasks in failed/ (and their .error files).")
@click.option("--older-than", "older", default="30d", show_default=True,
              help=f"Age: {AGES}, or a date YYYY-MM-DD.")
def purge(do_done: bool, do_failed: bool, older: str) -> None:
    """Delete finished tasks older than an age (by the time in their name), and the gate and sweep
    state of sessions untouched that long with no task waiting (a later Stop queues them anew).

    A folder named like a task is skipped with a notice; a file that cannot be removed is named on
    stderr and the purge goes on (exit status 1)."""
    if not (do_done or do_failed):
        raise click.UsageError("say what to purge: --done and/or --failed")
    cutoff_ns = (time.time() - _age_seconds(older)) * 1e9
    q = paths.queue_dir()
    kept = 0
    for flag, which in ((do_done, spool.DONE), (do_failed, spool.FAILED)):
        if not flag:
            continue
        removed = 0
        try:
            entries = sorted(os.scandir(spool.folder(q, which)), key=lambda e: e.name)
        except FileNotFoundError:
            entries = []
        for entry in entries:
            try:
                ns = int(entry.name.split("-", 1)[0])
            except ValueError:
                continue
            if ns >= cutoff_ns:
                continue
            if entry.is_dir(follow_symlinks=False):
                stray(entry.path)
                continue
            try:
                os.unlink(entry.path)
            except FileNotFoundError:
                continue  # removed meanwhile (another purge)
            except OSError as exc:
                click.echo(terminal_safe(f"lh: could not remove {entry.path}: {exc.strerror or exc}"), err=True)
                kept += 1
                continue
            removed += entry.name.endswith(spool.SUFFIX)
        click.echo(f"{which}: removed {removed} task(s) older than {older}")
    forgotten = sweep.purge_session_state(q, cutoff_ns / 1e9)
    click.echo(f"state: forgot {forgotten} session(s) untouched for {older}")
    if kept:
        raise LhError(f"{kept} file(s) could not be removed", hint="check the permissions of " + q)
