"""``lh doctor``: is everything in place? One line per check, ``ok|info|warn|fail``, with a hint.

Read-only: it creates nothing (a writable check looks at the nearest existing folder).
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import shutil
import stat
import sys
import time

import click

from lazy_harness import __version__, config, paths, project_identity, queue, settings
from lazy_harness.cli.hooks import (failed_tasks, not_here_notes, pending_tasks, settings_files, worker_report,
                                    worker_state)
from lazy_harness.errors import ConfigError
from lazy_harness.project_identity import project_root

TYPE_CHECKING = False
if TYPE_CHECKING:
    from lazy_harness.config.typed import Config
    from lazy_harness.plugin import Install, Runs

STALE_SECONDS = 15 * 60  # a pending task this old means no worker is draining the queue
# The Claude Code versions the e2e suite runs against (.ci/run installs both; docs/adr/0011).
CLAUDE_OLDEST_TESTED = "2.1.197"
CLAUDE_NEWEST_TESTED = "2.1.332"
VERSION_TIMEOUT = 10  # seconds for `claude --version`
_VERSION = re.compile(r"\b(\d+)\.(\d+)\.(\d+)\b")


class Report:
    def __init__(self) -> None:
        self.failed = False

    def line(self, status: str, check: str, detail: str, hint: str | None = None) -> None:
        self.failed = self.failed or status == "fail"
        click.echo(f"{status:<4}  {check}: {detail}" + (f"  (hint: {hint})" if hint else ""))


def _check_config(r: Report) -> Config:
    from lazy_harness import private

    path = paths.config_file()
    unsafe = private.config_problem()
    if unsafe:  # why: a file another user could write is never read, and no path in it is ever run
        r.line("fail", "config", f"{unsafe}: not read; the checks below use the defaults", private.fix(path, unsafe))
        return config.defaults()
    problem = None
    try:
        values, errors, warnings = config.parse_file(path)
    except ConfigError as exc:
        values, errors, warnings = config.defaults(), [exc.message], []
    if errors:
        problem = errors[0]
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        r.line("fail", "config", errors[0] + more, "lh config validate")
    elif warnings:
        word = "warning" if len(warnings) == 1 else "warnings"
        r.line("warn", "config", f"{len(warnings)} {word}: {warnings[0]}", "lh config validate")
    elif not os.path.exists(path):
        r.line("ok", "config", f"no file at {path}: defaults apply")
    else:
        r.line("ok", "config", f"{path} is valid")
    if problem:  # the policy of ADR 0016: an invalid file pauses distillation
        r.line("fail", "compound loop", "paused: config.toml is invalid; no session is queued or distilled "
               "until it is fixed (sessions are watched, the sweep queues them afterwards)", "lh config validate")
    elif values["compound_loop"]["enabled"]:
        r.line("ok", "compound loop", "enabled")
    else:
        _loop_off(r)
    return values


def _loop_off(r: Report) -> None:
    """The compound loop is off: the way to switch it on depends on how the hooks are installed."""
    from lazy_harness import plugin

    hint, not_yet = plugin.loop_off_hint(os.getcwd())
    if not_yet:
        r.line("info", "compound loop", f"not switched on yet: {hint}")
    else:
        r.line("warn", "compound loop", "disabled: finished sessions are not distilled", hint)


def _check_distiller(r: Report, values: Config, codex_holds: bool) -> None:
    """The CLI the worker's model calls go through (``[worker] distiller``, ADR 0044), and claude: a
    missing claude is a failure only when it distils, or when Codex's hooks.json holds none of ours
    (Claude Code is then what lazy-harness serves here)."""
    from lazy_harness.worker import codex_distill

    used = codex_distill.chosen(values)
    _check_claude(r, values, needed=used == "claude" or not codex_holds)
    if used == "codex":
        _check_codex(r, values)


def _check_claude(r: Report, values: Config, needed: bool = True) -> None:
    wanted = values["compound_loop"]["claude_path"] or "claude"
    exe = _executable(wanted)
    hint = "npm install -g @anthropic-ai/claude-code, or set compound_loop.claude_path"
    if exe is None:
        where = "on PATH" if os.sep not in wanted else "or not executable"
        if needed:
            r.line("fail", "claude", f"{wanted} not found {where}", hint)
        else:
            r.line("info", "claude", f"{wanted} not found {where}: not needed here (Codex's hooks hold ours and "
                   "codex distils sessions)")
        return
    version = _version(r, "claude", exe, hint)
    if version is not None:
        r.line("ok", "claude", f"{exe}: {version}")
        _check_claude_version(r, version, shlex.quote(exe))


def _check_codex(r: Report, values: Config) -> None:
    """codex, when it is the distiller: found, and what ``codex --version`` says."""
    from lazy_harness.worker import codex_distill

    wanted = codex_distill.codex_path(values)
    role = f"it distils sessions (worker.distiller = {values['worker']['distiller'] or 'auto'})"
    hint = "npm install -g @openai/codex, or set worker.codex_path"
    exe = _executable(wanted)
    if exe is None:
        where = "on PATH" if os.sep not in wanted else "or not executable"
        r.line("fail", "codex", f"{wanted} not found {where}; {role}", hint)
        return
    version = _version(r, "codex", exe, hint)
    if version is None:
        return
    problem, fix = _codex_config_problem(exe)
    if problem:
        r.line("fail", "codex", f"{problem}; {role}, and each distill call stops at that error", fix)
    else:
        r.line("ok", "codex", f"{exe}: {version}; {role}")


def _codex_config_problem(exe: str) -> tuple[str | None, str | None]:
    """(what keeps codex from loading its configuration, the hint), or (None, None). Codex is asked
    first, as ``lh hooks install --agent codex`` asks it (its words name the file and line, for TOML
    that does not parse and for a value it refuses); when it cannot be asked, config.toml is read
    here, which still finds a file that is not TOML."""
    from lazy_harness import codex_trust
    from lazy_harness.worker import codex_distill

    try:
        found = codex_trust.config_error(exe, paths.neutral_dir(), timeout=VERSION_TIMEOUT)
    except codex_trust.TrustError:
        bad = codex_distill.toml_error()
        return (bad, f"fix {codex_distill.config_file()}, then lh doctor") if bad else (None, None)
    return (found.message, "fix it where Codex says, then lh doctor") if found else (None, None)


def _executable(wanted: str) -> str | None:
    """``wanted`` (a name looked up on PATH, or a path) as an executable file, or None."""
    exe = os.path.expanduser(wanted) if os.sep in wanted else shutil.which(wanted)
    if not exe or not os.access(exe, os.X_OK) or os.path.isdir(exe):
        return None
    return exe


def _version(r: Report, check: str, exe: str, hint: str) -> str | None:
    """The first line ``exe --version`` prints, or None after a fail line saying why there is none."""
    from lazy_harness import proc

    try:
        res = proc.run([exe, "--version"], timeout=VERSION_TIMEOUT)
    except proc.ProcError as exc:
        r.line("fail", check, exc.message, hint)
        return None
    if not res.ok:
        r.line("fail", check, res.describe().replace("\n", " | "), f"{shlex.quote(exe)} --version")
        return None
    return (res.stdout.strip().splitlines() or ["?"])[0]


def _parse_version(text: str) -> tuple[int, ...] | None:
    m = _VERSION.search(text)
    return tuple(int(n) for n in m.groups()) if m else None


def _check_claude_version(r: Report, version: str, exe: str) -> None:
    """Warn outside the versions the e2e suite runs: the transcript format and hooks change between them.
    A patch release above the newest tested is information only: Claude Code ships one every few days."""
    tested = f"tested {CLAUDE_OLDEST_TESTED} to {CLAUDE_NEWEST_TESTED}"
    found = _parse_version(version)
    # why: `or ()` only for the type checker: our own two constants always parse
    oldest, newest = _parse_version(CLAUDE_OLDEST_TESTED) or (), _parse_version(CLAUDE_NEWEST_TESTED) or ()
    if found is None:
        r.line("warn", "claude version", f"cannot read a version in {version!r} ({tested})", f"{exe} --version")
    elif found < oldest:
        r.line("warn", "claude version", f"{'.'.join(map(str, found))} is older than the oldest tested "
               f"({tested})", "npm install -g @anthropic-ai/claude-code")
    elif found > newest and found[:2] == newest[:2]:
        r.line("info", "claude version", f"{'.'.join(map(str, found))} is newer than tested ({tested}): a "
               "patch release; lh logs shows a session's distillation if memory looks thin")
    elif found > newest:
        r.line("warn", "claude version", f"{'.'.join(map(str, found))} is newer than the newest tested "
               f"({tested}): its transcripts may have changed; distilled memory may miss turns",
               "check lh logs after a session")
    else:
        r.line("ok", "claude version", f"{'.'.join(map(str, found))} ({tested})")


def _check_plugin(r: Report, notes: list[tuple[str, str, str]]) -> tuple[list[Install], bool]:
    """The lazy-harness plugin as Claude Code recorded it for a session started here: its installs
    (none when the record cannot be read), and whether the enabled one's hooks cannot run (the folder
    Claude Code runs them from, or its hooks.json, is missing). ``notes``: ``not_here_notes``, said by
    the caller."""
    from lazy_harness import plugin
    from lazy_harness.errors import SettingsError

    try:
        found = plugin.installs(os.getcwd())
    except SettingsError as exc:
        r.line("warn", "plugin", exc.message, "claude plugin list")
        return [], False
    if not found:
        if not any(check == "plugin" for check, _, _ in notes):
            r.line("ok", "plugin", "not installed (hooks come from settings.json)")
        return [], False
    active = next((i for i in found if i.enabled), None)
    for install in found:
        if not install.enabled:
            r.line("ok", "plugin", f"{install.describe()}: its hooks do not run",
                   None if active else f"claude plugin enable {install.plugin_id}")
    if active is None:
        return found, False
    try:
        runs = plugin.runs_from(active)
    except SettingsError as exc:
        r.line("warn", "plugin", exc.message, "claude plugin list")
        return found, False
    return found, not _check_plugin_runs(r, active, runs)


def _check_plugin_runs(r: Report, active: Install, runs: Runs) -> bool:
    """The enabled install's line, from the folder Claude Code runs its hooks from (``runs``, a
    ``plugin.Runs``: a clone read in place, or the cached copy). False when its hooks cannot run."""
    from lazy_harness import plugin

    where = f" (read in place from {runs.folder})" if runs.clone else ""
    if runs.problem or not os.path.isfile(runs.hooks_file):
        what = runs.problem or f"{runs.hooks_file} is missing"
        if runs.clone:
            r.line("fail", "plugin", f"{active.describe()}: Claude Code reads it in place from the clone "
                   f"{runs.clone}, and {what}: none of its hooks run (sessions are not remembered)",
                   plugin.relink_hint(active, runs))
        else:
            r.line("fail", "plugin", f"{active.describe()}: {what}", f"claude plugin install {active.plugin_id}")
        return False
    if not shutil.which(settings.SCRIPT):
        r.line("fail", "plugin", f"{active.describe()}: {settings.SCRIPT} is not on PATH, so its hooks do "
               "nothing (sessions are not remembered)", plugin.INSTALL_LH)
    elif not _runnable(settings.SCRIPT):
        r.line("fail", "plugin", f"{active.describe()}: {shutil.which(settings.SCRIPT)} names an interpreter "
               "that is gone, so its hooks fail (sessions are not remembered)", plugin.INSTALL_LH)
    elif not plugin.current_hooks(runs) and runs.clone:
        r.line("warn", "plugin", f"{active.describe()}: {runs.hooks_file} is not the hooks of this lh "
               f"({__version__}); Claude Code runs it as it is, from the clone", plugin.update_hint(active, runs))
    elif not plugin.current_hooks(runs):
        r.line("warn", "plugin", f"{active.describe()}: its hooks.json is not the hooks of this lh ({__version__}); "
               "Claude Code runs that copy until it is updated", plugin.update_hint(active, runs))
    else:
        r.line("ok", "plugin", f"{active.describe()}{where}: its hooks run {shutil.which(settings.SCRIPT)}")
    return True


def _check_hooks(r: Report, codex_holds: bool = False) -> str | None:
    """Who registers our hooks for Claude Code: the plugin, settings files, or nobody (a failure only
    when Codex's hooks.json holds none of ours either). Returns the plugin's id when the plugin is
    what registers them (enabled, or disabled with no settings file holding ours), else None."""
    files = settings_files()
    holding = [f for f in files if f.ours]
    for f in files:
        if f.disables_all:
            r.line("fail", "hooks", f"{f.path} sets \"disableAllHooks\": true: Claude Code runs no hook, ours "
                   "neither (no session is remembered or read back)", f"remove disableAllHooks from {f.path}")
    notes = not_here_notes()
    found, broken = _check_plugin(r, notes)
    active = next((i for i in found if i.enabled), None)
    for check, what, folder in notes:
        # why: without hooks that apply here, the hooks line below says it (a fail), once
        if check == "plugin" or active is not None or holding:
            r.line("warn", check, what, f"start claude in {folder}")
    if active is not None and broken and not holding:
        r.line("fail", "hooks", f"none run: the plugin {active.plugin_id} is enabled, but Claude Code cannot "
               "load its hooks (see the plugin line), and no settings file holds lazy-harness hooks")
        return active.plugin_id
    if active is not None and holding and not broken:
        _check_twice(r, active.plugin_id, holding)
    elif active is not None and not holding:
        r.line("ok", "hooks", f"registered by the plugin {active.plugin_id}")
        return active.plugin_id
    for f in files:
        if f.state == "invalid" and holding:
            r.line("warn", "settings file", f"{f.path}: {f.error}", f.fix or f"fix the JSON in {f.path}")
        for where in f.null_matchers:
            r.line("warn", "settings file", f"{f.path}: {where} has a null matcher; Claude Code may ignore "
                   "this file", f"set the matcher to \"\" in {f.path}")
    if holding:
        _check_settings_hooks(r, holding)
        return None
    return _no_settings_hooks(r, [f for f in files if f.state == "invalid"], found, codex_holds, notes)


def _check_twice(r: Report, plugin_id: str, holding: list) -> None:
    """The enabled plugin and settings files both hold our hooks. The plugin's runs step aside only for
    a file Claude Code runs hooks from (no null matcher, no ``disableAllHooks``) with a command that can
    start (hooks/entry.py: ``settings_register``); for the others they do the work themselves."""
    live = [f for f in holding if not f.disables_all and not f.null_matchers and any(
        (argv := _split(o.command)) and _runnable(argv[0]) and not _package_gone(argv) for o in f.ours)]
    if live:
        where = ", ".join(f"{f.label} ({f.path})" for f in live)
        r.line("warn", "hooks twice", f"the plugin {plugin_id} and {where} both register lazy-harness "
               "hooks: the plugin's runs step aside for the settings' (an older lh on the plugin's PATH would "
               "run every event twice)",
               f"keep one: lh hooks uninstall, or claude plugin disable {plugin_id}")
    removers = {"user": "lh hooks uninstall", "project": "lh hooks uninstall --project"}
    for f in holding:
        if f in live:
            continue
        why = ("sets \"disableAllHooks\": true" if f.disables_all else "has a null matcher" if f.null_matchers
               else "its commands cannot start")
        r.line("warn", "hooks twice", f"{f.label} ({f.path}) holds lazy-harness hooks that Claude Code will not "
               f"run ({why}): the plugin {plugin_id}'s runs do not step aside for them and do the work",
               "remove them: " + removers.get(f.label, f"lh hooks uninstall --settings {shlex.quote(f.path)}"))


def _no_settings_hooks(r: Report, unreadable: list, found: list[Install], codex_holds: bool,
                       notes: list[tuple[str, str, str]]) -> str | None:
    """No settings file holds our hooks and no enabled plugin registers them: a file that does not
    parse, a disabled plugin (paused), hooks registered for another folder of the repository (not
    run by a session started here), Codex's hooks.json alone, or nothing at all."""
    bad = "warn" if codex_holds else "fail"
    if unreadable:
        # why: "install the hooks" is the wrong advice when they may be in a file that does not parse
        for f in unreadable:
            r.line(bad, "hooks", f"cannot read {f.path}: {f.error}", f.fix or f"fix the JSON in {f.path}")
        return None
    if found:
        plugin_id = found[0].plugin_id
        r.line("info" if codex_holds else "fail", "hooks", f"paused: the plugin {plugin_id} is disabled and no "
               "settings file holds lazy-harness hooks, so no session is remembered",
               f"claude plugin enable {plugin_id}")
        return plugin_id
    for check, what, folder in notes:
        if check == "plugin":
            what = (f"the lazy-harness plugin is installed for {folder} only, and Claude Code runs its hooks "
                    f"only in sessions started there")
        r.line(bad, "hooks", f"{what}; no settings file read here holds lazy-harness hooks either, so no "
               f"session started in {os.getcwd()} is remembered", f"start claude in {folder}")
    if notes:
        return None
    if codex_holds:
        r.line("info", "hooks", "no Claude Code settings file holds lazy-harness hooks; Codex's hooks.json does "
               "(lh hooks install adds them for Claude Code)")
        return None
    from lazy_harness import codex_trust

    also = ", or lh hooks install --agent codex" if codex_trust.find_codex() is not None else ""
    r.line("fail", "hooks", "no settings file holds lazy-harness hooks", "lh hooks install" + also)
    return None


def _check_settings_hooks(r: Report, holding: list) -> None:
    """Each settings file holding our hooks: every event there, each command runnable; and more than one."""
    for f in holding:
        events = [o.event for o in f.ours]
        missing = [e for e in settings.EVENTS if e not in events]
        gone = sorted({argv[0] for o in f.ours if (argv := _split(o.command)) and not _runnable(argv[0])})
        moved = sorted({parent for o in f.ours if (parent := _package_gone(_split(o.command)))})
        detail = f"{f.path}: {', '.join(events)}"
        if moved and not gone:
            r.line("fail", "hooks", f"{detail}: the commands load lazy_harness from {', '.join(moved)}, which "
                   "holds it no more (an install moved or removed): every hook fails",
                   "lh hooks install" + (" --project" if f.label == "project" else ""))
        elif gone:
            hint = "lh hooks install" + (" --project" if f.label == "project" else "")
            if any(os.sep not in g for g in gone):
                hint = f"put {', '.join(gone)} on PATH: pipx install . or uv tool install . (docs/how/hooks.md)"
            r.line("fail", "hooks", f"{detail}: command {', '.join(gone)} not found", hint)
        elif missing:
            r.line("warn", "hooks", f"{detail} (missing {', '.join(missing)})", "lh hooks install")
        elif narrow := [o for o in f.ours if o.narrow is not None]:
            where = "; ".join(f"{o.event} sits in a group with \"matcher\": {o.narrow}" for o in narrow)
            r.line("warn", "hooks", f"{detail}: {where}, so it runs only when that matches (a SessionStart not "
                   "at every resume, /clear and compaction; a SessionEnd not at every end)",
                   "lh hooks install" + (" --project" if f.label == "project" else "")
                   + " (moves it into a group that matches everything)")
        elif other := settings.other_install([o.command for o in f.ours]):
            r.line("warn", "hooks", f"{detail}: the commands load lazy_harness from {', '.join(other)}, another "
                   "install than this lh's: that version runs the hooks, this one the commands and the worker",
                   "lh hooks install" + (" --project" if f.label == "project" else "") + " (with this lh)")
        elif any(_older_form(o.command) for o in f.ours):
            r.line("warn", "hooks", f"{detail}: written by an older version, whose Python reads the person's "
                   "PYTHONHOME and PYTHONPATH (another Python's PYTHONHOME stops every hook)",
                   "lh hooks install" + (" --project" if f.label == "project" else ""))
        else:
            r.line("ok", "hooks", detail)
    if len(holding) > 1:
        where = ", ".join(f"{f.label} ({f.path})" for f in holding)
        removers = {"user": "lh hooks uninstall", "project": "lh hooks uninstall --project"}
        keep_one = " or ".join(removers.get(f.label, f"lh hooks uninstall --settings {shlex.quote(f.path)}")
                               for f in holding)
        r.line("warn", "hooks twice", f"registered in {where}: Claude Code runs every file's hooks, so each "
               "event runs more than once (memory read back twice, sessions queued twice)", f"keep one: {keep_one}")


def _check_bundle(r: Report, plugin_id: str | None) -> None:
    """The hooks' bundle (cli/hooks.py's bundle_line). With the plugin registering the hooks no line says
    ``lh hooks install`` (a plugin user never runs it): the worker writes the bundle at each run, so a
    missing one is an ``info`` line, also after the plugin's first session start (no worker may have run
    yet); one that is there and behind the modules warns."""
    from lazy_harness import hotload
    from lazy_harness.cli.hooks import bundle_line

    status, check, detail, hint = bundle_line()
    where = hotload.bundle_file()
    if plugin_id is None or status == "ok" or hotload.problem(where):
        r.line(status, check, detail, hint)
    elif not os.path.exists(where):
        r.line("info", check, f"{where} not written yet: the first session's worker writes it (the plugin "
               f"{plugin_id} registers the hooks)")
    else:
        r.line(status, check, detail, "the next session's worker writes it again")


def _runnable(program: str) -> bool:
    """An executable program (absolute, or a bare name such as lh-hook found on PATH here) whose
    interpreter (its ``#!`` line) exists too: a deleted or upgraded virtualenv leaves its scripts. The
    rule the plugin's hook run applies (hooks/entry.py ``_gone``), which the CLI may not import."""
    found = shutil.which(program) if os.sep not in program else program
    if found is None or not os.access(found, os.X_OK):
        return False
    try:
        with open(found, "rb") as fh:
            first = fh.readline(4096)
    except OSError:
        return False
    if not first.startswith(b"#!"):
        return True
    interpreter = first[2:].decode("utf-8", "replace").split()
    return not interpreter or not os.path.isabs(interpreter[0]) or os.access(interpreter[0], os.X_OK)


def _package_gone(argv: list[str]) -> str | None:
    """:func:`lazy_harness.settings.package_folder` when it holds no lazy_harness any more, else None."""
    parent = settings.package_folder(argv)
    return None if parent is None or os.path.isfile(os.path.join(parent, "lazy_harness", "hooks", "launch.py")) \
        else parent


def _older_form(command: str) -> bool:
    """Whether ``command`` is our launcher as an older version wrote it: Python not isolated (no ``-I``),
    or the launcher's ``try`` without ``settings.GONE``. ``lh-hook`` (the portable form) is not."""
    argv = _split(command)
    if "-c" not in argv:
        return False
    at = argv.index("-c")
    return "-I" not in argv[1:at] or at + 1 >= len(argv) or settings.GONE not in argv[at + 1]


_split = settings.split_command


def _check_writable(r: Report, check: str, folder: str) -> None:
    probe = folder
    while not os.path.exists(probe):
        probe = os.path.dirname(probe)
    if not os.path.isdir(probe):
        r.line("fail", check, f"{folder}: {probe} is not a folder", f"move {probe} aside")
    elif not os.access(probe, os.W_OK | os.X_OK):
        r.line("fail", check, f"{folder}: {probe} is not writable", f"chmod u+rwx {probe}")
    elif probe != folder:
        r.line("ok", check, f"{folder} (created on first use)")
    else:
        r.line("ok", check, f"{folder} is writable")


def _check_memory(r: Report, values: Config) -> None:
    """Where memory goes, and old files still in Claude Code's folder for the project here."""
    from lazy_harness.memory import migrate

    _check_writable(r, "memory folder", paths.memory_root(values["memory"]["path"] or None))
    _check_writable(r, "learnings folder", paths.learnings_dir(values["knowledge"]["path"] or None))
    root = project_root(os.getcwd())
    waiting = migrate.pending(paths.project_key(root), root, None,
                              paths.project_memory_dir(root, None, values["memory"]["path"] or None))
    if waiting:
        r.line("warn", "old memory", f"{len(waiting)} file(s) of this project still in Claude Code's folder "
               f"{os.path.dirname(waiting[0])}; moved at the next session start", "lh memory show")
    refused = project_identity.refused(os.getcwd())
    if refused:
        uids: set[int] = set()
        for stat_of, path in ((os.lstat, os.path.join(refused, ".git")), (os.stat, os.path.join(refused, ".git")),
                              (os.stat, refused)):
            with contextlib.suppress(OSError):
                uids.add(stat_of(path).st_uid)
        whose = ", ".join(map(str, sorted(uids - {os.geteuid(), 0}))) or "?"
        r.line("info", "project", f"{refused} is another user's repository (uid {whose}), which git refuses "
               "too: this folder's memory is keyed by its path, not by its remote")


def _check_index(r: Report) -> None:
    """The recall index, opened read-only: a file that fails to read in any way is reported (the next
    search or prompt builds it again; ``lh memory reindex`` does it now)."""
    from lazy_harness.recall.index import store as index

    path = paths.recall_index_file()
    if not os.path.exists(path):
        r.line("ok", "recall index",
               f"not built yet ({path}; the worker builds it at the next session start, or lh memory reindex)")
        return
    sqlite3 = index.sqlite()
    conn = None
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=2.0)
        row = conn.execute("SELECT v FROM meta WHERE k='version'").fetchone()
        ok = conn.execute("PRAGMA quick_check(1)").fetchone()[0]
        if ok != "ok":
            raise sqlite3.DatabaseError(f"quick_check: {ok}")
    except Exception as exc:  # why: a damaged file fails in several types (see index.damaged)
        said = " ".join(f"{type(exc).__name__}: {exc}".split())[:160]
        if index.damaged(exc):
            r.line("warn", "recall index", f"damaged ({said}): {path}; the next search builds it again",
                   "lh memory reindex")
        else:
            r.line("warn", "recall index", f"could not be read ({said}): {path}", "lh memory reindex")
        return
    finally:
        if conn is not None:
            conn.close()
    if row is None or row[0] != index.VERSION:
        r.line("ok", "recall index", f"{path} is from another version; the next search builds it again")
    else:
        r.line("ok", "recall index", f"{path} reads")


