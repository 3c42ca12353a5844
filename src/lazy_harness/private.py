"""The folders lazy-harness keeps for itself, and whether one found on disk may be used (ADR 0031).

A folder of ours (data, cache, the recall folder, queue, state, logs) is created 0700. One that is
already there is used only when it is a real folder (not a symbolic link: ``lstat``), owned by this
user, and not writable by group or others: another local user who made it first (a cache in a
shared /tmp) could otherwise read what is put there, plant files, or swap them. The folder that
holds the resident answerer's socket, pid file and lock is *strict*: no bit for group or others at
all. Files we find in such a folder (the socket, the pid file, the lock) pass the same test.

What is read as code or as the config (the hooks' bundle, config.toml) is checked on the descriptor
it is then read from, never by a path looked at a second time: another user who can rename what is
in a folder on the way would otherwise swap their own file in between the check and the read. So
the folder holding it is opened, and must be one in which no other user can rename (the user's or
root's, and not writable by others unless sticky: ssh's ``StrictModes``); each step below it is
opened by name in the folder before it without following a link (``O_NOFOLLOW``, ``dir_fd``) and
judged by its ``fstat``. Every folder above a folder of ours, as the path is written and where its
links lead, must be such a folder too: in another user's (``XDG_DATA_HOME=/tmp/vd``, 1777: sticky
does not stop its owner) they would swap ours for theirs between the check and the reads and writes.

Hot path: only ``os`` and :mod:`lazy_harness.paths` (:mod:`lazy_harness.atomic` when a folder is made); one
``lstat`` per folder, no pathlib; a folder above ours, shared by most of them, is looked at once per run
(:func:`_place_problem`).
"""

from __future__ import annotations

import os

from lazy_harness import paths

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

GROUP_OTHER_WRITE = 0o022
GROUP_OTHER_ANY = 0o077
_KIND = 0o170000
_DIR = 0o040000
_LINK = 0o120000
_REG = 0o100000
_STICKY = 0o1000
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIR_OPEN = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _CLOEXEC
# why O_NONBLOCK: a FIFO named as the file would hang the hook in open(); no effect on a regular file
_FILE_OPEN = os.O_RDONLY | _NOFOLLOW | getattr(os, "O_NONBLOCK", 0) | _CLOEXEC
_LINK_HOPS = 8  # a config that is a link to a link ...: as far as this, then refused


class UnsafeFolder(OSError):
    """A folder of ours that is not private to the user: what it is and why, one line."""

    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.strerror = why  # why: what a command's error line prints of an OSError (cli.os_error_line)


def problem(path: str, strict: bool = False, uid: int | None = None) -> str | None:
    """Why the folder ``path`` may not be used as one of ours, or None (also when it does not exist:
    it is then created private). ``strict``: no access at all for group or others. ``uid``: the
    owner required (this process's effective user by default). First: a folder above it in which
    another user than this one could rename (:func:`holder_problem`), named with the folder it holds."""
    st = _lstat(path)
    if isinstance(st, str):
        return st
    import time  # why here: this module imports only os at the top; the hooks' entry loaded time already

    me, now, whole = os.geteuid(), time.monotonic(), os.path.abspath(path)
    why = _place_problem(os.path.dirname(whole), path, me, now)
    if why is None and ".." in path:  # why: the kernel climbs from where a link led, abspath from its name
        why = _place_problem(os.path.realpath(os.path.dirname(path)), path, me, now)
    if why or st is None:
        return why
    kind = st.st_mode & _KIND
    if kind != _DIR:
        return f"{path} is a symbolic link" if kind == _LINK else f"{path} is not a folder"
    why = _owner_mode(path, st, strict, me if uid is None else uid)
    if why is None and uid in (None, me, 0):
        _PLACES[whole, me] = now + _KEPT  # why: it holds more of ours (recall, state)
    return why


# (folder, owner) -> until when no other user can rename in it or above it. why a while, not the whole
# run: only the person or root can change a folder that passed, but the page and the answerer live for hours
_PLACES: dict[tuple[str, int], float] = {}
_KEPT = 2.0


def _place_problem(folder: str, held: str, me: int, now: float, follow: bool = True) -> str | None:
    """Why another user could rename what is in ``folder`` or in a folder above it (nearest first), or
    None: :func:`holder_problem`, a folder only the person's own private group may write excepted. A
    link is judged where it leads (``realpath``) and by the folders holding it, a missing folder by
    those above it; ``held``, the folder of ours, is named in the message."""
    if _PLACES.get((folder, me), 0.0) > now:
        return None
    st = _lstat(folder)
    if isinstance(st, str):
        return f"{folder} (holding {held}){st[len(folder):]}"  # why: each message opens with the folder
    kind = st.st_mode & _KIND if st else None
    why = holder_problem(folder, st, me) if st and kind == _DIR else None
    if why and not group_of_one(folder, why):
        return f"{folder} (holding {held}){why[len(folder):]}"
    real = os.path.realpath(folder) if kind == _LINK and follow else folder
    why = None if real == folder else _place_problem(real, held, me, now, follow=False)
    up = os.path.dirname(folder)
    if why is None and up != folder:
        why = _place_problem(up, held, me, now, follow)
    if why is None and (kind == _DIR or (kind == _LINK and follow)):
        _PLACES[folder, me] = now + _KEPT
    return why


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


