"""``lh doctor``'s checks of who runs our hooks for Claude Code: the plugin (its installs, the folder
Claude Code runs its hooks from), the settings files that hold ours (every event, each command able to
start, one file only), and the hooks' bundle."""

from __future__ import annotations

import json
import os
import shlex
import shutil

from lazy_harness import __version__, hook_command, settings
from lazy_harness.cli.doctor_report import Report
from lazy_harness.cli.hooks_found import managed_policy, managed_policy_says, not_here_notes, settings_files
from lazy_harness.regular_file import read_regular

TYPE_CHECKING = False
if TYPE_CHECKING:
    from lazy_harness.cli.hooks_found import SettingsFile
    from lazy_harness.plugin import Install, Runs


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


def check_hooks(r: Report, codex_holds: bool = False) -> str | None:
    """Who registers our hooks for Claude Code: the plugin, settings files, or nobody (a failure only
    when Codex's hooks.json holds none of ours either). Returns the plugin's id when the plugin is
    what registers them (enabled, or disabled with no settings file holding ours), else None."""
    if policy := managed_policy():
        # why first and alone: whatever the files and the plugin hold, none of it runs
        r.line("fail", "hooks", managed_policy_says(policy, "runs none of the hooks of settings files"),
               "ask whoever manages Claude Code on this machine")
        return None
    files = settings_files()
    holding = [f for f in files if f.ours]
    off = [f for f in files if f.disables_all]
    for f in off:
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
            r.line("warn", "settings file", f"{f.path}: {where} has a null matcher: Claude Code ignores this "
                   "whole file", f"set the matcher to \"\" in {f.path}")
    if holding:
        _check_settings_hooks(r, holding, plugin_works=active is not None and not broken)
        return None
    return _no_settings_hooks(r, [f for f in files if f.state == "invalid"], found, codex_holds, notes)


def _check_twice(r: Report, plugin_id: str, holding: list) -> None:
    """The enabled plugin and settings files both hold our hooks. The plugin's runs step aside only for
    a file Claude Code runs hooks from (no null matcher, no ``disableAllHooks``) with a command that can
    start (hooks/entry.py: ``settings_register``); for the others they do the work themselves."""
    live = [f for f in holding if not f.disables_all and not f.null_matchers and any(
        settings.program_file(o.command) and not _start_problem(o.command) and not _package_gone(_split(o.command))
        for o in f.ours)]
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
    from lazy_harness import codex_trust_server

    also = ", or lh hooks install --agent codex" if codex_trust_server.find_codex() is not None else ""
    r.line("fail", "hooks", "no settings file holds lazy-harness hooks", "lh hooks install" + also)
    return None


def _check_settings_hooks(r: Report, holding: list, plugin_works: bool = False) -> None:
    """Each settings file holding our hooks: every event there, each command runnable; and more than one.
    A file with a null matcher is discarded by Claude Code whole: its hooks fail, or warn while the
    plugin's runs do the work (``_check_twice`` says so)."""
    for f in holding:
        events = [o.event for o in f.ours]
        missing = [e for e in settings.EVENTS if e not in events]
        gone = sorted({why for o in f.ours if (why := _start_problem(o.command))})
        moved = sorted({parent for o in f.ours if (parent := _package_gone(_split(o.command)))})
        detail = f"{f.path}: {', '.join(events)}"
        if f.disables_all:
            continue  # why: its fail line above speaks for its hooks; an "ok" here would contradict it
        if f.null_matchers:
            r.line("warn" if plugin_works else "fail", "hooks", f"{detail}: Claude Code ignores this whole file for "
                   f"the null \"matcher\" at {', '.join(f.null_matchers)}, so none of these hooks run",
                   f"set that matcher to \"\" in {f.path} (lh leaves the group as it is)")
        elif moved and not gone:
            r.line("fail", "hooks", f"{detail}: the commands load lazy_harness from {', '.join(moved)}, which "
                   "holds it no more (an install moved or removed): every hook exits at once and does nothing "
                   "(no session is remembered)",
                   "lh hooks install" + (" --project" if f.label == "project" else ""))
        elif gone:
            hint = "lh hooks install" + (" --project" if f.label == "project" else "")
            if bare := sorted({p for o in f.ours if (p := settings.program_file(o.command)) and os.sep not in p}):
                hint = f"put {', '.join(bare)} on PATH: pipx install . or uv tool install . (docs/how/hooks.md)"
            r.line("fail", "hooks", f"{detail}: command {'; command '.join(gone)}", hint)
        elif said := _settings_warning(f, detail, missing):
            r.line("warn", "hooks", *said)
        else:
            r.line("ok", "hooks", detail)
    _check_many(r, holding)


