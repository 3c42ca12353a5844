"""``lh queue``: what is pending, running, done and failed, and why."""

import os
import time

import click

from lazy_harness import paths
from lazy_harness import queue as spool
from lazy_harness.errors import LhError
from lazy_harness.queue import sweep

STATES = (("pending", spool.PENDING), ("processing", spool.PROCESSING), ("done", spool.DONE), ("failed", spool.FAILED))


def _names(q: str, which: str) -> list[str]:
    try:
        return sorted(n for n in os.listdir(spool.folder(q, which)) if n.endswith(spool.SUFFIX))
    except FileNotFoundError:
        return []


def _matches(name: str, ident: str) -> bool:
    """A task id (``<ns>-<short session id>``) is found by its start or by its short session id."""
    tid = spool.task_id(name)
    return tid.startswith(ident) or tid.partition("-")[2].startswith(ident)


def _find(q: str, ident: str) -> tuple[str, str]:
    """(state, path) of the task whose id, or whose 8-character session part, starts with ``ident``."""
    ident = ident.strip()
    hits = [(state, os.path.join(spool.folder(q, which), n))
            for state, which in STATES for n in _names(q, which) if ident and _matches(n, ident)]
    if not hits:
        raise LhError(f"no task matches {ident!r} in {q}", hint="lh queue")
    if len(hits) > 1:
        listed = ", ".join(f"{spool.task_id(os.path.basename(p))} ({state})" for state, p in hits[:10])
        more = f" and {len(hits) - 10} more" if len(hits) > 10 else ""
        raise LhError(f"{len(hits)} tasks match {ident!r}: {listed}{more}; give the whole id", hint="lh queue")
    return hits[0]


def _when(name: str) -> str:
    try:
        return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(int(name.split("-", 1)[0]) / 1e9))
    except ValueError:
        return "?"


def _waiting(fields: dict) -> str:
    """Why a pending task that was taken once went back to wait, and until when ("" otherwise)."""
    why = fields.get("wait_reason", "")
    if not why:
        return ""
    try:
        until = float(fields.get("not_before") or 0)
    except ValueError:
        until = 0
    when = f", not before {time.strftime('%H:%M', time.localtime(until))}" if until > time.time() else ""
    why = why if len(why) <= 100 else why[:99] + "…"  # the whole reason: lh queue show
    return f"waiting{when}: {why}"


@click.group(invoke_without_command=True)
@click.option("-n", "recent", default=10, show_default=True, type=click.IntRange(min=1),
              help="How many recent tasks to list.")
@click.pass_context
def queue(ctx: click.Context, recent: int) -> None:
    """Counts per folder and the most recent tasks with their state and reason."""
    if ctx.invoked_subcommand is not None:
        return
    q = paths.queue_dir()
    click.echo(f"queue: {q}")
    rows = []
    for state, which in STATES:
        names = _names(q, which)
        click.echo(f"  {state:<11} {len(names)}")
        rows += [(n, state, os.path.join(spool.folder(q, which), n)) for n in names[-recent:]]
    rows.sort(key=lambda r: r[0])
    if rows:
        click.echo("recent:")
    for name, state, path in rows[-recent:]:
        try:
            fields = spool.read_task(path)
        except OSError:
            continue
        reason = fields.get("reason", "") or _waiting(fields)
        click.echo(f"  {spool.task_id(name)}  {_when(name)}  {state:<10} {fields.get('event', '?'):<11} "
                   f"{paths.project_name(fields.get('cwd', '/')):<20} {reason}")


@queue.command("show")
@click.argument("ident")
def show(ident: str) -> None:
    """Every field of one task (and its .error, if it failed)."""
    state, path = _find(paths.queue_dir(), ident)
    click.echo(f"state: {state}\nfile: {path}")
    for key, value in spool.read_task(path).items():
        click.echo(f"{key}: {value}")
    if os.path.exists(path + ".error"):
        with open(path + ".error", encoding="utf-8", errors="replace") as fh:
            click.echo("error:\n" + fh.read().rstrip())


def _requeue(q: str, path: str) -> str:
    fields = spool.read_task(path)
    for key in ("outcome", "reason", "finished", "attempts", "interruptions", "written", "answer_problems"):
        fields.pop(key, None)
    fields["forced"] = "1"
    fields["event"] = "retry"
    fields["retry_of"] = spool.task_id(os.path.basename(path))
    name = spool.enqueue(q, fields)
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
    """Put a finished task (or every failed one) back in the queue and start the worker."""
    from lazy_harness.worker.spawn import spawn_worker

    q = paths.queue_dir()
    if not ident and not all_failed:
        raise click.UsageError("give a task id or --failed")
    if all_failed:
        targets = [os.path.join(spool.folder(q, spool.FAILED), n) for n in _names(q, spool.FAILED)]
    else:
        state, path = _find(q, ident)
        if state in ("pending", "processing"):
            raise LhError(f"task {ident} is {state}, not finished")
        targets = [path]
    for path in targets:
        click.echo(f"queued {spool.task_id(_requeue(q, path))} (retry of {spool.task_id(os.path.basename(path))})")
    if targets:
        spawn_worker()
    else:
        click.echo("nothing to retry")


def _age_seconds(text: str) -> float:
    units = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}
    try:
        seconds = float(text[:-1]) * units[text[-1]] if text[-1] in units else float(text) * 86400
    except (ValueError, IndexError, KeyError):
        raise click.BadParameter(f"{text!r}: expected a number with s, m, h, d or w, e.g. 30d") from None
    if not seconds >= 0:
        raise click.BadParameter(f"{text!r}: an age cannot be negative")
    return seconds


@queue.command("purge")
@click.option("--done", "do_done", is_flag=True, help="Purge finished tasks in done/.")
@click.option("--failed", "do_failed", is_flag=True, help="Purge tasks in failed/ (and their .error files).")
@click.option("--older-than", "older", default="30d", show_default=True, help="Age, e.g. 12h, 30d, 2w.")
def purge(do_done: bool, do_failed: bool, older: str) -> None:
    """Delete finished tasks older than an age (by the time in their name), and the gate and sweep
    state of sessions untouched that long with no task waiting (a later Stop queues them anew)."""
    if not (do_done or do_failed):
        raise click.UsageError("say what to purge: --done and/or --failed")
    cutoff_ns = (time.time() - _age_seconds(older)) * 1e9
    q = paths.queue_dir()
    for flag, which in ((do_done, spool.DONE), (do_failed, spool.FAILED)):
        if not flag:
            continue
        removed = 0
        folder = spool.folder(q, which)
        for name in os.listdir(folder) if os.path.isdir(folder) else []:
            try:
                ns = int(name.split("-", 1)[0])
            except ValueError:
                continue
            if ns < cutoff_ns:
                os.unlink(os.path.join(folder, name))
                removed += name.endswith(spool.SUFFIX)
        click.echo(f"{which}: removed {removed} task(s) older than {older}")
    forgotten = sweep.purge_session_state(q, cutoff_ns / 1e9)
    click.echo(f"state: forgot {forgotten} session(s) untouched for {older}")
