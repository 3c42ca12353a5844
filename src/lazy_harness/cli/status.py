"""``lh status``: one screen on the project here: its last sessions (distilled, skipped and why,
waiting), the queue, today's spend against the cap, the search index and sync.

Read-only. Each part comes from what the command of that part reads (``lh queue``, ``lh cost``,
``lh hooks status``, ``lh sync --status``); ``lh doctor`` checks the installation itself.
"""

from __future__ import annotations

import os
import re
import time

import click

from lazy_harness import paths
from lazy_harness import queue as spool
from lazy_harness.cli.cost import load_config, spend_lines
from lazy_harness.cli.doctor_distiller import missing_distiller
from lazy_harness.cli.doctor_queue import with_failing
from lazy_harness.cli.hooks_worker import describe_worker, worker_state
from lazy_harness.cli.memory_usage import week_line
from lazy_harness.errors import LhError
from lazy_harness.cli.queue import (INTERRUPTED, STATES, clipped, dead_claims, not_before, task_names,
                                    waiting_reason)
from lazy_harness.cost import budget
from lazy_harness.cost.paused import pause_hold
from lazy_harness.logfile import terminal_safe
from lazy_harness.project_identity import project_name, project_root
from lazy_harness.queue.task import AGENT, CODEX

TYPE_CHECKING = False
if TYPE_CHECKING:
    from lazy_harness.config.typed import Config
    from collections.abc import Callable

SCAN = 400  # newest task files read to find the project's last sessions (every project shares the queue)
# what one processed task wrote, as memory.apply.Report.summary() puts it in its done/ file
_COUNTS = tuple((name, re.compile(pattern)) for name, pattern in (
    ("decision", r"(?:^|, )(\d+) decisions?(?:,|$)"), ("failure", r"(?:^|, )(\d+) failures?(?:,|$)"),
    ("learning", r"(?:^|, )(\d+) learnings?(?:,|$)"), ("opened", r"\((\d+) opened, \d+ closed[;)]"),
    ("closed", r"\(\d+ opened, (\d+) closed[;)]"), ("held", r"(?:^|, )(\d+) held for approval(?:,|$)")))


class Belongs:
    """Whether a task is this project's: it writes into the project's memory folder, or it ran in
    the project (its cwd's main working tree is this one), so the sessions queued before the
    project's key changed (an origin added, a folder renamed) still count."""

    def __init__(self, mdir: str, root: str) -> None:
        self.mdir, self.root = mdir, root
        self._seen: dict[str, bool] = {}

    def __call__(self, fields: dict) -> bool:
        if fields.get("memory_dir") == self.mdir:
            return True
        cwd = fields.get("cwd") or ""
        if not cwd:
            return False
        if cwd not in self._seen:
            self._seen[cwd] = project_root(cwd) == self.root
        return self._seen[cwd]


def project_sessions(q: str, mdir: str, recent: int, scan: int = SCAN, belongs: Callable[[dict], bool] | None = None,
                     dead: set[str] | frozenset[str] = frozenset()) -> list[tuple[str, str, list]]:
    """The last ``recent`` sessions whose tasks write into ``mdir`` (or ``belongs`` to the project),
    newest first, as (session id, newest task name, [(state, fields)] newest first), from the newest
    ``scan`` task files. A claim named in ``dead`` (``cli.queue.dead_claims``) is "interrupted"."""
    belongs = belongs or (lambda fields: fields.get("memory_dir") == mdir)
    rows = sorted(((n, "interrupted" if which == spool.PROCESSING and n in dead else state,
                    os.path.join(spool.folder(q, which), n))
                   for state, which in STATES for n in task_names(q, which)), reverse=True)
    sessions: dict[str, tuple[str, list]] = {}
    for name, state, path in rows[:scan]:
        try:
            fields = spool.read_task(path)
        except OSError:
            continue  # moved on meanwhile
        sid = fields.get("session_id", "")
        if not sid or not belongs(fields):
            continue
        fields.setdefault("task_id", spool.task_id(name))  # why: a pending task's file has none yet
        if sid not in sessions:
            if len(sessions) == recent:
                continue
            sessions[sid] = (name, [])
        sessions[sid][1].append((state, fields))
    return [(sid, name, tasks) for sid, (name, tasks) in sessions.items()]


