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
from lazy_harness.atomic import held
from lazy_harness.errors import LhError
from lazy_harness.logfile import terminal_safe
from lazy_harness.project_identity import project_name
from lazy_harness.queue import sweep
from lazy_harness.queue.task import AGENT, TRANSCRIPTS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

STATES = (("pending", spool.PENDING), ("processing", spool.PROCESSING), ("done", spool.DONE), ("failed", spool.FAILED))


def task_names(q: str, which: str) -> list[str]:
    """The task files of one folder; anything else named like a task is skipped with a notice."""
    try:
        entries = sorted(os.scandir(spool.folder(q, which)), key=lambda e: e.name)
    except FileNotFoundError:
        return []
    names = []
    for entry in entries:
        if not entry.name.endswith(spool.SUFFIX):
            continue
        if entry.is_file():
            names.append(entry.name)
        else:
            _stray(entry.path)
    return names


def _stray(path: str) -> None:
    """A folder (or a dangling link) named like a task: not ours to read or delete. Said once per command.

    why the context's meta: lh status lists each folder two or three times (its sessions, its counts),
    and named the same folder as often; a set of the process's own would silence the next command run
    in it (the tests run several)."""
    ctx = click.get_current_context(silent=True)
    told: set[str] = ctx.find_root().meta.setdefault("lh.queue.strays", set()) if ctx else set()
    if path not in told:
        told.add(path)
        click.echo(terminal_safe(f"lh: skipped {path}: not a regular file"), err=True)


def _matches(name: str, ident: str) -> bool:
    """A task id (``<ns>-<short session id>``) is found by its start or by its short session id."""
    tid = spool.task_id(name)
    return tid.startswith(ident) or tid.partition("-")[2].startswith(ident)


def _find(q: str, ident: str, prefer: str | None = None) -> tuple[str, str]:
    """(state, path) of the task whose id, or whose 8-character session part, starts with ``ident``;
    of several, the only one in state ``prefer`` when there is one (a session's failed task beside
    the ones it got done)."""
    ident = ident.strip()
    hits = [(state, os.path.join(spool.folder(q, which), n))
            for state, which in STATES for n in task_names(q, which) if ident and _matches(n, ident)]
    if not hits:
        raise LhError(f"no task matches {ident!r} in {q}", hint="lh queue")
    preferred = [hit for hit in hits if hit[0] == prefer]
    if len(hits) > 1 and len(preferred) == 1:
        return preferred[0]
    if len(hits) > 1:
        listed = ", ".join(f"{spool.task_id(os.path.basename(p))} ({state})" for state, p in hits[:10])
        more = f" and {len(hits) - 10} more" if len(hits) > 10 else ""
        raise LhError(terminal_safe(f"{len(hits)} tasks match {ident!r}: {listed}{more}; give the whole id"),
                      hint="lh queue")
    return hits[0]


def queued_at(name: str) -> str:
    try:
        return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(int(name.split("-", 1)[0]) / 1e9))
    except ValueError:
        return "?"


def not_before(fields: dict) -> float:
    """When a waiting task may run again (0: whenever a worker takes it; a spend cap's pause has none)."""
    try:
        return float(fields.get("not_before") or 0)
    except ValueError:
        return 0.0


def waiting_reason(fields: dict) -> str:
    """Why a pending task that was taken once went back to wait, and until when ("" otherwise)."""
    why = fields.get("wait_reason", "")
    if not why:
        return ""
    until = not_before(fields)
    # why seconds: a minute cut off said 02:58 for a task that runs at 02:58:59
    when = f", not before {time.strftime('%H:%M:%S', time.localtime(until))}" if until > time.time() else ""
    return f"waiting{when}: {why}"


REASON_CHARS = 200  # why: every spend cap's reason (budget._why_not) fits whole, with its hint


def clipped(text: str, tid: str, limit: int = REASON_CHARS) -> str:
    """``text`` whole when it fits in ``limit`` characters; else cut after a whole word, with an
    ellipsis and the command that shows it whole."""
    if len(text) <= limit:
        return text
    head = text[:limit + 1]
    cut = head.rsplit(" ", 1)[0] if " " in head.strip() else text[:limit]
    return cut.rstrip(" ;,:") + f"… (lh queue show {tid})"


def _cap_now() -> tuple[str, str]:
    """``cost.paused.pause_hold`` now, with the config as ``lh cost`` reads it (its defaults when it is broken):
    why a spend cap holds the queue and until when, the worker's pause notice checked again against the
    cap now (a raised cap or a new day lifts it); ("", "") when none does."""
    from lazy_harness.cli.cost import load_config
    from lazy_harness.cost.paused import pause_hold

    return pause_hold(load_config(), time.time())


CAP_LIFTED = "waiting: the spend cap that paused it no longer holds; the next worker takes it"


