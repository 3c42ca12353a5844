"""Claude Code's record of an installed plugin, as `claude plugin marketplace add` and `claude plugin
install` 2.1.330 to 2.1.332 write it: `<claude dir>/plugins/known_marketplaces.json`,
`<claude dir>/plugins/installed_plugins.json` and `enabledPlugins` in a settings file."""

import json
import os
import shutil

from lazy_harness import __version__, paths, plugin

PLUGIN_ID = "lazy-harness@lazy-harness"
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GIT_URL = "https://github.com/lazy-harness/lazy-harness.git"


def install(scope: str = "user", project: str | None = None, enabled: bool | None = True,
            plugin_id: str = PLUGIN_ID, hooks: bool | dict = True, version: str = __version__,
            clone: str | None = None, clone_hooks: bool | dict = True) -> str:
    """Record an install of ``plugin_id`` (its cached copy with hooks/hooks.json: this version's, or
    the document ``hooks`` names) and, unless ``enabled`` is None, its state in the settings file of
    its scope. Its marketplace is the folder ``clone`` (a directory marketplace, holding the
    repository's marketplace files and ``clone_hooks`` as the plugin's hooks.json) or, without one,
    a git repository. Returns the install folder."""
    claude = paths.claude_dir()
    name, _, market = plugin_id.partition("@")
    add_marketplace(market, clone, clone_hooks)
    folder = os.path.join(claude, "plugins", "cache", market, name, version)
    os.makedirs(os.path.join(folder, "hooks"), exist_ok=True)
    if hooks:
        write_json(os.path.join(folder, "hooks", "hooks.json"), plugin.hooks_document() if hooks is True else hooks)
    record = {"scope": scope, "installPath": folder, "version": version,
              "installedAt": "2026-11-26T09:28:34.784Z", "lastUpdated": "2026-11-26T09:28:34.784Z"}
    if clone is None:
        record["gitCommitSha"] = "13a814577efae79a3d0cc28326d170e6bbd6c263"
    if project is not None:
        record["projectPath"] = project
    state = paths.claude_plugins_file()
    data = read_json(state) or {"version": 2, "plugins": {}}
    data["plugins"].setdefault(plugin_id, []).append(record)
    write_json(state, data)
    if enabled is not None:
        enable(plugin_id, enabled, scope, project)
    return folder


def add_marketplace(market: str, clone: str | None = None, hooks: bool | dict = True) -> str:
    """Record the marketplace ``market`` in known_marketplaces.json as `claude plugin marketplace add`
    does: the folder ``clone`` as a "directory" source, read in place; without one, a git source,
    cloned under plugins/marketplaces. The marketplace's folder gets the repository's marketplace.json
    and plugin.json, and ``hooks`` as plugin/hooks/hooks.json. Returns that folder."""
    if clone is None:
        where = os.path.join(paths.claude_dir(), "plugins", "marketplaces", market)
        source = {"source": "git", "url": GIT_URL}
    else:
        where = source_path = os.path.abspath(clone)
        source = {"source": "directory", "path": source_path}
    for part in (".claude-plugin", os.path.join(plugin.FOLDER, ".claude-plugin")):
        shutil.copytree(os.path.join(ROOT, part), os.path.join(where, part), dirs_exist_ok=True)
    if hooks:
        write_json(os.path.join(where, plugin.FOLDER, "hooks", "hooks.json"),
                   plugin.hooks_document() if hooks is True else hooks)
    known = os.path.join(os.path.dirname(paths.claude_plugins_file()), "known_marketplaces.json")
    data = read_json(known) or {}
    data[market] = {"source": source, "installLocation": where, "lastUpdated": "2026-11-26T09:28:30.112Z"}
    write_json(known, data)
    return where


def read_json(path: str) -> dict | None:
    try:
        with open(path) as fh:
            return json.load(fh)
    except FileNotFoundError:
        return None


def write_json(path: str, data: dict) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as fh:
        json.dump(data, fh, indent=2)


def enable(plugin_id: str, value: bool, scope: str = "user", project: str | None = None) -> str:
    """Set ``enabledPlugins[plugin_id]`` in the settings file of ``scope``, keeping the rest."""
    if scope == "user":
        path = paths.user_settings_file()
    else:
        path = os.path.join(project, ".claude", "settings.local.json" if scope == "local" else "settings.json")
    data = read_json(path) or {}
    data.setdefault("enabledPlugins", {})[plugin_id] = value
    write_json(path, data)
    return path
