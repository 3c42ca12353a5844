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
    from lazy_harness.logfile import terminal_safe
    from lazy_harness.worker import consolidate as job

    _, cfg, mdir, ldir, name = _where(project)
    result = job.run(mdir, ldir, name, cfg, os.environ, time.time(), dry_run=dry_run)
    if result.run:
        index_after(mdir, ldir)
    # why terminal_safe: the lines quote the model's answer, and a failed call's reason claude's stderr
    for problem in result.problems:
        click.echo(terminal_safe(f"ignored: {problem}"), err=True)
    for change in result.changes:
        click.echo(terminal_safe(("would " if dry_run else "") + str(change)))
    for line in result.not_applied:  # why: dropped just before its write (its entry no longer live)
        click.echo(terminal_safe(line))
    tail = f" (journal {result.run}: lh memory undo {result.run})" if result.run else ""
    click.echo(terminal_safe(f"{result.status}: {result.reason}{tail}"))
    if result.status == "failed":
        raise click.exceptions.Exit(1)


@click.command()
@_PROJECT
def history(project: str | None) -> None:
    """Every consolidation and manual change of this project's memory, newest first (with those
    journaled under its earlier keys, before its origin changed: lh memory undo RUN undoes them too)."""
    from lazy_harness.logfile import terminal_safe
    from lazy_harness.memory import journal, project_runs
    from lazy_harness.memory.changes import listed_elsewhere
    from lazy_harness.memory.journal_format import run_order

    cwd, _, mdir, ldir, name = _where(project)
    runs = project_runs.runs(cwd, mdir, name)
    _say_unreadable(cwd, mdir)
    others: list[tuple[dict, str | None]] = [
        (run, None) for run in listed_elsewhere(mdir, ldir, name, {str(r["run"]) for r, _ in runs})]
    if not runs and not others:
        click.echo(terminal_safe(f"no changes recorded for {name} ({journal.folder(mdir)})"))
        return
    for data, where in sorted(runs + others, key=lambda pair: run_order(pair[0]), reverse=True):
        if "elsewhere" in data:
            _echo_run_elsewhere(data)
            continue
        state = f"undone {data['undone']}" if data.get("undone") else "lh memory undo " + data["run"]
        if data.get("kind") == "hold" and not data.get("undone"):
            state = "a hold: lh memory approve ID or lh memory forget ID ends it"
        if not data.get("undone") and any(isinstance(f, dict) and f.get("restored") for f in data["files"]):
            state = "partly undone: " + state
        if where:
            state += f"; journaled in {journal.folder(where)} before the project moved to this folder"
        changes = data.get("changes") or []
        # why: consolidation journals a change it dropped before its write as "not applied (...)"
        made = [c for c in changes if not str(c).startswith("not applied")]
        dropped = f", {len(changes) - len(made)} not applied" if len(made) < len(changes) else ""
        # why terminal_safe: journals are synced, so run, kind, started, undone and the change lines may be
        # another machine's (or a hand edit's): an escape sequence or a line break is shown, on its line
        kind, started = str(data.get("kind") or "?"), str(data.get("started") or "?")  # why: null in a hand edit
        click.echo(terminal_safe(f"{data['run']}  {kind:<11}  {started}  "
                                 f"{len(made)} change(s){dropped}  [{state}]"))
        for change in changes:
            click.echo(terminal_safe(f"    {change}"))


def _echo_run_elsewhere(data: dict) -> None:
    """One run of another project's journal that changed this project's learnings, as
    ``changes.listed_elsewhere`` gives it (its ``elsewhere``: where it is journaled, its changes)."""
    from lazy_harness.logfile import terminal_safe

    state, made = data["elsewhere"]
    click.echo(terminal_safe(f"{data['run']}  {data.get('kind', '?'):<11}  {data.get('started', '?')}  "
                             f"{len(made)} change(s)  [{state}]"))
    for change in made:
        click.echo(terminal_safe(f"    {change}"))


def _say_unreadable(cwd: str, mdir: str) -> None:
    """One line on stderr per journal of the project no history or undo can read (a write cut short,
    a hand edit): its run is otherwise in neither, without a word."""
    from lazy_harness.logfile import terminal_safe
    from lazy_harness.memory import project_runs

    for path, why in project_runs.unreadable(cwd, mdir):
        click.echo(terminal_safe(f"lh: {path}: {why}; its run is not listed and cannot be undone"), err=True)


@click.command()
@click.argument("run", required=False)
@_PROJECT
def undo(run: str | None, project: str | None) -> None:
    """Put back the files a run changed (default: the newest run not yet undone), also one journaled
    under the project's earlier key (lh memory history lists them). RUN may be an entry's id (as lh
    memory search shows a forgotten one): the newest run that changed that entry alone is undone."""
    from lazy_harness.memory import by_hand, project_runs

    if run is not None:
        # why: `lh memory undo "$RUN"` with RUN unset undid the newest run instead, and a run pasted with
        # a space around it was "no journal"
        run = run.strip()
        if not run:
            raise click.BadParameter("an empty value names no run (lh memory history lists them)", param_hint="RUN")
    cwd, cfg, mdir, ldir, name = _where(project)
    _say_unreadable(cwd, mdir)
    run = project_runs.to_undo(cwd, mdir, name, run)
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
    from lazy_harness.memory import by_hand, ids

    entry_id = ids.as_typed(entry_id)  # why here too: the line below names the id as stored
    _, _, mdir, ldir, name = _where(project)
    run, shown = by_hand.forget_showing(mdir, ldir, name, entry_id, reason, time.time())
    if run:
        index_after(mdir, ldir)
    click.echo(by_hand.forget_said(entry_id, run and f"lh memory undo {run}", shown))


