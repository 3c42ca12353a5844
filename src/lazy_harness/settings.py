"""Claude Code settings.json: register and unregister our hooks, and nothing else.

The file belongs to Claude Code and to the user. We own only the hook entries whose command runs
our launcher (``hooks.launch.run``; before it ``hooks.entry.run``), the older ``-m lazy_harness.hooks``
or the ``lh-hook`` console script; every other key and entry is kept exactly as it was, in its order.
Two command forms: the absolute interpreter (``<python> -I -S -c '<launcher>' <Event>``, see
``command_for``, for files of this machine) and the portable ``lh-hook <Event>`` (for a project file
shared through git: it names no path of this machine, ``lh-hook`` is found on PATH).
Reading the file is ``settings_read``'s, writing it (refusals, backups, the atomic replace)
``settings_write``'s.
Our entries live in their own ``{"matcher": "", "hooks": [...]}`` group per event (one moved into a
narrower SessionStart or SessionEnd group is moved back: ``_narrow``), so uninstall can
remove them and the groups, lists and ``hooks`` key that exist only because of us, and give back
the original file. Only the top-level ``hooks`` value changes in the file's text
(``settings_splice``): every other byte stays, so a round trip does not reformat it. See
docs/adr/0003-owning-our-settings-entries.md and docs/adr/0058-install-changes-only-the-hooks-value.md.
"""

from __future__ import annotations

import copy
import json
import os
import re
import shlex
import sys
import time
from dataclasses import dataclass, field

from lazy_harness import hook_command, paths
from lazy_harness.atomic import read_bytes
from lazy_harness.errors import SettingsError
from lazy_harness.hook_command import MODULE as MODULE, RUN, RUN_BEFORE as RUN_BEFORE, SCRIPT
from lazy_harness.project_identity import project_root
from lazy_harness.settings_read import UNINSTALL_HINT, json_type, read, read_settled
from lazy_harness.settings_splice import spliced
from lazy_harness.settings_write import BACKUP_SUFFIX, originals, refuse, write, write_kept

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from collections.abc import Iterator

# Event -> timeout in seconds. SessionEnd: a per-hook timeout raises the shared 1.5 s budget; the
# hook itself only enqueues and spawns (tens of ms), 5 s is headroom for a slow disk. UserPromptSubmit
# runs before every typed prompt: 5 s, so a stuck index can never hold the user's prompt longer.
EVENTS: dict[str, int] = {"SessionStart": 10, "Stop": 10, "SessionEnd": 5, "UserPromptSubmit": 5}
# Codex CLI (hooks.json in $CODEX_HOME): the same four events; Codex clamps SessionEnd to 3 s
CODEX_EVENTS: dict[str, int] = {"SessionStart": 10, "Stop": 10, "SessionEnd": 3, "UserPromptSubmit": 5}
CODEX = "codex"
AGENT_FLAG = "--agent"  # why: Codex's payloads look like Claude Code's; the command says which agent runs it
# events whose matcher narrows when a group runs: SessionStart matches the source (startup, resume, clear,
# compact), SessionEnd the reason; the others run every group (claude-code-facts.md)
MATCHED_EVENTS = ("SessionStart", "SessionEnd")
EVERY = ("", "*")  # matchers that match everything (a group without a matcher too)
# why: a package removed (pip uninstall) before lh hooks uninstall, or one that fails to import (a half-done
# upgrade, a syntax error), must not turn every hook into a traceback and exit 1 in the person's session; the
# try costs nothing, and an installed package runs as before (hooks.entry.run leaves with os._exit(0) itself)
GONE = "except Exception: raise SystemExit(0)"
# why: what the command starts can be gone while the entry stays (pipx uninstall, a deleted virtualenv, a Python
# upgrade that took the venv's interpreter, a teammate without lh-hook for a project's shared file): sh then
# exits 127 and Claude Code shows "hook error" after every turn and before every prompt. Our hooks always exit
# 0 themselves, so the guard changes nothing while they run (docs/adr/0068-a-hook-that-cannot-start-exits-0.md)
GUARD = " || exit 0"
# the interpreter's options in the command: -I, isolated (implies -E: no PYTHON* variable is read, such as a
# PYTHONHOME of another Python or a PYTHONPATH naming the project; -s; -P), -S: no site (docs/adr/0002)
FLAGS = "-I -S"