NEXT_WORKER = "the next worker takes it (a session's start or end starts one, or lh worker run --once)"


def _waiting(fields: dict, cap: tuple[str, str], running: set[int] | frozenset[int] = frozenset()) -> str:
    """A pending task: held by the spend cap (the reason it holds from its own pause, else the cap's),
    waiting for its own time, or not taken yet. Its own reason is shown only while it holds: a cap's
    while a cap still refuses (``cap``), "another model call holds what is left" while that call's
    marker is still locked (its pid in ``running``)."""
    tid = fields.get("task_id", "?")
    reason, until = cap
    own = fields.get("wait_reason") or ""
    if reason and not_before(fields) <= time.time():
        reason = own if budget.cap_reason(own) else reason
        return clipped(f"waiting until {until}: {reason}" if until else f"waiting: {reason}", tid)
    if budget.cap_reason(own):
        return f"waiting: the spend cap that paused it no longer holds; {NEXT_WORKER}"
    pid = budget.busy_pid(own)
    if pid is not None and pid not in running:
        at = not_before(fields)
        if at > time.time():
            return (f"waiting, not before {time.strftime('%H:%M:%S', time.localtime(at))}: the model call it "
                    "waited for has ended; it is tried again then")
        return f"waiting: the model call it waited for has ended; {NEXT_WORKER}"
    why = waiting_reason(fields)
    return clipped(why, tid) if why else f"waiting: queued by {fields.get('event', '?')}, not distilled yet"


def session_line(tasks: list[tuple[str, dict]], cap: tuple[str, str] = ("", ""),
                 running: set[int] | frozenset[int] = frozenset()) -> str:
    """What became of one session: waiting (for what: ``cap`` is ``cost.paused.pause_hold``, ``running``
    the pids of the model calls under way), being distilled, interrupted (its worker died), distilled,
    skipped (why) or failed (why)."""
    for state, fields in tasks:
        if state == "pending":
            return _waiting(fields, cap, running)
    if any(state == "processing" for state, _ in tasks):
        return "being distilled now"
    if any(state == "interrupted" for state, _ in tasks):
        return INTERRUPTED
    done = [(state, f) for state, f in tasks if state in ("done", "failed")]
    processed = next((f for state, f in done if f.get("outcome") == "processed"), None)
    state, newest = done[0]
    if state == "failed":
        tid = newest.get("task_id")
        return (f"failed: {newest.get('reason', '?')}" + ("; distilled before" if processed else "")
                + (f" (lh queue show {tid})" if tid else " (lh queue)"))
    if processed is not None:
        return "distilled" + _written([f for state, f in done if f.get("outcome") == "processed"])
    return f"skipped: {newest.get('reason', '?')}"


def _written(processed: list[dict]) -> str:
    """What every distillation of one session wrote, added up (each done/ file holds what its own
    task wrote: the last one alone said "0 decisions" of a session whose earlier tasks wrote them)."""
    totals = dict.fromkeys((name for name, _ in _COUNTS), 0)
    read = False
    for fields in processed:
        for name, pattern in _COUNTS:
            m = pattern.search(fields.get("written", ""))
            if m:
                totals[name] += int(m.group(1))
                read = True
    if not read:  # why: a done/ file of another shape: what it says, as it says it
        written = processed[0].get("written", "")
        return f": {written}" if written else ""

    def n(count: int, word: str) -> str:
        return f"{count} {word}" + ("" if count == 1 else "s")
    parts = [n(totals["decision"], "decision"), n(totals["failure"], "failure"), n(totals["learning"], "learning")]
    opened, closed = totals["opened"], totals["closed"]
    parts.append(f"handoff {opened} opened, {closed} closed" if opened or closed else "handoff untouched")
    if totals["held"]:
        parts.append(f"{totals['held']} held for approval")
    times = f" ({len(processed)} distillations)" if len(processed) > 1 else ""
    return f"{times}: {', '.join(parts)}"


