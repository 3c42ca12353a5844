"""Writing a settings file: who may (a file of another user, or without its owner's write bit, is
refused before anything is written), the backups of what install replaces and the original uninstall
gives back, and the atomic replace that refuses a file changed since it was read.
"""

from __future__ import annotations

import os
import shlex
import stat
import time

from lazy_harness import paths
from lazy_harness.atomic import FILE_MODE, atomic_write, ensure_dir, read_bytes
from lazy_harness.errors import SettingsError
from lazy_harness.settings_read import read
from lazy_harness.regular_file import read_regular

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Mapping

BACKUP_SUFFIX = ".lh-backup"
BACKUP_DIR = "settings-backups"  # under the data dir: backups of files outside the Claude dir


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


def _kept_already(base: str, rest: str, persons_part: Callable[[dict], str]) -> str | None:
    """The backup (``base``, else one of its dated siblings) whose ``persons_part`` (what is left once
    our entries are removed) is ``rest``, or None."""
    folder, name = os.path.split(base)
    try:
        names = sorted(n for n in os.listdir(folder or ".") if n == name or n.startswith(name + "."))
    except OSError:
        return None
    for n in names:  # why sorted: the first original (``base``) before the dated ones
        try:
            if os.stat(os.path.join(folder, n)).st_uid != os.geteuid():
                continue  # why: uninstall never restores another user's file (originals)
            parsed, _ = read(os.path.join(folder, n))
        except (OSError, SettingsError):
            continue  # a damaged backup proves nothing; the new one is written
        if parsed is not None and persons_part(parsed) == rest:
            return os.path.join(folder, n)
    return None


def _backup(base: str, raw: bytes, data: dict, now: float,
            persons_part: Callable[[dict], str]) -> tuple[str, bool]:
    """Keep the bytes we are about to replace (``raw``, parsed: ``data``). ``base``
    (``<file>.lh-backup``) holds the first original; a later, different original gets a dated name
    beside it. A file that differs from a kept backup only in our own entries (a reinstall from a
    moved venv or another Python) is not kept again: uninstall gives back the person's part, which
    a backup already holds. Returns the backup and whether this call made it."""
    try:  # why read_regular: a FIFO in the backup's place held install in open(); now refused, naming it
        if read_regular(base) == raw:
            return base, False
    except FileNotFoundError:
        if atomic_write(base, raw, exclusive=True):
            return base, True
    except OSError as exc:
        raise SettingsError(f"{base}: cannot read: {exc.strerror or exc}; nothing written",
                            f"move {base} aside") from None
    kept = _kept_already(base, persons_part(data), persons_part)
    if kept is not None:
        return kept, False
    stamp = time.strftime("%Y%m%dT%H%M%S", time.localtime(now))
    candidate, n = f"{base}.{stamp}", 1
    while not atomic_write(candidate, raw, exclusive=True):
        candidate, n = f"{base}.{stamp}-{n}", n + 1
    return candidate, True


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


def originals(backups: list[str]) -> Iterator[tuple[dict, bytes]]:
    """(parsed, bytes) of each backup of ``backups`` and their dated siblings, newest first. A backup
    that does not parse, or that another user owns, is passed over."""
    for backup in _newest_first(backups):
        try:
            if os.stat(backup).st_uid != os.geteuid():
                continue  # why: another local user could have put it there; its bytes are not the person's
            parsed, raw = read(backup)
        except (OSError, SettingsError):
            continue
        if parsed is not None and raw is not None:
            yield parsed, raw


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


def _refuse_hard_linked(path: str, command: str) -> None:
    """A file with more than one name (a dotfiles tool that hard-links it) is not replaced: the rename gives
    this name a new inode, and the other name keeps the old bytes without a word, Claude Code's later
    edits missing it too. A symbolic link is written through (``write``), so that is the hint; the other
    name may also be a backup (``cp -al``), which a write in place would change: a copy of its own then."""
    try:
        names = os.stat(path).st_nlink  # a symlink's target: the file that would be replaced
    except OSError:
        return  # missing (created) or unreachable: the write reports it
    if names > 1:
        q = shlex.quote(path)
        raise SettingsError(f"{path}: has {names} names (hard links, such as a copy in a dotfiles repository): "
                            f"a write would replace this name only, and the other{'s' if names > 2 else ''} would "
                            "keep the old settings; left untouched",
                            "when the other name is the copy you keep (dotfiles), make this one a symbolic link to "
                            "it, which lh writes through; when it is a backup made with hard links, give this name "
                            f"a file of its own: cp -p {q} {q}.new && mv {q}.new {q}; then run {command} again")


def _owner(uid: int) -> str:
    import pwd

    try:
        return f"{pwd.getpwuid(uid).pw_name} (uid {uid})"
    except KeyError:
        return f"uid {uid}"


def _refuse_foreign(path: str, command: str, settings_file: bool = True) -> None:
    """A file (or a backup) another user owns is not edited: the rename would give it to us (to root
    under sudo), and a file another local user could have made is not the person's to write or to
    restore. Refused before anything is written."""
    try:
        uid = os.stat(path).st_uid  # a symlink's target: the file that would be replaced
    except OSError:
        return  # missing (created) or unreachable: the write reports it
    me = os.geteuid()
    if uid != me and settings_file and os.path.islink(path):
        # why not "run it as its owner": a link to another user's file is made elsewhere (Home Manager's link
        # into the Nix store, a dotfiles tool run as root), and sudo cannot write a read-only store either
        real = os.path.realpath(path)
        raise SettingsError(f"{path}: a link to {real}, which is owned by {_owner(uid)}, not by {_owner(me)}: that "
                            "file is made elsewhere (Home Manager, a dotfiles tool); left untouched",
                            "add the hooks where it is made (docs/how/hooks.md), or replace the link with a copy "
                            f"of your own: cp --remove-destination {shlex.quote(real)} {shlex.quote(path)}; then "
                            f"run {command} again")
    if uid != me:
        raise SettingsError(f"{path}: owned by {_owner(uid)}, not by {_owner(me)}; left untouched",
                            f"run {command} as its owner")


def refuse_unwritable(path: str, command: str) -> None:
    """Raise SettingsError for a file another tool would write for us (Codex's config.toml, through
    its app-server) when it is not ours to change: another user's, or without its owner's write bit."""
    _refuse_foreign(path, command, settings_file=False)
    _refuse_read_only(path, command)


def refuse(path: str, backup: str, command: str) -> None:
    """Before any write: ``path`` and its ``backup`` are ours (``_refuse_foreign``), ``path`` writable."""
    _refuse_foreign(path, command)
    _refuse_foreign(backup, command, settings_file=False)
    _refuse_read_only(path, command)
    _refuse_hard_linked(path, command)


def write(path: str, data: bytes, raw: bytes | None) -> None:
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


def write_kept(path: str, text: bytes, raw: bytes | None, data: dict, backup: str, now: float,
               persons_part: Callable[[dict], str]) -> str | None:
    """Keep a backup of ``raw`` (``_backup``; ``persons_part``: ``data`` without our entries, as JSON
    text in its own key order), then write ``text``; returns the backup. When nothing is
    written (the file changed meanwhile, a write error), a backup this call made is removed again: a
    refused install leaves the folder as it found it."""
    kept, made = None, False
    try:
        if raw is not None:
            kept, made = _backup(backup, raw, data, now, persons_part)
        write(path, text, raw)
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
