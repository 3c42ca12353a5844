"""``lh logs``: hook and worker logs, merged by time. Lines are written terminal-safe; they are shown
through ``logfile.terminal_safe`` again, for lines an older release (or anyone) wrote raw."""

import errno
import os
import time

import click

from lazy_harness import logfile
from lazy_harness.regular_file import read_regular


# why: a log line may carry a model answer or transcript text written into it; a 300 KB line filled
# the terminal's scrollback and hid every other line. The file keeps it whole.
SHOWN_CHARS = 2000


def _tail(path: str, n: int) -> list[str]:
    """The last ``n`` lines of one log; [] after a line on stderr naming it when it is missing or
    cannot be read (the other log is still shown)."""
    from lazy_harness.errors import LhError
    from lazy_harness.memory.files import tail_lines

    if not os.path.lexists(path):
        click.echo(logfile.terminal_safe(f"lh: {path}: no such file yet (nothing was logged there)"), err=True)
        return []
    try:
        if not os.path.isfile(path):
            raise LhError("not a regular file (a folder or device in its place); not read")
        if not os.access(path, os.R_OK):
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))
        return tail_lines(path, n)
    except LhError as exc:
        why = exc.message
    except OSError as exc:
        why = exc.strerror or str(exc)
    click.echo(logfile.terminal_safe(f"lh: cannot read {path}: {why}"), err=True)
    return []


def _shown(line: str, path: str) -> str:
    """One log line as printed: escaped (``terminal_safe``) and cut at :data:`SHOWN_CHARS` characters."""
    if len(line) > SHOWN_CHARS:
        line = f"{line[:SHOWN_CHARS]}… ({len(line) - SHOWN_CHARS} more characters, whole in {path})"
    return logfile.terminal_safe(line)


@click.command()
@click.option("-f", "--follow", is_flag=True, help="Keep printing new lines.")
@click.option("--hooks", "only_hooks", is_flag=True, help="hooks.log (one line per hook run).")
@click.option("--worker", "only_worker", is_flag=True, help="worker.log (one line per worker step).")
@click.option("-n", "lines", default=40, show_default=True, type=click.IntRange(min=1),
              help="How many lines to show.")
def logs(follow: bool, only_hooks: bool, only_worker: bool, lines: int) -> None:
    """Show the newest log lines, merged by time: both logs unless only one of --hooks or --worker is given."""
    names = [name for name, on in ((logfile.HOOKS, only_hooks), (logfile.WORKER, only_worker)) if on]
    names = names or [logfile.HOOKS, logfile.WORKER]
    files = [logfile.log_path(name) for name in names]
    click.echo("# " + ", ".join(files), err=True)
    merged = sorted(((line, path) for path in files for line in _tail(path, lines)),
                    key=lambda row: row[0].split(" ", 1)[0])
    for line, path in merged[-lines:]:
        click.echo(_shown(line, path))
    if not follow:
        return
    offsets = {path: (os.path.getsize(path) if os.path.exists(path) else 0) for path in files}
    try:
        while True:
            time.sleep(0.5)
            for path in files:
                try:
                    size = os.path.getsize(path)
                except OSError:
                    continue
                if size < offsets[path]:
                    offsets[path] = 0  # rotated
                if size > offsets[path]:
                    try:  # why read_regular: a FIFO put in the log's place since its size was read held it
                        chunk = read_regular(path, offset=offsets[path])
                    except OSError:
                        continue
                    offsets[path] += len(chunk)
                    for line in chunk.decode("utf-8", "replace").splitlines():
                        click.echo(_shown(line, path))
    except KeyboardInterrupt:
        return