def watched_sessions(q: str, belongs: Callable[[dict], bool], queued: set[str]) -> list[tuple[str, str, str]]:
    """The project's sessions the idle sweep watches (queue/state/open) with no task waiting and not
    checked since their transcript was last written, newest transcript first, as (session id, when
    its transcript was last written, its agent as its hook noted it: ``agent``, none for Claude
    Code). A session checked as it is now (distilled or skipped at its end) waits for nothing: the
    sweep forgets it, as ``queue.sweep`` does."""
    folder = spool.folder(q, spool.OPEN)
    try:
        names = [n for n in os.listdir(folder) if not n.startswith(".")]
    except OSError:
        return []
    found = []
    for name in names:
        try:
            record = spool.read_task(os.path.join(folder, name))
            mtime = os.stat(record.get("transcript", "")).st_mtime
        except OSError:
            continue  # swept meanwhile, or its transcript is gone: the sweep forgets it
        sid = record.get("session_id") or name
        if sid in queued or not belongs(record):
            continue
        check = spool.last_check(q, sid)
        if check is None or mtime > check[0]:  # why: the sweep's own rule for "grew since its last check"
            found.append((mtime, sid, record.get(AGENT, "")))  # as queue.sweep reads it
    return [(sid, time.strftime("%Y-%m-%d %H:%M", time.localtime(mtime)), agent)
            for mtime, sid, agent in sorted(found, reverse=True)]


def held_line(mdir: str, cfg: Config) -> str:
    """What ``lh memory held`` lists under ``cfg``'s ``[trust] cross_projects``, in one line: the held
    entries, then the learnings that wait for approval to be used in other projects (ADR 0032)."""
    from lazy_harness.memory import held_review, state

    try:
        found = held_review.listing(mdir, paths.learnings_dir(cfg["knowledge"]["path"] or None), state.policy(cfg),
                                    told=lambda: click.echo(f"lh: {held_review.WAITING}", err=True))
    except OSError as exc:
        return f"held for approval: cannot read: {exc}"
    holds = [h for h in found if h["state"] == state.HELD]
    line = "held for approval: none"
    if holds:
        kinds = sorted({h["kind"] for h in holds})
        line = (f"held for approval: {len(holds)} ({', '.join(kinds)}), not shown to sessions until approved "
                "(lh memory held; lh memory approve ID, or the Approve button of lh ui)")
    waits = len(found) - len(holds)
    if waits:
        line += (f"; {waits} learning{'s wait' if waits != 1 else ' waits'} for your approval to be used in "
                 "other projects (lh memory held)")
    return line


def index_state() -> str:
    """The search index: not built yet, being built or updated, or built with N entries."""
    import sqlite3

    from lazy_harness.recall.index import lookup, store as index

    path = paths.recall_index_file()
    if not os.path.lexists(path):
        return "not built yet: the worker builds it (a session start asks for it), or lh memory reindex"
    if odd := _not_a_file(path):
        return odd
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
            return "of an older version: the worker builds it again (a session start or a prompt asks for it), " \
                   "or lh memory reindex"
        entries = lookup.doc_count(conn)
    except sqlite3.Error as exc:
        return f"cannot read {path}: {exc} (lh memory reindex)"
    finally:
        conn.close()
    stamps = [os.stat(p).st_mtime for p in (path, path + "-wal") if os.path.exists(p)]
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(max(stamps))) if stamps else "?"
    return f"built, {entries} entries (last written {when})"


def _not_a_file(path: str) -> str | None:
    """What status says of something other than a regular file in the index's place, without opening it:
    a link is never followed (ADR 0031: what it names is not ours to open for writing), a FIFO would hold
    the open; the writer replaces both, a folder is the person's to move. None for a regular file."""
    import stat

    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return None
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return f"not an index: {path} is a folder (move it away, then lh memory reindex)"
    kind = "a link" if stat.S_ISLNK(mode) else "a FIFO" if stat.S_ISFIFO(mode) else "not a regular file"
    return f"not an index: {path} is {kind} (the worker or lh memory reindex puts the index in its place)"


