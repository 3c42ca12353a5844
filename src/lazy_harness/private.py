"""The folders lazy-harness keeps for itself, and whether one found on disk may be used (ADR 0031).

A folder of ours (data, cache, the recall folder, queue, state, logs) is created 0700. One that is
already there is used only when it is a real folder (not a symbolic link: ``lstat``), owned by this
user, and not writable by group or others: another local user who made it first (a cache in a
shared /tmp) could otherwise read what is put there, plant files, or swap them. The folder that
holds the resident answerer's socket, pid file and lock is *strict*: no bit for group or others at
all. Files we find in such a folder (the socket, the pid file, the lock) pass the same test.

Hot path: only ``os`` and :mod:`lazy_harness.paths`; one ``lstat`` per folder, no pathlib.
"""

from __future__ import annotations

import os

from lazy_harness import paths
from lazy_harness.atomic import DIR_MODE

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

GROUP_OTHER_WRITE = 0o022
GROUP_OTHER_ANY = 0o077
_KIND = 0o170000
_DIR = 0o040000
_LINK = 0o120000


class UnsafeFolder(OSError):
    """A folder of ours that is not private to the user: what it is and why, one line."""


def problem(path: str, strict: bool = False, uid: int | None = None) -> str | None:
    """Why the folder ``path`` may not be used as one of ours, or None (also when it does not exist:
    it is then created private). ``strict``: no access at all for group or others. ``uid``: the
    owner required (this process's effective user by default)."""
    st = _lstat(path)
    if not isinstance(st, os.stat_result):
        return st
    kind = st.st_mode & _KIND
    if kind != _DIR:
        return f"{path} is a symbolic link" if kind == _LINK else f"{path} is not a folder"
    return _owner_mode(path, st, strict, uid)


def file_problem(path: str, uid: int | None = None) -> str | None:
    """Why the file ``path`` (a socket, a pid file, a lock) may not be trusted, or None (also when
    missing): a symbolic link, owned by another user, or writable by group or others."""
    st = _lstat(path)
    if not isinstance(st, os.stat_result):
        return st
    if st.st_mode & _KIND == _LINK:
        return f"{path} is a symbolic link"
    return _owner_mode(path, st, False, uid)


def _lstat(path: str) -> os.stat_result | str | None:
    """``path``'s own ``lstat``; None when it does not exist; why it cannot be looked at otherwise."""
    try:
        return os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"{path} cannot be looked at ({exc.strerror or exc})"


def _owner_mode(path: str, st: os.stat_result, strict: bool, uid: int | None) -> str | None:
    me = os.geteuid() if uid is None else uid
    if st.st_uid != me:
        return f"{path} belongs to uid {st.st_uid}, not to you (uid {me})"
    if st.st_mode & (GROUP_OTHER_ANY if strict else GROUP_OTHER_WRITE):
        return f"{path} is open to group or others (mode {st.st_mode & 0o7777:04o})"
    return None


def make(path: str, strict: bool = False, uid: int | None = None) -> str:
    """``path`` created private (0700, with any missing parents) unless it exists; returns it, or
    raises :class:`UnsafeFolder` when the folder there may not be used."""
    why = problem(path, strict, uid)
    if why is None:
        _mkdirs(path)
        why = problem(path, strict, uid)  # why: another user may have made it between the two
    if why is not None:
        raise UnsafeFolder(why)
    return path


def _mkdirs(path: str) -> None:
    parent = os.path.dirname(path)
    if parent and parent != path and not os.path.isdir(parent):
        _mkdirs(parent)
    try:
        os.mkdir(path, DIR_MODE)
    except FileExistsError:
        pass


def config_problem(env: Mapping[str, str] | None = None, uid: int | None = None) -> str | None:
    """Why config.toml may not be read, or None (also when missing): it (or what its link points
    to: a config kept with the user's dotfiles is a link) belongs to another user or is writable by
    group or others. Its folder is one of :func:`folders` unless ``$LH_CONFIG`` names the file."""
    path = paths.config_file(env)
    try:
        st = os.stat(path)
    except OSError:
        return None
    return _owner_mode(path, st, False, uid)


def folders(env: Mapping[str, str] | None = None) -> list[tuple[str, str, bool]]:
    """Every folder lazy-harness keeps for itself: (what it is, its path, strict)."""
    out = [("data", paths.data_dir(env), False), ("cache", paths.cache_dir(env), False),
           ("recall", paths.recall_dir(env), True), ("queue", paths.queue_dir(env), False),
           ("state", paths.state_dir(env), False), ("logs", paths.logs_dir(env), False)]
    config = paths.own_config_dir(env)
    return out + [("config", config, False)] if config else out


def unsafe(env: Mapping[str, str] | None = None, uid: int | None = None) -> list[tuple[str, str, str]]:
    """The folders of :func:`folders` that exist and may not be used, and config.toml when it may
    not be read: (what, path, why)."""
    out = []
    for what, path, strict in folders(env):
        why = problem(path, strict, uid)
        if why:
            out.append((what, path, why))
    why = config_problem(env, uid)
    if why:
        out.append(("config file", paths.config_file(env), why))
    return out


# what Stop and SessionEnd use: the config, and the queue they write; the worker reads the rest
PRODUCER = ("config", "queue", "state", "logs")


def first_problem(env: Mapping[str, str] | None = None, which: tuple[str, ...] | None = None) -> str | None:
    """Why one of the folders of :func:`folders` (those named in ``which``, else all) may not be used
    (the one holding the socket judged as any other here: ``recall.resident`` asks for it strict), or
    None: what a hook looks at first."""
    for what, path, _ in folders(env):
        if which is not None and what not in which:
            continue
        why = problem(path)
        if why:
            return why
    return config_problem(env)


def fix(path: str, why: str, uid: int | None = None) -> str:
    """What to run for an unsafe folder ``path`` (``why`` from :func:`problem`)."""
    if os.path.isfile(path) and "open to group or others" in why:
        return f"chmod go-w {path}"
    if "belongs to uid" in why or "symbolic link" in why or "not a folder" in why:
        return (f"remove {path} (it is not yours), or point XDG_CACHE_HOME, XDG_DATA_HOME, XDG_CONFIG_HOME, "
                "LH_CONFIG or CLAUDE_CONFIG_DIR at a place of yours")
    return f"chmod 700 {path}"
