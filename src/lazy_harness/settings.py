"""Claude Code settings.json: register and unregister our hooks, and nothing else.

The file belongs to Claude Code and to the user. We own only the hook entries whose command runs
our launcher (``hooks.launch.run``; before it ``hooks.entry.run``), the older ``-m lazy_harness.hooks``
or the ``lh-hook`` console script; every other key and entry is kept exactly as it was, in its order.
Two command forms: the absolute interpreter (``<python> -I -S -c '<launcher>' <Event>``, see
``command_for``, for files of this machine) and the portable ``lh-hook <Event>`` (for a project file
shared through git: it names no path of this machine, ``lh-hook`` is found on PATH).
An empty (0-byte or blank) file reads as ``{}``, as Claude Code reads it; install waits for one of 0 bytes
written moments ago (another program writing it in place, ``_read_settled``).
Our entries live in their own ``{"matcher": "", "hooks": [...]}`` group per event (one moved into a
narrower SessionStart or SessionEnd group is moved back: ``_narrow``), so uninstall can
remove them and the groups, lists and ``hooks`` key that exist only because of us, and give back
the original file. Output uses the file's own indentation and trailing newline (Claude Code writes
indent 2), so a round trip does not reformat it. See docs/adr/0003-owning-our-settings-entries.md.
"""

from __future__ import annotations

import copy
import errno
import json
import os
import re
import shlex
import stat
import sys
import time
from dataclasses import dataclass, field

from lazy_harness import paths
from lazy_harness.atomic import FILE_MODE, atomic_write, ensure_dir, read_bytes
from lazy_harness.errors import SettingsError
from lazy_harness.project_identity import project_root

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from collections.abc import Iterator

MODULE = "lazy_harness.hooks"
SCRIPT = "lh-hook"  # the console script ([project.scripts]) for the portable form
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
BUSY_AGE = 2.0  # seconds: an empty file written this recently is another program's write in progress
SETTLE_LOOKS, SETTLE_STEP = 20, 0.05  # how often and how far apart install looks again: at most a second
BACKUP_SUFFIX = ".lh-backup"
BACKUP_DIR = "settings-backups"  # under the data dir: backups of files outside the Claude dir
INSTALL_HINT = "fix the JSON in it or move it aside, then run lh hooks install again"
UNINSTALL_HINT = "fix the JSON in it, then run lh hooks uninstall again"
RUN = "from lazy_harness.hooks.launch import run; run()"  # the bundle of the hooks' modules first (hotload.py)
RUN_BEFORE = "from lazy_harness.hooks.entry import run; run()"  # the launcher before the bundle
# why: a package removed (pip uninstall) before lh hooks uninstall, or one that fails to import (a half-done
# upgrade, a syntax error), must not turn every hook into a traceback and exit 1 in the person's session; the
# try costs nothing, and an installed package runs as before (hooks.entry.run leaves with os._exit(0) itself)
GONE = "except Exception: raise SystemExit(0)"
# the interpreter's options in the command: -I, isolated (implies -E: no PYTHON* variable is read, such as a
# PYTHONHOME of another Python or a PYTHONPATH naming the project; -s; -P), -S: no site (docs/adr/0002)
FLAGS = "-I -S"
# ours: the launcher (RUN), the older ones (RUN_BEFORE, ``-m lazy_harness.hooks``: replaced at the next
# install), the portable script
_OURS = re.compile(re.escape(RUN) + "|" + re.escape(RUN_BEFORE) + r"|(?:^|\s)-m\s+" + re.escape(MODULE) + r"(?:\s|$)"
                   r"|^(?:\S*/)?" + re.escape(SCRIPT) + r"(?:\s|$)")


