"""Claude Code's record of an installed plugin, as `claude plugin install` 2.1.330 writes it:
`<claude dir>/plugins/installed_plugins.json` and `enabledPlugins` in a settings file."""

import json
import os

from lazy_harness import __version__, paths, plugin

PLUGIN_ID = "lazy-harness@lazy-harness"


def install(scope: str = "user", project: str | None = None, enabled: bool | None = True,
            plugin_id: str = PLUGIN_ID, hooks: bool | dict = True, version: str = __version__) -> str:
    """Record an install of ``plugin_id`` (its folder with hooks/hooks.json: this version's, or the
    document ``hooks`` names) and, unless ``enabled`` is None, its state in the settings file of its
    scope. Returns the install folder."""
    claude = paths.claude_dir()
    name, _, market = plugin_id.partition("@")
    folder = os.path.join(claude, "plugins", "cache", market, name, version)
    os.makedirs(os.path.join(folder, "hooks"), exist_ok=True)
    if hooks:
        with open(os.path.join(folder, "hooks", "hooks.json"), "w") as fh:
            json.dump(plugin.hooks_document() if hooks is True else hooks, fh, indent=2)
    record = {"scope": scope, "installPath": folder, "version": version,
              "installedAt": "2026-11-26T09:28:34.784Z", "lastUpdated": "2026-11-26T09:28:34.784Z"}
    if project is not None:
        record["projectPath"] = project
    state = paths.claude_plugins_file()
    os.makedirs(os.path.dirname(state), exist_ok=True)
    try:
        with open(state) as fh:
            data = json.load(fh)
    except FileNotFoundError:
        data = {"version": 2, "plugins": {}}
    data["plugins"].setdefault(plugin_id, []).append(record)
    with open(state, "w") as fh:
        json.dump(data, fh, indent=2)
    if enabled is not None:
        enable(plugin_id, enabled, scope, project)
    return folder


def enable(plugin_id: str, value: bool, scope: str = "user", project: str | None = None) -> str:
    """Set ``enabledPlugins[plugin_id]`` in the settings file of ``scope``, keeping the rest."""
    if scope == "user":
        path = paths.user_settings_file()
    else:
        path = os.path.join(project, ".claude", "settings.local.json" if scope == "local" else "settings.json")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    try:
        with open(path) as fh:
            data = json.load(fh)
    except FileNotFoundError:
        data = {}
    data.setdefault("enabledPlugins", {})[plugin_id] = value
    with open(path, "w") as fh:
        json.dump(data, fh, indent=2)
    return path