def _check_private_folders(r: Report) -> None:
    """Each folder of ours another user could write (ADR 0031): which, why, what to run. Until it is
    fixed the hooks skip (and the answerer's folder, strict, is not used for it)."""
    from lazy_harness import private

    for what, path, why in private.unsafe():
        effect = "the answerer is not used" if what == "recall" and not private.problem(path) else "hooks skip"
        r.line("fail", what if what.endswith(" file") else f"{what} folder", f"{why}; {effect} until it is fixed",
               private.fix(path, why))
    # why not a folder the hooks refuse: it is Claude Code's, and whoever can write it already decides
    # which hooks Claude Code runs (settings.json); the person is told, as ADR 0031 says
    claude = paths.claude_dir()
    said = _claude_folder_problem(claude)
    if said:
        r.line("fail", "claude folder", f"{said}; whoever can write it can change the hooks Claude Code runs as you",
               private.fix(claude, said))


def _claude_folder_problem(claude: str) -> str | None:
    """Why another user could write the Claude folder, or None: a link of the person's (dotfiles, stow)
    is judged by the folder it leads to; a group of one (umask 002) is none (``private.group_of_one``)."""
    from lazy_harness import private

    try:
        st = os.lstat(claude)
    except OSError:
        return None
    if stat.S_ISLNK(st.st_mode):
        if st.st_uid != os.geteuid():
            return f"{claude} is a symbolic link of uid {st.st_uid}, not yours (uid {os.geteuid()})"
        claude = os.path.realpath(claude)
    said = private.problem(claude)
    return None if said is None or private.group_of_one(claude, said) else said


