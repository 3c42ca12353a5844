"""The key each project was last written under, kept per project root (``<queue>/state/keys/``, one
small file each, machine-local): the key, the root itself, and which repository was there. A key
that differs from today's says the project's origin changed (memory/migrate.py); the roots say which
projects are live on this machine (memory/aliases.py's ``known_projects``), also once Claude Code
deleted their transcripts.

Written by the worker after each task, by migrate after each move, and by ``lh memory adopt|assign``;
read by SessionStart (one small read), migrate, aliases and the page. Hot path: only ``os`` and our
hot-path modules at import time.
"""

from __future__ import annotations

import os

from lazy_harness import paths, project_identity

TYPE_CHECKING = False
if TYPE_CHECKING:
    from lazy_harness.memory.shapes import Env


def read(path: str) -> tuple[str, str | None]:
    """(the key, the project root) a last-key file holds (:func:`read_record`)."""
    return read_record(path)[:2]


def read_record(path: str) -> tuple[str, str | None, str]:
    """(the key, the project root, the repository's identity) a last-key file holds: up to three
    lines, the root only in files written since it was kept (an older file holds the key alone), the
    identity (:func:`identity`) only in files written since it was kept; ("", None, "") when it cannot
    be read."""
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            lines = fh.read(8192).split("\n")
    except OSError:
        return "", None, ""
    root = lines[1].strip() if len(lines) > 1 else ""
    kept = lines[2].strip() if len(lines) > 2 else ""
    return lines[0].strip(), root if os.path.isabs(root) else None, kept


def identity(root: str) -> str:
    """Which repository is at ``root``: ``commit <sha>`` of the commit HEAD points at, or before the
    first commit ``gitdir <device>:<inode>:<ns>`` of its git folder (:func:`_gitdir_id`); "" outside
    a repository. Read from its files, no git process."""
    commit = project_identity.head_commit(root)
    if commit:
        return f"commit {commit}"
    gitdir = _gitdir_id(root)
    return f"gitdir {gitdir}" if gitdir else ""


def _gitdir_id(root: str) -> str | None:
    """``<device>:<inode>:<ns>`` of the git folder, ``ns`` the time ``git init`` wrote its
    ``description`` (git never writes it again; 0 without one). why the time: a folder removed and
    made again at once often gets the same inode back."""
    gitdir = project_identity.git_dir(root)
    try:  # why ValueError: a path with a NUL byte, from a crafted .git file
        st = os.stat(gitdir) if gitdir else None
    except (OSError, ValueError):
        return None
    if st is None:
        return None
    try:
        made = os.stat(os.path.join(str(gitdir), "description")).st_mtime_ns
    except (OSError, ValueError):
        made = 0
    return f"{st.st_dev}:{st.st_ino}:{made}"


def same_repository(root: str, env: Env | None = None) -> bool:
    """Whether the repository at ``root`` is the one the last-key file of ``root`` was written for:
    its recorded commit is in this repository (``project_identity.has_object``, looked up only when
    HEAD moved since), or with no commit recorded its git folder is the same one. True when the file
    keeps no identity (written by an older version, or for a folder that was no repository): as before.
    why not ``git cat-file``: the hook asks this, and the store never runs a process (tests/test_layering.py)."""
    kind, _, value = read_record(paths.last_key_file(root, env))[2].partition(" ")
    if kind == "gitdir":  # a file written before the time was kept: device and inode alone
        now = _gitdir_id(root) or ""
        return value == (now if value.count(":") == 2 else now.rpartition(":")[0])
    if kind != "commit":
        return True
    return value == project_identity.head_commit(root) or project_identity.has_object(root, value)


def remember_key(root: str, memory_dir: str, env: Env | None = None) -> None:
    """Keep the memory key the project at ``root`` is written under now, the root itself, and which
    repository is there (:func:`identity`) (the worker after each task, and ``migrate.migrate`` after each
    move); written only when one of them changed. why the root: a project whose folder still exists is
    live (``recorded_roots``), also once Claude Code deleted its transcripts, the other proof of where
    a project is. why the identity: a key changed at this path is taken over only by the repository
    it was written for, not by another one made in the same folder (:func:`same_repository`)."""
    from lazy_harness.atomic import atomic_write

    key = os.path.basename(memory_dir.rstrip(os.sep))
    kept = root if os.path.isabs(root) and "\n" not in root else None  # why: a root must be one line
    repo = identity(root)
    path = paths.last_key_file(root, env)
    if read_record(path) != (key, kept, repo):
        atomic_write(path, "\n".join((key, kept or "", repo)).rstrip("\n") + "\n")


def recorded_roots(env: Env | None = None) -> list[tuple[str, str | None]]:
    """(last memory key, project root or None for a file written before roots were kept) of every
    project the worker wrote for on this machine (``<queue>/state/keys``)."""
    return [kr for kr in map(read, key_files(env)) if kr[0]]


def still_owned(key: str, root: str, env: Env | None = None) -> str | None:
    """Another project that may still own memory key ``key``: the root of one the worker last wrote
    under it whose folder exists and is keyed by it today, or ``?`` for a file that records ``key``
    without a root (written before roots were kept: it cannot be told dead). None when no other does.
    why: two clones of one repository share a memory; one changing its origin must not take it."""
    mine = paths.last_key_file(root, env)
    for name in key_files(env):
        if name == mine:
            continue
        last, other = read(name)
        if last != key:
            continue
        if other is None:
            return "?"
        if other != root and os.path.isdir(other) and paths.memory_key(other) == key:
            return other
    return None


def key_files(env: Env | None) -> list[str]:
    folder = os.path.dirname(paths.last_key_file("/", env))
    try:
        return [os.path.join(folder, n) for n in sorted(os.listdir(folder))]
    except OSError:
        return []
