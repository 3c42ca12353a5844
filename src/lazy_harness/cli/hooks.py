"""``lh hooks``: register our hooks in a Claude Code settings.json, remove them, and report on them.

The read-only look-ups here (which files hold our hooks, when each event last fired, the worker's
last run) are shared with ``lh doctor``.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from dataclasses import dataclass, field

import click

from lazy_harness import config, logfile, paths, queue, settings, settings_read, settings_write
from lazy_harness.errors import ConfigError, LhError, SettingsError
from lazy_harness.project_identity import project_root

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from collections.abc import Iterable
    from lazy_harness.settings import Ours

LOG_TAIL_LINES = 5000


# --- look-ups shared with lh doctor ----------------------------------------------------------------

@dataclass
class SettingsFile:
    """What one settings file holds of ours."""

    label: str
    path: str
    state: str  # missing | invalid | ok
    ours: list = field(default_factory=list)
    error: str = ""
    null_matchers: list = field(default_factory=list)
    disables_all: bool = False  # ``"disableAllHooks": true``: Claude Code runs no hook, ours neither
    fix: str = ""  # what to run when it cannot be read (a mode, a folder): not "fix the JSON"


def settings_files(cwd: str | None = None, env: Mapping[str, str] | None = None) -> list[SettingsFile]:
    """The settings files Claude Code reads for a session started in ``cwd`` (``settings.files_read_at``:
    the user file, the folder's own two, and in a subfolder of a repository the root's
    settings.local.json), each inspected once."""
    out, seen = [], set()
    for label, path in settings.files_read_at(cwd or os.getcwd(), env):
        key = os.path.realpath(path)
        if key in seen:
            continue  # why: in the home folder the project file is the user file
        seen.add(key)
        out.append(_inspect(label, path))
    return out


def _inspect(label: str, path: str) -> SettingsFile:
    try:
        data, _ = settings_read.read(path)
    except SettingsError as exc:  # why: read-only here, so not install's "left untouched"
        error = exc.message.removeprefix(f"{path}: ").removesuffix("; left untouched")
        fix = (exc.hint or "") if isinstance(exc, settings_read.Unreadable) else ""
        return SettingsFile(label, path, "invalid", error=error, fix=fix)
    if data is None:
        return SettingsFile(label, path, "missing")
    return SettingsFile(label, path, "ok", settings.find_ours(data), null_matchers=settings.null_matchers(data),
                        disables_all=data.get("disableAllHooks") is True)


def root_hooks_not_here(cwd: str | None = None) -> tuple[str, str] | None:
    """(the repository root, its ``.claude/settings.json``) when ``cwd`` is a subfolder of the root and
    that file holds our hooks: Claude Code (2.1.332) reads a project's settings.json only in sessions
    started in its own folder, so a session started in ``cwd`` does not run them. Else None."""
    here = os.path.realpath(cwd or os.getcwd())
    root = project_root(here)
    path = os.path.join(root, ".claude", "settings.json")
    if root == here or not _inspect("project", path).ours:
        return None
    return root, path


def not_here_notes(cwd: str | None = None) -> list[tuple[str, str, str]]:
    """(check, what, the folder whose sessions do run it) for each registration of our hooks in the
    repository holding ``cwd`` that a session started in ``cwd`` does not run: the root's project
    settings.json, and plugin installs recorded for another of its folders (an unreadable plugin file:
    lh doctor and status say so on their own line)."""
    from lazy_harness import plugin

    here = cwd or os.getcwd()
    notes = []
    found = root_hooks_not_here(here)
    if found is not None:
        root, path = found
        notes.append(("hooks", f"{path} holds lazy-harness hooks, but Claude Code reads a project's "
                      f".claude/settings.json only in sessions started in {root}, not in {here}", root))
    try:
        away = plugin.elsewhere(here)
    except SettingsError:
        away = []
    notes.extend(("plugin", plugin.not_here(i, here), i.project) for i in away)
    return notes


def last_fired(env: Mapping[str, str] | None = None, tail: int = LOG_TAIL_LINES) -> dict[str, str]:
    """Event -> the newest hooks.log line for it, without its event name (read from the file's end)."""
    from lazy_harness.memory.files import tail_lines

    found: dict[str, str] = {}
    for line in reversed(tail_lines(logfile.log_path(logfile.HOOKS, env), tail)):
        parts = line.split(" ", 2)
        if len(parts) == 3 and parts[1] not in found and parts[2].startswith("session="):
            found[parts[1]] = f"{parts[0]} {parts[2]}"
    return found


def worker_state(env: Mapping[str, str] | None = None) -> dict:
    """``<queue>/state/worker.json`` as the worker left it; {} when absent; ``{UNREADABLE: why}`` when
    it cannot be read (not "never ran": the worker did run)."""
    import json

    path = os.path.join(paths.state_dir(env), "worker.json")
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except FileNotFoundError:
        return {}
    except OSError as exc:
        return {UNREADABLE: f"cannot read {path}: {exc.strerror or exc}"}
    except ValueError:
        return {UNREADABLE: f"cannot read {path}: not the JSON the worker writes (damaged); its next run writes it"}
    return data if isinstance(data, dict) else {UNREADABLE: f"cannot read {path}: not a JSON object"}


UNREADABLE = "_unreadable"


def pending_tasks(env: Mapping[str, str] | None = None) -> list[str]:
    """queue.pending, but a queue path that is not a folder reads as empty (doctor reports it)."""
    try:
        return queue.pending(paths.queue_dir(env))
    except OSError:
        return []


def failed_tasks(env: Mapping[str, str] | None = None) -> list[str]:
    try:
        return sorted(n for n in os.listdir(os.path.join(paths.queue_dir(env), queue.FAILED))
                      if n.endswith(queue.SUFFIX))
    except OSError:
        return []


@dataclass
class WorkerReport:
    """The worker as status, doctor and hooks status say it: ``kind`` (running, lingering, died,
    unreadable, never, ran), the ``worker:`` line and the last successful distillation."""

    kind: str
    line: str
    success: str


def describe_worker(state: dict, queue_dir: str | None = None) -> tuple[str, str]:
    """(worker line, last successful distillation line) of :func:`worker_report`."""
    report = worker_report(state, queue_dir)
    return report.line, report.success


def worker_report(state: dict, queue_dir: str | None = None) -> WorkerReport:
    """The worker for status, doctor and hooks status. With ``queue_dir`` the queue is looked at too
    (its locks probed, never waited on): a worker holding its lock is "running", whatever worker.json
    (written when a run ends) says of the run before; one lingering to retry waiting tasks, which holds
    no queue lock while it sleeps, is "waiting to retry"; a worker that took the queue and died
    without giving it back (its ``worker.owner`` left) "died"; and the newest distillation in done/
    is the last success when worker.json has none as recent (a run still going, a foreground lh distill)."""
    kind, worker = _worker_now(queue_dir) if queue_dir else ("", "")
    if not kind:
        kind, worker = _worker_before(state)
    return WorkerReport(kind, worker, _last_success(state, queue_dir))


def _worker_now(queue_dir: str) -> tuple[str, str]:
    """(kind, line) of a worker running, lingering or dead as the queue's files say; ("", "") for none."""
    running = worker_running(queue_dir)
    if running is not None:
        return "running", _running_line(queue_dir, running)
    lingering = worker_lingering(queue_dir)
    if lingering is not None:
        pid, wake = lingering
        return "lingering", ("waiting to retry" + (f" at {logfile.stamp(wake)}" if wake is not None else "")
                             + (f" (pid {pid})" if pid else ""))
    died = worker_died(queue_dir)
    if died is not None:
        pid, since = died
        return "died", (f"last worker (pid {pid}) died (it took the queue at {logfile.stamp(since)} and never "
                        "released it)")
    return "", ""


def _worker_before(state: dict) -> tuple[str, str]:
    """(kind, line) of the last run as worker.json says it."""
    if state.get(UNREADABLE):
        return "unreadable", str(state[UNREADABLE])
    if not state.get("started") and not state.get("finished"):
        return "never", "never ran"
    worker = f"last ran {state.get('started', '?')} to {state.get('finished', '?')}"
    if state.get("pid"):
        worker += f" (pid {state['pid']})"
    if "processed" in state or "failed" in state:
        worker += f": {state.get('processed', 0)} processed, {state.get('failed', 0)} failed"
    return "ran", worker


def _last_success(state: dict, queue_dir: str | None) -> str:
    done = last_distilled(queue_dir) if queue_dir else None
    success = None if state.get(UNREADABLE) else state.get("last_success")
    if done is not None and (not success or done >= _epoch(str(success)) + 1):
        # why no task id: it holds its session's short id, and the newest may be another project's
        # session, read on lh status's screen as one of this project's
        return logfile.stamp(done)
    if success:
        task = state.get("last_success_task")
        return f"{success}" + (f" (task {task})" if task else "")
    return "unknown" if state.get(UNREADABLE) else "never"


def worker_lingering(queue_dir: str) -> tuple[int | None, float | None] | None:
    """(pid, when it wakes) of the worker lingering now to retry waiting tasks (worker/loop.py
    ``LINGERING``, locked while it sleeps), None for none; a part it did not record reads as None."""
    from lazy_harness.atomic import held
    from lazy_harness.worker.loop import LINGERING

    path = os.path.join(queue_dir, LINGERING)
    if not held(path):
        return None
    try:
        with open(path, encoding="utf-8") as fh:
            pid_text, _, wake_text = fh.read().strip().partition(" ")
    except OSError:
        return None, None
    pid = int(pid_text) if pid_text.isdigit() else None
    try:
        wake: float | None = float(wake_text)
    except ValueError:
        wake = None
    return pid, wake


def worker_died(queue_dir: str) -> tuple[int, float] | None:
    """(pid, when it took the queue) of the last worker to take the queue when it died holding it (a
    SIGKILL, the OOM killer): its ``queue.consume.OWNER`` record is left, which a worker removes
    before it lets the lock go, and no worker holds the lock. None otherwise."""
    from lazy_harness.atomic import held
    from lazy_harness.queue.consume import OWNER

    try:
        with open(os.path.join(queue_dir, OWNER), encoding="utf-8") as fh:
            pid = int(fh.read().split()[0])
            since = os.fstat(fh.fileno()).st_mtime
    except (OSError, ValueError, IndexError):
        return None
    if pid <= 0 or held(os.path.join(queue_dir, queue.LOCK_NAME)):
        return None  # why the lock again: a worker that took the queue since it was probed wrote that record
    return pid, since


def _epoch(stamp: str) -> float:
    """A worker.json time (``logfile.stamp``) as epoch seconds; one that does not parse reads as the
    oldest, so done/ answers."""
    from datetime import datetime

    try:
        return datetime.fromisoformat(stamp).timestamp()
    except ValueError:
        return float("-inf")


@dataclass
class Running:
    """The worker holding the queue's lock now: its pid and since when it holds the queue, when it
    recorded itself as the holder (``queue.consume.OWNER``)."""

    pid: int | None = None
    since: float | None = None


def worker_running(queue_dir: str) -> Running | None:
    """The worker holding the lock of ``queue_dir`` now, or None. The lock is probed as the hooks
    probe it (a shared lock tried without waiting and dropped at once), never waited for or taken."""
    from lazy_harness.atomic import held
    from lazy_harness.queue.consume import OWNER

    if not held(os.path.join(queue_dir, queue.LOCK_NAME)):
        return None
    try:
        with open(os.path.join(queue_dir, OWNER), encoding="utf-8") as fh:
            pid = int(fh.read().split()[0])
            since = os.fstat(fh.fileno()).st_mtime  # why: written when the worker took the queue
    except (OSError, ValueError, IndexError):
        return Running()  # a holder that did not record itself (yet): running, pid unknown
    return Running(pid if pid > 0 else None, since)


def _running_line(queue_dir: str, running: Running) -> str:
    line = "running" + (f" (pid {running.pid})" if running.pid else "")
    if running.since is None:
        return line
    counts = [_finished_since(queue.folder(queue_dir, which), running.since) for which in (queue.DONE, queue.FAILED)]
    return line + f" since {logfile.stamp(running.since)}: so far {counts[0]} done, {counts[1]} failed"


def _finished_since(folder: str, since: float) -> int:
    """How many task files in ``folder`` were written at ``since`` or later (a stat each, no read)."""
    count = 0
    try:
        with os.scandir(folder) as it:
            for entry in it:
                try:
                    count += entry.name.endswith(queue.SUFFIX) and entry.stat().st_mtime >= since
                except OSError:
                    continue  # moved on meanwhile
    except OSError:
        return 0
    return count


def last_distilled(queue_dir: str) -> float | None:
    """When the newest distillation in done/ (outcome processed) finished: its file's mtime, written
    as it finished. Among the newest ``queue.consume.DONE_LOOKED_AT`` task files (names sort by time);
    None when there is none."""
    from lazy_harness.queue.consume import DONE_LOOKED_AT

    done = queue.folder(queue_dir, queue.DONE)
    try:
        names = sorted((n for n in os.listdir(done) if n.endswith(queue.SUFFIX)), reverse=True)
    except OSError:
        return None
    best: float | None = None
    for name in names[:DONE_LOOKED_AT]:
        path = os.path.join(done, name)
        try:
            mtime = os.stat(path).st_mtime
            if (best is None or mtime > best) and queue.read_task(path).get("outcome") == "processed":
                best = mtime
        except OSError:
            continue
    return best


def _events_text(ours: Iterable[Ours]) -> str:
    return ", ".join(o.event for o in ours)


# --- commands --------------------------------------------------------------------------------------

@click.group()
def hooks() -> None:
    """Register lazy-harness hooks in Claude Code settings."""


settings_option = click.option(
    "--settings", "settings_path", type=click.Path(dir_okay=False),
    help="Settings file to edit (default: <claude dir>/settings.json), e.g. .claude/settings.local.json; "
         "install takes a settings.json or settings.local.json, the names Claude Code reads.")
project_option = click.option(
    "--project", "project_dir", is_flag=False, flag_value="", default=None, metavar="[DIR]",
    type=click.Path(),  # why: _target refuses a missing folder or a file in one line, not click's usage text
    help="The project's shared DIR/.claude/settings.json (DIR: the project root of the current folder), "
         "with the portable command `lh-hook <Event>`.")


READ_NAMES = ("settings.json", "settings.local.json")  # the names of the settings files Claude Code reads
MISSING_HINT = {"install": "give the project's folder; only its .claude/ is created",
                "uninstall": "give the folder of the project whose .claude/settings.json holds the hooks; "
                             "nothing was removed"}


def _target(settings_path: str | None, project_dir: str | None, command: str) -> str:
    """The settings file ``command`` (install, uninstall) edits: --settings FILE, --project [DIR], else
    the user file."""
    if settings_path and project_dir is not None:
        raise click.UsageError("--settings and --project name two files; give one")
    if project_dir is not None:
        root = os.path.abspath(project_dir) if project_dir else project_root(os.getcwd())
        # why: a typo must not become a new folder tree holding a settings.json
        if not os.path.exists(root):
            raise LhError(f"--project: {root} does not exist", hint=MISSING_HINT[command])
        if not os.path.isdir(root):
            raise LhError(f"--project: {root} is not a folder", hint="give the project's folder")
        return os.path.join(root, ".claude", "settings.json")
    if not settings_path:
        return paths.user_settings_file()
    target = os.path.abspath(settings_path)
    # why install only: a file Claude Code never reads (a typo) would hold hooks that never run; uninstall
    # may still clean such a file an earlier version wrote
    if command == "install" and os.path.basename(target) not in READ_NAMES:
        raise LhError(f"--settings: {target}: Claude Code reads no file of that name; nothing written",
                      hint="name a settings.json or settings.local.json, e.g. .claude/settings.local.json")
    if command == "install" and _is_user_local_file(target):
        raise LhError(f"--settings: {target}: Claude Code reads the user's {paths.user_settings_file()}, not a "
                      "settings.local.json beside it; nothing written",
                      hint="lh hooks install (the user file), or a project's .claude/settings.local.json")
    if command == "install":
        _refuse_missing_folder(target)
    return target


def _refuse_missing_folder(target: str) -> None:
    """A folder typo (``.claud/``, ``../nosuch/``) must not become a new folder tree holding hooks that
    never run: the folder of ``target`` must exist. Made only as ``--project`` makes it: a missing
    ``.claude/`` in an existing folder, or the Claude dir itself (the user file, as the default)."""
    folder = os.path.dirname(target)
    if os.path.isdir(folder) or _is_user_file(target):
        return
    # the folder that must be there: the project's, when only its .claude/ is missing
    needed = os.path.dirname(folder) if os.path.basename(folder) == ".claude" else folder
    if os.path.isdir(needed):
        if not os.path.lexists(folder):
            return
        needed = folder  # why: .claude itself is there, but as a file
    what = "is not a folder" if os.path.lexists(needed) else "does not exist"
    raise LhError(f"--settings: {target}: {needed} {what}; nothing written",
                  hint="give a file in an existing folder; only a project's missing .claude/ is created")


def _is_user_local_file(target: str) -> bool:
    """``settings.local.json`` in the Claude dir: the user level has no local file (a project's
    ``.claude/settings.local.json`` is read, this one only as the home folder's own project file)."""
    folder = os.path.dirname(target)
    return (os.path.basename(target) == "settings.local.json"
            and os.path.realpath(folder) == os.path.realpath(paths.claude_dir()))


def _is_user_file(path: str) -> bool:
    return os.path.realpath(path) == os.path.realpath(paths.user_settings_file())


def _project_of(target: str) -> str | None:
    """The project folder whose ``.claude/`` holds ``target``; None for the user file or elsewhere."""
    folder = os.path.dirname(os.path.abspath(target))
    if os.path.basename(folder) != ".claude" or _is_user_file(target):
        return None
    return os.path.dirname(folder)


def _read_by_claude(target: str) -> bool:
    """Whether Claude Code reads ``target`` by itself: a settings.json or settings.local.json in a
    ``.claude/`` folder, or the user's settings.json (claude-code-facts.md)."""
    folder = os.path.dirname(os.path.abspath(target))
    return _is_user_file(target) or (os.path.basename(target) in READ_NAMES and os.path.basename(folder) == ".claude")


def _is_shared_file(target: str) -> bool:
    """A project's ``.claude/settings.json``: committed and shared, so the portable form goes in it."""
    return os.path.basename(target) == "settings.json" and _project_of(target) is not None


def _leave_for_plugin(target: str, leave: bool | None, where: str) -> bool:
    """With the lazy-harness plugin enabled here, whether to leave ``target`` alone: its hooks are
    the plugin's (registered in settings.json too, the plugin's runs step aside). ``leave``: the
    flag's answer; else ask on a terminal (default: leave it), and take the default elsewhere."""
    from lazy_harness import plugin

    found = plugin.active(where)
    if found is None:
        return False
    holds = any(o for f in settings_files(where) if os.path.realpath(f.path) == os.path.realpath(target)
                for o in f.ours)
    click.echo(f"plugin: {found.describe()}: it registers {', '.join(settings.EVENTS)} already; {target} "
               "need not hold them too (where both do, the plugin's runs step aside)")
    if holds:
        click.echo(f"note: {target} already holds our hooks: they run, and the plugin's step aside "
                   "(hint: lh hooks uninstall, and the plugin alone runs them)")
    if leave is None:
        if not sys.stdin.isatty():
            click.echo(f"not a terminal: taking the default, {os.path.basename(target)} left alone "
                       "(--write-settings to write it)")
            return True
        return click.confirm(f"Leave {target} alone and let the plugin run the hooks?", default=True)
    return leave


agent_option = click.option(
    "--agent", type=click.Choice(["claude", "codex"]), default="claude", show_default=True,
    help="The agent whose hooks: Claude Code (settings.json) or Codex CLI ($CODEX_HOME/hooks.json, "
         "trusted through codex app-server).")


def _codex_only(settings_path: str | None, project_dir: str | None) -> None:
    if settings_path or project_dir is not None:
        raise click.UsageError("--settings and --project name Claude Code's files; --agent codex writes "
                               "$CODEX_HOME/hooks.json")


@hooks.command()
@settings_option
@project_option
@agent_option
@click.option("--leave-settings/--write-settings", "leave", default=None,
              help="When the lazy-harness plugin is enabled here: leave the settings file alone (the "
                   "plugin runs the hooks), or write our hooks into it too. Default: ask on a terminal, "
                   "else leave it.")
def install(settings_path: str | None, project_dir: str | None, agent: str, leave: bool | None) -> None:
    """Register Stop, SessionEnd, SessionStart and UserPromptSubmit, and switch the compound loop on in config.toml.

    The user file gets this interpreter's absolute path; --project writes `lh-hook <Event>`, which
    names no path of this machine, for a settings file shared through git (docs/how/hooks.md).
    With the lazy-harness plugin enabled, the settings file is left alone unless you say otherwise.
    --agent codex: the same hooks in Codex CLI's $CODEX_HOME/hooks.json, trusted (docs/how/codex.md)."""
    cfg = paths.config_file()
    # why: a syntax error stops us before settings.json is touched (the loop could not be switched on
    # by a safe edit); a wrong value does not: the hooks watch sessions during the pause (ADR 0016)
    if agent == "codex":
        _codex_only(settings_path, project_dir)
        config.parse_file(cfg)
        from lazy_harness.cli import hooks_codex

        works = hooks_codex.install()
        _bundle_hook_modules()
        _switch_loop_on(cfg)
        if not works:  # why after the rest: the hooks are in place for the moment the file is fixed
            raise click.exceptions.Exit(1)
        return
    target = _target(settings_path, project_dir, "install")
    portable = project_dir is not None or _is_shared_file(target)
    if portable and project_dir is None:
        click.echo(f"{target} is a project's shared settings file: the portable command, as --project writes")
    config.parse_file(cfg)
    where = os.path.dirname(os.path.dirname(target)) if portable else os.getcwd()
    if _leave_for_plugin(target, leave, where):
        click.echo(f"settings: {target} left alone (the plugin runs the hooks)")
    else:
        made = not os.path.exists(os.path.dirname(target))
        _register(target, portable)
        if made:
            _note_made_folder(target)
        _warn_other_files(target)
        _warn_plugin_installs(where)
    for _check, what, folder in not_here_notes():
        click.echo(f"note: {what} (hint: start claude in {folder})")
    _bundle_hook_modules()
    _switch_loop_on(cfg)  # why last: it ends with the two lines on what happens next


def _bundle_hook_modules() -> None:
    """The hooks' modules compiled into one file in the cache folder, which every hook loads from
    (lazy_harness/hotload.py); only when a module changed since it was written. The hooks work
    without it, a little slower."""
    from lazy_harness import hotload

    try:
        n = hotload.refresh()
    except (OSError, SyntaxError, ValueError) as exc:
        click.echo(f"warning: hook modules not compiled ({exc}); the hooks load them one by one, about 1 ms "
                   "slower a run")
        return
    if n is not None:
        click.echo(f"hook modules: {n} compiled into {hotload.bundle_file()}")


def bundle_line() -> tuple[str, str, str, str | None]:
    """lh doctor's line on the hooks' bundle (lazy_harness/hotload.py): (status, check, detail, fix)."""
    from lazy_harness import hotload, private

    where, changed = hotload.bundle_file(), hotload.stale()
    if not changed:
        return "ok", "hook modules", f"loaded from {where}", None
    why = hotload.problem(where)
    if why:
        return ("warn", "hook modules", f"not loaded from {where}: {why}; each hook loads its modules one by one "
                "(about 1 ms slower a run)", private.fix(os.path.dirname(where), why))
    return ("warn", "hook modules", f"{len(changed)} changed since {where} was written (or it is missing): "
            "each hook loads those one by one", "lh hooks install (or the next session's worker does it)")


def _note_made_folder(target: str) -> None:
    """Install made the folder of ``target``: note it, so uninstall removes it once empty again."""
    from lazy_harness.atomic import atomic_write

    try:
        atomic_write(settings_write.made_folder_file(target), os.path.dirname(os.path.abspath(target)) + "\n")
    except OSError as exc:  # why: only the tidying of uninstall depends on it
        click.echo(f"warning: cannot note that {os.path.dirname(target)} was made here: {exc}")


def _warn_other_files(target: str) -> None:
    """Claude Code merges the settings files it reads for a session (``settings_files``): our hooks in
    another of them besides ``target`` run every event twice. Warn for each, naming the command that
    removes them there. The session: one started in the folder whose ``.claude/`` holds ``target``,
    else in the current folder. A file Claude Code does not read by itself runs nothing twice: a note
    says so instead."""
    if not _read_by_claude(target):
        click.echo(f"note: Claude Code does not read {target} by itself (only a .claude/settings.json or "
                   "settings.local.json, or the user's settings.json): its hooks run only in sessions started "
                   f"with claude --settings {shlex.quote(target)}")
        return
    root = _project_of(target) or os.getcwd()
    for f in settings_files(root):
        if not f.ours or os.path.realpath(f.path) == os.path.realpath(target):
            continue
        if f.label == "user":
            remove = "lh hooks uninstall"
        elif f.label == "project":
            remove = f"lh hooks uninstall --project {shlex.quote(root)}"
        else:
            remove = f"lh hooks uninstall --settings {shlex.quote(f.path)}"
        click.echo(f"warning: {f.path} holds lazy-harness hooks too: Claude Code runs both files, so in this "
                   "project every event runs twice (memory read back twice, sessions queued twice) "
                   f"(hint: {remove} removes them there; keep one file)")


def _warn_plugin_installs(cwd: str) -> None:
    """One line for each install of the plugin Claude Code records, whatever its scope and folder, but
    the one ``_leave_for_plugin`` reported and those ``not_here_notes`` names: in a session that reads
    both, the plugin's hooks exit at once and these run (hooks.entry), but two registrations are one
    too many to keep."""
    from lazy_harness import plugin

    try:
        found = plugin.recorded(cwd)
        noted = {(i.plugin_id, i.scope, i.project) for i in plugin.elsewhere(cwd)}
        noted |= {(i.plugin_id, i.scope, i.project) for i in plugin.installs(cwd) if i.enabled}
    except SettingsError as exc:
        click.echo(f"warning: plugin: {exc.message}")
        return
    for install in found:
        if (install.plugin_id, install.scope, install.project) in noted:
            continue
        where = f", installed for {install.project}" if install.project else ""
        click.echo(f"warning: the lazy-harness plugin is installed too: {install.describe()}{where}; in sessions "
                   "that read both, its hooks leave each event to these (hint: keep one: claude plugin uninstall "
                   f"{install.plugin_id}, or lh hooks uninstall)")


def _remove_made_folder(target: str) -> None:
    """After uninstall: the folder of ``target``, when install made it and it is empty now."""
    note = settings_write.made_folder_file(target)
    folder = os.path.dirname(os.path.abspath(target))
    try:
        with open(note, encoding="utf-8") as fh:
            noted = fh.read().strip()
    except OSError:
        return
    if noted != folder:
        return
    try:
        if os.path.isdir(folder) and not os.path.islink(folder) and not os.listdir(folder):
            os.rmdir(folder)
            click.echo(f"removed {folder} (made by lh hooks install, empty now)")
        elif os.path.exists(folder):
            return  # why: something else lives there now: keep the note, the folder is the person's too
        os.unlink(note)
    except OSError as exc:
        click.echo(f"warning: {folder} left in place: {exc}")


def _register(target: str, portable: bool) -> None:
    change = settings.install(target, portable=portable, backup=settings_write.backup_file(target))
    events = ", ".join(f"{e} (timeout {settings.EVENTS[e]} s)" for e in change.events)
    if change.action == "unchanged":
        click.echo(f"already installed: {target} holds our hooks; nothing changed")
        click.echo(f"hooks: {events}")
    else:
        click.echo(f"settings: {target} ({change.action})")
        click.echo(f"hooks: {events}")
        click.echo(f"command: {settings.command_for('<Event>', portable=portable)}")
        if change.backup:
            click.echo(f"backup: {change.backup}")
    for warning in change.warnings:
        click.echo(f"warning: {warning}")
    if portable and not shutil.which(settings.SCRIPT):
        click.echo(f"warning: {settings.SCRIPT} is not on PATH here; Claude Code finds it on PATH "
                   "(install with pipx install . or uv tool install ., or activate the venv)")


def _switch_loop_on(cfg: str) -> None:
    from lazy_harness import notice

    what = config.enable_loop(cfg)
    _, cfg_errors, _ = config.parse_file(cfg)  # what is still wrong once enabled is set
    for error in cfg_errors:
        click.echo(f"warning: {error}")
    done = {
        "created": f"config: {cfg}: created from the example with compound_loop.enabled = true",
        "enabled": f"config: {cfg}: compound_loop.enabled switched on (the rest of the file left as is)",
        "already enabled": f"config: {cfg}: compound loop already enabled",
    }[what]
    if cfg_errors:
        done += "; distillation stays paused until the file is valid (lh config validate)"
    click.echo(done)
    if not cfg_errors:  # what happens next, with the gates as configured (issue 26's first short session)
        for line in notice.next_steps(config.load()):
            click.echo(line)


@hooks.command()
@settings_option
@project_option
@agent_option
def uninstall(settings_path: str | None, project_dir: str | None, agent: str) -> None:
    """Remove exactly our entries; the file is left as it was before install."""
    if agent == "codex":
        _codex_only(settings_path, project_dir)
        from lazy_harness.cli import hooks_codex

        hooks_codex.uninstall()
        return
    target = _target(settings_path, project_dir, "uninstall")
    change = settings.uninstall(target, backup=settings_write.backup_file(target))
    if change.action == "missing":
        click.echo(f"nothing to remove: {target} does not exist")
    elif change.action == "unchanged":
        click.echo(f"nothing to remove: {target} holds no lazy-harness hooks")
    elif change.action == "deleted":
        click.echo(f"removed {', '.join(change.events)}; deleted {target} (it held only lazy-harness hooks)")
        _remove_made_folder(target)
    else:
        click.echo(f"removed {', '.join(change.events)} from {target}")
    if change.action in ("deleted", "updated"):
        still = _still_queued(_project_of(target) or project_dir)
        click.echo(f"config.toml left as is ({paths.config_file()}); {still}")
    from lazy_harness.recall.resident import client as resident

    stopped = resident.stop()
    if stopped is not None:
        click.echo(f"stopped the resident answerer of prompt recall (pid {stopped})")


def _still_queued(project_dir: str | None) -> str:
    """What queues sessions once these hooks are gone: an enabled plugin still does (its hooks step
    aside only while the settings' ran); else nothing."""
    from lazy_harness import plugin

    found = plugin.active(os.path.abspath(project_dir or os.getcwd()))
    if found is None:
        return "without hooks nothing is queued"
    scope = "" if found.scope in ("user", "?") else f"--scope {found.scope} "
    return (f"the plugin {found.plugin_id} ({found.scope} scope) still runs the hooks and queues sessions; "
            f"to stop it: claude plugin disable {scope}{found.plugin_id}")


@hooks.command()
def status() -> None:
    """Which settings files hold our hooks, when each event last fired, and the loop's health."""
    files = settings_files()
    click.echo("settings files:")
    for f in files:
        if f.state == "missing":
            click.echo(f"  {f.path}: not present")
        elif f.state == "invalid":
            click.echo(f"  {f.path}: {f.error}")
        elif not f.ours:
            click.echo(f"  {f.path}: no lazy-harness hooks")
        else:
            click.echo(f"  {f.path}: {_events_text(f.ours)}")
            for o in f.ours:
                click.echo(f"    {o.event}: {o.command} (timeout {o.timeout} s)")
        for where in f.null_matchers:
            click.echo(f"    warning: {where} has a null matcher; Claude Code may ignore this file")
    from lazy_harness import plugin

    try:
        found = plugin.installs(os.getcwd())
    except SettingsError as exc:
        found = []
        click.echo(f"plugin: {exc.message}")
    for install in found:
        click.echo(f"plugin: {install.describe()}")
    for check, what, folder in not_here_notes():
        click.echo(f"{check}: {what} (hint: start claude in {folder})")
    from lazy_harness.cli import hooks_codex

    if not any(f.ours for f in files) and not any(i.enabled for i in found):
        # why: Codex's hooks.json holding ours is a setup of its own (docs/how/codex.md), not a missing install
        codex_holds = bool(hooks_codex.inspect(ask=False).ours)
        click.echo("  no Claude Code settings file holds lazy-harness hooks"
                   + (" (Codex's hooks.json does, below)" if codex_holds else " (hint: lh hooks install)"))
    codex = hooks_codex.status_line()
    if codex:
        click.echo(codex)
    log = logfile.log_path(logfile.HOOKS)
    fired = last_fired()
    if not fired:
        click.echo(f"last fired ({log}): no hook has run yet")
    else:
        click.echo(f"last fired ({log}):")
        for event in settings.EVENTS:
            click.echo(f"  {event}: {fired.get(event, f'not in the log (last {LOG_TAIL_LINES} lines)')}")
    try:
        enabled = config.load()["compound_loop"]["enabled"]
        click.echo(f"compound loop: {'enabled' if enabled else 'disabled'} ({paths.config_file()})")
    except ConfigError as exc:  # why: status must report, not stop, on a broken config
        click.echo(f"compound loop: config not valid: {exc}")
    q = paths.queue_dir()
    worker, success = describe_worker(worker_state(), q)
    click.echo(f"worker: {worker}")
    click.echo(f"last successful distillation: {success}")
    click.echo(f"queue: {len(pending_tasks())} pending, {len(failed_tasks())} failed ({q})")
