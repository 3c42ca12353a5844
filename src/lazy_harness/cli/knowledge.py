"""``lh knowledge handoff-now``: distill a project's session (Claude Code's or Codex CLI's) now, without
waiting for its end."""

import errno
import os
import time
from collections.abc import Callable, Mapping

import click

from lazy_harness import CODEX, PAYLOAD_AGENT, paths, queue as spool
from lazy_harness.errors import LhError
from lazy_harness.logfile import terminal_safe

TYPE_CHECKING = False
if TYPE_CHECKING:
    from lazy_harness.config.typed import Config


@click.group()
def knowledge() -> None:
    """Handoff and learnings."""


POLL_SECONDS = 0.25  # how often --wait looks at the task's files


def _finished(q: str, name: str) -> tuple[str, dict] | None:
    """("done" or "failed", the record) once the worker finished task ``name``."""
    for state, which in (("done", spool.DONE), ("failed", spool.FAILED)):
        try:
            return state, spool.read_task(os.path.join(spool.folder(q, which), name))
        except FileNotFoundError:
            continue
    return None


def _orphaned(q: str, name: str) -> int | None:
    """The pid the worker that claimed task ``name`` recorded (0: none) once that worker is gone (killed,
    stopped), None while one holds the queue or the task is not claimed: a claim is made and removed
    under the queue's lock, so a claim with the lock free has no worker left (``consume.holder``)."""
    from lazy_harness.queue import consume

    claim = os.path.join(spool.folder(q, spool.PROCESSING), name)
    if not os.path.exists(claim):
        return None
    running, pid, _ = consume.holder(q)
    return None if running or not os.path.exists(claim) else (pid or 0)


def _queued(q: str, name: str) -> bool:
    return any(os.path.exists(os.path.join(spool.folder(q, w), name)) for w in (spool.PENDING, spool.PROCESSING))


def _session_tasks(q: str, name: str, session_id: str, seen: dict[str, tuple[str, str]]) -> dict[str, str]:
    """The session's tasks in the queue, pending, being distilled or finished: name -> the task id it
    replaces. Only the tasks whose names end as ``name`` does (the session's first characters) are
    read, each once: ``seen`` keeps (session id, replaced id) by name; a task record never changes those."""
    tail = name[name.find("-"):]
    out: dict[str, str] = {}
    for which in (spool.PENDING, spool.PROCESSING, spool.DONE, spool.FAILED):
        try:
            names = os.listdir(spool.folder(q, which))
        except OSError:
            continue
        for other in names:
            if not other.endswith(tail):
                continue
            if other not in seen:
                try:
                    fields = spool.read_task(os.path.join(spool.folder(q, which), other))
                except OSError:
                    continue  # moved on meanwhile (claimed, finished): the next look finds it
                seen[other] = (fields.get("session_id", ""), fields.get("replaces", ""))
            if seen[other][0] == session_id:
                out[other] = seen[other][1]
    return out


def _replacer(q: str, name: str, session_id: str, seen: dict[str, tuple[str, str]]) -> str | None:
    """The task that took the place of ``name``, a task gone from the queue unfinished; None while
    there is none. ``queue.enqueue`` names the pending task a new one replaces in its ``replaces``; when
    that one was replaced in turn before a worker took it, its file is gone, and the task that
    survived the chain is the session's first one queued after ``name`` that replaces a task gone too
    (its names sort by the time it was queued)."""
    tasks = _session_tasks(q, name, session_id, seen)
    replaced = spool.task_id(name)
    for other, old in tasks.items():
        if old == replaced:
            return other
    present = {spool.task_id(n) for n in tasks}
    later = sorted(n for n, old in tasks.items() if n > name and old and old not in present)
    return later[0] if later else None


def _wait(q: str, name: str, session_id: str, timeout: float,
          paused: Callable[[], str] = lambda: "") -> tuple[str, str, dict]:
    """Follow a task until it is finished, or put back to wait: (the task followed, its state, its
    fields); the state is "unfinished" past ``timeout`` seconds. A task another enqueue of the session
    replaced is followed to the task that replaced it, and so on along the chain. Put back to wait ends
    it too: the worker knows within a second that the API is unreachable (or a cap nearly reached, or
    no room to write); waiting out the whole limit then could never end well. So does ``paused``
    saying why the queue is paused (a cap reached) while the task is pending: the worker then pauses
    before it claims a task, and leaves no reason in it. And "orphaned": the worker distilling it is
    gone (killed, stopped); waiting out the limit could not end well either."""
    deadline = time.monotonic() + timeout
    seen: dict[str, tuple[str, str]] = {}
    followed = {name}
    orphaned = 0  # polls in a row that found the task's worker gone
    while True:
        finished = _finished(q, name)
        if finished is not None:
            return name, *finished
        try:
            fields = spool.read_task(os.path.join(q, name))
            if fields.get("wait_reason"):
                return name, "waiting", fields
            # why only pending: a task being distilled may be the very call that takes spend past the cap
            reason = paused()
            if reason:
                return name, "waiting", {"wait_reason": reason}
        except OSError:
            pass
        # why safe: a replacing task is linked before the one it replaces is removed, and a finished
        # record is written before its claim goes; a task seen nowhere for a moment is looked at again
        newer = None if _queued(q, name) else _replacer(q, name, session_id, seen)
        if newer is not None and newer not in followed:  # why the check: a hand-made cycle must not spin
            name = newer
            followed.add(name)
            continue
        gone = _orphaned(q, name)
        orphaned = orphaned + 1 if gone is not None else 0
        if orphaned >= 2:  # why twice, a poll apart: a worker is gone for good, a glance may be unlucky
            return name, "orphaned", {"pid": str(gone or "")}
        if time.monotonic() >= deadline:
            return name, "unfinished", {}
        time.sleep(POLL_SECONDS)


