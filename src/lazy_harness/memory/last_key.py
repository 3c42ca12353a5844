"""The key each project was last written under, kept per project root (``paths.last_key_file``: one
small file each in ``$XDG_STATE_HOME/lazy-harness/keys``, machine-local, one folder for every Claude
Code profile, as the memory is): the key, the root itself, and which repository was there. A key
that differs from today's says the project's origin changed (memory/migrate.py); the roots say which
projects are live on this machine (memory/aliases.py's ``known_projects`` and ``counted``), also once
Claude Code deleted their transcripts.

Written by the worker after each task, by migrate after each move, by SessionStart for a project it
finds no record of, and by ``lh memory adopt|assign``; read by SessionStart (one small read),
migrate, aliases and the page. A version before kept these records in each profile's
``<queue>/state/keys``: those of the profile running are still read (:func:`read_record`,
:func:`key_files`), never written. A records folder that is not the person's own and closed to
others' writes (private.py) is neither read nor written.

Hot path: only ``os`` and our hot-path modules at import time.
"""

from __future__ import annotations

import os

from lazy_harness import paths, project_identity
from lazy_harness.regular_file import open_regular

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
    be read. A record missing at ``path`` is read where a version before kept it (:func:`_kept_before`).
    why ``lexists`` first: once that record is gone (taken over by :func:`remember_key`, or never
    written) every SessionStart pays one failed ``lstat`` for it, not the folder checks and an ``open``."""
    got = _read_at(path)
    before = _kept_before(path)
    old = _read_at(before) if before and os.path.lexists(before) else None
    # why the one kept before when it names another key: it predates every record of the machine's (a
    # version before wrote it under this profile), so the machine's was written since by another
    # profile, which did not know it: an origin change this profile recorded is still to take over
    if got is None or (old is not None and old[0] and old[0] != got[0]):
        got = old or got
    return got or ("", None, "")


def _read_at(path: str, checked: bool = False) -> tuple[str, str | None, str] | None:
    """The record at ``path``; None when it is missing or cannot be read, or when its folder may not
    be trusted (:func:`trusted`; ``checked``: the caller looked already)."""
    if not checked and not trusted(os.path.dirname(path)):
        return None
    try:  # why open_regular: a FIFO in the record's place held the session start in open() for good
        with open(open_regular(path)[0], encoding="utf-8", errors="replace") as fh:
            lines = fh.read(8192).split("\n")
    except OSError:
        return None
    root = lines[1].strip() if len(lines) > 1 else ""
    kept = lines[2].strip() if len(lines) > 2 else ""
    return lines[0].strip(), root if os.path.isabs(root) else None, kept


def _kept_before(path: str) -> str | None:
    """The same record in this process's profile's ``<queue>/state/keys``, where versions before kept
    it; None for a ``path`` outside this process's records folder. why this process's: the path does
    not say which profile a caller's ``env`` names; the hooks, the worker and the commands run with
    the process's own."""
    if os.path.dirname(path) != os.path.dirname(paths.last_key_file("/")):
        return None
    return os.path.join(paths.profile_records_dir("keys"), os.path.basename(path))


def trusted(folder: str) -> bool:
    """Whether the records folder ``folder`` and the folder holding it may be read: missing, or the
    person's own and closed to others' writes (``private.problem``). why: a record there makes a
    project live (which keeps a synced alias from counting), says whose key a folder was (an origin
    change takes its memory over) and notes the aliases the person consented to."""
    from lazy_harness import private  # why here: the hooks' entry imported it already; others rarely ask

    return private.problem(folder) is None and private.problem(os.path.dirname(folder)) is None


def private_folder(folder: str) -> str:
    """``folder`` (a records folder in ``paths.machine_state_dir``) and the folder holding it, made
    private when missing (``private.make``); ``private.UnsafeFolder`` when one may not be used."""
    from lazy_harness import private

    private.make(os.path.dirname(folder))
    return private.make(folder)


def identity(root: str) -> str:
    """Which repository is at ``root``: ``commit <sha>`` of the commit HEAD points at, or before the
    first commit ``gitdir <device>:<inode>:<ns>`` of its git folder (:func:`_gitdir_id`); outside a
    repository ``folder <device>:<inode>`` of ``root`` itself (:func:`_folder_id`); "" when it cannot be
    read (a ``.git`` no git folder is read from). Read from its files, no git process."""
    commit = project_identity.head_commit(root)
    if commit:
        return f"commit {commit}"
    gitdir = _gitdir_id(root)
    if gitdir:
        return f"gitdir {gitdir}"
    try:  # why not with a .git: a repository whose git folder cannot be read is no plain folder
        folder = None if os.path.lexists(os.path.join(root, ".git")) else _folder_id(root)
    except ValueError:  # a path with a NUL byte
        folder = None
    return f"folder {folder}" if folder else ""