def _check_resident(r: Report, values: Config) -> None:
    """The resident answerer of prompt recall (ADR 0029): running or not, its pid and resident set."""
    from lazy_harness.recall.resident import client as resident

    pid = resident.pid()
    minutes = values["recall"]["resident_minutes"]
    if pid is None and resident.folder_problem() is None and resident.running():
        r.line("warn", "recall answerer", f"its lock is held, but {resident.folder()}/{resident.PID_NAME} names no "
               "answerer of yours: nothing is signalled", f"fuser -v {resident.folder()}/{resident.LOCK_NAME}")
        return
    if pid is None:
        when = (f"started by the prompt hook for a memory of {resident.SERVE_FROM:,} entries or more"
                if float(minutes) > 0 else "off (recall.resident_minutes = 0)")
        r.line("ok", "recall answerer", f"not running ({when})")
        return
    kb = resident.resident_kb(pid)
    size = f", {kb / 1024:.0f} MB resident" if kb is not None else ""
    r.line("ok", "recall answerer", f"running: pid {pid}{size}; leaves after {minutes:g} idle minutes "
           "(recall.resident_minutes); lh hooks uninstall stops it")


def _check_memory_lines(r: Report, values: Config) -> None:
    """Damaged lines in every project's memory files, counted, the first few named by file and line."""
    from lazy_harness.memory import damage

    mdirs = paths.all_memory_dirs(None, values["memory"]["path"] or None)
    checks = damage.check_folders(mdirs)
    for c in checks:
        if c.unreadable:  # why: a folder or a dangling link in a memory file's place hides what it held
            r.line("warn", "memory files", c.summary(), "move it aside; lh memory check --all-projects")
    skipped = [f"{c.path}:{n} ({how.split(': ', 1)[1]})" for c in checks for n, how in c.skipped]
    salvaged = [f"{c.path}:{n} ({how.split(': ', 1)[1]})" for c in checks for n, how in c.salvaged]
    if skipped:
        more = f" and {len(skipped) - 3} more" if len(skipped) > 3 else ""
        r.line("warn", "memory lines", f"{len(skipped)} line(s) skipped: {', '.join(skipped[:3])}{more}"
               + (f"; {len(salvaged)} salvaged" if salvaged else ""), "lh memory check --all-projects")
    elif salvaged:
        # why named: a salvaged aliases.jsonl line may have lost what it said beside its key
        more = f" and {len(salvaged) - 3} more" if len(salvaged) > 3 else ""
        r.line("warn", "memory lines", f"{len(salvaged)} damaged line(s) salvaged (some bytes lost): "
               f"{', '.join(salvaged[:3])}{more}", "lh memory check --all-projects")
    else:
        r.line("ok", "memory lines", f"no damaged line in {len(checks)} file(s) of {len(mdirs)} project(s)")


