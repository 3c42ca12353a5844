"""``lh status``: one screen on the project here: its last sessions (distilled, skipped and why,
waiting), the queue, today's spend against the cap, the search index and sync.

Read-only. Each part comes from what the command of that part reads (``lh queue``, ``lh cost``,
``lh hooks status``, ``lh sync --status``); ``lh doctor`` checks the installation itself.
"""

from __future__ import annotations

import os
import time

import click

from lazy_harness import paths
from lazy_harness import queue as spool
from lazy_harness.cli.cost import load_config, spend_lines
from lazy_harness.cli.hooks import describe_worker, worker_state
from lazy_harness.cli.memory_usage import week_line
from lazy_harness.cli.queue import STATES, queued_at, task_names, waiting_reason
from lazy_harness.logfile import terminal_safe
from lazy_harness.project_identity import project_name

SCAN = 400  # newest task files read to find the project's last sessions (every project shares the queue)


def project_sessions(q: str, mdir: str, recent: int, scan: int = SCAN) -> list[tuple[str, str, list]]:
    """The last ``recent`` sessions whose tasks write into ``mdir``, newest first, as (session id,
    newest task name, [(state, fields)] newest first), from the newest ``scan`` task files."""
    rows = sorted(((n, state, os.path.join(spool.folder(q, which), n))
                   for state, which in STATES for n in task_names(q, which)), reverse=True)
    sessions: dict[str, tuple[str, list]] = {}
    for name, state, path in rows[:scan]:
        try:
            fields = spool.read_task(path)
        except OSError:
            continue  # moved on meanwhile
        sid = fields.get("session_id", "")
        if fields.get("memory_dir") != mdir or not sid:
            continue
        if sid not in sessions:
            if len(sessions) == recent:
                continue
            sessions[sid] = (name, [])
        sessions[sid][1].append((state, fields))
    return [(sid, name, tasks) for sid, (name, tasks) in sessions.items()]


def session_line(tasks: list[tuple[str, dict]]) -> str:
    """What became of one session: waiting, being distilled, distilled, skipped (why) or failed (why)."""
    for state, fields in tasks:
        if state == "pending":
            why = waiting_reason(fields)
            return why if why else f"waiting: queued by {fields.get('event', '?')}, not distilled yet"
    if any(state == "processing" for state, _ in tasks):
        return "being distilled now"
    done = [(state, f) for state, f in tasks if state in ("done", "failed")]
    processed = next((f for state, f in done if f.get("outcome") == "processed"), None)
    state, newest = done[0]
    if state == "failed":
        tid = newest.get("task_id")
        return (f"failed: {newest.get('reason', '?')}" + ("; distilled before" if processed else "")
                + (f" (lh queue show {tid})" if tid else " (lh queue)"))
    if processed is not None:
        written = processed.get("written", "")
        return "distilled" + (f": {written}" if written else "")
    return f"skipped: {newest.get('reason', '?')}"


def index_state() -> str:
    """The search index: not built yet, being built or updated, or built with N entries."""
    import sqlite3

    from lazy_harness.recall import index, lookup

    path = paths.recall_index_file()
    if not os.path.exists(path):
        return "not built yet: the first prompt or lh memory search builds it"
    try:
        conn = sqlite3.connect(path, timeout=0, isolation_level=None)
    except sqlite3.Error as exc:
        return f"cannot open {path}: {exc} (lh memory reindex)"
    try:
        try:
            conn.execute("BEGIN IMMEDIATE")  # why: taken at once, or another process is writing it
            conn.execute("ROLLBACK")
        except sqlite3.OperationalError as exc:
            if "locked" in str(exc) or "busy" in str(exc):
                return "being built or updated by another process"
            raise
        row = conn.execute("SELECT v FROM meta WHERE k='version'").fetchone()
        if row is None or row[0] != index.VERSION:
            return "of an older version: rebuilt at the next prompt or lh memory search"
        entries = lookup.doc_count(conn)
    except sqlite3.Error as exc:
        return f"cannot read {path}: {exc} (lh memory reindex)"
    finally:
        conn.close()
    stamps = [os.stat(p).st_mtime for p in (path, path + "-wal") if os.path.exists(p)]
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(max(stamps))) if stamps else "?"
    return f"built, {entries} entries (last written {when})"


def sync_state(cfg: dict) -> str:
    from lazy_harness import sync

    remote = sync.configured_remote(cfg)
    if not remote:
        return "off (no [sync] remote: memory stays on this machine)"
    st = sync.status(cfg)
    ahead = "?" if st["ahead"] is None else st["ahead"]
    behind = "?" if st["behind"] is None else st["behind"]
    line = f"{remote}: last sync {st['last_sync'] or 'never'}, {ahead} ahead, {behind} behind"
    return line + (f"; last error: {st['last_error']}" if st["last_error"] else "")


@click.command()
@click.option("-n", "recent", default=5, show_default=True, type=click.IntRange(min=1),
              help="How many of the project's last sessions to show.")
def status(recent: int) -> None:
    """The project's last sessions, the queue, today's spend, the index and sync, on one screen."""
    from lazy_harness import config

    cfg = load_config()
    cwd = os.getcwd()
    mdir = paths.memory_dir(cwd, None, cfg["memory"]["path"] or None)
    loop = "enabled" if cfg["compound_loop"]["enabled"] else "disabled (lh hooks install switches it on)"
    if config.invalid(config.load_fast()):  # why: load_config fell back to the defaults; the hooks pause
        loop = "paused: config.toml is invalid, nothing is distilled until it is fixed (lh config validate)"
    click.echo(terminal_safe(f"project: {project_name(cwd)} (memory: {mdir})"))
    click.echo(f"compound loop: {loop}")
    q = paths.queue_dir()
    sessions = project_sessions(q, mdir, recent)
    if not sessions:
        click.echo("sessions: none queued yet for this project (a session is queued when it ends)")
    else:
        click.echo("sessions (newest first):")
    for sid, name, tasks in sessions:
        click.echo(terminal_safe(f"  {queued_at(name)}  {sid[:8]}  {session_line(tasks)}"))
    counts = {state: len(task_names(q, which)) for state, which in STATES}
    click.echo(f"queue: {counts['pending']} pending, {counts['processing']} being distilled, "
               f"{counts['failed']} failed (lh queue)")
    worker, success = describe_worker(worker_state())
    click.echo(f"worker: {worker}; last successful distillation: {success}")
    for _, check, detail, hint in spend_lines(cfg):
        click.echo(f"{check}: {detail}" + (f" (hint: {hint})" if hint else ""))
    click.echo(f"index: {index_state()}")
    click.echo(f"sync: {sync_state(cfg)}")
    click.echo(week_line(mdir, time.time()))
