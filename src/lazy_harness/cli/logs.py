"""``lh logs``: hook and worker logs, merged by time. Lines are written terminal-safe; they are shown
through ``logfile.terminal_safe`` again, for lines an older release (or anyone) wrote raw."""

import os
import time

import click

from lazy_harness import logfile


def _tail(path: str, n: int) -> list[str]:
    from lazy_harness.memory.files import tail_lines

    return tail_lines(path, n)


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
    merged = sorted((line for path in files for line in _tail(path, lines)), key=lambda ln: ln.split(" ", 1)[0])
    for line in merged[-lines:]:
        click.echo(logfile.terminal_safe(line))
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
                    with open(path, "rb") as fh:
                        fh.seek(offsets[path])
                        chunk = fh.read()
                    offsets[path] += len(chunk)
                    for line in chunk.decode("utf-8", "replace").splitlines():
                        click.echo(logfile.terminal_safe(line))
    except KeyboardInterrupt:
        return