@dataclass
class Ours:
    """One of our hook entries found in a settings file."""

    event: str
    command: str
    timeout: object
    narrow: str | None = None  # the matcher (as JSON) of a group that does not match every source or reason
    background: bool = False  # ``"async": true`` (the person's key): Claude Code runs it without waiting for it


@dataclass
class Change:
    """What install or uninstall did to one file."""

    path: str
    action: str  # created | updated | unchanged | deleted | missing
    events: list[str] = field(default_factory=list)
    backup: str | None = None
    warnings: list[str] = field(default_factory=list)


def files_for(root: str, env: Mapping[str, str] | None = None) -> list[tuple[str, str]]:
    """(label, path) of the settings files Claude Code reads for a project at ``root``, lowest
    precedence first: the user file, the project's shared file, its local file."""
    return [("user", paths.user_settings_file(env)),
            ("project", os.path.join(root, ".claude", "settings.json")),
            ("local", os.path.join(root, ".claude", "settings.local.json"))]


def files_read_at(cwd: str, env: Mapping[str, str] | None = None) -> list[tuple[str, str]]:
    """(label, path) of the settings files Claude Code reads for a session started in ``cwd``, lowest
    precedence first: the user file, ``<cwd>/.claude/settings.json`` and ``settings.local.json``, and,
    in a subfolder of a git repository, the root's ``.claude/settings.local.json``, which decides over
    both of the subfolder's files. The root's ``settings.json`` is not read there (Claude Code 2.1.332,
    observed with the real CLI: docs/how/hooks.md)."""
    here = os.path.realpath(cwd)
    root = project_root(here)
    files = files_for(here, env)
    if root != here:
        files.append(("local", os.path.join(root, ".claude", "settings.local.json")))
    return files


def command_for(event: str, python: str | None = None, portable: bool = False, parent: str | None = None,
                agent: str | None = None) -> str:
    """``<python> -I -S -c '<launcher>' <Event>``: the absolute interpreter, so PATH does not matter;
    the launcher puts the folder holding this lazy_harness (``parent``) on ``sys.path`` and runs
    ``hooks.launch.run`` (the hooks' bundle, docs/adr/0050, then ``hooks.entry.run``). ``-I``:
    isolated from the person's environment (no PYTHONHOME, PYTHONPATH or other PYTHON* variable is
    read, no user site) and the project folder Claude Code runs the hook in is not put on ``sys.path``
    (a file of the project named like a module must not replace it); ``-S``: no ``site`` (the hooks
    use the standard library and this package only); neither imports ``runpy`` as ``-m`` does
    (docs/adr/0002). When the package cannot be imported (removed before ``lh hooks uninstall``, or
    broken), the hook exits 0 and prints nothing.

    The command ends with ``|| exit 0`` (``GUARD``): a program that cannot start (the interpreter or
    ``lh-hook`` gone) exits 0 too, silently. Claude Code and Codex CLI both run the command through a
    shell (docs/adr/0068).

    ``portable``: ``lh-hook <Event>``, found on PATH wherever lazy-harness is installed. ``agent``
    ``codex``: ``--agent codex`` after the event, for the hooks.json of Codex CLI."""
    codex = bool(agent) and agent != "claude"
    tail = f" {AGENT_FLAG} {agent}{GUARD}" if codex else GUARD
    if portable:
        return f"{SCRIPT} {event}{tail}"
    from lazy_harness.hotload import package_parent

    code = f"import sys; sys.path.append({json.dumps(parent or package_parent())})\ntry: {RUN}\n{GONE}"
    return f"{shlex.quote(python or sys.executable)} {FLAGS} -c {shlex.quote(code)} {event}{tail}"


