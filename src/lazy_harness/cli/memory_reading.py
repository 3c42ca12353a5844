"""What every reading command of ``lh memory`` (cli/memory.py, cli/memory_show.py) shares: how it finds
a project's memory (:func:`setting`) and how it prints what memory files hold (:func:`echo`).

Memory files are edited by hand and merged in by ``lh sync``: whatever they hold is printed through
``logfile.terminal_safe`` (an escape sequence is shown as ``\\u001b...``, not run by the terminal);
the files themselves are left as they are.
"""

from __future__ import annotations

import os

import click

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
