"""The lazy-harness plugin for Claude Code: what its ``hooks/hooks.json`` registers, and whether
Claude Code has it installed and enabled for a project.

The plugin is files in the repository (``.claude-plugin/marketplace.json`` at the root, the plugin
in ``plugin/``, docs/adr/0022). Its hooks run the installed ``lh-hook`` found on PATH, the same
entry as the portable settings form, with ``--plugin`` after the event (the SessionStart hook tells
the person what happens next, once). Without ``lh-hook``, or when it cannot start, the command
prints, at SessionStart only, one ``systemMessage`` saying how to install it, and every event exits 0.

Claude Code's own files are read here, never written: ``<claude dir>/plugins/installed_plugins.json``
(``{"version": 2, "plugins": {"<name>@<marketplace>": [{"scope", "installPath", "version",
"projectPath"?}]}}``) and ``enabledPlugins`` in the settings files (``{"<id>": true|false}``), the
most specific file deciding: local, then project, then user (checked on Claude Code 2.1.330); and
``<claude dir>/plugins/known_marketplaces.json`` (``{"<marketplace>": {"source": {"source":
"directory", "path"} | {"source": "git", "url"}, ...}}``), which says where the hooks run from
(``runs_from``).

Where a session starts decides, not the repository (Claude Code 2.1.332, observed with the real CLI
in a subfolder ``src/deep`` of a git repository): a project-scope install runs its hooks only in
sessions started in its ``projectPath`` (installed at the root: not in ``src/deep``; installed in
``src/deep``: there only); a local-scope install at the root runs in ``src/deep`` too. The settings
files read are those of ``settings.files_read_at``: the start folder's own two, and the root's
``settings.local.json``, which decides over them; the root's ``settings.json`` is not read there.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass

from lazy_harness import paths, settings, settings_read
from lazy_harness.errors import SettingsError
from lazy_harness.project_identity import project_root
from lazy_harness.regular_file import read_regular

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping
    from typing import Any

NAME = "lazy-harness"  # the plugin's name in its plugin.json and in the marketplace
FLAG = "--plugin"  # after the event: lh-hook knows the plugin ran it
FOLDER = "plugin"  # the plugin's folder in the repository, beside .claude-plugin/marketplace.json
INSTALL_LH = "pipx install <your clone of lazy-harness> (or uv tool install), then start claude again"
MISSING = (f"lazy-harness: {settings.SCRIPT} is not on PATH or cannot start, so this session is not "
           f"remembered; install it: {INSTALL_LH}")


def hook_command(event: str) -> str:
    """The POSIX sh command of one event: ``lh-hook <Event> --plugin`` when it is on PATH; when it
    is not, or could not start, SessionStart prints the ``systemMessage`` that says how to install it
    and the other events say nothing. Exit 0 either way.

    why no ``exec``: when ``lh-hook``'s ``#!`` interpreter is gone (a pipx venv after a Python
    upgrade), an ``exec`` that fails makes sh exit 127 at once, and Claude Code shows "hook failed"
    on every event. ``lh-hook`` itself always exits 0 (``hooks.entry.run`` ends with ``os._exit(0)``),
    so a non-zero status means it could not run.

    why ``PYTHONHOME=``: ``lh-hook`` is a console script, whose interpreter reads the variable before any
    code of ours; another Python's (a leftover of a tool's setup) stops it with "Fatal Python error".
    Python ignores the variable when it is empty, as the absolute form's ``-I`` does (docs/adr/0002)."""
    found = f"command -v {settings.SCRIPT} >/dev/null 2>&1 && PYTHONHOME= {settings.SCRIPT} {event} {FLAG}"
    if event == "SessionStart":
        # why: only SessionStart's systemMessage reaches the person at the start of a session; the
        # message holds no single quote, so it stays one sh word
        return f"{found} && exit 0; printf '%s\\n' '{json.dumps({'systemMessage': MISSING})}'"
    return f"{found}; exit 0"