def sync_state(cfg: Config) -> str:
    from lazy_harness import sync

    remote = sync.configured_remote(cfg)
    if not remote:
        return "off (no [sync] remote: memory stays on this machine)"
    try:
        st = sync.status(cfg)
    except LhError as exc:  # why: a refused repository is this line's news; the rest of the screen still shows
        return f"{remote}: {exc.message}" + (f" (hint: {exc.hint})" if exc.hint else "")
    ahead = "?" if st["ahead"] is None else st["ahead"]
    behind = "?" if st["behind"] is None else st["behind"]
    line = f"{remote}: last sync {st['last_sync'] or 'never'}, {ahead} ahead, {behind} behind"
    return line + (f"; last error: {st['last_error']}" if st["last_error"] else "")


def loop_off(cwd: str) -> str:
    from lazy_harness import plugin

    hint, not_yet = plugin.loop_off_hint(cwd)
    if not_yet:
        return f"not switched on yet ({hint})"
    return f"disabled ({hint})" if hint.startswith("set ") else f"disabled ({hint} switches it on)"


def hooks_line(cwd: str) -> str:
    """Whether Claude Code runs our hooks for a session here, and from where: the settings files that hold
    them, the plugin, or none (then nothing is remembered or read back; ``lh doctor`` says more)."""
    from lazy_harness import plugin
    from lazy_harness.cli.hooks_found import settings_files

    found = settings_files(cwd)
    off = [f.path for f in found if f.disables_all]
    if off:
        return f"none run here: {', '.join(off)} sets \"disableAllHooks\": true (lh doctor)"
    where = [f.path for f in found if f.ours]
    active = plugin.active(cwd)
    if active is not None:
        where.append(f"the plugin {active.plugin_id}")
    if not where:
        bad = next((f for f in found if f.state == "invalid"), None)
        if bad is not None:  # why: lh hooks install refuses a file it cannot parse; name it and the fix
            return (f"not registered for Claude Code here: {bad.path} cannot be read: {bad.error} "
                    f"({bad.fix or f'fix the JSON in {bad.path}'}, then lh hooks install)")
        paused = _disabled_plugin(cwd)
        if paused:  # why: lh hooks install would add a second registration, run beside the plugin once enabled
            return (f"paused: the plugin {paused} is disabled: no session is remembered or read back "
                    f"(claude plugin enable {paused})")
        return "not registered for Claude Code here: no session is remembered or read back (lh hooks install)"
    return "registered in " + ", ".join(where)


def _disabled_plugin(cwd: str) -> str | None:
    """The id of a disabled install of our plugin that applies here (``lh doctor``'s "paused"), or None."""
    from lazy_harness import plugin
    from lazy_harness.errors import SettingsError

    try:
        return next((i.plugin_id for i in plugin.installs(cwd) if not i.enabled), None)
    except SettingsError:  # why: an unreadable plugin file is doctor's to name; status says what it can
        return None


def _config() -> tuple[Config, str | None]:
    """The values the hooks go on with: a wrong value keeps its default and is named on stderr, the
    rest of the file counts. why: load_config's defaults for the whole file showed the default memory
    folder (and its empty sessions) and caps while ``[memory] path`` was fine and still in use.
    A syntax error, a wrong folder key or a refused file: every default, as load_config says; with
    the problem of a wrong ``memory.path`` or ``knowledge.path`` (else None)."""
    from lazy_harness import config

    try:
        return config.load(warn=lambda problem: click.echo(
            f"lh: warning: {problem}; its default is used (hint: lh config validate)", err=True)), None
    except LhError as exc:
        unplaced = exc.message if config.names_a_folder(exc.message, paths.config_file()) else None
        return load_config(), unplaced