def pending_reason(fields: dict, cap: Callable[[], tuple[str, str]]) -> str:
    """Why a pending task waits: its own time while still to come (:func:`waiting_reason`), else the
    spend cap that holds the queue now (``cap``: :func:`_cap_now`, asked only here; the task's own
    reason when a cap paused it), else its own reason unless that names a cap which no longer holds
    (it paused the task, then was raised or reset)."""
    from lazy_harness.cost import budget

    own = fields.get("wait_reason", "")
    if not_before(fields) <= time.time():
        reason, until = cap()
        if reason:
            reason = own if budget.cap_reason(own) else reason  # as lh status says it (cli/status.py)
            return f"waiting until {until}: {reason}" if until else f"waiting: {reason}"
        # why not the budget guard's stop: it says what ended one call (its own reason, shown as it
        # was), not a cap the person raised or that reset since
        if budget.cap_reason(own) and not own.startswith("the budget guard stopped"):
            return CAP_LIFTED
    return waiting_reason(fields)


INTERRUPTED = "interrupted: resumes when the next session starts a worker, or run lh worker run --once"


def dead_claims(q: str) -> set[str]:
    """The claims in processing/ no worker is at: the worker that took them was killed (out of memory,
    a closed laptop) and none holds the worker lock now. The next worker returns them to the queue.

    Read-only: the lock is probed as the hooks probe it (``queue.needs_worker``: a shared lock tried
    without waiting and dropped at once), never taken, and its file never created.
    """
    before = _claims(q)
    if not before or held(os.path.join(q, spool.LOCK_NAME)):
        return set()
    # why listed again: a claim there both before and after the probe, while no worker held the lock,
    # is a dead worker's; a worker that finished its task and left in between took its claim with it
    return before & _claims(q)


def _claims(q: str) -> set[str]:
    try:
        return {n for n in os.listdir(spool.folder(q, spool.PROCESSING)) if n.endswith(spool.SUFFIX)}
    except OSError:
        return set()


# why: the state column of the listing is as wide as its longest word ("interrupted")
STATE_WIDTH = max(len(word) for word in (*(state for state, _ in STATES), "interrupted", "skipped"))


def _shown(state: str, fields: dict) -> str:
    """A finished task's state as the person reads it: done/ holds the skipped ones too (issue 26)."""
    if state == "done" and fields.get("outcome") == "skipped":
        return "skipped"
    return state


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
    cap: list[tuple[str, str]] = []

    def cap_now() -> tuple[str, str]:  # why once: it reads the config, the ledger and the notice
        if not cap:
            cap.append(_cap_now())
        return cap[0]

    for name, state, path in rows[-recent:]:
        try:
            fields = {} if os.path.islink(path) else spool.read_task(path)
        except OSError:
            continue
        tid = spool.task_id(name)
        odd = "" if fields.get("reason") else not_a_task(path, fields)  # why: the worker's verdict comes first
        reason = (f"{odd} (lh queue show {tid})" if odd else fields.get("reason", "")
                  or (pending_reason(fields, cap_now) if state == "pending" else waiting_reason(fields)))
        reason = clipped(reason, tid)
        where = project_name(fields["cwd"]) if fields.get("cwd") else "?"
        click.echo(terminal_safe(f"  {tid}  {queued_at(name)}  {_shown(state, fields):<{STATE_WIDTH}} "
                                 f"{fields.get('event', '?'):<11} {where:<20} {reason}"))


def not_a_task(path: str, fields: dict) -> str:
    """Why the file at ``path`` (its ``fields`` as read) is not a task a hook wrote ("" when it is one):
    a symbolic link (never read through: what it points at is not ours), or a file that names no
    session (garbage, a file cut short; the worker moves whatever lands in the queue to failed/)."""
    from lazy_harness.queue.produce import REQUIRED

    if os.path.islink(path):
        try:
            target = os.readlink(path)
        except OSError:
            target = "?"
        return f"not a task: a symbolic link to {target}, which no hook writes"
    missing = [key for key in REQUIRED if not fields.get(key)]
    return f"not a task: no {' or '.join(missing)} in it (damaged, or not written by a hook)" if missing else ""


@queue.command("show")
@click.argument("ident")
def show(ident: str) -> None:
    """Every field of one task (and its .error, if it failed)."""
    q = paths.queue_dir()
    state, path = _find(q, ident)
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
        click.echo(f"state: {_shown(state, fields)}" + (" (in done/)" if _shown(state, fields) != state else ""))
    for key, value in [("file", path), *fields.items()]:
        click.echo(terminal_safe(f"{key}: {value}"))  # why: a newline in a value must not forge a field
    tid, log = spool.task_id(os.path.basename(path)), logfile.log_path(logfile.WORKER)
    # why: the .error holds the last error only; the log holds each step (waits, retries, the model's calls)
    click.echo(terminal_safe(f"log: {log} (the worker's lines of this task: grep {tid} {shlex.quote(log)})"))
    if os.path.exists(path + ".error"):
        with open(path + ".error", encoding="utf-8", errors="replace") as fh:
            click.echo("error:\n" + terminal_safe(fh.read().rstrip(), keep="\n\t"))


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
        state, path = _find(q, ident, prefer="failed")  # why: of a session's tasks, the failed one is to retry
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
    for path in targets:
        try:
            name = _requeue(q, path)
        except LhError as exc:
            click.echo(terminal_safe(f"lh: {exc}"), err=True)
            stuck += 1
            continue
        click.echo(terminal_safe(f"queued {spool.task_id(name)} (retry of {spool.task_id(os.path.basename(path))})"))
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
                _stray(entry.path)
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