def _settings_warning(f: SettingsFile, detail: str, missing: list[str]) -> tuple[str, str] | None:
    """What is wrong with a settings file ``f`` whose commands of ours can start, as (line, hint), the
    first of: an event running another's hook, ``async`` on one that reads back, an event run twice, a
    missing event, a narrow matcher, another install's commands, an older form; None when nothing."""
    reinstall = "lh hooks install" + (" --project" if f.label == "project" else "")
    if said := crossed(f.ours):
        return f"{f.path}: {said}", reinstall + " (writes each event's own command)"
    if late := [o.event for o in f.ours if o.background and o.event in READ_BACK]:
        return (f"{f.path}: {', '.join(late)} runs with \"async\": true, so what it reads back reaches no turn (the "
                "model never sees the memory)",
                f"remove \"async\" from lazy-harness's {', '.join(late)} entry in {f.path}")
    if twice := _run_twice(f.ours):
        return f"{f.path}: {twice}", reinstall + " (keeps one per event)"
    if missing:
        return f"{detail} (missing {', '.join(missing)})", "lh hooks install"
    if narrow := [o for o in f.ours if o.narrow is not None]:
        where = "; ".join(f"{o.event} sits in a group with \"matcher\": {o.narrow}" for o in narrow)
        return (f"{detail}: {where}, so it runs only when that matches (a SessionStart not at every resume, /clear "
                "and compaction; a SessionEnd not at every end)", reinstall + " (moves it into a group that matches "
                "everything)")
    if other := settings.other_install([o.command for o in f.ours]):
        return (f"{detail}: the commands load lazy_harness from {', '.join(other)}, another install than this lh's: "
                "that version runs the hooks, this one the commands and the worker", reinstall + " (with this lh)")
    if any(_older_form(o.command) for o in f.ours):
        return (f"{detail}: written by an older version, whose Python reads the person's PYTHONHOME and PYTHONPATH "
                "(another Python's PYTHONHOME stops every hook)", reinstall)
    if any(not hook_command.guarded(o.command) for o in f.ours):
        return (f"{detail}: written by an older version: once what it runs is gone (an interpreter removed with its "
                "virtualenv, lh-hook not on PATH), Claude Code shows a hook error after every turn", reinstall)
    return None


# what an event of ours does not do when its entry runs another event's hook
UNDONE = {"SessionStart": "reads nothing back", "UserPromptSubmit": "recalls nothing for the prompt",
          "Stop": "queues nothing", "SessionEnd": "queues nothing"}


def crossed(ours: list, agent: str = "claude") -> str:
    """The entries whose command runs the hook of another event than the one holding them (a command
    copied from another event, its event word left), in the plugin's form, or, in Claude Code's files
    (``agent`` claude), Codex CLI's (one copied from its hooks.json), said; "" when none. why: the hook
    runs the event and the agent its command names (``lh-hook Stop`` under SessionStart reads nothing
    back, and Stop runs twice), and the plugin's form leaves when a Claude Code settings file registers
    ours. Codex's hooks.json holding Claude Code's form is said by ``hooks_codex.doctor_lines``."""
    events = {o.event for o in ours}
    said = []
    for o in ours:
        named, shown = hook_command.event_of(o.command), json.dumps(o.command, ensure_ascii=False)
        if named is not None and named != o.event:
            said.append(f"{o.event} runs {shown}, which runs the hook of {named}: "
                        f"{o.event} {UNDONE.get(o.event, 'runs no hook of its own')}"
                        + (f", and {named} runs twice" if named in events else ""))
        elif hook_command.plugin_form(o.command):
            meant = ("for the plugin's hooks.json: with the plugin enabled, both do the work" if agent != settings.CODEX
                     else "for Claude Code's plugin: it leaves whenever a Claude Code settings file registers "
                     "lazy-harness hooks, and Codex's sessions are not remembered then")
            said.append(f"{o.event} runs {shown}, the plugin's form of the hook ({hook_command.PLUGIN_FLAG}), {meant}")
        elif agent != settings.CODEX and hook_command.agent_of(o.command) == settings.CODEX:
            said.append(f"{o.event} runs {shown}, which runs the hook of Codex CLI ({settings.AGENT_FLAG} "
                        f"{settings.CODEX}): it takes Claude Code's sessions for Codex's")
    return "; ".join(said)