def is_ours(entry: object) -> bool:
    """Ours whatever the interpreter and its options (``-I -S`` now, ``-S -P`` before) and whatever the
    person set before it (``LH_CONFIG=... lh-hook Stop``): a reinstall from another venv or version
    replaces, never duplicates (``hook_command.ours``)."""
    return isinstance(entry, dict) and hook_command.ours(entry.get("command"))


def command_prefix(command: str) -> str:
    """What the person set before the program of our ``command`` (``LH_CONFIG=/x/y.toml ``, ``env A=1 ``),
    kept when install rewrites it; "" when nothing."""
    return hook_command.prefix(command)


def prefixed_command(data: dict, event: str) -> str | None:
    """The first command of ours for ``event`` in ``data`` that sets something before its program, or None.
    why: an install before ADR 0070 added its own entry beside the person's ``LH_CONFIG=... lh-hook``;
    install keeps one entry per event, and the prefix is the person's whichever entry holds it."""
    return next((o.command for o in find_ours(data) if o.event == event and command_prefix(o.command)), None)


def python_variables(command: str) -> list[str]:
    """The ``PYTHON*`` variables ``command`` sets before its program: install keeps them, but an
    interpreter run with ``-I`` (``FLAGS``) reads none of them (``lh-hook``'s own does)."""
    return [w.split("=", 1)[0] for w in split_command(command_prefix(command)) if w.startswith("PYTHON") and "=" in w]


def program(command: str) -> str | None:
    """The program sh starts for ``command``, after any ``NAME=value`` and ``env``; None when only a shell
    could say."""
    return hook_command.program(command)


def program_file(command: str, env: Mapping[str, str] | None = None) -> str | None:
    """The program sh starts for ``command``, ``$HOME`` and a leading ``~/`` read as the home of ``env``
    (``$HOME/.local/bin/lh-hook``); None when only a shell could say."""
    return hook_command.program_file(command, paths.home(env))


def _groups(data: dict) -> Iterator[tuple[str, list, int, dict]]:
    """Yield (event, group list, index, group) for every well-formed group; malformed ones are skipped."""
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        return
    for event, groups in hooks.items():
        if not isinstance(groups, list):
            continue
        for i, group in enumerate(groups):
            if isinstance(group, dict) and isinstance(group.get("hooks"), list):
                yield event, groups, i, group


def _narrow(event: str, group: dict) -> str | None:
    """The matcher of ``group`` as JSON when it keeps an entry for ``event`` from running at every source
    (SessionStart) or reason (SessionEnd), else None. A null matcher counts as narrow: it matches
    nothing for certain (Claude Code may drop the whole file for it), and ours goes to a group of its own."""
    matcher = group.get("matcher", "")
    if event not in MATCHED_EVENTS or matcher in EVERY:
        return None
    return json.dumps(matcher, ensure_ascii=False)


def find_ours(data: dict) -> list[Ours]:
    """Our entries in file order."""
    return [Ours(event, entry["command"], entry.get("timeout"), _narrow(event, group), entry.get("async") is True)
            for event, _, _, group in _groups(data) for entry in group["hooks"] if is_ours(entry)]


def named_not_ours(data: dict) -> list[tuple[str, str]]:
    """(event, command) of the person's commands that name ``lh-hook``, our launcher or ``-m
    lazy_harness.hooks`` without being ours (ADR 0070: ``lh-hook Stop; backup.sh``, ``timeout 5 lh-hook
    Stop``): kept, and said, since one that runs it runs the event a second time beside ours."""
    return [(event, entry["command"]) for event, _, _, group in _groups(data) for entry in group["hooks"]
            if isinstance(entry, dict) and isinstance(entry.get("command"), str) and not is_ours(entry)
            and _names_our_hook(entry["command"])]


def _names_our_hook(command: str) -> bool:
    """Whether ``command`` holds the name of our program, our launcher or our module, wherever."""
    words = re.split(r"[\s;&|<>()'\"]+", command)
    return (_names_script(command) or RUN in command or RUN_BEFORE in command
            or any(w == "-m" and nxt == MODULE for w, nxt in zip(words, words[1:], strict=False)))


