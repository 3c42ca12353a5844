"""``lh``: the command line. The only package that imports click.

Command groups live one per module and are loaded when first used, so ``lh --help`` stays quick.
"""

import importlib
import os
import sys
from typing import TextIO

import click

from lazy_harness import __version__
from lazy_harness.errors import LhError
from lazy_harness.logfile import terminal_safe

# name -> (module, attribute, one-line help)
COMMANDS = {
    "hooks": ("lazy_harness.cli.hooks", "hooks", "Register lazy-harness hooks in Claude Code settings."),
    "knowledge": ("lazy_harness.cli.knowledge", "knowledge", "Handoff and learnings: force a handoff now."),
    "memory": ("lazy_harness.cli.memory", "memory", "Show or search a project's memory."),
    "queue": ("lazy_harness.cli.queue", "queue", "Inspect, retry and purge distillation tasks."),
    "worker": ("lazy_harness.cli.worker", "worker", "Run the distillation worker."),
    "distill": ("lazy_harness.cli.distill", "distill", "Distill one transcript in the foreground."),
    "logs": ("lazy_harness.cli.logs", "logs", "Show hook and worker logs."),
    "config": ("lazy_harness.cli.config", "config", "Show, create and validate config.toml."),
    "doctor": ("lazy_harness.cli.doctor", "doctor", "Check the installation, one line per check."),
    "status": ("lazy_harness.cli.status", "status", "The project's last sessions, the queue, spend, index, sync."),
    "sync": ("lazy_harness.cli.sync", "sync", "Carry memory between machines through a git remote."),
    "cost": ("lazy_harness.cli.cost", "cost", "What the worker's model calls cost, and the caps."),
    "backfill": ("lazy_harness.cli.backfill", "backfill", "Queue past sessions that were never distilled."),
    "ui": ("lazy_harness.cli.ui", "ui", "A local page over the memory, in the browser."),
}

# what a command reads or writes among the folders of ours (private.folders, ADR 0031), when not all
# of them: it runs while no folder it names is another user's. (): none of them: what lets the person
# see and fix one (doctor, config, a path printed). Commands not named use them all (the memory, the
# index, the queue, the cache, the logs). hooks install/uninstall keep settings backups in the data
# folder; the hooks' bundle in the cache refuses a cache of another user on its own (hotload.py)
FOLDERS_USED: dict[str, tuple[str, ...] | dict[str, tuple[str, ...]]] = {
    "doctor": (), "config": (), "hooks": {"install": ("data",), "uninstall": ("data",)}, "memory": {"path": ()},
}
_ARGS = "lh.args"  # ctx.meta: the words after ``lh`` (the command's name first)


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        spec = COMMANDS.get(name)
        if spec is None:
            return None
        module = importlib.import_module(spec[0])
        return getattr(module, spec[1])

    def resolve_command(self, ctx: click.Context,
                        args: list[str]) -> tuple[str | None, click.Command | None, list[str]]:
        """click's, except that a name not in the table gets click's "Did you mean" from the table.
        why: click builds its suggestions from ``self.commands``, which stays empty here (lazy)."""
        ctx.meta[_ARGS] = list(args)  # why: the group's callback runs before the command parses them
        name = click.utils.make_str(args[0])
        if name in COMMANDS or ctx.resilient_parsing or ctx.token_normalize_func or not name[:1].isalnum():
            return super().resolve_command(ctx, args)  # why: click's own path for an option (--help)
        raise _no_such_command(name, ctx)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, COMMANDS[name][2]) for name in self.list_commands(ctx)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


def _no_such_command(name: str, ctx: click.Context) -> click.UsageError:
    """click's error for an unknown command, with the close names of the table (click 8.4 and later
    suggest them themselves; before that, the same words are written here)."""
    error = getattr(click.exceptions, "NoSuchCommand", None)
    if error is not None:
        return error(name, possibilities=COMMANDS, ctx=ctx)
    import difflib

    close = difflib.get_close_matches(name, COMMANDS)
    said = f" Did you mean {close[0]!r}?" if len(close) == 1 else (
        f" (Possible commands: {', '.join(close)})" if close else "")
    return click.UsageError(f"No such command {name!r}.{said}", ctx)


