"""``lh knowledge handoff-now``: distill a project's session now, without waiting for its end."""

import os
import time

import click

from lazy_harness import paths, queue as spool
from lazy_harness.errors import LhError


@click.group()
def knowledge() -> None:
    """Handoff and learnings."""


def _wait(q: str, name: str, session_id: str, timeout: float) -> tuple[str, dict] | None:
    """Follow a task (or the task that replaced it) until it is finished."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for state, which in (("done", spool.DONE), ("failed", spool.FAILED)):
            path = os.path.join(spool.folder(q, which), name)
            if os.path.exists(path):
                return state, spool.read_task(path)
        here = any(os.path.exists(os.path.join(spool.folder(q, w), name)) for w in (spool.PENDING, spool.PROCESSING))
        if not here:
            newer = spool.pending_of(q, session_id)
            if newer is not None and newer[0] != name:
                name = newer[0]
        time.sleep(0.25)
    return None


@knowledge.command("handoff-now")
@click.option("--session", "session_id", help="Session id (default: the project's newest interactive session).")
@click.option("--project", "project", type=click.Path(file_okay=False), default=".", help="Project folder.")
@click.option("--wait", "wait", is_flag=True, help="Wait for the worker and print what it wrote.")
def handoff_now(session_id: str | None, project: str, wait: bool) -> None:
    """Queue the session for distillation now (no gates) and start the worker."""
    from lazy_harness import config
    from lazy_harness.hooks import producer
    from lazy_harness.worker import sessions

    cwd = os.path.abspath(project)
    if session_id:
        path = sessions.find_session(session_id, cwd)
        if path is None:
            raise LhError(f"no transcript for session {session_id} under {paths.projects_dir()}")
    else:
        path, skipped = sessions.newest_interactive(cwd)
        for other, kind in skipped:
            click.echo(f"skipped {os.path.basename(other)}: {kind} session")
        if path is None:
            raise LhError(f"no interactive Claude Code session found for {cwd}",
                          hint="run it from the project folder, or pass --session ID")
        session_id = os.path.basename(path)[: -len(".jsonl")]
    payload = {"session_id": session_id, "transcript_path": path, "cwd": cwd}
    name, decision = producer.submit(payload, "handoff-now", True, os.environ, time.time())
    q = paths.queue_dir()
    click.echo(f"queued {spool.task_id(name)} for session {session_id}")
    click.echo(f"  transcript: {path}")
    click.echo(f"  memory:     {paths.memory_dir(cwd, None, config.load_fast(os.environ)['memory']['path'] or None)}")
    if not wait:
        click.echo("the worker runs in the background: lh queue, lh logs --worker")
        return
    cfg = config.load()
    loop = cfg["compound_loop"]
    limit = loop["timeout_seconds"] * loop["max_attempts"] + 60
    result = _wait(q, name, session_id, limit)
    if result is None:
        raise LhError(f"task {spool.task_id(name)} did not finish within {limit} s", hint="lh queue")
    state, fields = result
    click.echo(f"{state}: {fields.get('reason', '')}")
    if fields.get("written"):
        click.echo(f"wrote: {fields['written']}")
    if state == "failed":
        raise click.exceptions.Exit(1)