def null_matchers(data: dict) -> list[str]:
    """Groups whose ``matcher`` is null: left alone, but Claude Code may discard such a file."""
    return [f"hooks.{event}[{i}]" for event, _, i, group in _groups(data)
            if "matcher" in group and group["matcher"] is None]


def _remove_ours(data: dict, keep: dict[str, dict] | None = None, held: dict | None = None) -> list[str]:
    """Remove our entries in place, except one per event in ``keep`` (set to the wanted entry), and that
    one only in a group that runs it at every source or reason (``_narrow``): from a narrower group it is
    removed, the person's entries stay there, and ``merged`` adds it back in a group of its own.

    Groups, event lists and the ``hooks`` key that become empty because ours left are removed;
    ones that were already empty stay. ``held``: the ``hooks`` value of the person's file before
    install (``_held``); an event list it has, and the ``hooks`` key, stay even when left empty.
    Returns the events whose entries were removed.
    """
    keep = keep or {}
    removed: list[str] = []
    kept: set[str] = set()
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        return removed
    for event in list(hooks):
        groups = hooks[event]
        if not isinstance(groups, list):
            continue
        touched = False
        survivors = []
        for group in groups:
            if isinstance(group, dict) and isinstance(group.get("hooks"), list):
                entries = group["hooks"]
                left = []
                for entry in entries:
                    if not is_ours(entry):
                        left.append(entry)
                    elif event in keep and event not in kept and _narrow(event, group) is None:
                        kept.add(event)
                        left.append(keep[event])
                    else:
                        touched = True
                if left != entries:
                    entries[:] = left
                    if not left:
                        continue  # the group held only ours
            survivors.append(group)
        groups[:] = survivors
        if touched:
            removed.append(event)
            if not groups and (held is None or event not in held):
                del hooks[event]
    if not hooks and removed and held is None:
        del data["hooks"]
    return removed


def _wanted(data: dict, events: Mapping[str, float], python: str | None, portable: bool,
            agent: str | None) -> dict[str, dict]:
    """Our entry for each of ``events``: the first entry of ours for it in ``data`` (the one whose
    timeout ``kept_timeouts`` reads), with what we own set: ``type``, ``command`` and ``timeout``
    (``events`` holds the person's timeout where it is kept), the command after what the person set
    before its program in any entry of ours for the event (``prefixed_command``). Every other key the
    person added (``statusMessage``, one we do not know) stays, in its place (docs/adr/0058, amendments)."""
    first: dict[str, dict] = {}
    for event, _, _, group in _groups(data):
        for entry in group["hooks"]:
            if event in events and event not in first and is_ours(entry):
                first[event] = entry
    wanted = {}
    for event, timeout in events.items():
        entry = copy.deepcopy(first.get(event, {}))
        had = prefixed_command(data, event) or entry.get("command", "")
        command = command_prefix(had) + command_for(event, python, portable, agent=agent)
        entry.update({"type": "command", "command": command, "timeout": timeout})
        wanted[event] = entry
    return wanted


def merged(data: dict, events: Mapping[str, float], python: str | None = None, portable: bool = False,
           agent: str | None = None) -> dict:
    """A copy of ``data`` with exactly our entries for ``events`` (pure: no I/O)."""
    out = copy.deepcopy(data)
    hooks = out.get("hooks", {})
    if not isinstance(hooks, dict):
        raise SettingsError(f"\"hooks\" is {json_type(hooks)}, expected an object")
    for event in events:
        if not isinstance(hooks.get(event, []), list):
            raise SettingsError(f"\"hooks.{event}\" is {json_type(hooks[event])}, expected an array")
    wanted = _wanted(out, events, python, portable, agent)
    _remove_ours(out, keep=wanted)
    present = {o.event for o in find_ours(out)}
    for event, entry in wanted.items():
        if event not in present:
            out.setdefault("hooks", {}).setdefault(event, []).append({"matcher": "", "hooks": [entry]})
    return out