def _check_learning_files(r: Report, values: Config) -> None:
    """Damaged learning files (not UTF-8 text, frontmatter not closed or no mapping, a title or date that
    cannot be read), each named on its own line: readers skip or misread them without a word."""
    from lazy_harness.memory import damage

    bad = damage.unclosed_learnings(paths.learnings_dir(values["knowledge"]["path"] or None))
    if not bad:
        return
    r.line("warn", "learning files", f"{len(bad)} damaged learning file(s): readers skip or misread them",
           "fix or remove them by hand (lh memory check --all-projects lists them)")
    for line in bad:
        r.line("warn", "learning files", line)


def _check_ledger_lines(r: Report) -> None:
    """Damaged lines of the cost ledger: a count, then each named by file and line."""
    from lazy_harness.cli.cost import skipped_lines

    lines = skipped_lines()
    if not lines:
        r.line("ok", "ledger lines", f"no damaged line in {paths.ledger_file()}")
        return
    r.line("warn", "ledger lines", f"{len(lines)} damaged line(s) skipped: their spend is not counted",
           "fix or remove them by hand (lh cost lists them)")
    for line in lines:
        r.line("warn", "ledger lines", line)


def _check_queue(r: Report, now: float) -> None:
    q = paths.queue_dir()
    names = pending_tasks()
    oldest = None
    for name in names[:1]:
        try:
            oldest = now - int(name.split("-", 1)[0]) / 1e9
        except ValueError:
            pass
    if oldest is not None and oldest > STALE_SECONDS:
        r.line("warn", "queue", f"{len(names)} pending, the oldest {int(oldest // 60)} min old: no worker is "
               "draining it", "lh worker run --once")
    else:
        r.line("ok", "queue", f"{len(names)} pending")
    claimed = _check_claims(r, q)
    failed = failed_tasks()
    if failed:
        word = "task" if len(failed) == 1 else "tasks"
        r.line("warn", "failed tasks", f"{len(failed)} {word} in {os.path.join(q, queue.FAILED)}",
               "lh queue, then lh queue retry --failed")
    else:
        r.line("ok", "failed tasks", "none")
    _check_worker(r, q, bool(names), claimed)