@click.command()
@click.argument("item")
@_PROJECT
@click.option("--reason", default="closed by hand", show_default=True, help="Why (kept in the record).")
def close(item: str, project: str | None, reason: str) -> None:
    """Close an open handoff item, by its id or its exact text (undoable)."""
    from lazy_harness.logfile import one_line
    from lazy_harness.memory import by_hand

    _, _, mdir, ldir, name = _where(project)
    hid, text, run = by_hand.close(mdir, name, item, reason, time.time())
    index_after(mdir, ldir)
    # why one_line: the text as lh memory show prints it (a synced or hand-written one may hold a line
    # break or a terminal escape sequence); and redacted as show prints it when it holds a secret
    from lazy_harness.memory import held_shown

    click.echo(f"closed {hid}: {one_line(held_shown.item_closed(mdir, text), 2000)} (undo: lh memory undo {run})")


@click.command()
@_PROJECT
def held(project: str | None) -> None:
    """Entries held for approval (text that reads as an instruction to the agent, ADR 0024) and the
    learnings sessions wrote that wait for approval to be used in other projects (ADR 0032)."""
    from lazy_harness.cli.memory_reading import say_waiting_here
    from lazy_harness.memory import held_review, state

    cwd, cfg, mdir, ldir, name = _where(project)
    found = held_review.listing(mdir, ldir, state.policy(cfg),
                                told=lambda: click.echo(f"lh: {held_review.WAITING}", err=True))
    if not found:
        click.echo(f"nothing held for {name} ({mdir}) or in the learnings ({ldir})")
    _list_held(found, mdir)
    say_waiting_here(mdir, ldir, cwd)  # why here: it waits for the person's word, as the held entries do


def _list_held(found: list[dict], mdir: str) -> None:
    """The held entries and the learnings waiting for approval of :func:`held`'s listing."""
    from lazy_harness.logfile import terminal_safe
    from lazy_harness.memory import approval_key, held_review, state
    from lazy_harness.memory.fence import from_origin, neutral

    held_ = [h for h in found if h["state"] == state.HELD]
    waiting = [h for h in found if h["state"] == state.WAITING]
    refusals = {h["id"]: held_review.approve_refused(mdir, h) for h in held_}
    if held_:
        # why: "approve releases one" is untrue of one held for a secret; the heading says so when all are
        approves = ("lh memory approve ID releases one" if not any(refusals.values()) else
                    "lh memory approve ID releases one not held for a secret" if not all(refusals.values()) else
                    "each is held for a secret: edit it out of the file named under it")
        click.echo(f"{len(held_)} held (not shown to sessions; {approves}, lh memory forget ID drops it):")
    for h in held_:
        origin = from_origin(neutral(h["origin"], 120))
        click.echo(terminal_safe(f"  {h['id']}  {h['kind']:<8}  held: {h['reason']}  {origin}"))
        click.echo(terminal_safe(f"      {neutral(h['text'], 300)}  ({h['file']})"))
        if refused := refusals[h["id"]]:
            click.echo(terminal_safe(f"      lh memory approve refuses it: {refused}"))
        elif h.get("crosses"):  # why: one approval releases the hold and lets it cross (ADR 0032)
            click.echo("      a general learning: approving it shows it in every project's sessions, not only here")
    if waiting:
        click.echo(f"{len(waiting)} learning(s) wait for your approval to be used in other projects (used in the "
                   "project that wrote them; "
                   "lh memory approve ID [ID...] or --all approves, lh memory forget ID drops one):")
    for h in waiting:
        # why: a learning whose approval is not this person's (ADR 0052) says so, or it reads as a bug
        reason = str(h.get("reason") or "")
        said = [w for w in (approval_key.NOT_HERE, state.CLAIMS_HAND, state.NAMES_NOBODY) if w in reason]
        why = f" ({'; '.join(said)})" if said else ""
        origin = from_origin(neutral(h["origin"], 120))
        click.echo(terminal_safe(f"  {h['id']}  {h['kind']:<8}  waiting{why}  {origin}"))
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
    told: list[str] = []
    run, approved = by_hand.approve(mdir, ldir, name, list(entry_ids), reason, time.time(), every,
                                    state.policy(cfg), told)
    index_after(mdir, ldir)
    click.echo(f"approved {_approved(approved)} (undo: lh memory undo {run})")
    for line in dict.fromkeys(told):  # why once: a learning copied by hand is approved in each of its files
        click.echo(line)


_PLURAL = {"decision": "decisions", "failure": "failures", "learning": "learnings", "handoff": "open items"}


def _approved(approved: list[str]) -> str:
    """``l-1a2b3c4d``, or ``3 learnings: l-..., l-..., l-...`` (``entries`` when of several kinds)."""
    from lazy_harness.memory import ids

    if len(approved) < 2:
        return ", ".join(approved)
    kinds = {ids.kind_of(eid) for eid in approved}
    noun = _PLURAL.get(str(kinds.pop())) if len(kinds) == 1 else None
    return f"{len(approved)} {noun or 'entries'}: {', '.join(approved)}"


def register(group: click.Group) -> None:
    from lazy_harness.cli.memory_usage import usage

    for command in (consolidate, history, undo, forget, close, held, approve, usage):
        group.add_command(command)
