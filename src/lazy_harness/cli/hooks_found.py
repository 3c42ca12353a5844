"""Our hooks as ``lh hooks status`` and ``lh doctor`` find them: which settings files Claude Code reads
for a session started here and what each holds of ours, the registrations a session started here does
not run, and when each event last fired (hooks.log)."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field

from lazy_harness import logfile, settings, settings_read
from lazy_harness.errors import SettingsError
from lazy_harness.project_identity import project_root

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

LOG_TAIL_LINES = 5000
# Claude Code's managed settings: an administrator's file that no user or project setting overrides. why
# here and not in paths.py: a fixed system path of Claude Code's, not a folder of lazy-harness's; only read
MANAGED_SETTINGS = ("/Library/Application Support/ClaudeCode/managed-settings.json" if sys.platform == "darwin"
                    else "/etc/claude-code/managed-settings.json")
# keys of the managed settings that keep every hook of the user's and projects' files, and of plugins,
# from running (Claude Code runs only the managed file's own hooks, or none)
POLICY_KEYS = ("disableAllHooks", "allowManagedHooksOnly")


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


def managed_files() -> list[str]:
    """The managed settings files in the order Claude Code merges them, a later one deciding a key it
    sets: ``MANAGED_SETTINGS``, then the drop-ins beside it, ``managed-settings.d/*.json`` by name
    (dot-prefixed names skipped; 2.1.332, seen with the real CLI: docs/how/hooks.md)."""
    folder = os.path.join(os.path.dirname(MANAGED_SETTINGS), "managed-settings.d")
    try:
        names = sorted(n for n in os.listdir(folder) if n.endswith(".json") and not n.startswith("."))
    except OSError:
        names = []
    return [MANAGED_SETTINGS, *(os.path.join(folder, n) for n in names)]


def managed_policy() -> tuple[str, str] | None:
    """(the managed settings file that decides it, its key) when the managed settings keep our hooks
    from running: ``"disableAllHooks": true``, or ``"allowManagedHooksOnly": true`` without our hooks
    among the managed files' own. None when no file sets it, none can be read, or they let them run."""
    read = []
    for path in managed_files():
        try:
            data, _ = settings_read.read(path)
        except SettingsError:
            continue  # why: Claude Code cannot read it either; lh doctor's line would be a guess
        if isinstance(data, dict):
            read.append((path, data))
    holds_ours = any(settings.find_ours(data) for _, data in read)
    for key in POLICY_KEYS:
        deciding = [(path, data[key]) for path, data in read if key in data]
        if deciding and deciding[-1][1] is True and (key == "disableAllHooks" or not holds_ours):
            return deciding[-1][0], key
    return None


def managed_policy_says(found: tuple[str, str], will: str) -> str:
    """The words for :func:`managed_policy`'s answer, after ``will`` (``will not run these hooks``)."""
    path, key = found
    return (f"{path} (managed settings, which no user or project setting overrides) sets \"{key}\": true: "
            f"Claude Code {will}, nor the lazy-harness plugin's (no session is remembered)")


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


STATUS_LINE_CHARS = 400  # of a hooks.log line `lh hooks status` shows


def last_fired(env: Mapping[str, str] | None = None, tail: int = LOG_TAIL_LINES) -> dict[str, str]:
    """Event -> the newest hooks.log line for it, without its event name (read from the file's end)."""
    from lazy_harness.memory.files import tail_lines

    found: dict[str, str] = {}
    for line in reversed(tail_lines(logfile.log_path(logfile.HOOKS, env), tail)):
        parts = line.split(" ", 2)
        if len(parts) == 3 and parts[1] not in found and parts[2].startswith("session="):
            # why capped: a line may hold 8 KiB (an error's text); the full one is in hooks.log
            found[parts[1]] = logfile.capped(f"{parts[0]} {parts[2]}", STATUS_LINE_CHARS)
    return found