def hooks_document() -> dict:
    """What ``plugin/hooks/hooks.json`` holds: the events and timeouts of ``lh hooks install``."""
    return {"description": "lazy-harness: queue finished sessions for distillation and read memory back; "
                           "runs the installed lh-hook",
            "hooks": {event: [{"matcher": "", "hooks": [{"type": "command", "command": hook_command(event),
                                                         "timeout": timeout}]}]
                      for event, timeout in settings.EVENTS.items()}}


@dataclass
class Install:
    """One install of our plugin that applies to the project asked about."""

    plugin_id: str
    scope: str  # user | project | local | managed
    path: str  # the installed copy (installPath)
    version: str
    enabled: bool
    decided_by: str  # the settings file whose enabledPlugins decided, or "" when none names it
    project: str = ""  # projectPath (project and local scope): the folder it was installed for

    def describe(self) -> str:
        state = "enabled" if self.enabled else "disabled"
        where = f" in {self.decided_by}" if self.decided_by else ""
        return f"{self.plugin_id} {self.version or '?'} ({self.scope} scope), {state}{where}"


@dataclass
class Runs:
    """The plugin folder Claude Code runs an install's hooks from (its ``CLAUDE_PLUGIN_ROOT``)."""

    folder: str  # that folder; "" when the marketplace that names it cannot be read
    market: str  # the marketplace's name
    clone: str = ""  # a directory marketplace's folder, read in place; "" for a cached copy (installPath)
    problem: str = ""  # why Claude Code cannot load the plugin from the clone ("": it can)

    @property
    def hooks_file(self) -> str:
        return os.path.join(self.folder, "hooks", "hooks.json")


def runs_from(install: Install, env: Mapping[str, str] | None = None) -> Runs:
    """Where Claude Code runs ``install``'s hooks from. A marketplace added from a folder (a clone:
    ``"source": "directory"`` in known_marketplaces.json) is read in place, from the plugin's folder
    its marketplace.json names, and not from the cached copy; any other marketplace (a git or GitHub
    one) runs the cached copy, ``installPath`` (both checked with the real CLI, 2.1.197 and 2.1.332).
    Raises SettingsError when known_marketplaces.json or the clone's marketplace.json cannot be read."""
    market = install.plugin_id.partition("@")[2]
    clone = _directory_marketplace(market, env)
    if not clone:
        return Runs(install.path, market)
    manifest = os.path.join(clone, ".claude-plugin", "marketplace.json")
    if not os.path.isdir(clone):
        return Runs("", market, clone, f"{clone} is missing")
    data = _read_json(manifest)
    if data is None and not os.path.exists(manifest):
        return Runs("", market, clone, f"{manifest} is missing")
    entries = data.get("plugins") if isinstance(data, dict) else None
    name = install.plugin_id.partition("@")[0]
    if not isinstance(entries, list):  # why: another shape (a number, an object) names no plugin entry
        shape = (f"it is {_json_type(data)}, not an object" if not isinstance(data, dict)
                 else "it has no \"plugins\"" if entries is None else f"its \"plugins\" is {_json_type(entries)}")
        return Runs("", market, clone, f"{manifest} lists no plugin {name} ({shape}; expected a list of plugins)")
    source = next((e.get("source") for e in entries if isinstance(e, dict) and e.get("name") == name), None)
    if source is None:
        return Runs("", market, clone, f"{manifest} lists no plugin {name}")
    if not isinstance(source, str) or not source.startswith("./"):
        # why: a plugin whose source lies outside the clone (a git or GitHub one) is fetched into the
        # cache at install; not checked with the real CLI, so it is taken as cached
        return Runs(install.path, market)
    return Runs(os.path.normpath(os.path.join(clone, source)), market, clone)