def _without_ours(data: dict) -> str:
    """``data`` with our entries removed, as JSON text in its own key order: what a backup holds of
    the person's (whitespace aside)."""
    rest = copy.deepcopy(data)
    _remove_ours(rest)
    return json.dumps(rest, ensure_ascii=False)


def install(path: str, events: Mapping[str, float] | None = None, python: str | None = None,
            now: float | None = None, portable: bool = False, backup: str | None = None,
            agent: str | None = None) -> Change:
    """Make ``path`` hold exactly our entries for ``events`` (default: all of EVENTS, or CODEX_EVENTS
    for ``agent`` codex), in the absolute form or, with ``portable``, the ``lh-hook`` form.
    ``backup``: where the first original is kept (default ``<path>.lh-backup``; see
    :func:`lazy_harness.settings_write.backup_file`). Only the top-level ``hooks`` value of the file's
    text changes (``settings_splice.spliced``)."""
    events = dict((CODEX_EVENTS if agent == CODEX else EVENTS) if events is None else events)
    data, raw = read_settled(path)
    try:
        new = merged(data or {}, events, python, portable, agent)
    except SettingsError as exc:
        raise SettingsError(f"{path}: {exc.message}; left untouched", "fix it by hand") from None
    warnings = [f"{path}: {where}: \"matcher\" is null: Claude Code ignores this whole file, so none of its hooks "
                "run, ours neither (left as is; use \"\" to match everything)" for where in null_matchers(new)]
    warnings += [_named_warning(path, event, command) for event, command in named_not_ours(new) if event in events]
    change = Change(path, "unchanged", list(events), None, warnings)
    if data is not None and new == data:
        return change
    backup = backup or path + BACKUP_SUFFIX
    refuse(path, backup, "lh hooks install" + (f" {AGENT_FLAG} {CODEX}" if agent == CODEX else ""))
    now = time.time() if now is None else now
    change.backup = write_kept(path, spliced(raw, new, is_ours), raw, data or {}, backup, now, _without_ours)
    change.action = "created" if raw is None else "updated"
    return change


def _names_script(command: str) -> bool:
    """Whether ``lh-hook`` is a word of ``command`` (a path's last part counts: ``~/bin/lh-hook``)."""
    return SCRIPT in re.split(r"[\s;&|<>()'\"/]+", command)


def _named_warning(path: str, event: str, command: str, left: bool = False) -> str:
    """What install (``left``: uninstall) says of the person's ``command`` for ``event`` that names our
    hook (``named_not_ours``)."""
    named = SCRIPT if _names_script(command) else "lazy-harness's hook"
    then = "lazy-harness's hook runs there still" if left else "the event runs twice"
    return (f"{path}: {event}: your command {json.dumps(command, ensure_ascii=False)} names {named}; "
            f"{'left as yours' if left else 'kept as yours, beside ours'}: if it runs "
            f"{'it' if named != SCRIPT else SCRIPT}, {then} (leave {named} out of it)")


def _held(was: dict) -> dict | None:
    """The empty event lists of the ``hooks`` value of a backup's ``was`` without our entries (one kept
    by a reinstall holds some), or None when it has no ``hooks`` object, or one with neither an empty
    list nor nothing in it. why only empty ones: a list the person filled, which ours leave empty now,
    was emptied since that backup (or the backup is of an earlier file, install made this one), and
    an empty list there is not theirs; the same for the ``hooks`` key."""
    rest = copy.deepcopy(was)
    _remove_ours(rest)
    hooks = rest.get("hooks")
    if not isinstance(hooks, dict):
        return None
    empty = {event: groups for event, groups in hooks.items() if groups == []}
    return empty if empty or not hooks else None


