"""``lh knowledge handoff-now``: distill a project's session (Claude Code's or Codex CLI's) now, without
waiting for its end."""

import errno
import os
import time
from collections.abc import Mapping

import click

from lazy_harness import CODEX, PAYLOAD_AGENT, paths, queue as spool
from lazy_harness.errors import LhError


@click.group()
def knowledge() -> None:
    """Handoff and learnings."""


def _wait(q: str, name: str, session_id: str, timeout: float) -> tuple[str, dict] | None:
    """Follow a task (or the task that replaced it) until it is finished, or put back to wait: the
    worker knows within a second that the API is unreachable (or a cap reached, or no room to write);
    waiting out the whole limit then could never end well."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for state, which in (("done", spool.DONE), ("failed", spool.FAILED)):
            path = os.path.join(spool.folder(q, which), name)
            if os.path.exists(path):
                return state, spool.read_task(path)
        try:
            fields = spool.read_task(os.path.join(q, name))
            if fields.get("wait_reason"):
                return "waiting", fields
        except OSError:
            pass
        here = any(os.path.exists(os.path.join(spool.folder(q, w), name)) for w in (spool.PENDING, spool.PROCESSING))
        if not here:
            newer = spool.pending_of(q, session_id)
            if newer is not None and newer[0] != name:
                name = newer[0]
        time.sleep(0.25)
    return None


def _resolve(session_id: str | None, cwd: str) -> dict:
    """The payload a hook of the session's agent would give: session id, transcript (a Claude Code
    transcript or a Codex rollout), the session's own project folder, and the agent when it is Codex."""
    from lazy_harness.cli import sessions

    path: str | None
    if session_id:
        hits = sessions.match_sessions(session_id)
        if not hits:
            raise LhError(f"no transcript for session {session_id} under {sessions.where()}",
                          hint="lh knowledge handoff-now (the newest session of this repository)")
        if len(hits) > 1:
            listed = ", ".join(sessions.session_id_of(p) for p in hits[:10])
            more = f" and {len(hits) - 10} more" if len(hits) > 10 else ""
            raise LhError(f"{len(hits)} sessions start with {session_id!r}: {listed}{more}; give more of the id")
        path = hits[0]
    else:
        path, skipped = sessions.newest_interactive(cwd)
        for other, kind in skipped:
            click.echo(f"skipped {os.path.basename(other)}: {kind} session")
        if path is None:
            raise LhError(f"no interactive Claude Code session found for {cwd}, nor a Codex one",
                          hint="run it from the project folder, or pass --session ID")
    # why: the session's memory belongs to the project it ran in, not to the caller's folder
    recorded = sessions.session_cwd(path)
    if recorded is None and session_id:  # why: the caller's folder may be another project's
        raise LhError(f"session {sessions.session_id_of(path)}: its transcript {path} holds no conversation yet "
                      "(it names no project folder): nothing to distill",
                      hint="lh knowledge handoff-now --session ID (a session with a conversation)")
    payload = {"session_id": sessions.session_id_of(path), "transcript_path": path, "cwd": recorded or cwd}
    if sessions.is_rollout(path):
        payload[PAYLOAD_AGENT] = CODEX  # why: as a Codex hook's payload: the task names the agent and its folder
    return payload


def _cause(reason: str) -> str:
    """The cause without the command line, with what claude said: ``the API is unreachable (API Error: ...)``."""
    head, _, rest = reason.partition(": `")
    said = ""
    for marker in ("claude reported an error", "API Error"):
        at = rest.find(marker)
        if at >= 0:
            said = rest[at:at + 160].split("; stdout")[0].rstrip(" .;")
            break
    return f"{head} ({said})" if said else head


def _when(fields: dict) -> str:
    from lazy_harness.logfile import stamp

    try:
        at = float(fields.get("not_before") or "")
    except ValueError:
        return "once the cause is gone (the worker checks before each task)"
    return (f"from {stamp(at)}: the worker tries again while it stays (compound_loop.linger_minutes), "
            "else the next session's hooks start one")


# why: what a write in Codex's sandbox fails with: a read-only bind (Linux), a denied path (macOS)
SANDBOX_ERRNOS = (errno.EROFS, errno.EACCES, errno.EPERM)


def in_codex_sandbox(env: Mapping[str, str]) -> bool:
    """Whether this runs in Codex's sandbox, by what Codex sets for the commands it runs there:
    ``CODEX_SANDBOX_NETWORK_DISABLED=1`` (Linux, codex 0.171.0, network off, its default), or
    ``CODEX_SANDBOX=seatbelt`` (macOS)."""
    return bool(env.get("CODEX_SANDBOX") or env.get("CODEX_SANDBOX_NETWORK_DISABLED"))


@knowledge.command("handoff-now")
@click.option("--session", "session_id", help="Session id or its first characters (default: the repository's newest "
                                                "interactive session).")
@click.option("--project", "project", type=click.Path(file_okay=False), default=".",
              help="A folder of the repository (any worktree or subfolder) when --session is not given.")
@click.option("--wait", "wait", is_flag=True, help="Wait for the worker and print what it wrote.")
def handoff_now(session_id: str | None, project: str, wait: bool) -> None:
    """Queue the session for distillation now (no gates) and start the worker."""
    from lazy_harness import config
    from lazy_harness.queue import submit

    payload = _resolve(session_id, os.path.abspath(project))
    session_id, path, cwd = payload["session_id"], payload["transcript_path"], payload["cwd"]
    cfg = config.load_checked(os.environ)
    try:
        name, decision = submit.submit(payload, "handoff-now", True, os.environ, time.time(), cfg)
    except OSError as exc:
        if exc.errno in SANDBOX_ERRNOS and in_codex_sandbox(os.environ):
            where = f"{exc.filename}: {exc.strerror}" if exc.filename else str(exc.strerror or exc)
            raise LhError(f"Codex's sandbox keeps lh from writing its queue ({where})",
                          hint=f"run lh knowledge handoff-now --session {session_id} in your own shell, or "
                               "approve running it outside the sandbox") from None
        raise
    q = paths.queue_dir()
    click.echo(f"queued {spool.task_id(name)} for session {session_id}")
    click.echo(f"  transcript: {path}")
    click.echo(f"  memory:     {paths.memory_dir(cwd, None, cfg['memory']['path'] or None)}")
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
    if state == "waiting":
        raise LhError(f"task {spool.task_id(name)} waits: {_cause(fields['wait_reason'])}; it stays queued and runs by "
                      f"itself {_when(fields)}", hint="lh queue; lh logs --worker")
    click.echo(f"{state}: {fields.get('reason', '')}")
    if fields.get("written"):
        click.echo(f"wrote: {fields['written']}")
    if state == "failed":
        raise click.exceptions.Exit(1)
