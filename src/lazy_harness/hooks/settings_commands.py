"""Our hook commands in Claude Code's settings files: which a file registers, for which events, and
what each needs to start (its program, the folder its launcher loads lazy_harness from).

For the plugin's runs (``hooks.entry.settings_register``): imported only when a session folder's
settings files changed since the answer kept for it (or none is kept), so not on a hook's usual run.
The entry reads the files' bytes and passes them in.
"""

from __future__ import annotations

import os

from lazy_harness import jsonload

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping


# why here and not settings.is_ours: settings.py imports re, shlex and dataclasses, off the hot path;
# tests/hooks/test_plugin_twice_inst.py holds our_command to the same answers as settings.is_ours
_LAUNCHERS = ("from lazy_harness.hooks.launch import run; run()", "from lazy_harness.hooks.entry import run; run()")
_SCRIPT = "lh-hook"  # settings.SCRIPT
_APPEND = "sys.path.append("  # in settings.command_for's launcher: the folder it loads lazy_harness from


def our_command(command: object) -> bool:
    """``settings.is_ours`` for one command: our launcher, ``-m lazy_harness.hooks``, or ``lh-hook``."""
    if not isinstance(command, str):
        return False
    if any(run in command for run in _LAUNCHERS):
        return True
    words = command.split()
    if any(w == "-m" and nxt == "lazy_harness.hooks" for w, nxt in zip(words, words[1:], strict=False)):
        return True
    first = words[0] if words and not command[0].isspace() else ""
    return first == _SCRIPT or first.endswith("/" + _SCRIPT)


def _registering(path: str, raw: bytes | None, cwd: str, env: Mapping[str, str]
                 ) -> tuple[dict[str, list[list]], str | None]:
    """Our commands in the settings file ``path`` (its bytes ``raw``; None: no regular file there) by
    event, each ``[path, program, package file]`` (``_needs``), and why Claude Code runs none of them
    from it: a file it does not load (not JSON, a null matcher anywhere in it) or whose hooks are off
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
                if isinstance(h, dict) and our_command(h.get("command")):
                    events.setdefault(event, []).append([path, *_needs(h["command"], cwd, env)])
    if not events:
        return {}, None
    if data.get("disableAllHooks") is True:
        return events, "sets \"disableAllHooks\": true: Claude Code runs no hook of it"
    if nulls:
        return events, f"has a null \"matcher\" ({', '.join(nulls)}): Claude Code ignores the whole file"
    return events, None


def _sh_word(command: str, i: int) -> tuple[str | None, int]:
    """The word of the POSIX sh ``command`` that starts at ``i``, quotes removed, and where it ends;
    None when only a shell could say what it is (a ``$`` or backquote, an unclosed quote)."""
    out, n = [], len(command)
    while i < n and command[i] not in " \t\n;&|<>()":
        c = command[i]
        if c in "$`":
            return None, i
        if c == "'":
            end = command.find("'", i + 1)
            if end < 0:
                return None, i
            out.append(command[i + 1:end])
            i = end + 1
        elif c == '"':
            i += 1
            while i < n and command[i] != '"':
                if command[i] in "$`":
                    return None, i
                if command[i] == "\\" and i + 1 < n and command[i + 1] in '"\\\n':
                    i += 1
                out.append(command[i])
                i += 1
            if i >= n:
                return None, i
            i += 1
        elif c == "\\" and i + 1 < n:
            out.append(command[i + 1])
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out), i


def _program(command: str) -> str | None:
    """The program sh starts for ``command`` (its first word after any ``NAME=value``), or None."""
    i = 0
    while True:
        while i < len(command) and command[i] in " \t\n":
            i += 1
        word, i = _sh_word(command, i)
        name, eq, _ = (word or "").partition("=")
        if not (eq and name and name.replace("_", "a").isalnum() and not name[0].isdigit()):
            return word or None


def _needs(command: str, cwd: str, env: Mapping[str, str]) -> list[str | None]:
    """What must be there for our ``command`` to start: its program (absolute, or a bare name looked up
    on PATH at each run; None: only a shell could say, or ``lh-hook`` itself) and the file the launcher
    loads lazy_harness from (``-c 'import sys; sys.path.append("<folder>") ...'``; None for other forms)."""
    word = _program(command)
    if word is not None and word.startswith("~/"):
        from lazy_harness import paths

        word = paths.home(env) + word[1:]
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