def _given_back(data: dict, backups: list[str]) -> tuple[dict, bytes | None]:
    """What uninstall leaves of ``data``, and the bytes of the newest backup that reads as exactly that
    (else None). Our entries go, and so do the event lists and the ``hooks`` key they leave empty,
    unless the person's file held them before install: as the backup that reads as what is left
    shows, else the newest backup (the file was edited since). why the backup: parsed, ``{"hooks":
    {}}`` and ``{}`` with ours added are the same file; without a backup, what ours left empty goes."""
    fallback = None
    for was, raw in originals(backups):
        new = copy.deepcopy(data)
        _remove_ours(new, held=_held(was))
        if new == was:
            return new, raw
        fallback = new if fallback is None else fallback
    if fallback is None:
        fallback = copy.deepcopy(data)
        _remove_ours(fallback)
    return fallback, None


def uninstall(path: str, backup: str | None = None) -> Change:
    """Remove our entries. When what is left reads as a backup install kept (``backup``, else
    ``<path>.lh-backup``, where earlier versions kept every backup, or one of their dated siblings,
    newest first), that backup's bytes come back (an empty file stays an empty file; an empty
    ``hooks`` value or event list the person wrote stays: ``_given_back``). Else a file left
    as ``{}`` is deleted: Claude Code reads a missing settings file and ``{}`` the same, and install
    creates it from nothing (docs/adr/0003). A file or backup of another user is refused. The
    warnings name the person's commands left that name our hook (``named_not_ours``)."""
    data, raw = read(path, UNINSTALL_HINT)
    if data is None:
        return Change(path, "missing")
    change = _uninstalled(path, data, raw, backup)
    change.warnings = [_named_warning(path, event, command, left=True) for event, command in named_not_ours(data)]
    return change


def _uninstalled(path: str, data: dict, raw: bytes | None, backup: str | None) -> Change:
    """:func:`uninstall` of the file at ``path``, which holds ``data`` (its bytes ``raw``)."""
    new = copy.deepcopy(data)
    removed = _remove_ours(new)
    if not removed:
        return Change(path, "unchanged")
    backup = backup or path + BACKUP_SUFFIX
    refuse(path, backup, "lh hooks uninstall")
    new, original = _given_back(data, list(dict.fromkeys([backup, path + BACKUP_SUFFIX])))
    try:
        if original is not None:
            write(path, original, raw)
            return Change(path, "updated", removed)
        if not new and not os.path.islink(path):
            if read_bytes(path) != raw:  # why: as write: Claude Code may have written it since we read it
                raise SettingsError(f"{path}: changed while lh was editing it; nothing written",
                                    "run the command again")
            os.unlink(path)
            return Change(path, "deleted", removed)
        write(path, spliced(raw, new, is_ours), raw)
    except OSError as exc:
        raise SettingsError(f"{path}: cannot write: {exc.strerror or exc}") from None
    return Change(path, "updated", removed)


def package_folder(argv: list[str]) -> str | None:
    """The folder a hook command of ours appends to the import path (``-S -c 'import sys;
    sys.path.append("<folder>"); ...'``), or None. why: with ``-S`` that folder is the only way the
    hook finds the package."""
    if "-c" not in argv[:-1]:
        return None
    found = re.search(r"sys\.path\.append\((\"(?:[^\"\\]|\\.)*\")\)", argv[argv.index("-c") + 1])
    if not found:
        return None
    try:
        return json.loads(found.group(1))
    except ValueError:
        return None


def other_install(commands: list[str]) -> list[str]:
    """The folders other than this ``lh``'s own the hook ``commands`` load lazy_harness from (another
    virtualenv, an install not upgraded). why: its version then runs the hooks, while this one runs the
    commands and the worker: two versions of the index and the caches, each taking the other's for
    damage and building its own again."""
    mine = package_folder(split_command(command_for("SessionStart")))
    if mine is None:
        return []
    folders = {f for c in commands if (f := package_folder(split_command(c)))}
    return sorted(f for f in folders if os.path.realpath(f) != os.path.realpath(mine))


def split_command(command: str) -> list[str]:
    """``command`` as argv, as a shell splits it; [] when it cannot be split (an unclosed quote)."""
    try:
        return shlex.split(command)
    except ValueError:
        return []