def _held_whole(payload: dict) -> bool:
    """Whether memory holds the whole session already: its cursor (worker/cursor.py) stands where nothing
    was said after it. The worker checks again under the session's lock; this spares the queue and says
    so at once."""
    from lazy_harness.worker import cursor

    path, sid = payload["transcript_path"], payload["session_id"]
    offset = cursor.start(os.environ, sid, path)
    agent = CODEX if payload.get(PAYLOAD_AGENT) == CODEX else "claude"
    return bool(offset) and not cursor.said_since(path, offset, cursor.part_check(path, offset), agent)


def _mover(payload: dict) -> tuple[str, float | None]:
    """(the id of the task, or ``lh distill`` run, whose distillation moved the session's own cursor, when
    that run began): ``worker/cursor.py`` ``moved_by``; ('', None) for none."""
    from lazy_harness.worker import cursor

    return cursor.moved_by(os.environ, payload["session_id"], payload["transcript_path"])


def _record_of(q: str, task: str, session_id: str) -> dict | None:
    """The finished record (done/ or failed/) of the session's task ``task``; None for none, for a name that
    is no plain task name (the cursor names an ``lh distill`` run, or was edited), or another session's."""
    if not task or os.path.basename(task) != task or task.startswith("."):
        return None
    finished = _finished(q, task + spool.SUFFIX)
    if finished is None or finished[1].get("session_id") != session_id:
        return None
    return finished[1]


def _covered_meanwhile(q: str, followed: str, state: str, fields: dict, payload: dict,
                       before: tuple[str, float | None]) -> list[str] | None:
    """For a task that found nothing new because another run of the session distilled it while --wait
    followed it (the session's cursor moved since the command began, by a run not this task's): which
    run, and what its record says it wrote. None otherwise: a cursor moved before the command began
    means nothing was said since a distillation before it, which the task's own reason says."""
    from lazy_harness.queue.task import took_over
    from lazy_harness.worker.pipeline import ALL_HELD

    if state != "done" or fields.get("reason") not in ALL_HELD or fields.get("written"):
        return None
    mover = _mover(payload)
    if not mover[0] or mover == before or mover[0] in {spool.task_id(followed), *took_over(fields)}:
        return None
    again = "no second model call (lh knowledge handoff-now --again reads the whole session again)"
    record = _record_of(q, mover[0], payload["session_id"])
    if record is None:  # why no wrote: line: an lh distill run (or a task cut short) leaves no record of it
        return [f"done: run {mover[0]} distilled the session meanwhile (the queue holds no record of what it "
                f"wrote): {again}"]
    lines = [f"done: task {mover[0]} ({record.get('event') or '?'}) of the same session distilled it "
             f"meanwhile: {again}"]
    if record.get("written"):
        lines.append(f"wrote: {record['written']}")
    return lines


def _report(q: str, followed: str, state: str, fields: dict, payload: dict,
            before: tuple[str, float | None]) -> list[str]:
    """What --wait prints of the finished task: its state and reason, and what it wrote; for a task
    another run of the session covered meanwhile, that run and what it wrote (:func:`_covered_meanwhile`)."""
    covered = _covered_meanwhile(q, followed, state, fields, payload, before)
    if covered is not None:
        return covered
    lines = [f"{state}: {_outcome(fields)}"]
    if fields.get("written"):
        lines.append(f"wrote: {fields['written']}")
    return lines


def _outcome(fields: dict) -> str:
    """The finished task's reason, and for a session memory already held whole, what costs a call."""
    from lazy_harness.worker.pipeline import ALL_HELD

    reason = fields.get("reason", "")
    if reason in ALL_HELD:
        return f"{reason}: no model call (lh knowledge handoff-now --again reads the whole session again)"
    return reason