def _directory_marketplace(market: str, env: Mapping[str, str] | None) -> str:
    """The folder of the marketplace ``market`` when it was added from a folder, else ""."""
    # why: known_marketplaces.json sits beside installed_plugins.json, whose path paths.py resolves
    known = os.path.join(os.path.dirname(paths.claude_plugins_file(env)), "known_marketplaces.json")
    data = _read_json(known)
    entry = data.get(market) if isinstance(data, dict) else None
    source = entry.get("source") if isinstance(entry, dict) else None
    if not isinstance(source, dict) or source.get("source") != "directory":
        return ""
    path = source.get("path")
    return path if isinstance(path, str) and path else ""


def current_hooks(runs: Runs) -> bool:
    """Whether the hooks/hooks.json Claude Code runs is this version's (``hooks_document``); one that
    cannot be read counts as current (a missing file has a doctor line of its own)."""
    try:
        return _read_json(runs.hooks_file) in (None, hooks_document())
    except SettingsError:
        return True


def update_hint(install: Install, runs: Runs) -> str:
    """The commands that bring the hooks Claude Code runs to the marketplace's version. A clone is read
    in place: pulling it changes the hooks at the next session start (or, when the clone is the newer
    one, reinstalling lh from it). A cached copy is replaced only when plugin.json's version changed
    (docs/adr/0022)."""
    if runs.clone:
        return f"git -C {runs.clone} pull, or when the clone is newer than this lh: pipx install --force {runs.clone}"
    return f"claude plugin marketplace update {runs.market or NAME} && claude plugin update {install.plugin_id}"


def relink_hint(install: Install, runs: Runs) -> str:
    """How to give Claude Code back the clone it reads the plugin from: put it back, or add the
    marketplace again from where the clone is now (removing the marketplace uninstalls the plugin,
    so it is installed again, in its scope and folder)."""
    scope = "" if install.scope in ("user", "?") else f"--scope {install.scope} "
    where = f" (in {install.project})" if install.project else ""
    return (f"put the clone back at {runs.clone}, or in the clone where it is now: claude plugin marketplace "
            f"remove {runs.market} && claude plugin marketplace add ./ && claude plugin install "
            f"{scope}{install.plugin_id}{where}")


def _json_type(value: object) -> str:
    """What a parsed JSON value is, in JSON's words: ``a number``, ``an object``..."""
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    kinds: tuple[tuple[type, str], ...] = ((dict, "an object"), (list, "an array"), (str, "a string"))
    return next((said for kind, said in kinds if isinstance(value, kind)), "a number")


