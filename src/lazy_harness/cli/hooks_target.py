"""The settings file ``lh hooks install`` and ``uninstall`` edit (--settings FILE, --project [DIR],
else the user file), the typos refused before anything is written, and what that file is to Claude
Code: read by itself or not, a project's shared file or not."""

from __future__ import annotations

import os
import shlex

import click

from lazy_harness import paths
from lazy_harness.errors import LhError
from lazy_harness.project_identity import project_root


READ_NAMES = ("settings.json", "settings.local.json")  # the names of the settings files Claude Code reads
MISSING_HINT = {"install": "give the project's folder; only its .claude/ is created",
                "uninstall": "give the folder of the project whose .claude/settings.json holds the hooks; "
                             "nothing was removed"}


def target_file(settings_path: str | None, project_dir: str | None, command: str) -> str:
    """The settings file ``command`` (install, uninstall) edits: --settings FILE, --project [DIR], else
    the user file."""
    if settings_path is not None and not settings_path.strip():
        # why: ``--settings "$FILE"`` with FILE unset installed into (and uninstalled from) the user file
        raise click.UsageError("--settings: an empty path; name the settings file, or leave --settings out for "
                               f"the user file ({paths.user_settings_file()})")
    if settings_path and project_dir is not None:
        raise click.UsageError("--settings and --project name two files; give one")
    if project_dir is not None:
        root = os.path.abspath(project_dir) if project_dir else project_root(os.getcwd())
        # why: a typo must not become a new folder tree holding a settings.json
        if not os.path.exists(root):
            raise LhError(f"--project: {root} does not exist", hint=MISSING_HINT[command])
        if not os.path.isdir(root):
            raise LhError(f"--project: {root} is not a folder", hint="give the project's folder")
        target = os.path.join(root, ".claude", "settings.json")
        if _is_user_file(target):
            # why: a home folder under git (dotfiles) is the project of every folder below it without a
            # repository of its own: its project file is the user file, which --project rewrote to the
            # portable `lh-hook` command, one no hook of any project found where lh-hook was not on PATH
            raise LhError(f"--project: {root}'s .claude/settings.json is the user settings file; nothing changed",
                          hint=f"lh hooks {command} (the user file), or --project <the project's folder>")
        return _checked_link(target, command)
    if not settings_path:
        return _checked_link(paths.user_settings_file(), command)
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
    return _checked_link(target, command)


def _checked_link(target: str, command: str) -> str:
    """``target``, refused for install when it is a link whose file's folder does not exist (a
    dotfiles folder moved, a typo in the link): that folder tree was made to hold the new file."""
    if command != "install" or not os.path.islink(target) or os.path.exists(target):
        return target
    real = os.path.realpath(target)
    if os.path.isdir(os.path.dirname(real)):
        return target  # a link to a file not written yet, in a folder that is there: written as asked
    raise LhError(f"{target} is a link to {real}, whose folder does not exist; nothing written",
                  hint=f"restore {os.path.dirname(real)}, or remove the link (rm {shlex.quote(target)})")


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


def project_of(target: str) -> str | None:
    """The project folder whose ``.claude/`` holds ``target``; None for the user file or elsewhere."""
    folder = os.path.dirname(os.path.abspath(target))
    if os.path.basename(folder) != ".claude" or _is_user_file(target):
        return None
    return os.path.dirname(folder)


def read_by_claude(target: str) -> bool:
    """Whether Claude Code reads ``target`` by itself: a settings.json or settings.local.json in a
    ``.claude/`` folder, or the user's settings.json (claude-code-facts.md)."""
    folder = os.path.dirname(os.path.abspath(target))
    return _is_user_file(target) or (os.path.basename(target) in READ_NAMES and os.path.basename(folder) == ".claude")


def is_shared_file(target: str) -> bool:
    """A project's ``.claude/settings.json``: committed and shared, so the portable form goes in it."""
    return os.path.basename(target) == "settings.json" and project_of(target) is not None