def group_of_one(path: str, why: str) -> bool:
    """Whether ``why`` (:func:`problem`, :func:`file_problem`) says only that ``path``, the person's,
    is writable by its group, and that group is the person's own private group (named as the user,
    no other member: Debian's and Ubuntu's default, with umask 002). why: what git or Claude Code made
    under that umask is writable by a group no other user is in; refusing it stops them for nothing."""
    if not why.startswith(f"{path} is open to group or others"):  # why: not a fault of a folder above it
        return False
    import grp
    import pwd

    try:
        st = os.lstat(path)
        user, group = pwd.getpwuid(st.st_uid), grp.getgrgid(st.st_gid)
    except (OSError, KeyError):
        return False
    return (st.st_uid == os.geteuid() and not st.st_mode & 0o002 and st.st_gid == user.pw_gid
            and group.gr_name == user.pw_name and not group.gr_mem and _alone_in(st.st_gid, st.st_uid))


_ALONE: dict[tuple[int, int], bool] = {}


def _alone_in(gid: int, uid: int) -> bool:
    """Whether no other user has ``gid`` as their primary group (``gr_mem`` lists only the others:
    ``useradd -g alice bob`` leaves it empty). Once per process: the user database is walked. why not
    functools: this module is on the hooks' path, which imports nothing it does not need."""
    if (gid, uid) not in _ALONE:
        import pwd

        _ALONE[gid, uid] = not any(u.pw_gid == gid and u.pw_uid != uid for u in pwd.getpwall())
    return _ALONE[gid, uid]


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
    # why here: the hooks' launcher imports this module before the bundle is in place (hotload.py), and
    # atomic from disk loads fcntl too: 0.2 ms of every hook's start for a folder made once
    from lazy_harness.atomic import DIR_MODE

    try:
        os.mkdir(path, DIR_MODE)
    except FileExistsError:
        pass


def config_problem(env: Mapping[str, str] | None = None, uid: int | None = None) -> str | None:
    """Why config.toml may not be read, or None (also when missing): see :func:`open_config`."""
    fd, _, why = open_config(env, uid)
    if fd is not None:
        os.close(fd)
    return why


def open_config(env: Mapping[str, str] | None = None, uid: int | None = None
                ) -> tuple[int | None, os.stat_result | None, str | None]:
    """config.toml opened for reading: (its descriptor, that descriptor's ``fstat``, None); (None,
    None, None) when it is missing; (None, None, why) when it may not be read: the folder holding it
    lets another user rename what is in it (checked with ``$LH_CONFIG`` too), or the file is not a
    regular file of the user's closed to others' writes. A link (a config kept with the user's
    dotfiles) is followed one step at a time, each step checked as the first. The caller reads from
    the descriptor and closes it: what was checked is what is read."""
    path = paths.config_file(env)
    for _ in range(_LINK_HOPS):
        got = _open_in_folder(path, uid)
        if not isinstance(got, str):
            return got
        path = os.path.join(os.path.dirname(path), got)  # why: a relative link is read from its folder
    return None, None, f"{path}: more than {_LINK_HOPS} links to follow"


def _open_in_folder(path: str, uid: int | None) -> tuple[int | None, os.stat_result | None, str | None] | str:
    """The file ``path`` opened through its folder's descriptor (as :func:`open_config` says), or
    the text of the link it is."""
    folder, name = os.path.split(path)
    dfd, why = open_holder(folder or ".", uid)
    if dfd is None:
        return None, None, why
    try:
        try:
            fd = os.open(name, _FILE_OPEN, dir_fd=dfd)
        except FileNotFoundError:
            return None, None, None
        except OSError as exc:
            link = _link_text(dfd, name)
            return link if link is not None else (None, None, f"{path} cannot be read ({exc.strerror or exc})")
    finally:
        os.close(dfd)
    st = os.fstat(fd)
    why = _file_problem(path, st, uid)
    if why:
        os.close(fd)
        return None, None, why
    return fd, st, None


def _link_text(dfd: int, name: str) -> str | None:
    """What the link ``name`` in the folder open on ``dfd`` points to; None when it is not a link."""
    try:
        return os.readlink(name, dir_fd=dfd)
    except OSError:
        return None


def _file_problem(path: str, st: os.stat_result, uid: int | None) -> str | None:
    if st.st_mode & _KIND != _REG:
        return f"{path} is not a regular file"
    return _owner_mode(path, st, False, uid)


