"""``lh memory usage``: which memory entries sessions were shown, which they used, which failures
recurred after memory showed them (docs/how/usage.md, ADR 0036); ``--reset ID`` counts an entry anew.

Also the one line ``lh status`` prints for the week (:func:`week_line`).
"""

from __future__ import annotations

import json
import os
import time

import click

from lazy_harness.logfile import terminal_safe

TYPE_CHECKING = False
if TYPE_CHECKING:
    from lazy_harness.memory.usage_log import Tally


def _mdirs(project: str | None, all_projects: bool) -> tuple[list[str], str]:
    """(the memory folders, what they are called in the report)."""
    from lazy_harness import config, paths
    from lazy_harness.project_identity import project_name

    cfg = config.load(os.environ)
    if all_projects:
        return paths.all_memory_dirs(None, cfg["memory"]["path"] or None), "every project"
    cwd = os.path.abspath(project or os.getcwd())
    return [paths.memory_dir(cwd, None, cfg["memory"]["path"] or None)], project_name(cwd)


def _day(iso: str | None) -> str:
    return iso[:16].replace("T", " ") if iso else "never"


def _print(t: Tally, name: str, where: str) -> None:
    totals = t.totals()
    click.echo(terminal_safe(f"memory usage of {name} ({where})"))
    if not t.entries:
        click.echo("no entry shown to a distilled session yet (the worker counts a session when it distils it)")
    else:
        click.echo(f"{'id':<10}  {'kind':<8}  {'shown':>5}  {'used':>4}  {'recurred':>8}  "
                   f"{'last shown':<16}  last used")
    for row in t.report()["entries"]:
        click.echo(terminal_safe(f"{row['id']:<10}  {row['kind']:<8}  {row['shown']:>5}  {row['used']:>4}  "
                                 f"{row['recurred']:>8}  {_day(row['last_shown']):<16}  {_day(row['last_used'])}"))
    click.echo(f"total: {totals['sessions']} session(s), {totals['shown']} shown, {totals['used']} used, "
               f"{totals['injected_chars']} characters injected, {totals['recurrences']} recurrence(s)")
    costly = [e for e in t.costly(5) if len(e.used) < len(e.shown)]
    if costly:
        click.echo("most characters for the least use:")
        for e in costly:
            click.echo(terminal_safe(f"  {e.id}  {e.chars} characters in {len(e.shown)} session(s), "
                                     f"used in {len(e.used)}"))


@click.command("usage")
@click.option("--project", type=click.Path(file_okay=False), help="A folder of the project (default: here).")
@click.option("--all-projects", is_flag=True, help="Every project's usage together.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object: the entries and the totals.")
@click.option("--reset", "reset_id", metavar="ID", help="Start this entry's counts over (shown, used, recurred).")
def usage(project: str | None, all_projects: bool, as_json: bool, reset_id: str | None) -> None:
    """Per entry shown to sessions: in how many it was shown, used, recurred; when last; the totals."""
    from lazy_harness.memory import usage_log

    mdirs, name = _mdirs(project, all_projects)
    if reset_id:
        if all_projects:
            raise click.UsageError("--reset takes one project: use --project or run it in the project")
        usage_log.reset(os.environ, mdirs[0], reset_id.strip(), time.time())
        click.echo(f"usage of {reset_id.strip()} counts anew from now")
        return
    records = [rec for mdir in mdirs for rec in usage_log.read(mdir)]
    t = usage_log.tally(records)
    if as_json:
        click.echo(json.dumps(t.report(), ensure_ascii=False))
        return
    _print(t, name, mdirs[0] if len(mdirs) == 1 else f"{len(mdirs)} memory folders")


def week_line(mdir: str, now: float) -> str:
    """``lh status``'s line: this week's shown, used and characters injected."""
    from lazy_harness.memory import usage_log

    w = usage_log.this_week(mdir, now)
    return (f"usage this week: {w['shown']} shown, {w['used']} used, {w['injected_chars']} characters injected "
            f"in {w['sessions']} session(s) (lh memory usage)")