def folders_used(args: list[str]) -> tuple[str, ...] | None:
    """The folders of ours the command ``args`` (its name first) reads or writes, as
    :data:`FOLDERS_USED` says (None: all of them); () for a question to click (--help) alone."""
    words = args[:args.index("--")] if "--" in args else args
    if "--help" in words or "-h" in words:
        return ()  # why: click answers it before the command runs; nothing of ours is read
    used = FOLDERS_USED.get(words[0] if words else "")
    if isinstance(used, dict):  # why no name after the group: click prints its usage, nothing read
        return used.get(words[1], None) if len(words) > 1 else ()
    return used


def refuse_unsafe_folders(args: list[str]) -> None:
    """Stop a command before it reads or writes a folder of ours another user owns or may write
    (ADR 0031), as the hooks and the worker do: one line, lh doctor's reason and what to run."""
    from lazy_harness import private

    which = folders_used(args)
    if which == ():
        return
    said = private.refusal(os.environ, which)
    if said is not None:
        raise LhError(said[0], hint=said[1])


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="lh")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """lazy-harness: memory for Claude Code.

    Finished sessions are distilled into decisions, failures, a handoff and learnings,
    and read back into the next session of the same project.
    """
    refuse_unsafe_folders(ctx.meta.get(_ARGS, []))


class Escaped:
    """``sys.stdout`` or ``sys.stderr`` while a command runs: every text written to it passes
    :func:`terminal_safe`, newlines and tabs kept. The backstop for a line that prints a text others
    chose without its own escape (ADR 0085); the escapes are JSON's, so ``--json`` output decodes to
    the same text. No ``buffer``: click would write bytes past the escape through it."""

    buffer = None

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        if not isinstance(text, str):  # why: click asks whether a stream takes bytes by writing b""
            raise TypeError("a text stream")
        try:
            self.stream.write(terminal_safe(text, "\n\t"))
        except BrokenPipeError:
            self.reader_gone()
        return len(text)

    def flush(self) -> None:
        try:
            self.stream.flush()
        except BrokenPipeError:
            self.reader_gone()

    def reader_gone(self) -> None:
        """The reader left (``lh memory show | head -1``, ``lh logs -f | grep -m1 x``): the command
        ends here, quietly, exit 0. why the null device in its place: the interpreter flushes the
        stream once more at exit, and printed "Exception ignored ... BrokenPipeError", exit 120."""
        os.dup2(os.open(os.devnull, os.O_WRONLY), self.stream.fileno())
        raise SystemExit(0)

    def __getattr__(self, name: str) -> object:
        return getattr(self.stream, name)


def main(argv: list[str] | None = None) -> None:
    """Entry point: expected failures become one line on stderr and exit 1, never a traceback."""
    streams = sys.stdout, sys.stderr
    wrapped = [None if s is None else Escaped(s) for s in streams]
    sys.stdout, sys.stderr = wrapped
    try:
        _main(argv)
    finally:
        sys.stdout, sys.stderr = streams
        for stream in wrapped:  # why here: what print() left in a buffer meets a reader gone as above
            if stream is not None:
                stream.flush()


def _main(argv: list[str] | None) -> None:
    try:
        # why: without standalone mode click returns ctx.exit()'s code instead of exiting
        rc = cli.main(args=argv, prog_name="lh", standalone_mode=False)
    except LhError as exc:  # why terminal_safe: a message names folders, files and values others chose
        click.echo(terminal_safe(f"lh: {exc}"), err=True)
        sys.exit(1)
    except click.exceptions.Abort:
        click.echo("lh: aborted", err=True)
        sys.exit(1)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except BrokenPipeError:
        sys.exit(0)
    except OSError as exc:  # why: a memory file that is a folder, unreadable, a full disk: one line, no traceback
        click.echo(terminal_safe(f"lh: {os_error_line(exc)}{_no_cwd(exc)}"), err=True)
        sys.exit(1)
    sys.exit(rc if isinstance(rc, int) else 0)


def _no_cwd(exc: OSError) -> str:
    """What to do when the error is the working folder's, gone (``os.getcwd`` names no file): why: ``lh:
    No such file or directory`` alone, run in a folder deleted under the shell, named nothing."""
    if exc.filename is not None or not isinstance(exc, FileNotFoundError):
        return ""
    try:
        os.getcwd()
    except OSError:
        return (" (the current folder no longer exists: cd to the project, or give a command that takes it "
                "--project FOLDER)")
    return ""


def os_error_line(exc: OSError) -> str:
    """``<file>: <what the system said>`` (and the second file of a rename or a link)."""
    what = exc.strerror or type(exc).__name__
    names = [str(n) for n in (exc.filename, exc.filename2) if n is not None]
    return f"{' -> '.join(names)}: {what}" if names else what
