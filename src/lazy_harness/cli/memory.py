"""``lh memory``: the command group, and its commands that search and check a project's memory:
``search`` (a word search over decisions, failures and learnings), ``reindex``, ``path`` and
``check``. ``show`` is in cli/memory_show.py; :func:`echo`, which prints what memory files hold
terminal-safe, in cli/memory_reading.py; changing memory in cli/memory_changes.py, owners in
cli/memory_owners.py.

Not the hot path: these read every record and every learning.
"""

from __future__ import annotations

import os
import time

import click

from lazy_harness import config, paths
from lazy_harness.cli.memory_reading import echo, setting
from lazy_harness.cli.memory_show import show
from lazy_harness.cli.options import project_option, warn_config
from lazy_harness.memory import files
from lazy_harness.project_identity import project_root
from lazy_harness.recall import search as search_core


def _waiting_note(root: str, mdir: str) -> str | None:
    """A line naming the old files of the project that still wait to be moved into ``mdir``, or None."""
    from lazy_harness.memory import migrate

    waiting = migrate.pending(paths.project_key(root), root, None, mdir)
    if not waiting:
        return None
    return (f"lh: {len(waiting)} old file(s) of this project wait in {os.path.dirname(waiting[0])}; the next "
            "session start, the worker or lh memory show moves them")


@click.group()
def memory() -> None:
    """Show or search a project's memory."""


KINDS = search_core.KINDS


def _since(value: str | None) -> str | None:
    if not search_core.valid_since(value):
        raise click.BadParameter(f"expected a date such as 2025-01-31, got {value!r}", param_hint="--since")
    return value


@memory.command()
@click.argument("words", nargs=-1, required=True)
@project_option()
@click.option("--all-projects", is_flag=True, help="Search every project's memory and every learning.")
@click.option("--kind", "kinds", type=click.Choice(KINDS), multiple=True, help="Only this kind (repeatable).")
@click.option("--since", help="Only entries written on or after this date (YYYY-MM-DD).")
@click.option("-n", "limit", default=20, show_default=True, type=click.IntRange(min=1), help="How many results.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per result.")
@click.option("--all", "show_all", is_flag=True,
              help="Also superseded, merged and deprecated entries, each with its mark (held and forgotten "
                   "ones are always listed, labelled).")
def search(words: tuple[str, ...], project: str | None, all_projects: bool, kinds: tuple[str, ...],
           since: str | None, limit: int, as_json: bool, show_all: bool) -> None:
    """Find decisions, failures, learnings and open handoff items by words, best first.

    The ranking the prompt hook uses (docs/how/recall.md): entries matching more of the words'
    weight come first, then BM25 (summaries and titles weigh 3, tags 2, other fields 1), then the newer, without the
    hook's bar, and without its related words: an entry is listed when it holds a word typed (or a
    word starting as it does). This project's memory, its own learnings and general learnings unless --all-projects.
    Held and forgotten entries are listed too, labelled [held: ...] and [forgotten], as lh memory show tags them
    (lh memory approve ID releases a held one, lh memory undo ID brings a forgotten one back); so is a learning
    without a project that may be this one's, labelled with the lh memory assign command.
    """
    since = _since(since)
    # the same function answers without click (lazy_harness/__main__.py): the same lines either way
    code = search_core.run(list(words), project, all_projects, list(kinds), since, limit, as_json, show_all,
                           os.environ, echo)
    if code:
        click.get_current_context().exit(code)  # nothing matched: exit 1, as grep


SHOWN_UNREADABLE = 5  # files reindex names one by one; the rest are counted


@memory.command()
def reindex() -> None:
    """Rebuild the search index of every project's memory from the files (it is only a cache).

    When another process is writing the index (the worker), waits for it, saying how far it got,
    then brings the index up to date from the files without clearing what that process wrote.
    Vectors already computed for a text are kept and used again (they are looked up by the text's
    hash); only new or edited texts are embedded."""
    from lazy_harness.recall.index import writer

    cfg = config.load_checked(os.environ, warn_config)
    path = paths.recall_index_file()
    mdirs = paths.all_memory_dirs(None, cfg["memory"]["path"] or None)
    started = time.perf_counter()
    said: list[float] = []

    def waiting(entries: int) -> None:
        # why: another process is writing the index: wait for it rather than clear what it writes,
        # saying so at once and then every 10 s
        if not said or time.perf_counter() - said[-1] >= 10:
            said.append(time.perf_counter())
            echo(f"waiting for the index build running now ({entries} entries indexed so far; "
                 f"{writer.lock_file(path)} is locked)")

    ldir = paths.learnings_dir(cfg["knowledge"]["path"] or None)
    count, embedded = writer.update(path, mdirs, ldir, fresh=True, waiting=waiting) or (0, 0)
    from lazy_harness.memory import damage

    # why the learning files too: the index passes over one it cannot open (a FIFO, a folder, a link to
    # nothing, no permission) without a word, and no session is shown it
    gone = [f"{f}: cannot be read: {why}" for f in [*(os.path.join(m, name) for m in mdirs
            for name in (files.DECISIONS, files.FAILURES)), *files.recent_learning_files(ldir, 10**9)]
            if (why := damage.unreadable(f))]
    for each in gone[:SHOWN_UNREADABLE]:
        echo(f"lh: {each}; indexed the rest of memory", err=True)
    if len(gone) > SHOWN_UNREADABLE:  # why: a synced folder of 10,000 such files printed 10,000 lines
        echo(f"lh: ... and {len(gone) - SHOWN_UNREADABLE:,} more memory file(s) that cannot be read; "
             "indexed the rest of memory", err=True)
    how = "brought up to date after the build that was running" if said else "rebuilt"
    echo(f"{how}: indexed {count} entries of {len(mdirs)} project(s) and the learnings, embedded {embedded} new "
         f"texts, in {time.perf_counter() - started:.1f} s; the index holds {writer.indexed_so_far(path)} "
         f"entries: {path}")


