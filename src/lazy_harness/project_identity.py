"""Which project a folder belongs to, and how that project is known on every machine. Read from the
repository's files (``.git``, ``HEAD``, ``config``), never by running git: hooks call it.

- :func:`project_root`: the main working tree of the repository holding a folder (every linked
  worktree and subfolder belongs to it), else the folder itself;
- :func:`project_name`, :func:`git_branch`: what a session's records say about it;
- :func:`origin`: its ``remote.origin.url`` in one form for all the ways of writing one remote,
  which ``paths.memory_key`` turns into the memory folder's name (the same project on every machine).

Where a project's folders are is ``paths``'s; this module answers only "which project".

A repository counts only when its files, its ``.git`` (and the link it may be) and the folder
holding it are this user's or root's, as git itself requires (``safe.directory``): another local
user's repository, a ``.git`` above a folder of ours in a shared place, or one linking to our own
repository from another user's folder, could otherwise name one of our projects' origins and have
that project's memory read into a session there. Its folders are then their own projects, keyed by
path. Files are read only when regular (a FIFO planted there would hold a hook until Claude Code
kills it).
How a remote's spellings are read as one is ``remote_spelling``'s (text in, text out); the files it
reads are read here.
Hot path: only ``os`` (and ``stat``, which ``os`` loads) and ``regular_file`` (``os`` only, the one way a
file is opened without waiting); ``remote_spelling`` (``os`` only) when an origin is asked for.
"""

import os
from stat import S_ISDIR, S_ISLNK, S_ISREG

from lazy_harness.regular_file import open_regular

TYPE_CHECKING = False  # why: not typing's (hot path: house style section 3)
if TYPE_CHECKING:
    from collections.abc import Callable


# why remote_spelling is imported in the functions: the hooks' launcher imports this module (through
# paths) before the bundle of hot modules is in place (hotload.py); one module more there is a file
# found and read at every hook's start, while the functions run after it, served from the bundle


def _ours(st: os.stat_result) -> bool:
    return st.st_uid in (os.geteuid(), 0)


