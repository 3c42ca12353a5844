"""``lh hooks``: register our hooks in a Claude Code settings.json, remove them, and report on them.

The file edited is hooks_target's, the steps around the write hooks_install's, what status reads
hooks_found's and hooks_worker's (shared with ``lh doctor`` and ``lh status``); Codex CLI's hooks.json
is hooks_codex's.
"""

from __future__ import annotations

import os

import click

from lazy_harness import config, logfile, paths, settings, settings_write
from lazy_harness.cli.hooks_found import (LOG_TAIL_LINES, last_fired, managed_policy, managed_policy_says,
                                          not_here_notes, settings_files)
from lazy_harness.cli.hooks_install import (bundle_hook_modules, leave_for_plugin, note_made_folder, other_files,
                                            plugin_still_runs, register, remove_made_folder, still_queued,
                                            switch_loop_on, warn_other_files, warn_plugin_installs)
from lazy_harness.cli.hooks_target import is_shared_file, project_of, target_file
from lazy_harness.cli.hooks_worker import describe_worker, failed_tasks, pending_tasks, worker_state
from lazy_harness.errors import ConfigError, SettingsError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from lazy_harness.settings import Ours


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
    type=click.Path(),  # why: target_file refuses a missing folder or a file in one line, not click's usage text
    help="The project's shared DIR/.claude/settings.json (DIR: the project root of the current folder), "
         "with the portable command `lh-hook <Event>`.")


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
    # why: what would stop the loop's switch at the end (a syntax error, a form no safe edit can change,
    # a file the loader refuses) stops us before settings.json is touched; a wrong value does not: the
    # hooks watch sessions during the pause (ADR 0016)
    if agent == "codex":
        _codex_only(settings_path, project_dir)
        config.check_loop_edit(cfg)
        from lazy_harness.cli import hooks_codex

        works = hooks_codex.install()
        bundle_hook_modules()
        switch_loop_on(cfg)
        if not works:  # why after the rest: the hooks are in place for the moment the file is fixed
            raise click.exceptions.Exit(1)
        return
    target = target_file(settings_path, project_dir, "install")
    portable = project_dir is not None or is_shared_file(target)
    if portable and project_dir is None:
        click.echo(f"{target} is a project's shared settings file: the portable command, as --project writes")
    config.check_loop_edit(cfg)
    # why a project's file by its project: the sessions that read it start there, wherever install runs
    where = os.path.dirname(os.path.dirname(target)) if portable or project_of(target) else os.getcwd()
    left_to_plugin = leave_for_plugin(target, leave, where)
    if left_to_plugin:
        click.echo(f"settings: {target} left alone (the plugin runs the hooks)")
    else:
        made = not os.path.exists(os.path.dirname(target))
        register(target, portable)
        if made:
            note_made_folder(target)
        warn_other_files(target)
        warn_plugin_installs(where)
        for f in settings_files(where):
            if f.disables_all:
                click.echo(f"warning: {f.path} sets \"disableAllHooks\": true: Claude Code runs no hook, these "
                           f"neither (hint: remove disableAllHooks from {f.path})")
    if policy := managed_policy():  # why both ways: it stops the plugin's hooks as well as the file's
        will = "will not run the hooks of settings files" if left_to_plugin else "will not run these hooks"
        click.echo(f"warning: {managed_policy_says(policy, will)} (hint: ask whoever manages Claude Code on this "
                   "machine)")
    for _check, what, folder in not_here_notes():
        click.echo(f"note: {what} (hint: start claude in {folder})")
    bundle_hook_modules()
    switch_loop_on(cfg)  # why last: it ends with the two lines on what happens next


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
    target = target_file(settings_path, project_dir, "uninstall")
    change = settings.uninstall(target, backup=settings_write.backup_file(target))
    if change.action in ("missing", "unchanged"):
        click.echo(f"nothing to remove: {target} " + ("does not exist" if change.action == "missing"
                                                      else "holds no lazy-harness hooks"))
        runs = plugin_still_runs(project_of(target) or project_dir)
        if runs:  # why: "nothing to remove" alone read as if no hook ran any more
            click.echo(f"note: {runs}")
    elif change.action == "deleted":
        click.echo(f"removed {', '.join(change.events)}; deleted {target} (it held only lazy-harness hooks)")
        remove_made_folder(target)
    else:
        click.echo(f"removed {', '.join(change.events)} from {target}")
    for note in change.warnings:  # why: the person's commands that name our hook run it still
        click.echo(f"note: {note}")
    # why: the person runs this before pip uninstall; hooks left in another file read here keep running
    left = other_files(target)
    for path, remove, root in left:
        click.echo(f"note: {path} still holds lazy-harness hooks: sessions started in {root} run them "
                   f"(hint: {remove})")
    if change.action in ("deleted", "updated"):
        still = ("the files named above still run the hooks" if left
                 else still_queued(project_of(target) or project_dir))
        click.echo(f"config.toml left as is ({paths.config_file()}); {still}")
    from lazy_harness.cli import hooks_codex

    codex = hooks_codex.left_note()
    if codex:
        click.echo(codex)
    from lazy_harness.recall.resident import client as resident

    stopped = resident.stop()
    if stopped is not None:
        click.echo(f"stopped the resident answerer of prompt recall (pid {stopped})")


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
            click.echo(f"    warning: {where} has a null matcher: Claude Code ignores this whole file")
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
    if policy := managed_policy():
        click.echo(f"warning: {managed_policy_says(policy, 'runs none of these hooks')} "
                   "(hint: ask whoever manages Claude Code on this machine)")
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