def _check_worker(r: Report, q: str, queued: bool, claimed: int) -> None:
    """The ``worker:`` line lh status and lh hooks status print (cli/hooks.py ``worker_report``), with
    a warning when the worker needs a hand."""
    # why q: a worker draining the queue now, or lingering to retry, has no worker.json yet
    report = worker_report(worker_state(), q)
    if report.kind == "unreadable":
        r.line("warn", "worker", report.line, "lh worker run --once (it writes the file again)")
    elif report.kind == "died":
        r.line("warn", "worker", report.line, "lh worker run --once")
    elif report.kind == "never" and queued:
        r.line("warn", "worker", f"{report.line}, but tasks are waiting", "lh worker run --once")
    elif report.kind == "never":
        # why: a claim with no worker's run finished yet: the processing line above says more
        r.line("ok", "worker", report.line + ("" if claimed else " (nothing queued yet)"))
    else:
        r.line("ok", "worker", f"{report.line}; last successful distillation: {report.success}")


def _check_claims(r: Report, q: str) -> int:
    """The tasks in processing/: being distilled by a worker that holds the lock, or interrupted (the
    worker that claimed them was killed, and none runs to return them to the queue). Returns how many."""
    from lazy_harness.cli.queue import INTERRUPTED, dead_claims, task_names

    claims = task_names(q, queue.PROCESSING)
    dead = len(dead_claims(q).intersection(claims))
    if dead:
        r.line("warn", "processing", f"{dead} task{'s' if dead > 1 else ''} {INTERRUPTED}", "lh worker run --once")
    elif claims:
        r.line("ok", "processing", f"{len(claims)} task{'s' if len(claims) > 1 else ''} being distilled now")
    else:
        r.line("ok", "processing", "nothing being distilled")
    return len(claims)