def holder_problem(path: str, st: os.stat_result, uid: int | None = None) -> str | None:
    """Why another user could rename what is in the folder ``path`` (its ``fstat`` ``st``), or None:
    it is neither the user's nor root's, or it is writable by group or others without the sticky bit."""
    me = os.geteuid() if uid is None else uid
    if st.st_uid not in (me, 0):
        return f"{path} belongs to uid {st.st_uid}, not to you (uid {me}) nor root"
    if st.st_mode & GROUP_OTHER_WRITE and not st.st_mode & _STICKY:
        return f"{path} is open to group or others (mode {st.st_mode & 0o7777:04o}) without the sticky bit"
    return None


def open_holder(path: str, uid: int | None = None) -> tuple[int | None, str | None]:
    """The folder ``path`` opened (links on the way followed: ``~/.cache`` may be one) when no other
    user can rename what is in it (:func:`holder_problem`): (descriptor, None); (None, None) when it
    does not exist; (None, why) otherwise."""
    try:
        fd = os.open(path, _DIR_OPEN)
    except FileNotFoundError:
        return None, None
    except OSError as exc:
        return None, f"{path} cannot be opened as a folder ({exc.strerror or exc})"
    why = holder_problem(path, os.fstat(fd), uid)
    if why:
        os.close(fd)
        return None, why
    return fd, None


def open_folder_at(dfd: int, name: str, path: str, uid: int | None = None) -> tuple[int | None, str | None]:
    """The folder ``name`` in the folder open on ``dfd`` (``path`` for messages), opened without
    following a link, when :func:`problem` would pass it (judged on the descriptor's ``fstat``):
    (descriptor, None); (None, None) when it does not exist; (None, why) otherwise."""
    try:
        fd = os.open(name, _DIR_OPEN | _NOFOLLOW, dir_fd=dfd)
    except FileNotFoundError:
        return None, None
    except OSError as exc:
        return None, (f"{path} is a symbolic link" if _link_text(dfd, name) is not None
                      else f"{path} is not a folder ({exc.strerror or exc})")
    why = _owner_mode(path, os.fstat(fd), False, uid)
    if why:
        os.close(fd)
        return None, why
    return fd, None


def open_file_at(dfd: int, name: str, path: str, uid: int | None = None) -> tuple[int | None, str | None]:
    """The file ``name`` in the folder open on ``dfd``, opened for reading without following a link,
    when it is a regular file of the user's closed to others' writes: (descriptor, None); (None,
    None) when it does not exist; (None, why) otherwise."""
    try:
        fd = os.open(name, _FILE_OPEN, dir_fd=dfd)
    except FileNotFoundError:
        return None, None
    except OSError as exc:
        return None, (f"{path} is a symbolic link" if _link_text(dfd, name) is not None
                      else f"{path} cannot be read ({exc.strerror or exc})")
    why = _file_problem(path, os.fstat(fd), uid)
    if why:
        os.close(fd)
        return None, why
    return fd, None


def folders(env: Mapping[str, str] | None = None) -> list[tuple[str, str, bool]]:
    """Every folder lazy-harness keeps for itself: (what it is, its path, strict)."""
    out = [("data", paths.data_dir(env), False), ("cache", paths.cache_dir(env), False),
           ("recall", paths.recall_dir(env), True), ("queue", paths.queue_dir(env), False),
           ("state", paths.state_dir(env), False), ("machine state", paths.machine_state_dir(env), False),
           ("machine state", os.path.join(paths.machine_state_dir(env), "keys"), False),
           ("machine state", os.path.join(paths.machine_state_dir(env), "aliases"), False),
           ("logs", paths.logs_dir(env), False)]
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
    found = first_unsafe(env, which)
    return found[1] if found else None


def first_unsafe(env: Mapping[str, str] | None = None, which: tuple[str, ...] | None = None
                 ) -> tuple[str, str] | None:
    """:func:`first_problem` with the path it is about: (path, why), or None."""
    for what, path, _ in folders(env):
        if which is not None and what not in which:
            continue
        why = problem(path)
        if why:
            return path, why
    why = config_problem(env)
    return (paths.config_file(env), why) if why else None


def refusal(env: Mapping[str, str] | None = None, which: tuple[str, ...] | None = None
            ) -> tuple[str, str] | None:
    """What a command or the page says instead of reading or writing the memory, the index, the queue
    or the cache while :func:`first_unsafe` finds a folder (of ``which``, else any) or config.toml
    another user could write: (message, hint: what ``lh doctor`` says to run), or None."""
    found = first_unsafe(env, which)
    if found is None:
        return None
    path, why = found
    return f"{why}; not used until it is fixed (lh doctor lists each one)", fix(path, why)


def fix(path: str, why: str) -> str:
    """What to run for ``path`` refused for ``why``: :func:`lazy_harness.private_fix.fix`."""
    from lazy_harness import private_fix  # why here: read only once something is refused

    return private_fix.fix(path, why)


def fix_for_file(path: str, why: str) -> str | None:
    """config.toml's own fix, or None: :func:`lazy_harness.private_fix.fix_for_file`."""
    from lazy_harness import private_fix

    return private_fix.fix_for_file(path, why)
