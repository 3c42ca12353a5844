"""``lh memory consolidate | history | undo | forget | close``: changing memory, always reversibly.

Registered on the ``lh memory`` group by :func:`register`. Every change goes through a journal
(``memory.journal``), so ``lh memory undo`` puts the files back byte for byte.
"""

from __future__ import annotations

import os
import time

import click

from lazy_harness.cli.options import project_option, warn_config

TYPE_CHECKING = False
if TYPE_CHECKING:
    from lazy_harness.config.typed import Config


def _where(project: str | None) -> tuple[str, Config, str, str, str]:
    """(cwd, config, memory folder, learnings folder, project name)."""
    from lazy_harness import config, paths
    from lazy_harness.project_identity import project_name

    cwd = os.path.abspath(project or os.getcwd())
    cfg = config.load(os.environ, warn_config)
    return (cwd, cfg, paths.memory_dir(cwd, None, cfg["memory"]["path"] or None),
            paths.learnings_dir(cfg["knowledge"]["path"] or None), project_name(cwd))


def index_after(mdir: str, ldir: str | None) -> None:
    """The recall index brought up to date with what a command wrote (ADR 0042): now, or by the
    worker when another writer holds it; a failure is said on stderr (the change itself is written)."""
    from lazy_harness.queue import index_task
    from lazy_harness.recall.index import writer

    try:
        if writer.after_write(os.environ, mdir, ldir) is None:
            index_task.ask_worker(os.environ, mdir)
    except Exception as exc:  # why: the memory is written; the next session start finds the index behind
        click.echo(f"lh: the search index was not updated ({type(exc).__name__}: {exc}); the next session "
                   "start asks for it", err=True)


_PROJECT = project_option()


@click.command()
@_PROJECT
@click.option("--dry-run", is_flag=True, help="Ask the model and print what would change; write nothing.")
def consolidate(project: str | None, dry_run: bool) -> None:
    """Let the model mark superseded decisions, duplicate failures, deprecated learnings and done
    handoff items (no gates: runs now). Undo with `lh memory undo`."""
    from lazy_harness.worker import consolidate as job

    _, cfg, mdir, ldir, name = _where(project)
    result = job.run(mdir, ldir, name, cfg, os.environ, time.time(), dry_run=dry_run)
    if result.run:
        index_after(mdir, ldir)
    for problem in result.problems:
        click.echo(f"ignored: {problem}", err=True)
    for change in result.changes:
        click.echo(("would " if dry_run else "") + str(change))
    for line in result.not_applied:  # why: dropped just before its write (its entry no longer live)
        click.echo(line)
    tail = f" (journal {result.run}: lh memory undo {result.run})" if result.run else ""
    click.echo(f"{result.status}: {result.reason}{tail}")
    if result.status == "failed":
        raise click.exceptions.Exit(1)


@click.command()
@_PROJECT
def history(project: str | None) -> None:
    """Every consolidation and manual change of this project's memory, newest first."""
    from lazy_harness.memory import journal, migrate
    from lazy_harness.project_identity import project_root

    cwd, _, mdir, _, name = _where(project)
    # why: a project that got an origin remote moved to a new folder; the changes journaled under its
    # path key stay in the old one, and are still its history
    earlier = migrate.earlier_folder(project_root(cwd), mdir)
    moved = [r for r in journal.runs(earlier) if r.get("project") in (None, name)] if earlier else []
    runs = sorted([(r, None) for r in journal.runs(mdir)] + [(r, earlier) for r in moved],
                  key=lambda pair: str(pair[0]["run"]), reverse=True)
    if not runs:
        click.echo(f"no changes recorded for {name} ({journal.folder(mdir)})")
        return
    for data, where in runs:
        state = f"undone {data['undone']}" if data.get("undone") else "lh memory undo " + data["run"]
        if data.get("kind") == "hold" and not data.get("undone"):
            state = "a hold: lh memory approve ID or lh memory forget ID ends it"
        if not data.get("undone") and any(isinstance(f, dict) and f.get("restored") for f in data["files"]):
            state = "partly undone: " + state
        if where and not data.get("undone"):
            state = f"journaled in {journal.folder(where)} before the project moved to its remote's folder"
        changes = data.get("changes") or []
        # why: consolidation journals a change it dropped before its write as "not applied (...)"
        made = [c for c in changes if not str(c).startswith("not applied")]
        dropped = f", {len(changes) - len(made)} not applied" if len(made) < len(changes) else ""
        click.echo(f"{data['run']}  {data.get('kind', '?'):<11}  {data.get('started', '?')}  "
                   f"{len(made)} change(s){dropped}  [{state}]")
        for change in changes:
            click.echo(f"    {change}")


