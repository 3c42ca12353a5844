"""Our hook commands in Claude Code's settings files: which a file registers, for which events, and
what each needs to start (its program, the folder its launcher loads lazy_harness from).

For the plugin's runs (``hooks.entry.settings_register``): imported only when a session folder's
settings files changed since the answer kept for it (or none is kept), so not on a hook's usual run.
The entry reads the files' bytes and passes them in.
"""

from __future__ import annotations

import os

from lazy_harness import hook_command, jsonload, paths

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping


_SCRIPT = hook_command.SCRIPT
_APPEND = "sys.path.append("  # in settings.command_for's launcher: the folder it loads lazy_harness from


def our_command(command: object) -> bool:
    """``settings.is_ours`` for one command (both are ``hook_command.ours``)."""
    return hook_command.ours(command)


def _runs(command: object, event: str) -> bool:
    """Whether ``command`` runs our hook of ``event`` for Claude Code. why not ours alone: the hook runs
    the event and the agent its command names, whichever event holds the entry (``lh-hook Stop`` under
    SessionStart, ``--agent codex`` copied from Codex's hooks.json), and one run with ``--plugin`` leaves
    itself when a settings command runs the event."""
    return (our_command(command) and hook_command.event_of(str(command)) in (None, event)
            and hook_command.agent_of(str(command)) != "codex" and not hook_command.plugin_form(str(command)))


def _registering(path: str, raw: bytes | None, cwd: str, env: Mapping[str, str]
                 ) -> tuple[dict[str, list[list]], str | None]:
    """Our commands in the settings file ``path`` (its bytes ``raw``; None: no regular file there) by
    event, those that run another event's or agent's hook left out (``_runs``), each
    ``[path, program, package file]`` (``_needs``), and why Claude Code runs none of them from it: a file
    it does not load (not JSON, a null matcher anywhere in it) or whose hooks are off
    (``disableAllHooks``); None when it runs them."""
    if raw is None:
        return {}, None
    try:
        data = jsonload.loads(raw)
    except (ValueError, RecursionError):
        held = b"lazy_harness.hooks" in raw or b"lh-hook" in raw  # said only when it seems to hold ours
        return {}, "is not valid JSON: Claude Code does not load it" if held else None
    hooks = data.get("hooks") if isinstance(data, dict) else None
    if not isinstance(hooks, dict):
        return {}, None
    events: dict[str, list[list]] = {}
    nulls = []
    for event, groups in hooks.items():
        for i, group in enumerate(groups if isinstance(groups, list) else ()):
            if isinstance(group, dict) and "matcher" in group and group["matcher"] is None:
                nulls.append(f"hooks.{event}[{i}]")
            entries = group.get("hooks") if isinstance(group, dict) else None
            for h in entries if isinstance(entries, list) else ():
                if isinstance(h, dict) and _runs(h.get("command"), event):
                    events.setdefault(event, []).append([path, *_needs(h["command"], cwd, env)])
    if not events:
        return {}, None
    if data.get("disableAllHooks") is True:
        return events, "sets \"disableAllHooks\": true: Claude Code runs no hook of it"
    if nulls:
        return events, f"has a null \"matcher\" ({', '.join(nulls)}): Claude Code ignores the whole file"
    return events, None


def _needs(command: str, cwd: str, env: Mapping[str, str]) -> list[str | None]:
    """What must be there for our ``command`` to start: its program (absolute, or a bare name looked up
    on PATH at each run; ``$HOME`` and a leading ``~/`` read as sh reads them; None: only a shell could
    say, or ``lh-hook`` itself) and the file the launcher loads lazy_harness from (``-c 'import sys;
    sys.path.append("<folder>") ...'``; None for other forms)."""
    word = hook_command.program_file(command, paths.home(env))
    if word is None or word.startswith("~") or word == _SCRIPT:
        # why lh-hook: the plugin's own run is the lh-hook found on the same PATH, so it starts
        return [None, None]
    program = word if os.sep not in word else os.path.join(cwd, word)
    at = command.find(_APPEND)
    end = command.find('")', at)
    try:
        folder = jsonload.loads(command[at + len(_APPEND):end + 1]) if at >= 0 and end > at else None
    except (ValueError, RecursionError):
        folder = None  # why: a folder name holding a quote; the program alone is checked
    package = os.path.join(folder, "lazy_harness", "hooks", "entry.py") if isinstance(folder, str) else None
    return [program, package]


def look(files: list[tuple[str, bytes | None]], cwd: str, env: Mapping[str, str], now: float, last: object
         ) -> dict:
    """The answer kept for ``cwd`` while its settings files (each path with its bytes, None when there
    is no regular file) are unchanged: ``runs`` (event -> our commands in the files Claude Code runs
    hooks from), ``ignored`` (why each other file holding ours does not count) and ``said`` (the
    reasons hooks.log already holds); a change that makes the files register ours is said once."""
    runs: dict[str, list[list]] = {}
    ignored = []
    for path, raw in files:
        events, why = _registering(path, raw, cwd, env)
        if why:
            ignored.append(f"{path} {why}")
            continue
        for name, commands in events.items():
            runs.setdefault(name, []).extend(commands)
    # why "events": what an earlier version kept, so its note is not said again after an upgrade
    before = (last.get("runs") or last.get("events")) if isinstance(last, dict) else None
    said = last.get("said") if isinstance(last, dict) else None
    if runs and (not isinstance(before, dict) or sorted(runs) != sorted(before)):
        from lazy_harness import logfile

        where = ", ".join(sorted({run[0] for rs in runs.values() for run in rs}))
        logfile.write(logfile.HOOKS, f"plugin: {where} registers lazy-harness hooks ({', '.join(runs)}) for sessions "
                      f"in {cwd}: the plugin's runs of those events leave at once while those commands can start "
                      "(Claude Code runs both)", env, now)
    return {"runs": runs, "ignored": ignored, "said": [r for r in said or () if r in ignored]}
