"""What every reading command of ``lh memory`` (cli/memory.py, cli/memory_show.py, cli/memory_prompt.py)
shares: how it finds a project's memory (:func:`setting`), how it prints what memory files hold
(:func:`echo`), the text a session of each agent receives at its start (:func:`digest_for`), and the
learnings without a key that wait for the person to give them to this project (:func:`say_waiting_here`).

Memory files are edited by hand and merged in by ``lh sync``: whatever they hold is printed through
``logfile.terminal_safe`` (an escape sequence is shown as ``\\u001b...``, not run by the terminal);
the files themselves are left as they are.
"""

from __future__ import annotations

import os

import click

from lazy_harness import CLAUDE, CODEX, paths
from lazy_harness.logfile import terminal_safe
from lazy_harness.recall import search as search_core

TYPE_CHECKING = False
if TYPE_CHECKING:
    from lazy_harness.config.typed import Config


def echo(text: str, keep: str = "\t", err: bool = False) -> None:
    """``click.echo`` of text that may come from a memory file: terminal-safe (a newline only when in ``keep``)."""
    click.echo(terminal_safe(text, keep), err=err)


def setting(project: str | None) -> tuple[str, Config, str, str]:
    """(folder, config, memory folder, learnings folder); old files in Claude Code's folder are moved first."""
    return search_core.place(project, os.environ, echo)


AGENTS = {CLAUDE: "Claude Code", CODEX: "Codex CLI"}  # --agent, as lh hooks install --agent names them


def digest_for(agent: str, cwd: str, cfg: Config, now: float, source: str) -> tuple[str | None, dict, str]:
    """(the SessionStart text, its stats, hooks.log's words on the fitting): Claude Code's digest, or a
    Codex CLI session's, fitted as its hook fits it (``readback.codex_fit``)."""
    from lazy_harness.recall.readback import codex_fit as fitting
    from lazy_harness.recall.readback import digest as recall

    text, stats = recall.digest(cwd, cfg, os.environ, now, source, trouble=_trouble)
    if agent != CODEX:
        return text, stats, ""
    text, fitted_stats, fitted = fitting.codex_fit(cwd, cfg, os.environ, now, source, text, stats, trouble=_trouble)
    return text, fitted_stats or stats, fitted


def _trouble() -> tuple[int, str | None]:
    """What the read-back asks of the queue, as SessionStart asks it (``queue.distill_trouble``)."""
    from lazy_harness import queue
    from lazy_harness.memory import files

    return queue.distill_trouble(paths.queue_dir(), paths.worker_state_file(), files.iso_epoch)


def say_waiting_here(mdir: str, ldir: str, root: str) -> None:
    """In a project's own views (``lh memory show``, ``lh memory held``): each learning without a key
    (``origin: <name>`` only) that this project is one of the candidates for, in no project until the
    person assigns it, with the command that gives it to this project. why: ``lh memory unassigned``
    named them, but nothing in the project's views said they were there. Reads only: adopting is the
    worker's (and ``lh memory unassigned``'s)."""
    from lazy_harness.memory import owners
    from lazy_harness.memory.fence import neutral

    if _none_without_a_key():
        return
    mroot, key = os.path.split(mdir.rstrip(os.sep))
    here = [h for h in owners.orphans(mroot, ldir, os.environ) if h["owner"] is None and key in h["candidates"]]
    if not here:
        return
    echo(f"{len(here)} project learning(s) of a project named {neutral(here[0]['origin'], 80)} in no project until "
         f"assigned ({len(here[0]['candidates'])} projects have that name; lh memory unassigned lists them all):")
    for h in here:
        echo(f"  {h['id']}  {neutral(h.get('title') or '', 120)}  ({h['path']})")
        echo(f"      lh memory assign {h['id']} --project {root}")


def _none_without_a_key() -> bool:
    """Whether the search index, of this version, holds no learning without a key: then none can wait
    to be assigned. why asked first: finding those that wait reads every learning's head (16,700 at
    100,000 entries), at every ``lh memory show``. False when the index cannot say (missing, another
    version, unreadable): the learnings are read."""
    from lazy_harness.recall.index import store

    try:
        conn = store.read_only(paths.recall_index_file(), 1.0)
        try:
            row = conn.execute("SELECT v FROM meta WHERE k='version'").fetchone()
            if row is None or row[0] != store.VERSION:
                return False
            keyless = "SELECT 1 FROM entry WHERE kind='learning' AND COALESCE(okey, '')='' LIMIT 1"
            return conn.execute(keyless).fetchone() is None
        finally:
            conn.close()
    except Exception:  # why: a cache's answer only; without it the learnings are read
        return False