def _folder_id(root: str) -> str | None:
    """``<device>:<inode>`` of the folder ``root``. why: a folder made a repository in place (``git
    init``) keeps it; a repository cloned where the folder was, after it was deleted or moved away,
    is another folder (an inode given back at once is taken for the same one, as before)."""
    try:
        st = os.stat(root)
    except (OSError, ValueError):
        return None
    return f"{st.st_dev}:{st.st_ino}"


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
    HEAD moved since), or with no commit recorded its git folder is the same one, or recorded when it
    was no repository the folder is the same one. True when the file keeps no identity (written by an
    older version): as before.
    why not ``git cat-file``: the hook asks this, and the store never runs a process (tests/test_layering.py)."""
    kind, _, value = read_record(paths.last_key_file(root, env))[2].partition(" ")
    if kind == "gitdir":  # a file written before the time was kept: device and inode alone
        now = _gitdir_id(root) or ""
        return value == (now if value.count(":") == 2 else now.rpartition(":")[0])
    if kind == "folder":  # written when it was no repository: the same folder, made one in place or not
        return value == _folder_id(root)
    if kind != "commit":
        return True
    return value == project_identity.head_commit(root) or project_identity.has_object(root, value)


def remember_key(root: str, memory_dir: str, env: Env | None = None) -> None:
    """Keep the memory key the project at ``root`` is written under now, the root itself, and which
    repository is there (:func:`identity`) (the worker after each task, and ``migrate.migrate`` after each
    move); written only when one of them changed. why the root: a project whose folder still exists is
    live (``recorded_roots``), also once Claude Code deleted its transcripts, the other proof of where
    a project is. why the identity: a key changed at this path is taken over only by the repository
    it was written for, not by another one made in the same folder (:func:`same_repository`). Raises
    ``private.UnsafeFolder`` when the records folder may not be used."""
    from lazy_harness.atomic import atomic_write

    key = os.path.basename(memory_dir.rstrip(os.sep))
    # why: a root must be one line, and text UTF-8 can hold (a lone surrogate, an undecodable byte of a path)
    kept = root if os.path.isabs(root) and "\n" not in root and root.encode("utf-8", "ignore").decode() == root \
        else None
    repo = identity(root)
    path = paths.last_key_file(root, env)
    if _read_at(path) != (key, kept, repo):  # why not read_record: one kept before is no record here yet
        private_folder(os.path.dirname(path))
        atomic_write(path, "\n".join((key, kept or "", repo)).rstrip("\n") + "\n")
    before = _kept_before(path)
    if before and os.path.lexists(before):  # why: the machine's record stands for it now (read_record)
        try:
            os.unlink(before)
        except OSError:
            pass  # why: read again at the next start, and taken over again: nothing is added twice


def recorded_roots(env: Env | None = None) -> list[tuple[str, str | None]]:
    """(last memory key, project root or None for a file written before roots were kept) of every
    project the worker wrote for on this machine (:func:`key_files`)."""
    out = []
    for name in key_files(env):
        got = _read_at(name, checked=True)
        if got and got[0]:
            out.append(got[:2])
    return out


def moved_here(root: str, memory_dir: str, env: Env | None = None) -> list[tuple[str, str]]:
    """(memory key, root) of each project recorded here whose folder is gone and that was the
    repository now at ``root`` (:func:`identity`: its commit, here or in this repository's history, its
    git folder, or the plain folder, which a move keeps), under another key than ``memory_dir``'s, whose
    memory folder (beside ``memory_dir``) is there (the worker makes it when it writes something).
    why: a folder moved or renamed gets a new path key and starts empty; its earlier memory is the
    person's to take over (ADR 0035), and they are to be asked, not left to find ``lh memory path --old``.
    Reads every record: asked only at a project's first start here (``session_start.migration``)."""
    mine = identity(root)
    key = os.path.basename(memory_dir.rstrip(os.sep))
    found = []
    for name in key_files(env):
        last, was, repo = _read_at(name, checked=True) or ("", None, "")
        if not last or last == key or not was or was == root or not repo or os.path.lexists(was) \
                or os.sep in last or last in (".", ".."):  # why: a key names a folder beside this one, no other
            continue
        kind, _, value = repo.partition(" ")
        folder = os.path.join(os.path.dirname(memory_dir.rstrip(os.sep)), last)
        # why the folder first: one stat, where looking for the commit reads this repository's packs; why
        # not its files: a project whose sessions left only learnings has an empty folder (they live apart)
        if os.path.isdir(folder) and (repo == mine or (kind == "commit" and project_identity.has_object(root, value))):
            found.append((last, was))
    return found


def still_owned(key: str, root: str, env: Env | None = None) -> str | None:
    """Another project that may still own memory key ``key``: the root of one the worker last wrote
    under it whose folder exists and is keyed by it today, or ``?`` for a file that records ``key``
    without a root (written before roots were kept: it cannot be told dead). None when no other does.
    why: two clones of one repository share a memory; one changing its origin must not take it."""
    mine = os.path.basename(paths.last_key_file(root, env))  # why the name: it may be one kept before
    for name in key_files(env):
        if os.path.basename(name) == mine:
            continue
        last, other = (_read_at(name, checked=True) or ("", None, ""))[:2]
        if last != key:
            continue
        if other is None:
            return "?"
        if other != root and os.path.isdir(other) and paths.memory_key(other) == key:
            return other
    return None


def key_files(env: Env | None) -> list[str]:
    """The last-key record of each project root, by name: the machine's (``paths.last_key_file``),
    else the one a version before kept in this profile's ``<queue>/state/keys``; none from a folder
    that may not be trusted (:func:`trusted`)."""
    out: dict[str, str] = {}
    for folder in (os.path.dirname(paths.last_key_file("/", env)), paths.profile_records_dir("keys", env)):
        if not trusted(folder):
            continue
        try:
            names = os.listdir(folder)
        except OSError:
            continue
        for name in names:
            out.setdefault(name, os.path.join(folder, name))
    return [out[name] for name in sorted(out)]