@dataclass
class Ours:
    """One of our hook entries found in a settings file."""

    event: str
    command: str
    timeout: object
    narrow: str | None = None  # the matcher (as JSON) of a group that does not match every source or reason


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

    ``portable``: ``lh-hook <Event>``, found on PATH wherever lazy-harness is installed. ``agent``
    ``codex``: ``--agent codex`` after the event, for the hooks.json of Codex CLI."""
    tail = f" {AGENT_FLAG} {agent}" if agent and agent != "claude" else ""
    if portable:
        return f"{SCRIPT} {event}{tail}"
    from lazy_harness.hotload import package_parent

    code = f"import sys; sys.path.append({json.dumps(parent or package_parent())})\ntry: {RUN}\n{GONE}"
    return f"{shlex.quote(python or sys.executable)} {FLAGS} -c {shlex.quote(code)} {event}{tail}"


def is_ours(entry: object) -> bool:
    """Ours whatever the interpreter and its options (``-I -S`` now, ``-S -P`` before): a reinstall
    from another venv or version replaces, never duplicates."""
    return isinstance(entry, dict) and isinstance(entry.get("command"), str) and bool(_OURS.search(entry["command"]))


def _json_type(value: object) -> str:
    """What ``value`` is in JSON's words (``null``, ``an object``, ``true``), for messages."""
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    for kind, word in ((dict, "an object"), (list, "an array"), (str, "a string"), ((int, float), "a number")):
        if isinstance(value, kind):
            return word
    return type(value).__name__


class _Unwritable(ValueError):
    """A number Python reads but JSON cannot hold as read (``1e400`` is infinity, ``NaN``)."""


def _finite(text: str) -> float:
    value = float(text)
    if value != value or value in (float("inf"), float("-inf")):
        raise _Unwritable(text)
    return value


def _no_constant(text: str) -> float:
    raise _Unwritable(text)


class _Duplicate(ValueError):
    """A key twice in one object: ``json.loads`` keeps the last and drops the first without a word."""


def _unique(pairs: list[tuple[str, object]]) -> dict:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _Duplicate(key)
            seen.add(key)
    return out


class Unreadable(SettingsError):
    """The file is there but cannot be read (its mode, or it is not a file): not a JSON problem."""


def _read_fix(path: str, exc: OSError) -> str | None:
    """What to run when ``path`` cannot be opened: the fix for that error, not "fix the JSON"."""
    if isinstance(exc, PermissionError):
        return f"chmod u+rw {path}"  # why: Claude Code and install write it too; others' bits left as they are
    if isinstance(exc, IsADirectoryError):
        return f"move {path} aside (a folder where the file belongs)"
    return None


def _read_regular(path: str) -> bytes:
    """The bytes of ``path``, opened without waiting: a FIFO (or a device) would hold the command until a
    writer came, so anything but a regular file is refused (``Unreadable``), a folder as before."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), path)
        if not stat.S_ISREG(mode):
            raise Unreadable(f"{path}: not a regular file; left untouched", f"move {path} aside")
        chunks = []
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def read(path: str, hint: str = INSTALL_HINT) -> tuple[dict | None, bytes | None]:
    """(parsed object, raw bytes), or (None, None) when the file does not exist.

    Raises SettingsError (one line, naming the file and where the JSON breaks) for anything that is
    not a JSON object; ``hint`` says what to run once it is fixed.
    """
    try:
        raw = _read_regular(path)
    except FileNotFoundError:
        return None, None
    except OSError as exc:
        raise Unreadable(f"{path}: cannot read: {exc.strerror}", _read_fix(path, exc)) from None
    if not raw.strip():
        return {}, raw  # why: an empty file is what `touch` leaves; Claude Code reads it as no settings
    try:
        data = json.loads(raw.decode("utf-8"), parse_float=_finite, parse_constant=_no_constant,
                          object_pairs_hook=_unique)
    except _Duplicate as exc:
        raise SettingsError(f"{path}: holds the key {json.dumps(str(exc), ensure_ascii=False)} twice in one object "
                            "(duplicate; a write would keep only the last); left untouched", hint) from None
    except RecursionError:
        raise SettingsError(f"{path}: not valid JSON (nested too deep); left untouched", hint) from None
    except _Unwritable as exc:
        raise SettingsError(f"{path}: holds the number {exc}, which would not be written back as it is; "
                            "left untouched", hint) from None
    except UnicodeDecodeError as exc:
        raise SettingsError(f"{path}: not valid JSON (not UTF-8 at byte {exc.start}); left untouched", hint) from None
    except ValueError as exc:
        where = (f"line {exc.lineno}, column {exc.colno}: {exc.msg}" if isinstance(exc, json.JSONDecodeError)
                 else str(exc))
        raise SettingsError(f"{path}: not valid JSON ({where}); left untouched", hint) from None
    if not isinstance(data, dict):
        raise SettingsError(f"{path}: expected a JSON object at the top level, got {_json_type(data)}; "
                            "left untouched", hint)
    return data, raw


_pause = time.sleep  # the wait between two looks at a file being written


def _written_just_now(path: str) -> bool:
    """Whether ``path`` was modified in the last BUSY_AGE seconds. why the wall clock (not an injected
    ``now``): the file system stamped the mtime with it; and either side of it, as a clock a little
    behind a network folder's still sees a file written moments ago."""
    try:
        return abs(time.time() - os.stat(path).st_mtime) < BUSY_AGE
    except OSError:
        return False


