"""The steps of ``lh hooks install`` and ``uninstall`` around the settings file's write: the plugin
already running the hooks, the timeouts the person set in our entries (kept), the write's own lines,
the other files and plugin installs that would run them twice, the folder install made, the hooks'
bundle (and ``lh doctor``'s line on it), the compound loop switched on, and what still queues sessions
once the hooks are gone."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sys

import click

from lazy_harness import config, settings, settings_read, settings_write
from lazy_harness.cli.hooks_found import settings_files
from lazy_harness.cli.hooks_target import project_of, read_by_claude
from lazy_harness.errors import SettingsError
from lazy_harness.regular_file import NotRegularFile, read_regular


def leave_for_plugin(target: str, leave: bool | None, where: str) -> bool:
    """With the lazy-harness plugin enabled in ``where``, whether to leave ``target`` alone: its hooks are
    the plugin's (registered in settings.json too, the plugin's runs step aside). ``leave``: the
    flag's answer; else, when ``target`` holds ours already, write it (they run anyway: this install's
    command replaces an older one); else ask on a terminal (default: leave it), and take the default
    elsewhere."""
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
    if leave is None and holds:
        # why: they run whatever is decided here; left alone, an older version's command (or one whose
        # virtualenv moved) stays the one that runs, so they are brought to this install's, as without the plugin
        return False
    if leave is None:
        if not sys.stdin.isatty():
            click.echo(f"not a terminal: taking the default, {os.path.basename(target)} left alone "
                       "(--write-settings to write it)")
            return True
        return click.confirm(f"Leave {target} alone and let the plugin run the hooks?", default=True)
    return leave


def bundle_hook_modules() -> None:
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


def note_made_folder(target: str) -> None:
    """Install made the folder of ``target``: note it, so uninstall removes it once empty again."""
    from lazy_harness.atomic import atomic_write

    try:
        atomic_write(settings_write.made_folder_file(target), os.path.dirname(os.path.abspath(target)) + "\n")
    except OSError as exc:  # why: only the tidying of uninstall depends on it
        click.echo(f"warning: cannot note that {os.path.dirname(target)} was made here: {exc}")


def warn_other_files(target: str) -> None:
    """Claude Code merges the settings files it reads for a session (``settings_files``): our hooks in
    another of them besides ``target`` run every event twice. Warn for each, naming the command that
    removes them there. The session: one started in the folder whose ``.claude/`` holds ``target``,
    else in the current folder. A file Claude Code does not read by itself runs nothing twice: a note
    says so instead."""
    if not read_by_claude(target):
        click.echo(f"note: Claude Code does not read {target} by itself (only a .claude/settings.json or "
                   "settings.local.json, or the user's settings.json): its hooks run only in sessions started "
                   f"with claude --settings {shlex.quote(target)}")
        return
    for path, remove, _ in other_files(target):
        click.echo(f"warning: {path} holds lazy-harness hooks too: Claude Code runs both files, so in this "
                   "project every event runs twice (memory read back twice, sessions queued twice) "
                   f"(hint: {remove} removes them there; keep one file)")


def other_files(target: str) -> list[tuple[str, str, str]]:
    """(path, the command that removes ours there, the folder whose sessions read it) for each settings
    file other than ``target`` that Claude Code reads for a session started in the folder whose
    ``.claude/`` holds ``target`` (else the current folder) and that holds our hooks."""
    root = project_of(target) or os.getcwd()
    found = []
    for f in settings_files(root):
        if not f.ours or os.path.realpath(f.path) == os.path.realpath(target):
            continue
        if f.label == "user":
            remove = "lh hooks uninstall"
        elif f.label == "project":
            remove = f"lh hooks uninstall --project {shlex.quote(root)}"
        else:
            remove = f"lh hooks uninstall --settings {shlex.quote(f.path)}"
        found.append((f.path, remove, root))
    return found


def warn_plugin_installs(cwd: str) -> None:
    """One line for each install of the plugin Claude Code records, whatever its scope and folder, but
    the one ``leave_for_plugin`` reported and those ``not_here_notes`` names: in a session that reads
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


def remove_made_folder(target: str) -> None:
    """After uninstall: the folder of ``target``, when install made it and it is empty now."""
    note = settings_write.made_folder_file(target)
    folder = os.path.dirname(os.path.abspath(target))
    try:  # why read_regular: a FIFO in the note's place held uninstall in open(); now named, the folder kept
        noted = read_regular(note).decode("utf-8").strip()
    except (NotRegularFile, IsADirectoryError) as exc:
        click.echo(f"warning: cannot read {note}: {exc.strerror}; {folder} left in place")
        return
    except (OSError, UnicodeDecodeError):
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