def _check_sync(r: Report, values: Config) -> None:
    from lazy_harness import sync

    remote = sync.configured_remote(values)
    if not remote:
        r.line("ok", "sync", "off (no [sync] remote; memory stays on this machine)")
        return
    from lazy_harness.sync import repo

    try:
        repo.need_merge_tree("", os.environ)
    except repo.SyncError as exc:
        r.line("warn", "sync", f"{remote}: {exc.message}", exc.hint)
        return
    refused = repo.gitdir_refusal(paths.data_dir(os.environ))
    if refused:  # why before status: it runs git in that repository
        r.line("fail", "sync", refused.message, refused.hint)
        return
    st = sync.status(values)
    if st["last_error"]:
        r.line("warn", "sync", f"{remote}: {st['last_error']}", "lh sync --status")
    else:
        r.line("ok", "sync", f"{remote}: last sync {st['last_sync'] or 'never'}")


@click.command()
@click.pass_context
def doctor(ctx: click.Context) -> None:
    """Check the installation, one line per check; exit 1 when any check fails."""
    r = Report()
    v = sys.version_info
    r.line("ok" if v >= (3, 11) else "fail", "python", f"{sys.version.split()[0]} ({sys.executable})",
           None if v >= (3, 11) else "install Python 3.11 or newer")
    values = _check_config(r)
    from lazy_harness.cli import hooks_codex

    codex_holds = bool(hooks_codex.inspect(ask=False).ours)  # why: Codex alone needs neither claude nor settings.json
    _check_distiller(r, values, codex_holds)
    _check_bundle(r, _check_hooks(r, codex_holds))
    for row in hooks_codex.doctor_lines():
        r.line(*row)
    _check_writable(r, "queue folder", paths.queue_dir())
    _check_writable(r, "log folder", paths.logs_dir())
    _check_memory(r, values)
    _check_memory_lines(r, values)
    _check_learning_files(r, values)
    _check_ledger_lines(r)
    _check_index(r)
    _check_private_folders(r)
    _check_resident(r, values)
    _check_queue(r, time.time())
    _check_sync(r, values)
    from lazy_harness.cli.cost import spend_lines  # spend today and a paused or failing loop

    for row in spend_lines(values):
        r.line(*row)
    if r.failed:
        ctx.exit(1)