def _read_settled(path: str) -> tuple[dict | None, bytes | None]:
    """``read(path)``, but a file of 0 bytes written moments ago is not taken for ``{}``: it is another
    program's write in progress (one that truncates, then writes, as Node's writeFileSync does), and
    our hooks written over it would lose the person's settings. It is looked at again a few times, a
    short while apart (at most a second); still empty then, it is ``{}``, as an older empty file is
    (``touch`` and then ``lh hooks install``)."""
    data, raw = read(path)
    if raw != b"" or not _written_just_now(path):
        return data, raw
    for _ in range(SETTLE_LOOKS):
        _pause(SETTLE_STEP)
        try:
            if os.stat(path).st_size:
                return read(path)
        except FileNotFoundError:
            return read(path)
    return data, raw


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
    return [Ours(event, entry["command"], entry.get("timeout"), _narrow(event, group))
            for event, _, _, group in _groups(data) for entry in group["hooks"] if is_ours(entry)]


def null_matchers(data: dict) -> list[str]:
    """Groups whose ``matcher`` is null: left alone, but Claude Code may discard such a file."""
    return [f"hooks.{event}[{i}]" for event, _, i, group in _groups(data)
            if "matcher" in group and group["matcher"] is None]


def _remove_ours(data: dict, keep: dict[str, dict] | None = None) -> list[str]:
    """Remove our entries in place, except one per event in ``keep`` (set to the wanted entry), and that
    one only in a group that runs it at every source or reason (``_narrow``): from a narrower group it is
    removed, the person's entries stay there, and ``merged`` adds it back in a group of its own.

    Groups, event lists and the ``hooks`` key that become empty because ours left are removed;
    ones that were already empty stay. Returns the events whose entries were removed.
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
            if not groups:
                del hooks[event]
    if not hooks and removed:
        del data["hooks"]
    return removed


def merged(data: dict, events: dict[str, int], python: str | None = None, portable: bool = False,
           agent: str | None = None) -> dict:
    """A copy of ``data`` with exactly our entries for ``events`` (pure: no I/O)."""
    out = copy.deepcopy(data)
    hooks = out.get("hooks", {})
    if not isinstance(hooks, dict):
        raise SettingsError(f"\"hooks\" is {_json_type(hooks)}, expected an object")
    for event in events:
        if not isinstance(hooks.get(event, []), list):
            raise SettingsError(f"\"hooks.{event}\" is {_json_type(hooks[event])}, expected an array")
    wanted = {event: {"type": "command", "command": command_for(event, python, portable, agent=agent),
                     "timeout": timeout}
              for event, timeout in events.items()}
    _remove_ours(out, keep=wanted)
    present = {o.event for o in find_ours(out)}
    for event, entry in wanted.items():
        if event not in present:
            out.setdefault("hooks", {}).setdefault(event, []).append({"matcher": "", "hooks": [entry]})
    return out


def render(data: dict, raw: bytes | None) -> bytes:
    """JSON in the style of ``raw`` (its indentation and trailing newline); indent 2 for a new file."""
    indent: int | str = 2
    newline = "\n"
    if raw:
        m = re.search(rb"\n([ \t]+)\S", raw)
        if m:
            ws = m.group(1)
            indent = "\t" if ws.startswith(b"\t") else len(ws)
        newline = "\n" if raw.endswith(b"\n") else ""
    # why backslashreplace: a lone surrogate read from a "\ud800" escape goes back out as that escape
    # (UTF-8 cannot hold it, and nothing else is unencodable)
    return (json.dumps(data, indent=indent, ensure_ascii=False, allow_nan=False) + newline).encode(
        "utf-8", "backslashreplace")


def backup_file(path: str, env: Mapping[str, str] | None = None) -> str:
    """Where install keeps the first original of ``path``: ``<file>.lh-backup`` beside a file in the
    Claude dir (the user's own); for any other file, such as a project's ``.claude/settings.json``,
    ``<data dir>/settings-backups/<path as a key>.lh-backup``.

    why: a backup beside a project's file would be committed with it, and it holds this machine's
    interpreter path (docs/how/hooks.md)."""
    if paths.is_within(path, paths.claude_dir(env)) or paths.is_within(path, paths.codex_home(env)):
        return path + BACKUP_SUFFIX
    return os.path.join(paths.data_dir(env), BACKUP_DIR, paths.project_key(os.path.abspath(path)) + BACKUP_SUFFIX)


def made_folder_file(path: str, env: Mapping[str, str] | None = None) -> str:
    """Where install notes that it made the folder of ``path`` (a project's ``.claude/``), so uninstall
    removes that folder once it is empty again, and never a folder the person made:
    ``<data dir>/settings-backups/<folder as a key>.lh-made``, outside the project (never committed)."""
    folder = os.path.dirname(os.path.abspath(path))
    return os.path.join(paths.data_dir(env), BACKUP_DIR, paths.project_key(folder) + ".lh-made")


def _without_ours(data: dict) -> str:
    """``data`` with our entries removed, as JSON text in its own key order: what a backup holds of
    the person's (whitespace aside)."""
    rest = copy.deepcopy(data)
    _remove_ours(rest)
    return json.dumps(rest, ensure_ascii=False)


def _kept_already(base: str, rest: str) -> str | None:
    """The backup (``base``, else one of its dated siblings) that holds ``rest`` once our entries are
    removed from it, or None."""
    folder, name = os.path.split(base)
    try:
        names = sorted(n for n in os.listdir(folder or ".") if n == name or n.startswith(name + "."))
    except OSError:
        return None
    for n in names:  # why sorted: the first original (``base``) before the dated ones
        try:
            if os.stat(os.path.join(folder, n)).st_uid != os.geteuid():
                continue  # why: uninstall never restores another user's file (_original)
            parsed, _ = read(os.path.join(folder, n))
        except (OSError, SettingsError):
            continue  # a damaged backup proves nothing; the new one is written
        if parsed is not None and _without_ours(parsed) == rest:
            return os.path.join(folder, n)
    return None


def _backup(base: str, raw: bytes, data: dict, now: float) -> tuple[str, bool]:
    """Keep the bytes we are about to replace (``raw``, parsed: ``data``). ``base``
    (``<file>.lh-backup``) holds the first original; a later, different original gets a dated name
    beside it. A file that differs from a kept backup only in our own entries (a reinstall from a
    moved venv or another Python) is not kept again: uninstall gives back the person's part, which
    a backup already holds. Returns the backup and whether this call made it."""
    try:
        with open(base, "rb") as fh:
            if fh.read() == raw:
                return base, False
    except FileNotFoundError:
        if atomic_write(base, raw, exclusive=True):
            return base, True
    kept = _kept_already(base, _without_ours(data))
    if kept is not None:
        return kept, False
    stamp = time.strftime("%Y%m%dT%H%M%S", time.localtime(now))
    candidate, n = f"{base}.{stamp}", 1
    while not atomic_write(candidate, raw, exclusive=True):
        candidate, n = f"{base}.{stamp}-{n}", n + 1
    return candidate, True


def _refuse_read_only(path: str, command: str) -> None:
    """A file without its owner's write bit is the person's "no tool edits this" (chmod 444 in a
    dotfiles repo); a rename over it would ignore that, so refuse before anything is written.
    why the mode bits and not only os.access: root may write any file, and tests run as root."""
    try:
        mode = os.stat(path).st_mode  # a symlink's target: the file that would be replaced
    except OSError:
        return  # missing (created) or unreachable: the write reports it
    if not mode & stat.S_IWUSR or not os.access(path, os.W_OK):
        raise SettingsError(f"{path}: read-only; left untouched",
                            f"chmod u+w {shlex.quote(path)}, then run {command} again")


def _owner(uid: int) -> str:
    import pwd

    try:
        return f"{pwd.getpwuid(uid).pw_name} (uid {uid})"
    except KeyError:
        return f"uid {uid}"


def _refuse_foreign(path: str, command: str) -> None:
    """A file (or a backup) another user owns is not edited: the rename would give it to us (to root
    under sudo), and a file another local user could have made is not the person's to write or to
    restore. Refused before anything is written."""
    try:
        uid = os.stat(path).st_uid  # a symlink's target: the file that would be replaced
    except OSError:
        return  # missing (created) or unreachable: the write reports it
    me = os.geteuid()
    if uid != me:
        raise SettingsError(f"{path}: owned by {_owner(uid)}, not by {_owner(me)}; left untouched",
                            f"run {command} as its owner")


def refuse_unwritable(path: str, command: str) -> None:
    """Raise SettingsError for a file another tool would write for us (Codex's config.toml, through
    its app-server) when it is not ours to change: another user's, or without its owner's write bit."""
    _refuse_foreign(path, command)
    _refuse_read_only(path, command)


def _refuse(path: str, backup: str, command: str) -> None:
    """Before any write: ``path`` and its ``backup`` are ours (``_refuse_foreign``), ``path`` writable."""
    _refuse_foreign(path, command)
    _refuse_foreign(backup, command)
    _refuse_read_only(path, command)


def _write(path: str, data: bytes, raw: bytes | None) -> None:
    """Replace the file atomically, keeping its mode; refuse when it changed since we read ``raw``."""
    real = os.path.realpath(path)  # why: a symlinked settings.json (dotfiles) must stay a symlink
    mode = FILE_MODE
    try:
        mode = stat.S_IMODE(os.stat(real).st_mode)
    except FileNotFoundError:
        pass

    def unchanged() -> None:
        # why: Claude Code rewrites settings.json itself (/permissions, /hooks); never lose its edit. Looked
        # at again once our bytes are on disk, just before the rename: the window is a rename, not an fsync
        if read_bytes(real) != raw:
            raise SettingsError(f"{path}: changed while lh was editing it; nothing written", "run the command again")

    unchanged()
    ensure_dir(os.path.dirname(real) or ".")
    atomic_write(real, data, mode=mode, before_replace=unchanged)
    if stat.S_IMODE(os.stat(real).st_mode) != mode:
        os.chmod(real, mode)  # why: the umask may have narrowed the mode of the replacement


def _write_kept(path: str, text: bytes, raw: bytes | None, data: dict, backup: str, now: float) -> str | None:
    """Keep a backup of ``raw`` (``_backup``), then write ``text``; returns the backup. When nothing is
    written (the file changed meanwhile, a write error), a backup this call made is removed again: a
    refused install leaves the folder as it found it."""
    kept, made = None, False
    try:
        if raw is not None:
            kept, made = _backup(backup, raw, data, now)
        _write(path, text, raw)
        return kept
    except (SettingsError, OSError) as exc:
        if kept is not None and made and read_bytes(os.path.realpath(path)) != text:
            try:
                os.unlink(kept)
            except OSError:
                pass  # why: left behind, it is a copy of the file as it was, never a loss
        if isinstance(exc, SettingsError):
            raise
        raise SettingsError(f"{path}: cannot write: {exc.strerror or exc}") from None


def install(path: str, events: dict[str, int] | None = None, python: str | None = None,
            now: float | None = None, portable: bool = False, backup: str | None = None,
            agent: str | None = None) -> Change:
    """Make ``path`` hold exactly our entries for ``events`` (default: all of EVENTS, or CODEX_EVENTS
    for ``agent`` codex), in the absolute form or, with ``portable``, the ``lh-hook`` form.
    ``backup``: where the first original is kept (default ``<path>.lh-backup``; see :func:`backup_file`)."""
    events = dict((CODEX_EVENTS if agent == CODEX else EVENTS) if events is None else events)
    data, raw = _read_settled(path)
    try:
        new = merged(data or {}, events, python, portable, agent)
    except SettingsError as exc:
        raise SettingsError(f"{path}: {exc.message}; left untouched", "fix it by hand") from None
    warnings = [f"{path}: {where}: \"matcher\" is null; Claude Code may ignore this file "
                "(left as is; use \"\" to match everything)" for where in null_matchers(new)]
    change = Change(path, "unchanged", list(events), None, warnings)
    if data is not None and new == data:
        return change
    backup = backup or path + BACKUP_SUFFIX
    _refuse(path, backup, "lh hooks install" + (f" {AGENT_FLAG} {CODEX}" if agent == CODEX else ""))
    change.backup = _write_kept(path, render(new, raw), raw, data or {}, backup, time.time() if now is None else now)
    change.action = "created" if raw is None else "updated"
    return change


def _dated_key(suffix: str) -> tuple[str, int]:
    """``20261130T093150`` or ``20261130T093150-2`` (a second backup in that second) as a sort key."""
    stamp, _, n = suffix.partition("-")
    return stamp, int(n) if n.isdigit() else 0


def _newest_first(bases: list[str]) -> list[str]:
    """Each backup base's dated siblings (``<base>.<stamp>``), newest first, then the base itself (the
    first original); the bases in the order given."""
    found: list[str] = []
    for base in bases:
        folder, name = os.path.split(base)
        try:
            names = os.listdir(folder or ".")
        except OSError:
            continue
        dated = sorted((n for n in names if n.startswith(name + ".")),
                       key=lambda n: _dated_key(n[len(name) + 1:]), reverse=True)
        found += [os.path.join(folder, n) for n in dated] + ([base] if name in names else [])
    return list(dict.fromkeys(found))


def _original(backups: list[str], data: dict) -> bytes | None:
    """The bytes of the newest backup (of ``backups`` and their dated siblings) that reads as ``data``,
    else None. A backup that does not parse, or that another user owns, is passed over."""
    for backup in _newest_first(backups):
        try:
            if os.stat(backup).st_uid != os.geteuid():
                continue  # why: another local user could have put it there; its bytes are not the person's
            parsed, raw = read(backup)
        except (OSError, SettingsError):
            continue
        if parsed is not None and parsed == data:
            return raw
    return None


def uninstall(path: str, backup: str | None = None) -> Change:
    """Remove our entries. When what is left reads as a backup install kept (``backup``, else
    ``<path>.lh-backup``, where earlier versions kept every backup, or one of their dated siblings,
    newest first), that backup's bytes come back (an empty file stays an empty file). Else a file left
    as ``{}`` is deleted: Claude Code reads a missing settings file and ``{}`` the same, and install
    creates it from nothing (docs/adr/0003). A file or backup of another user is refused."""
    data, raw = read(path, UNINSTALL_HINT)
    if data is None:
        return Change(path, "missing")
    new = copy.deepcopy(data)
    removed = _remove_ours(new)
    if not removed:
        return Change(path, "unchanged")
    backup = backup or path + BACKUP_SUFFIX
    _refuse(path, backup, "lh hooks uninstall")
    original = _original(list(dict.fromkeys([backup, path + BACKUP_SUFFIX])), new)
    try:
        if original is not None:
            _write(path, original, raw)
            return Change(path, "updated", removed)
        if not new and not os.path.islink(path):
            if read_bytes(path) != raw:  # why: as _write: Claude Code may have written it since we read it
                raise SettingsError(f"{path}: changed while lh was editing it; nothing written",
                                    "run the command again")
            os.unlink(path)
            return Change(path, "deleted", removed)
        _write(path, render(new, raw), raw)
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