@memory.command("path")
@click.option("--project", type=click.Path(file_okay=False),
              help="A folder of the project (default: here); one that is gone too (its memory is named).")
@click.option("--learnings", is_flag=True, help="Print the learnings folder (shared by every project) instead.")
@click.option("--old", is_flag=True,
              help="List the memory folders whose project folder is gone (a moved project), with what they hold.")
def path_(project: str | None, learnings: bool, old: bool) -> None:
    """Print a project's memory folder. Changes nothing: old files waiting to be moved there are named
    on stderr (a session start, the worker or lh memory show moves them)."""
    # why: config.load, not load_fast: the fast path may write its snapshot, and this command writes nothing
    cfg = config.load(os.environ, warn_config)
    root = project_root(os.path.abspath(project or os.getcwd()))
    mdir = paths.project_memory_dir(root, None, cfg["memory"]["path"] or None)
    if old:
        from lazy_harness.cli.memory_owners import print_old

        print_old(mdir, paths.memory_root(cfg["memory"]["path"] or None),
                  paths.learnings_dir(cfg["knowledge"]["path"] or None))
        return
    shown = paths.learnings_dir(cfg["knowledge"]["path"] or None) if learnings else mdir
    click.echo(shown)  # why: as it is, for scripts (cd "$(lh memory path)"); a note goes to stderr
    note = _waiting_note(root, mdir)
    if note:
        echo(note, err=True)


@memory.command()
@project_option()
@click.option("--all-projects", is_flag=True, help="Check every project's memory.")
def check(project: str | None, all_projects: bool) -> None:
    """Name every damaged line of the memory files (decisions, failures, handoff, marks, usage, aliases) by file and
    line: salvaged (read, some bytes lost) or skipped (not read, or a decision or failure without summary
    text, which no view shows), each memory file that cannot be read (a folder in its place), and each
    damaged learning (not text, frontmatter not closed or not a mapping, a title or date that cannot be
    read), and each entry too long for the hold check to read (over 16,000 characters: held from sessions
    until approved) that the person did not approve. Exit 1 when a line is skipped, a file cannot be read,
    a learning is damaged or an entry is too long to check."""
    from lazy_harness.memory import damage, learning_damage, long_texts

    if all_projects:
        cfg = config.load_checked(os.environ, warn_config)
        mdirs = paths.all_memory_dirs(None, cfg["memory"]["path"] or None)
        ldir = paths.learnings_dir(cfg["knowledge"]["path"] or None)
    else:
        _, _, mdir, ldir = setting(project)
        mdirs = [mdir]
    checks = damage.check_folders(mdirs)
    for c in checks:
        if c.unreadable:
            echo(c.summary())
        for number, how in c.found:
            echo(f"{c.path}:{number}: {how}")
    learnings = learning_damage.unclosed_learnings(ldir)
    for line in learnings:
        echo(line)
    # why named here: SessionStart holds such an entry unread and says so only in hooks.log (ADR 0088)
    too_long = long_texts.found(mdirs, ldir)
    for line in too_long:
        echo(line)
    skipped = sum(len(c.skipped) for c in checks)
    salvaged = sum(len(c.salvaged) for c in checks)
    damaged = sum(1 for c in checks if c.found)
    unread = sum(1 for c in checks if c.unreadable)
    echo(f"{len(checks)} file(s) checked in {len(mdirs)} project(s): {skipped} line(s) skipped, "
         f"{salvaged} salvaged, in {damaged} file(s)"
         + (f"; {unread} file(s) cannot be read" if unread else "")
         + (f"; {len(learnings)} damaged learning(s)" if learnings else "")
         + (f"; {len(too_long)} entry(s) too long to check" if too_long else ""))
    if skipped or unread or learnings or too_long:
        raise click.exceptions.Exit(1)


from lazy_harness.cli import memory_owners  # noqa: E402
from lazy_harness.cli.memory_changes import register  # noqa: E402

memory.add_command(show)
register(memory)
memory_owners.register(memory)