def _count_held(payload: dict, cfg: "Config") -> str:
    """For a session memory holds whole (no call, nothing queued): count its showings as the worker's
    same skip counts them (ADR 0036), and say why memory holds it (``pipeline.nothing_new``)."""
    from lazy_harness import logfile
    from lazy_harness.worker import pipeline

    sid, path = payload["session_id"], payload["transcript_path"]
    fields = spool.task_fields(payload, pipeline.WHOLE_SESSION_EVENT, True, os.environ, cfg["memory"]["path"] or "")
    pipeline.account_held(fields, path, paths.learnings_dir(cfg["knowledge"]["path"] or None), os.environ,
                          time.time(), lambda msg: logfile.write(logfile.WORKER, f"handoff-now {sid}: {msg}"))
    return pipeline.nothing_new(os.environ, sid, path)


def _cap_reached(cfg: "Config") -> str:
    """Why a spend cap pauses the queue now ("" when none does), as the worker asks before each task."""
    from lazy_harness.cost import budget

    verdict = budget.check(cfg, os.environ, time.time())
    return "" if verdict.allowed else verdict.reason


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
            click.echo(terminal_safe(f"skipped {os.path.basename(other)}: {kind} session"))
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


def _not_finished(followed: str, state: str, fields: dict, limit: float) -> None:
    """The error of a --wait that ended before the task finished (:func:`_wait`'s states)."""
    task = f"task {spool.task_id(followed)}"
    if state == "unfinished":
        raise LhError(f"{task} did not finish within {limit} s", hint="lh queue")
    if state == "waiting":
        raise LhError(f"{task} waits: {_cause(fields['wait_reason'])}; it stays queued and runs by itself "
                      f"{_when(fields)}", hint="lh queue; lh logs --worker")
    if state == "orphaned":
        pid = f" (pid {fields['pid']})" if fields.get("pid") else ""
        raise LhError(f"{task}: the worker distilling it{pid} is gone (killed or stopped); the task stays queued "
                      "and runs again when the next session's hooks start a worker", hint="lh worker run --once")


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
@click.option("--again", "again", is_flag=True, help="Read the whole session again even when nothing was said "
                                                    "since it was last distilled (a model call).")
def handoff_now(session_id: str | None, project: str, wait: bool, again: bool) -> None:
    """Queue the session for distillation now and start the worker: without Stop's debounce and growth
    gates; the worker still skips a session shorter than compound_loop.min_user_chars or min_messages,
    and one with nothing said since it was last distilled, unless --again."""
    from lazy_harness import config
    from lazy_harness.queue import submit

    payload = _resolve(session_id, os.path.abspath(project))
    session_id, path, cwd = payload["session_id"], payload["transcript_path"], payload["cwd"]
    cfg = config.load_checked(os.environ)
    # why before anything is queued: a run that moves the cursor after this covered the session meanwhile
    before = _mover(payload) if wait else ("", None)
    if not again and _held_whole(payload):
        click.echo(f"session {session_id}: {_outcome({'reason': _count_held(payload, cfg)})}; nothing queued")
        return
    try:
        name, decision = submit.submit(payload, "handoff-now", True, os.environ, time.time(), cfg,
                                       {spool.AGAIN: "1"} if again else None)
    except OSError as exc:
        if exc.errno in SANDBOX_ERRNOS and in_codex_sandbox(os.environ):
            where = f"{exc.filename}: {exc.strerror}" if exc.filename else str(exc.strerror or exc)
            raise LhError(f"Codex's sandbox keeps lh from writing its queue ({where})",
                          hint=f"run lh knowledge handoff-now --session {session_id} in your own shell, or "
                               "approve running it outside the sandbox") from None
        raise
    q = paths.queue_dir()
    click.echo(terminal_safe(f"queued {spool.task_id(name)} for session {session_id}"))
    click.echo(terminal_safe(f"  transcript: {path}"))
    click.echo(f"  memory:     {paths.memory_dir(cwd, None, cfg['memory']['path'] or None)}")
    if not wait:
        click.echo("the worker runs in the background: lh queue, lh logs --worker")
        return
    cfg = config.load()
    loop = cfg["compound_loop"]
    limit = loop["timeout_seconds"] * loop["max_attempts"] + 60
    followed, state, fields = _wait(q, name, session_id, limit, lambda: _cap_reached(cfg))
    if followed != name:
        click.echo(f"task {spool.task_id(name)} was replaced by {spool.task_id(followed)}, a later task of the "
                   "same session; its outcome:")
    _not_finished(followed, state, fields, limit)
    # why terminal_safe: a failed call's reason quotes claude's stderr or its answer, as lh queue shows it
    for line in _report(q, followed, state, fields, payload, before):
        click.echo(terminal_safe(line))
    if state == "failed":
        raise click.exceptions.Exit(1)
