"""Whether another local user could write a repository git runs in (ADR 0031): the data folder's own
``.git``, and a ``[sync] remote`` on this machine. For a remote that is a path (or a ``file://``
URL) git runs ``receive-pack`` (a push) and ``upload-pack`` (a fetch) in that repository, with its
config and its hooks, as the person: a hook another user planted there is their command run as the
person. A remote on another machine (``host:path``, ``https://``, ``ssh://``, a helper's
``<transport>::``) runs as whoever serves it, and is not looked at here.

A few ``lstat`` per look: the repository folder, the entries directly in it, and those of the
folders named (``hooks`` for a remote; ``refs``, ``refs/heads`` for ours), each judged by
:func:`lazy_harness.private.problem` or :func:`~lazy_harness.private.file_problem`.
"""

from __future__ import annotations

import os
import re

from lazy_harness import paths, private

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

# git's own test of a URL (url.c ``is_url``): a scheme, then ``://``
_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")
# where git looks for the repository a local path names, in its order (``enter_repo``): the first
# that is a repository (or a ``.git`` file) is taken
_SUFFIXES = ("/.git", "", ".git/.git", ".git")
_REPOSITORY = ("HEAD", "objects", "refs")  # what git finds in a folder it takes for a repository
REMOTE_INSIDE = ("hooks",)  # what a remote's git runs, beside its config: every hook in it


def repository_problem(gitdir: str, inside: tuple[str, ...], root_too: bool = False) -> str | None:
    """Why git may not run in the repository ``gitdir``: it, an entry directly in it or in one of the
    folders ``inside`` (relative to it) is a link, another user's (``root_too``: root's is fine), or
    open to their writing; a group of one, the person's own, excepted (``private.group_of_one``).
    None when ``gitdir`` is not there."""
    why = _judged(gitdir, True, root_too)
    if why or not os.path.isdir(gitdir):
        return why
    for folder in (gitdir, *(os.path.join(gitdir, name) for name in inside)):
        try:
            names = os.listdir(folder)
        except OSError:
            continue
        for name in names:
            path = os.path.join(folder, name)
            why = _judged(path, os.path.isdir(path), root_too)
            if why:
                return why
    return None


def _judged(path: str, folder: bool, root_too: bool) -> str | None:
    why = private.problem(path) if folder else private.file_problem(path)
    if why and root_too and why.startswith(f"{path} belongs to uid 0,"):
        # why: a repository root made (a system one, given to the person by safe.directory) and no
        # one else can write is as safe as the person's own
        why = private.problem(path, uid=0) if folder else private.file_problem(path, uid=0)
    return None if not why or private.group_of_one(path, why) else why


def local_path(url: str, cwd: str, env: Mapping[str, str] | None = None) -> str | None:
    """The path on this machine git reaches the remote ``url`` at, as git tells them apart (``git
    help urls``): a ``file://`` URL (its host ignored, ``%xx`` decoded), or a path (``~`` and
    ``~user`` expanded, a relative one read from ``cwd``, where git runs); None for anything else: a
    URL of another scheme, or a colon before any slash (scp-like ``host:path``, a helper's
    ``<transport>::<address>``)."""
    if _URL.match(url):
        if not url.startswith("file://"):
            return None
        from urllib.parse import unquote

        rest = unquote(url[len("file://"):])
        slash = rest.find("/")
        return rest[slash:] if slash >= 0 else None
    colon, slash = url.find(":"), url.find("/")
    if colon >= 0 and not 0 <= slash < colon:
        return None
    if url.startswith("~"):
        url = _home_of(url, env)
    return os.path.join(cwd, url)


def _home_of(path: str, env: Mapping[str, str] | None) -> str:
    """``path`` with a leading ``~`` (the person's home) or ``~user`` (that user's) expanded, as
    upload-pack and receive-pack do; unchanged when the user is unknown."""
    user, _, rest = path[1:].partition("/")
    if not user:
        return os.path.join(paths.home(env), rest)
    import pwd

    try:
        return os.path.join(pwd.getpwnam(user).pw_dir, rest)
    except KeyError:
        return path


def taken(path: str) -> list[str]:
    """The places git tries for the repository at the local ``path`` that are there, in git's
    order, up to the one it takes (a folder holding ``HEAD``, ``objects`` and ``refs``, or a file).
    why each one before it: one that is no repository yet, but that another user can write, could
    be made one between this look and git's."""
    path = path.rstrip("/") or "/"
    # why the folder's real path: ``..`` after a link is the link's target's parent, as for git; the
    # last name is kept, so a link there is seen as one
    base = os.path.join(os.path.realpath(os.path.dirname(path)), os.path.basename(path))
    out = []
    for suffix in _SUFFIXES:
        where = base + suffix
        if not os.path.lexists(where):
            continue
        out.append(where)
        if not os.path.isdir(where) or all(os.path.exists(os.path.join(where, n)) for n in _REPOSITORY):
            break
    return out


def remote_problem(url: str, cwd: str, env: Mapping[str, str] | None = None) -> tuple[str, str] | None:
    """(the repository, why) when the remote ``url`` is on this machine and another user could write
    what git runs there (:func:`repository_problem` with :data:`REMOTE_INSIDE`, root's allowed); a
    file git would take in its place is refused too (a ``.git`` file names another repository; a
    bundle takes no push). None when git may use it, or when it is not on this machine."""
    path = local_path(url, cwd, env)
    if path is None:
        return None
    for where in taken(path):
        why = repository_problem(where, REMOTE_INSIDE, root_too=True)  # a file: "is not a folder"
        if why:
            return where, why
    return None