def _read_json(path: str) -> Any:
    try:  # why read_regular: a FIFO in its place held install, doctor and status in open()
        raw = read_regular(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise SettingsError(f"{path}: cannot read: {exc.strerror}") from None
    except ValueError as exc:  # why: a path taken from a marketplace file may hold a NUL byte
        raise SettingsError(f"{path!r}: cannot read: {exc}") from None
    try:
        return json.loads(raw.decode("utf-8")) if raw.strip() else {}
    except (UnicodeDecodeError, ValueError) as exc:
        raise SettingsError(f"{path}: not valid JSON ({exc})", "claude plugin list") from None
    except RecursionError:  # why: json's decoder recurses per level of nesting
        raise SettingsError(f"{path}: nested too deeply to read", "claude plugin list") from None


def _enabled(plugin_id: str, cwd: str, env: Mapping[str, str] | None) -> tuple[bool, str]:
    """(enabled, the file that said so) for a session started in ``cwd``: the most specific settings
    file Claude Code reads there that names ``plugin_id``."""
    for _label, path in reversed(settings.files_read_at(cwd, env)):
        try:
            data, _ = settings_read.read(path)
        except SettingsError:
            continue  # why: lh doctor reports a settings file that does not parse on its own line
        value = (data or {}).get("enabledPlugins")
        if isinstance(value, dict) and plugin_id in value:
            return value[plugin_id] is True, path
    return False, ""


def _records(env: Mapping[str, str] | None) -> Iterator[tuple[str, dict]]:
    """(plugin id, record) of each install of our plugin in Claude Code's plugin file. Raises
    SettingsError when that file cannot be read."""
    data = _read_json(paths.claude_plugins_file(env))
    plugins = data.get("plugins") if isinstance(data, dict) else None
    if not isinstance(plugins, dict):
        return
    for plugin_id, records in plugins.items():
        if not isinstance(plugin_id, str) or plugin_id.partition("@")[0] != NAME or not isinstance(records, list):
            continue
        for rec in records:
            if isinstance(rec, dict):
                yield plugin_id, rec


def _project_of(rec: dict) -> str:
    project = rec.get("projectPath")
    return project if isinstance(project, str) else ""


def _applies(rec: dict, here: str, root: str) -> bool:
    """Whether the install ``rec`` runs its hooks in a session started in ``here`` (a real path;
    ``root``: its repository's root): no projectPath (user, managed) everywhere; project scope where
    projectPath is ``here``; local scope there and in every subfolder of the root it names."""
    project = _project_of(rec)
    if not project:
        return True
    real = os.path.realpath(project)
    return real == here or (rec.get("scope") == "local" and real == root)


def _install(plugin_id: str, rec: dict, where: str, env: Mapping[str, str] | None) -> Install:
    enabled, by = _enabled(plugin_id, where, env)
    return Install(plugin_id, str(rec.get("scope") or "?"), str(rec.get("installPath") or ""),
                   str(rec.get("version") or ""), enabled, by, _project_of(rec))


def installs(cwd: str, env: Mapping[str, str] | None = None) -> list[Install]:
    """Our plugin's installs whose hooks run in a session started in ``cwd`` (see ``_applies``), with
    whether each is enabled there. Raises SettingsError when Claude Code's plugin file cannot be read."""
    here = os.path.realpath(cwd)
    root = project_root(here)
    return [_install(pid, rec, here, env) for pid, rec in _records(env) if _applies(rec, here, root)]


def elsewhere(cwd: str, env: Mapping[str, str] | None = None) -> list[Install]:
    """Our plugin's project and local installs recorded for another folder of the repository holding
    ``cwd``, whose hooks do not run in a session started in ``cwd`` (each with whether it is enabled in
    its own folder). Raises SettingsError as ``installs``."""
    here = os.path.realpath(cwd)
    root = project_root(here)
    return [_install(pid, rec, _project_of(rec), env) for pid, rec in _records(env)
            if _project_of(rec) and not _applies(rec, here, root) and project_root(_project_of(rec)) == root]


def recorded(cwd: str, env: Mapping[str, str] | None = None) -> list[Install]:
    """Every install of our plugin Claude Code records, whatever its scope: project and local ones
    with whether each is enabled in its own folder, the others as for a session started in ``cwd``.
    Raises SettingsError as ``installs``."""
    return [_install(pid, rec, _project_of(rec) or cwd, env) for pid, rec in _records(env)]


def not_here(install: Install, cwd: str) -> str:
    """What to say of an install of ``elsewhere``: where it runs, and that a session started in
    ``cwd`` does not run it."""
    return (f"{install.describe()}: installed for {install.project}; Claude Code runs its hooks only in "
            f"sessions started in that folder, not in {cwd}")


def active(cwd: str, env: Mapping[str, str] | None = None) -> Install | None:
    """The enabled install whose hooks run in this project, or None (an unreadable plugin file: None)."""
    try:
        return next((i for i in installs(cwd, env) if i.enabled), None)
    except SettingsError:
        return None


def loop_off_hint(cwd: str, env: Mapping[str, str] | None = None) -> tuple[str, bool]:
    """How the person switches an off compound loop on, and whether it is only "not yet": with the
    plugin enabled here and no session started since, its first SessionStart switches it on (a
    plugin user must not run ``lh hooks install``: it is for the settings.json path); after that
    start, the person switched it off in config.toml; without the plugin, ``lh hooks install``."""
    import os

    if active(cwd, env) is None:
        return "lh hooks install", False
    if not os.path.exists(paths.plugin_welcome_file(env)):
        return "the plugin's first session start switches it on: start claude in a project", True
    return f"set compound_loop.enabled = true in {paths.config_file(env)}", False