def _check_many(r: Report, holding: list) -> None:
    """Our hooks in more than one settings file read here: each event runs more than once."""
    if len(holding) > 1:
        where = ", ".join(f"{f.label} ({f.path})" for f in holding)
        removers = {"user": "lh hooks uninstall", "project": "lh hooks uninstall --project"}
        keep_one = " or ".join(removers.get(f.label, f"lh hooks uninstall --settings {shlex.quote(f.path)}")
                               for f in holding)
        r.line("warn", "hooks twice", f"registered in {where}: Claude Code runs every file's hooks, so each "
               "event runs more than once (memory read back twice, sessions queued twice)", f"keep one: {keep_one}")


# events whose output is the memory read back into the turn: run with "async": true, it misses the turn
READ_BACK = ("SessionStart", "UserPromptSubmit")


def _run_twice(ours: list) -> str:
    """The events one file registers with more than one different command of ours, said; "" when none.
    why different: Claude Code drops a command repeated word for word, and runs different ones each."""
    commands: dict[str, set[str]] = {}
    for o in ours:
        commands.setdefault(o.event, set()).add(o.command)
    times = {1: "once", 2: "twice"}
    return "; ".join(f"{event} is registered by {len(c)} different commands, and Claude Code runs each (the "
                     f"event runs {times.get(len(c), f'{len(c)} times')})"
                     for event, c in commands.items() if len(c) > 1)


def check_bundle(r: Report, plugin_id: str | None) -> None:
    """The hooks' bundle (cli/hooks_install.py's bundle_line). With the plugin registering the hooks no line says
    ``lh hooks install`` (a plugin user never runs it): the worker writes the bundle at each run, so a
    missing one is an ``info`` line, also after the plugin's first session start (no worker may have run
    yet); one that is there and behind the modules warns."""
    from lazy_harness import hotload
    from lazy_harness.cli.hooks_install import bundle_line

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
    """Whether ``program`` can start (:func:`_cannot_start`)."""
    return _cannot_start(program) is None


def _cannot_start(program: str) -> str | None:
    """Why ``program`` (absolute, or a bare name such as lh-hook found on PATH here) cannot start: it is
    not there, not executable, or its interpreter (its ``#!`` line) is gone, which a deleted or upgraded
    virtualenv leaves its scripts with; None when it can. The rule the plugin's hook run applies
    (hooks/entry.py ``_gone``), which the CLI may not import."""
    found = shutil.which(program) if os.sep not in program else program
    if found is None or not os.path.exists(found):
        return f"{program} not found"
    if os.path.isdir(found) or not os.access(found, os.X_OK):
        return f"{found} is not executable"
    try:  # why read_regular: a FIFO named as the program held lh doctor in open(); it runs nothing
        first = read_regular(found, 4096).split(b"\n", 1)[0]
    except OSError as exc:
        return f"{found} cannot be read: {exc.strerror or exc}"
    interpreter = first[2:].decode("utf-8", "replace").split() if first.startswith(b"#!") else []
    if interpreter and os.path.isabs(interpreter[0]) and not os.access(interpreter[0], os.X_OK):
        return f"{found} names the interpreter {interpreter[0]}, which is gone"
    return None


def _start_problem(command: str) -> str | None:
    """Why the program of our ``command`` cannot start, naming it as written when the shell reads it
    into another path (``$HOME/.local/bin/lh-hook: /home/u/.local/bin/lh-hook not found``); None when it
    can, or only a shell could say what it is."""
    program = settings.program_file(command)
    why = _cannot_start(program) if program else None
    if why is None:
        return None
    _, start, end = hook_command.program_at(command)
    written = command[start:end]
    return why if why.startswith(written + " ") else f"{written}: {why}"


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
