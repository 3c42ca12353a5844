"""``lh worker run``: the worker in the foreground."""

import os
import time

import click

from lazy_harness import config, paths, queue
from lazy_harness.errors import LhError


@click.group()
def worker() -> None:
    """Run the distillation worker (the hooks normally spawn it for you)."""


@worker.command("run")
@click.option("--once", is_flag=True, help="Drain the queue once and exit (what the hooks spawn).")
@click.option("--poll", default=2.0, show_default=True, type=click.FloatRange(min=0.1),
              help="Seconds between looks at the queue without --once (at least 0.1).")
def run_cmd(once: bool, poll: float) -> None:
    """Drain the queue; without --once keep watching it until Ctrl-C."""
    from lazy_harness import private
    from lazy_harness.worker import loop

    unsafe = private.first_problem()
    if unsafe:  # why: as the worker the hooks start: never a queue, memory or config another user can write
        raise LhError(unsafe, hint="lh doctor")
    q = paths.queue_dir()
    while True:
        config.load(os.environ)  # why: in the foreground an invalid config.toml is an error, not a pause
        stats = loop.run(os.environ)
        if stats.lock_busy:
            click.echo("another worker holds the lock; it drains the queue")
        elif stats.finished or once:
            waits = _still_waiting(q)  # why not stats.waiting alone: a task that waited before this run
            click.echo(f"{stats.processed} processed, {stats.skipped} skipped, {stats.failed} failed"
                       + (f", {waits} waiting" if waits else ""))
        if stats.paused:
            click.echo(f"paused: {stats.paused} (lh cost)")
        if once:
            return
        from lazy_harness.worker.waiting import ready

        time.sleep(poll)  # why: waiting or paused tasks stay pending; do not spin on them
        while not ready(q, queue.pending(q), time.time()):
            time.sleep(poll)


def _still_waiting(q: str) -> int:
    """Tasks in the queue that were taken once and put back to wait (their ``wait_reason``): those this
    run put back, and those whose time had not come, which it left alone."""
    count = 0
    for name in queue.pending(q):
        try:
            count += bool(queue.read_task(os.path.join(q, name)).get("wait_reason"))
        except OSError:
            continue  # taken meanwhile
    return count