@click.command()
@click.option("-n", "recent", default=5, show_default=True, type=click.IntRange(min=1),
              help="How many of the project's last sessions to show.")
def status(recent: int) -> None:
    """The project's last sessions, the queue, today's spend, the index and sync, on one screen."""
    from lazy_harness import config

    cfg, unplaced = _config()
    cwd = os.getcwd()
    mdir = paths.memory_dir(cwd, None, cfg["memory"]["path"] or None)
    # why: the default folder shown bare read as the person's memory while config.toml names another
    where = (f"{mdir}, the default: not the folder config.toml names ({unplaced}; lh config validate)"
             if unplaced else mdir)
    loop = "enabled" if cfg["compound_loop"]["enabled"] else loop_off(cwd)
    if config.invalid(config.load_fast()):  # why: load_config fell back to the defaults; the hooks pause
        loop = "paused: config.toml is invalid, nothing is distilled until it is fixed (lh config validate)"
    click.echo(terminal_safe(f"project: {project_name(cwd)} (memory: {where})"))
    click.echo(f"compound loop: {loop}")
    missing = missing_distiller(cfg) if cfg["compound_loop"]["enabled"] and not loop.startswith("paused") else None
    if missing:  # why: "enabled" alone read as working while every session's distillation fails at once
        click.echo(terminal_safe(f"distiller: {missing}: sessions fail to distill at their end (lh doctor)"))
    click.echo(terminal_safe(f"hooks: {hooks_line(cwd)}"))
    q = paths.queue_dir()
    belongs = Belongs(mdir, project_root(cwd))
    dead = dead_claims(q)
    sessions = project_sessions(q, mdir, recent, belongs=belongs, dead=dead)
    watched = watched_sessions(q, belongs, {sid for sid, _, tasks in sessions if any(
        state in ("pending", "processing", "interrupted") for state, _ in tasks)})
    if not sessions and not watched:
        click.echo("sessions: none queued yet for this project (a session is queued when it ends)")
    elif sessions:
        click.echo("sessions (newest first):")
    spend = budget.spend(None, time.time())
    cap, running = pause_hold(cfg, time.time(), spend), {c.pid for c in spend.running}
    for sid, name, tasks in sessions:
        agent = " (Codex)" if any(f.get("agent") == "codex" for _, f in tasks) else ""
        click.echo(terminal_safe(f"  {spool.queued_at(name)}  {sid[:8]}{agent}  {session_line(tasks, cap, running)}"))
    if watched:
        idle = cfg["compound_loop"]["idle_minutes"]
        click.echo(f"watched (the idle sweep queues a session once it has been idle {idle:g} min, or when it ends):")
    for sid, when, agent in watched:
        mark = " (Codex)" if agent == CODEX else ""
        click.echo(terminal_safe(f"  {when}  {sid[:8]}{mark}  not queued yet (its transcript was last written then)"))
    click.echo(held_line(mdir, cfg))
    names = {state: task_names(q, which) for state, which in STATES}
    counts = {state: len(found) for state, found in names.items()}
    stopped = len(dead.intersection(names["processing"]))  # why: what this listing holds, as it counts
    click.echo(f"queue: {counts['pending']} pending, {counts['processing'] - stopped} being distilled, "
               f"{counts['failed']} failed (lh queue)" + (f"; {stopped} {INTERRUPTED}" if stopped else ""))
    worker, success = describe_worker(worker_state(), q)  # why q: a running worker has no worker.json yet
    click.echo(f"worker: {worker}; last successful distillation: {success}")
    from lazy_harness.cli import hooks_codex

    codex = hooks_codex.status_line(cwd)
    if codex:
        click.echo(codex)
    for _, check, detail, hint in with_failing(spend_lines(cfg, seen=spend), q):
        click.echo(f"{check}: {detail}" + (f" (hint: {hint})" if hint else ""))
    click.echo(f"index: {index_state()}")
    click.echo(f"sync: {sync_state(cfg)}")
    click.echo(week_line(mdir, time.time()))