def _regular(path: str) -> bool:
    """Whether ``path`` is a regular file of ours. why before opening: opening a device or a FIFO does
    something (a writer waiting on a FIFO wakes, a serial line resets), read or not."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):  # why ValueError: a path with a NUL byte, from a crafted .git file
        return False
    return S_ISREG(st.st_mode) and _ours(st)


def _read(path: str, size: int) -> str | None:
    """A regular file of ours, read without waiting: None for anything else (looked at before it is
    opened, then again once open: it may have been swapped between the two)."""
    if not _regular(path):
        return None
    try:
        fd, st = open_regular(path)
    except (OSError, ValueError):
        return None
    try:
        return os.read(fd, size).decode("utf-8", "replace") if _ours(st) else None
    except OSError:
        return None
    finally:
        os.close(fd)


def _read_first_line(path: str) -> str | None:
    text = _read(path, 4096)
    return None if text is None else text.split("\n", 1)[0].strip()


def _dotgit(folder: str) -> str | None:
    """What ``<folder>/.git`` is: ``"dir"`` or ``"file"`` when it is ours, ``"foreign"`` when it, the
    link it is, or the folder holding it (the working tree) is another user's; None when there is
    none (or it is neither a file nor a folder). git checks the same three."""
    path = os.path.join(folder, ".git")
    try:
        link = os.lstat(path)
        st = os.stat(path) if S_ISLNK(link.st_mode) else link
        tree = os.stat(folder)
    except (OSError, ValueError):
        return None
    if not (_ours(link) and _ours(st) and _ours(tree)):
        return "foreign"
    return "dir" if S_ISDIR(st.st_mode) else "file" if S_ISREG(st.st_mode) else None


def _gitdir_of(dotgit: str) -> str | None:
    """The git folder a ``.git`` file points at (``gitdir: ...``, relative to the file's folder)."""
    line = _read_first_line(dotgit) or ""
    if not line.startswith("gitdir:"):
        return None
    gitdir = line[len("gitdir:"):].strip()
    return gitdir if os.path.isabs(gitdir) else os.path.normpath(os.path.join(os.path.dirname(dotgit), gitdir))


def _common_dir(gitdir: str) -> str | None:
    """The repository's common git folder a linked worktree's git folder names (``commondir``); None
    for a git folder of its own (a main tree's, a submodule's, a ``--separate-git-dir`` one's)."""
    common = _read_first_line(os.path.join(gitdir, "commondir"))
    if common is None:
        return None
    return common if os.path.isabs(common) else os.path.normpath(os.path.join(gitdir, common))


def _main_worktree_from_gitfile(gitfile: str) -> str | None:
    """A linked worktree's ``.git`` file points at ``<common>/worktrees/<name>``; the main tree owns
    ``<common>`` when it is a ``.git`` folder. A bare repository (``git clone --bare``) or a separate
    git folder has no main tree there: each of its worktrees stays its own root, and its origin is
    read from the common folder (:func:`_git_config_of`), so they share the origin's key."""
    gitdir = _gitdir_of(gitfile)
    if gitdir is None:
        return None
    common = _common_dir(gitdir)
    if common is None:
        return None  # a submodule or a plain gitdir link: treat the folder holding .git as the root
    if os.path.basename(common) == ".git":
        return os.path.dirname(common)
    return None


def _found(cwd: str) -> tuple[str, str, str | None]:
    """(``cwd`` with links resolved, the nearest folder at or above it holding a ``.git``, else that
    same path, and what the ``.git`` is: :func:`_dotgit`'s kind, None when there is none)."""
    try:
        start = os.path.realpath(cwd)
    except (OSError, ValueError):  # why: a cwd read from a task may hold a NUL byte; it names no real folder
        start = os.path.abspath(cwd)
    d = start
    while True:
        kind = _dotgit(d)
        if kind is not None:
            return start, d, kind
        parent = os.path.dirname(d)
        if parent == d:
            return start, start, None
        d = parent


def project_root(cwd: str) -> str:
    """The main working tree of the git repository holding ``cwd``, else ``cwd`` itself.

    Reads ``.git`` files directly instead of running git: this runs inside hooks. A symlinked
    folder is resolved first: the link and the folder it points at are one project, with one key and
    one memory (``realpath``: an ``lstat`` per part of the path). Inside another user's repository
    (:func:`refused`), ``cwd`` itself.
    """
    start, d, kind = _found(cwd)
    if kind == "file":
        return _main_worktree_from_gitfile(os.path.join(d, ".git")) or d
    return d if kind == "dir" else start


def refused(cwd: str) -> str | None:
    """The folder holding the ``.git`` of another user's repository that ``cwd`` lies in (then it is
    its own project, keyed by its path: see the module docstring), else None."""
    _, d, kind = _found(cwd)
    return d if kind == "foreign" else None


def git_branch(cwd: str) -> str | None:
    """The branch checked out where ``cwd`` is, from ``HEAD`` (no git process, so hooks may call it);
    a linked worktree's own. None when detached or outside a repository."""
    d = os.path.abspath(cwd)
    while True:
        kind = _dotgit(d)
        if kind == "foreign":
            return None
        if kind == "dir":
            head = os.path.join(d, ".git", "HEAD")
            break
        if kind == "file":
            gitdir = _gitdir_of(os.path.join(d, ".git"))
            if gitdir is None:
                return None
            head = os.path.join(gitdir, "HEAD")
            break
        parent = os.path.dirname(d)
        if parent == d:
            return None
        d = parent
    ref = _read_first_line(head) or ""
    if not ref.startswith("ref: refs/heads/"):
        return None  # detached HEAD, or no repository
    return ref[len("ref: refs/heads/"):] or None


def git_dir(root: str) -> str | None:
    """The git folder (where ``HEAD`` is) of the repository whose main working tree is ``root``; None
    outside one of ours."""
    kind = _dotgit(root)
    if kind == "dir":
        return os.path.join(root, ".git")
    gitdir = _gitdir_of(os.path.join(root, ".git")) if kind == "file" else None
    try:  # why: a ``gitdir:`` naming another user's folder is no repository of ours (git refuses it too)
        st = os.stat(gitdir) if gitdir else None
    except (OSError, ValueError):
        return None
    return gitdir if st is not None and S_ISDIR(st.st_mode) and _ours(st) else None


def _object_name(text: str) -> str | None:
    name = text.strip().lower()
    return name if len(name) in (40, 64) and not name.strip("0123456789abcdef") else None


def head_commit(root: str) -> str | None:
    """The commit ``HEAD`` points at in the repository whose main working tree is ``root``, from
    ``HEAD`` and the branch's ref file or ``packed-refs`` (no git process); None before the first
    commit, outside a repository, or when the refs are kept otherwise (reftable)."""
    gitdir = git_dir(root)
    if gitdir is None:
        return None
    head = _read_first_line(os.path.join(gitdir, "HEAD")) or ""
    if not head.startswith("ref:"):
        return _object_name(head)
    ref = head[len("ref:"):].strip()
    if not ref.startswith("refs/") or ".." in ref.split("/"):
        return None
    common = _common_dir(gitdir) or gitdir  # why: branches live in the common folder of worktrees
    loose = _read_first_line(os.path.join(common, ref))
    if loose is not None:
        return _object_name(loose)
    for line in (_read(os.path.join(common, "packed-refs"), 1 << 22) or "").split("\n"):
        name, _, packed = line.partition(" ")
        if packed.strip() == ref:
            return _object_name(name)
    return None


def has_object(root: str, name: str) -> bool:
    """Whether the repository whose main working tree is ``root`` holds object ``name`` (a commit
    recorded earlier): loose, or in a pack's index (version 2), in its objects folder or one it
    borrows from (``info/alternates``). False when it cannot tell: a caller then keeps things apart."""
    gitdir = git_dir(root)
    name = _object_name(name) or ""
    if gitdir is None or not name:
        return False
    objects = os.path.join(_common_dir(gitdir) or gitdir, "objects")
    borrowed = [b.strip() for b in (_read(os.path.join(objects, "info", "alternates"), 65536) or "").split("\n")]
    # why real paths, once each, and a few: git skips repeated alternates too, and a file naming one
    # folder thousands of times held the hook for minutes
    folders: dict[str, None] = {}
    for folder in [objects] + [os.path.join(objects, b) for b in borrowed if b and not b.startswith("#")]:
        try:
            folders.setdefault(os.path.realpath(folder))
        except (OSError, ValueError):
            continue
    indexes = [MAX_PACK_INDEXES]
    return any(_object_in(folder, name, indexes) for folder in list(folders)[:MAX_ALTERNATES + 1])


MAX_ALTERNATES = 4  # the object folders a repository borrows from that are looked in (git: one or two)
# pack indexes looked in at most for one look-up, newest first (the commit asked for is a recent
# HEAD): a repository has a handful, one that never repacks (gc.auto 0) hundreds; each costs about 32
# small reads, so the cap bounds a crafted checkout to a few tens of milliseconds
MAX_PACK_INDEXES = 1000


def _object_in(objects: str, name: str, left: list[int]) -> bool:
    """Whether folder ``objects`` holds object ``name``, loose or in one of its pack indexes, opening
    at most ``left[0]`` indexes (counted down: past it, "cannot tell", so nothing is taken over)."""
    if _regular(os.path.join(objects, name[:2], name[2:])):
        return True
    packs = os.path.join(objects, "pack")
    try:
        indexes = sorted((n for n in os.listdir(packs) if n.endswith(".idx")), key=lambda n: -_mtime(packs, n))
    except (OSError, ValueError):
        return False
    for n in indexes:
        if left[0] <= 0:
            return False
        left[0] -= 1
        if _in_pack_index(os.path.join(packs, n), bytes.fromhex(name)):
            return True
    return False


def _mtime(folder: str, name: str) -> float:
    try:
        return os.stat(os.path.join(folder, name)).st_mtime
    except OSError:
        return 0.0


def _in_pack_index(path: str, wanted: bytes) -> bool:
    """A binary search of a version 2 pack index: magic and version, 256 cumulative counts by first
    byte, then the sorted object names."""
    size = len(wanted)
    if not _regular(path):
        return False
    try:  # why regular_file: a FIFO named like an index would hold the hook that reads it for ever
        fd, st = open_regular(path)
    except (OSError, ValueError):
        return False
    try:
        if not _ours(st) or os.pread(fd, 8, 0) != b"\xfftOc\x00\x00\x00\x02":
            return False
        fan = os.pread(fd, 1024, 8)
        lo = int.from_bytes(fan[4 * wanted[0] - 4:4 * wanted[0]], "big") if wanted[0] else 0
        hi = int.from_bytes(fan[4 * wanted[0]:4 * wanted[0] + 4], "big")
        while lo < hi:
            mid = (lo + hi) // 2
            got = os.pread(fd, size, 1032 + mid * size)
            if got == wanted:
                return True
            if len(got) < size:
                return False
            lo, hi = (mid + 1, hi) if got < wanted else (lo, mid)
        return False
    except OSError:
        return False
    finally:
        os.close(fd)


def project_name(cwd: str) -> str:
    return os.path.basename(project_root(cwd).rstrip(os.sep)) or "root"


# --- a project's identity across machines -----------------------------------------------------------

def _git_config_of(root: str) -> str | None:
    """The ``config`` file of the repository whose main working tree is ``root``: its ``.git``
    folder's; for a worktree of a bare repository or of a separate git folder (its git folder names
    a ``commondir``), the common folder's, where ``git remote`` writes the origin."""
    dotgit, kind = os.path.join(root, ".git"), _dotgit(root)
    if kind == "dir":
        return os.path.join(dotgit, "config")
    gitdir = _gitdir_of(dotgit) if kind == "file" else None
    if gitdir is None:
        return None
    return os.path.join(_common_dir(gitdir) or gitdir, "config")


def normalize_remote(url: str) -> str | None:
    """``remote_spelling.normalize_remote``: one form for the ways of writing one remote."""
    from lazy_harness import remote_spelling

    return remote_spelling.normalize_remote(url)


def _config_text(root: str) -> str | None:
    path = _git_config_of(root)
    return None if path is None else _read(path, 65536)


def _url_in(text: str | None) -> str:
    """The first ``remote.origin.url`` of a config file's text, as git fetches from it; "" when none."""
    # why before the import: a folder without a repository, or a repository without a remote (its key
    # names ``url`` in some case), reads no spelling; remote_spelling is 0.1 to 0.2 ms of a start
    if not text or "url" not in text.lower():
        return ""
    from lazy_harness import remote_spelling

    urls = remote_spelling.config_values(text, "remote", "origin", "url")
    return urls[0].strip() if urls else ""


def origin_url(root: str) -> str | None:
    """``remote.origin.url`` from the repository's config file (read directly: no git process)."""
    return _url_in(_config_text(root)) or None


def origin(root: str, lookups: "Callable[[], tuple[tuple[str, ...], str]] | None" = None) -> str | None:
    """The normalized ``remote.origin.url`` of the repository whose main working tree is ``root``
    (``host/owner/repo``); None without an origin, or when it is a local path, absolute or relative
    (a path names no project on another machine).

    A remote that may be a shorthand (``remote_spelling.needs_lookup``: a host without a dot, a scheme
    git does not speak) is first read as git and ssh would: the ``url.<base>.insteadOf`` of the
    repository's config and of the git config files ``lookups()`` names (the user's:
    ``paths.remote_lookup_files``), then for an ssh URL the ``HostName`` of its host alias in the ssh
    config file it names. Only then are those named and read, each only when it is a regular file of
    ours (:func:`_read`); an odd one changes nothing. Never raises on what the files hold."""
    text = _config_text(root)
    url = _url_in(text)
    if not url:
        return None
    from lazy_harness import remote_spelling

    hostname = None
    if remote_spelling.needs_lookup(url):
        url, hostname = _respelled(url, text or "", lookups)
    if remote_spelling.local_path(url):
        return None
    return remote_spelling.normalize_remote(url, hostname)


def _respelled(url: str, repo_config: str,
               lookups: "Callable[[], tuple[tuple[str, ...], str]] | None") -> tuple[str, str | None]:
    """(``url`` after git's insteadOf, the ``HostName`` its ssh host alias stands for or None)."""
    from lazy_harness import remote_spelling

    git_files, ssh_file = lookups() if lookups else ((), "")
    texts = [t for t in (_read(f, 65536) for f in git_files) if t] + [repo_config]
    url = remote_spelling.rewritten(url, texts)
    if not ssh_file or not remote_spelling.needs_lookup(url) or not remote_spelling.is_ssh(url):
        return url, None
    ssh = _read(ssh_file, 1 << 18)
    return url, remote_spelling.ssh_hostname(remote_spelling.host_of(url), ssh) if ssh else None