def kept_timeouts(target: str, events: dict[str, int], portable: bool = False,
                  agent: str | None = None) -> tuple[dict[str, float], list[str]]:
    """The timeouts install writes into ``target``: ours (``events``), but a positive number the person
    set in the entry of ours for an event (the first in the file) is kept (docs/adr/0058, amendment).
    And one line for each timeout kept, each bad one replaced by ours, and each command of ours that
    is rewritten (it must run this install), naming the command it had."""
    wanted: dict[str, float] = dict(events)
    try:
        data, _ = settings_read.read(target)
    except SettingsError:
        return wanted, []  # why: install refuses the file with its own line, nothing written
    lines, seen, upgraded = [], set(), []
    for found in settings.find_ours(data or {}):
        event, timeout = found.event, found.timeout
        if event not in events or event in seen:
            continue
        seen.add(event)
        if isinstance(timeout, (int, float)) and not isinstance(timeout, bool) and timeout > 0:
            wanted[event] = timeout
            if timeout != events[event]:
                lines.append(f"kept your timeout {json.dumps(timeout)} s for {event} in {target}")
        else:
            had = ("it had none" if timeout is None
                   else f"{json.dumps(timeout, ensure_ascii=False)} is not a positive number")
            lines.append(f"replaced the timeout of {event} in {target} ({had}): ours, {events[event]} s, "
                         "is written")
        had = settings.prefixed_command(data or {}, event) or found.command  # why: the prefix kept (_wanted)
        command = settings.command_prefix(had) + settings.command_for(event, portable=portable, agent=agent)
        if had + settings.GUARD == command:
            upgraded.append(event)  # why one line: this install's own command of before the guard, not a hand edit
        elif had != command:
            # why as JSON: as the file holds it, and on one line (ours spans three)
            lines.append(f"rewrote the command of {event} in {target} to run this install; it was: "
                         f"{json.dumps(had, ensure_ascii=False)}")
        if unread := [] if portable else settings.python_variables(had):
            lines.append(f"kept {', '.join(unread)} before the command of {event} in {target}, but its interpreter "
                         "runs isolated (-I) and reads no PYTHON* variable")
    if upgraded:
        lines.append(f"updated the command of {', '.join(upgraded)} in {target} to this version's form: it ends "
                     f"with{settings.GUARD}, so a hook whose program is gone exits 0 and says nothing")
    return wanted, lines


def register(target: str, portable: bool) -> None:
    timeouts, kept = kept_timeouts(target, settings.EVENTS, portable)
    change = settings.install(target, timeouts, portable=portable, backup=settings_write.backup_file(target))
    events = ", ".join(f"{e} (timeout {json.dumps(timeouts[e])} s)" for e in change.events)
    if change.action == "unchanged":
        click.echo(f"already installed: {target} holds our hooks; nothing changed")
        click.echo(f"hooks: {events}")
    else:
        click.echo(f"settings: {target} ({change.action})")
        click.echo(f"hooks: {events}")
        click.echo(f"command: {settings.command_for('<Event>', portable=portable)}")
        if change.backup:
            click.echo(f"backup: {change.backup}")
        if change.action == "created" and not portable and os.path.basename(target) == "settings.local.json":
            # why: Claude Code has git ignore this file when it makes it; made by lh, the next git add took it
            click.echo(f"note: {target} is yours only and names this machine's interpreter: keep it out of git "
                       "(Claude Code ignores it in git when it makes the file itself; lh does not edit your "
                       ".gitignore) (hint: echo .claude/settings.local.json >> .gitignore)")
        if read_by_claude(target):  # why: Claude Code takes hooks at a session's start; an edit from outside waits
            click.echo("note: a Claude Code session already running may keep the hooks it started with: these run "
                       "from the next session (or once the change is reviewed in /hooks)")
    for line in kept:
        click.echo(line)
    for warning in change.warnings:
        click.echo(f"warning: {warning}")
    if not portable and (cached := in_a_cache(sys.executable)):
        click.echo(f"warning: the hooks run {cached}, in a cache that uv or pipx clears; once it is gone they do "
                   "nothing, without a word (hint: pipx install lazy-harness or uv tool install lazy-harness, then "
                   "run lh hooks install with that lh)")
    if portable and not shutil.which(settings.SCRIPT):
        click.echo(f"warning: {settings.SCRIPT} is not on PATH here; Claude Code finds it on PATH "
                   "(install with pipx install . or uv tool install ., or activate the venv)")


def in_a_cache(python: str) -> str | None:
    """``python`` when it lives in a cache that its tool clears: ``uvx``'s environments in uv's cache
    (``<cache>/uv/...``, the XDG cache folder or a ``.cache`` folder), ``pipx run``'s in
    ``$PIPX_HOME/.cache``; else None. Not Poetry's virtualenvs (``~/.cache/pypoetry/virtualenvs``), which
    stay until removed. why: the hooks name it, and once it is cleared they exit 0 and do nothing
    (settings.GUARD), so this is the one moment to say it."""
    from lazy_harness import paths

    where = os.path.abspath(python)
    parts = where.split(os.sep)
    caches = {i for i, part in enumerate(parts) if part == ".cache"}
    xdg = os.path.dirname(paths.cache_dir())
    if paths.is_within(where, xdg):
        caches.add(len(xdg.rstrip(os.sep).split(os.sep)) - 1)
    for i in caches:
        if parts[i + 1:i + 2] == ["uv"] or (i > 0 and parts[i - 1] == "pipx"):
            return where
    return None


def switch_loop_on(cfg: str) -> None:
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



def still_queued(project_dir: str | None) -> str:
    """What queues sessions once these hooks are gone: an enabled plugin still does (its hooks step
    aside only while the settings' ran); else nothing."""
    return plugin_still_runs(project_dir) or "without hooks nothing is queued"


def plugin_still_runs(project_dir: str | None) -> str | None:
    """That the enabled plugin runs the hooks in ``project_dir`` (the current folder when None), and how
    to stop it; None without one."""
    from lazy_harness import plugin

    found = plugin.active(os.path.abspath(project_dir or os.getcwd()))
    if found is None:
        return None
    scope = "" if found.scope in ("user", "?") else f"--scope {found.scope} "
    return (f"the plugin {found.plugin_id} ({found.scope} scope) still runs the hooks and queues sessions; "
            f"to stop it: claude plugin disable {scope}{found.plugin_id}")