@click.command()
@click.argument("run", required=False)
@_PROJECT
def undo(run: str | None, project: str | None) -> None:
    """Put back the files a run changed (default: the newest run not yet undone)."""
    from lazy_harness.memory import by_hand

    _, cfg, mdir, ldir, _ = _where(project)
    data, restored, problems = by_hand.undo(mdir, ldir, run, cfg["handoff"]["stale_days"], time.time())
    if restored:
        index_after(mdir, ldir)
    said, left = by_hand.undo_said(data, restored, problems)
    for line in left:
        click.echo(line, err=True)
    click.echo(said)
    if problems:
        raise click.exceptions.Exit(1)


@click.command()
@click.argument("entry_id")
@_PROJECT
@click.option("--reason", default="forgotten by hand", show_default=True, help="Why (kept in the record).")
def forget(entry_id: str, project: str | None, reason: str) -> None:
    """Leave a decision, failure, learning or handoff item out of everything (undoable)."""
    from lazy_harness.memory import by_hand

    _, _, mdir, ldir, name = _where(project)
    run = by_hand.forget(mdir, ldir, name, entry_id, reason, time.time())
    if run:
        index_after(mdir, ldir)
    click.echo(f"forgot {entry_id} (undo: lh memory undo {run})" if run else f"{entry_id} is already forgotten")


@click.command()
@click.argument("item")
@_PROJECT
@click.option("--reason", default="closed by hand", show_default=True, help="Why (kept in the record).")
def close(item: str, project: str | None, reason: str) -> None:
    """Close an open handoff item, by its id or its exact text (undoable)."""
    from lazy_harness.memory import by_hand

    _, _, mdir, ldir, name = _where(project)
    hid, text, run = by_hand.close(mdir, name, item, reason, time.time())
    index_after(mdir, ldir)
    click.echo(f"closed {hid}: {text} (undo: lh memory undo {run})")


@click.command()
@_PROJECT
def held(project: str | None) -> None:
    """Entries held for approval (text that reads as an instruction to the agent, ADR 0024) and the
    learnings sessions wrote that wait for approval to be used in other projects (ADR 0032)."""
    from lazy_harness.logfile import terminal_safe
    from lazy_harness.memory import approval, state
    from lazy_harness.memory import held as holding
    from lazy_harness.memory.fence import neutral

    _, cfg, mdir, ldir, name = _where(project)
    found = holding.listing(mdir, ldir, state.policy(cfg))
    if not found:
        click.echo(f"nothing held for {name} ({mdir}) or in the learnings ({ldir})")
        return
    held_ = [h for h in found if h["state"] == state.HELD]
    waiting = [h for h in found if h["state"] == state.WAITING]
    if held_:
        click.echo(f"{len(held_)} held (not shown to sessions; lh memory approve ID releases one, lh memory forget "
                   "ID drops it):")
    for h in held_:
        click.echo(terminal_safe(f"  {h['id']}  {h['kind']:<8}  held: {h['reason']}  from {neutral(h['origin'], 120)}"))
        click.echo(terminal_safe(f"      {neutral(h['text'], 300)}  ({h['file']})"))
    if waiting:
        click.echo(f"{len(waiting)} learning(s) wait for your approval to be used in other projects (used in the "
                   "project that wrote them; "
                   "lh memory approve ID [ID...] or --all approves, lh memory forget ID drops one):")
    for h in waiting:
        # why: a learning whose approval is not this person's (ADR 0052) says so, or it reads as a bug
        why = f" ({approval.NOT_HERE})" if approval.NOT_HERE in str(h.get("reason") or "") else ""
        click.echo(terminal_safe(f"  {h['id']}  {h['kind']:<8}  waiting{why}  from {neutral(h['origin'], 120)}"))
        click.echo(terminal_safe(f"      {neutral(h['text'], 300)}  ({h['file']})"))


@click.command()
@click.argument("entry_ids", nargs=-1)
@_PROJECT
@click.option("--all", "every", is_flag=True,
              help="Every learning that waits for approval to be used in other projects (not the held entries).")
@click.option("--reason", default="approved by hand", show_default=True, help="Why (kept in the record).")
def approve(entry_ids: tuple[str, ...], project: str | None, every: bool, reason: str) -> None:
    """Approve entries in one run (undoable): a held one is shown to sessions again; a learning a session
    wrote is shown in every project."""
    from lazy_harness.memory import by_hand, state

    if not entry_ids and not every:
        raise click.UsageError("name the ids to approve (lh memory held lists them), or --all")
    _, cfg, mdir, ldir, name = _where(project)
    run = by_hand.approve(mdir, ldir, name, list(entry_ids), reason, time.time(), every, state.policy(cfg))
    index_after(mdir, ldir)
    click.echo(f"approved {', '.join(entry_ids) if entry_ids and not every else 'them'} "
               f"(undo: lh memory undo {run})")


def register(group: click.Group) -> None:
    from lazy_harness.cli.memory_usage import usage

    for command in (consolidate, history, undo, forget, close, held, approve, usage):
        group.add_command(command)
