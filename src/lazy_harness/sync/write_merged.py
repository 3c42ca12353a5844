"""A merge's files written into the data folder: each file git checked out off to the side, written
into place under the locks its memory writers take, keeping the lines appended here meanwhile (or
stopping with ``WrittenMeanwhile``), after what the merge brings in is recorded (sync/arrivals.py);
the folders the merge empties are removed."""

from __future__ import annotations

import os

from contextlib import ExitStack, contextmanager

from lazy_harness.atomic import atomic_write, ensure_dir, same_file
from lazy_harness.regular_file import open_regular, read_regular
from lazy_harness.sync.layout import _below, outside_layout
from lazy_harness.sync.repo import SyncError, _git, _run_input, _sizes
from lazy_harness.sync.repo_setup import TOP

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping


class WrittenMeanwhile(SyncError):
    """The merge stopped because files were changed here after the round committed, otherwise than by
    appending lines (the worker, busy): the merged files are not written over them. Committing them and
    merging again settles it."""

    def __init__(self, paths: list[str]) -> None:
        shown = ", ".join(paths[:3]) + (f" and {len(paths) - 3} more" if len(paths) > 3 else "")
        super().__init__(f"merge with the remote stopped: {shown or 'files'} written here during the round "
                         "(the worker was busy) would be overwritten; nothing lost, the next round merges them",
                         hint="lh sync")
        self.paths = paths


def _blob_id(data: bytes, like: str) -> str:
    """git's id of a blob holding ``data``, in the hash ``like`` (an id of this repository) uses."""
    import hashlib

    h = hashlib.sha1() if len(like) == 40 else hashlib.sha256()
    h.update(b"blob %d\0" % len(data) + data)
    return h.hexdigest()


STAGE = "lh-merge"  # in .git: the merged files checked out there, then written into place


def _staged(data: str, changes: list[tuple[str, str, str]], commit: str, env: Mapping[str, str] | None) -> str:
    """The folder in ``.git`` where git checked out ``commit``'s version of each changed file (its
    bytes as git would have written them), through an index of its own."""
    import shutil

    stage = os.path.join(data, ".git", STAGE)
    shutil.rmtree(stage, ignore_errors=True)
    wanted = [path for path, _, new in changes if new]
    if wanted:
        senv = {**(os.environ if env is None else env), "GIT_INDEX_FILE": os.path.join(data, ".git", STAGE + ".index")}
        _git(data, "read-tree", commit, env=senv)
        _run_input(data, ["checkout-index", "-f", "-z", "--stdin", f"--prefix={stage}/"], "\0".join(wanted), senv)
    return stage


def _install(data: str, changes: list[tuple[str, str, str]], commit: str, env: Mapping[str, str] | None,
             projects: str, learnings: str) -> None:
    """Write the merge's version of each changed file into the data folder, holding the locks its
    writers take (:func:`_writers_locked`), each file replaced whole (``atomic_write``) or removed. A
    JSONL file appended to since the round's commit keeps the appended lines after the merged ones; a
    file otherwise changed since is left as it is, nothing written, and ``WrittenMeanwhile`` raised
    (the round commits it and merges again). A file the merge removes that is no part of memory (one
    an older version committed, since removed from the remote) stays on disk, no longer tracked."""
    # why: it is a person's file (notes, an editor's backup), never memory; a version before the round
    # staged memory's files only committed it, and cleaning the remote must not delete it here
    changes = [c for c in changes if c[2] or outside_layout(c[0], projects, learnings) is None]
    # why not the top-level pair: the copies here are the ones ensure_repo wrote, and they must stay
    # so: git reads the attributes of the folder first (``_staged``'s checkout, the next merge's
    # drivers, the commit after this merge), so a remote's .gitattributes asking for a filter or a
    # working-tree-encoding, taken by a fast-forward, would re-encode memory here. The index differs
    # from the folder then, and this machine's pair is committed again after the merge
    changes = [c for c in changes if c[0] not in TOP]
    stage = _staged(data, changes, commit, env)
    sizes = _sizes(data, sorted({old for _, old, _ in changes if old}), env)
    try:
        _record_arrivals(data, stage, changes, env, projects, learnings)
        # why in batches: a descriptor is held per file; a machine long offline may merge thousands.
        # A batch stopped after others were written leaves merged lines the next commit takes as its
        # own: merged again by id, nothing lost or doubled
        for at in range(0, len(changes), BATCH):
            _install_batch(data, changes[at:at + BATCH], stage, sizes, projects, learnings)
    finally:
        import shutil

        shutil.rmtree(stage, ignore_errors=True)


BATCH = 256  # files locked and written together by _install


def _record_arrivals(data: str, stage: str, changes: list[tuple[str, str, str]], env: Mapping[str, str] | None,
                     projects: str, learnings: str) -> None:
    """Record on this machine what the merge brings in (sync/arrivals.py), before any file is written.
    why stop the merge when it cannot: a line merged unrecorded reads as written here when it names
    this machine, and nothing tells it apart later"""
    from lazy_harness import paths
    from lazy_harness.sync import arrivals

    try:
        arrivals.record(arrivals.merged_keys(data, stage, changes, projects, learnings), env)
    except OSError as exc:
        raise SyncError(f"merge with the remote stopped: what it brings in could not be recorded in "
                        f"{paths.synced_in_file(env)}: {exc}; nothing merged", hint="lh sync") from None


def _install_batch(data: str, changes: list[tuple[str, str, str]], stage: str, sizes: dict[str, int],
                   projects: str, learnings: str) -> None:
    with _writers_locked(data, changes, projects, learnings) as now:
        plan, busy = [], []
        for path, old, new in changes:
            merged = _read(os.path.join(stage, path)) if new else None
            after = _after(now.get(path), old, sizes.get(old, -1), merged, path.endswith(".jsonl"))
            if after is _BUSY:
                busy.append(path)
            elif after is not _SAME:
                plan.append((path, after))
        if busy:
            raise WrittenMeanwhile(busy)
        for path, after in plan:
            full = os.path.join(data, path)
            if after is None:
                os.unlink(full)
            else:
                atomic_write(full, after)
        _prune(data, [path for path, _, new in changes if not new], projects, learnings)


def _prune(data: str, gone: list[str], projects: str, learnings: str) -> None:
    """Remove the folders the files the merge removed (``gone``) leave empty, and the parents that
    empties, as ``git merge`` does (a month of learnings removed or moved on another machine); only
    folders below the memory and learnings folders, never those two. why ``os.rmdir``: it fails on a
    folder that holds anything (a file this machine keeps to itself, one a person put there, one a
    writer just made), and that folder stays. A writer that waited for a removed JSONL file's lock
    (``atomic.append_line``) makes the folder again for its line."""
    done: set[str] = set()
    for folder in sorted({os.path.dirname(path) for path in gone}, key=lambda f: f.count("/"), reverse=True):
        while folder not in done and _removable(folder, projects, learnings):
            try:
                os.rmdir(os.path.join(data, folder))
            except FileNotFoundError:
                pass  # gone already: its parent may be empty
            except OSError:
                break  # holds something (or cannot be removed): it stays, and so do its parents
            done.add(folder)
            folder = os.path.dirname(folder)


def _removable(folder: str, projects: str, learnings: str) -> bool:
    """Whether ``folder`` (``/``-separated, relative to the data folder) is below the memory or the
    learnings folder and neither of them nor holds either (``""`` or ``.``: the data folder itself)."""
    def below(root: str) -> bool:
        return bool(folder) if root in ("", ".") else folder.startswith(root + "/")

    holds = any(f"{root}/".startswith(f"{folder}/") for root in (projects, learnings) if root not in ("", "."))
    return (below(projects) or below(learnings)) and not holds


_SAME, _BUSY = b"same", b"busy"  # _after: nothing to write; written here meanwhile, not mergeable


def _after(here: bytes | None, old: str, old_size: int, merged: bytes | None, lines: bool) -> bytes | None:
    """What a changed file becomes: ``merged`` (None: removed), with the lines appended here since the
    round's commit (``here`` starts with the committed blob ``old``) after it when ``lines``; ``_SAME``
    when it is that already, ``_BUSY`` when it changed here otherwise."""
    if here == merged or (here is None and merged is None):
        return _SAME
    if here is None:
        return merged  # removed here since the commit: the merge's version, as git writes it
    if not old:
        appended = here
    elif old_size <= len(here) and _blob_id(here[:old_size], old) == old:
        appended = here[old_size:]
    else:
        return _BUSY
    if not appended:
        return merged
    if not lines:
        return _BUSY
    head = merged or b""
    return head + (b"\n" if head and not head.endswith(b"\n") else b"") + appended


def _read(path: str) -> bytes:
    return read_regular(path)  # why: a FIFO in a memory file's place held the merge, every lock taken


@contextmanager
def _writers_locked(data: str, changes: list[tuple[str, str, str]], projects: str,
                    learnings: str) -> Iterator[dict[str, bytes | None]]:
    """Hold, for every changed file, the locks its writers take, in the order they take them: the
    memory folder's (``files.FolderLock``), then the learnings' status lock (``changes.status_lock``),
    then the file's own ``flock`` (``atomic.append_line``, ``atomic.rewrite``), each file's descriptor
    checked to still be the file at its path. Yields each file's bytes read under its lock (None when
    it does not exist)."""
    from lazy_harness.memory import changes as memory_changes
    from lazy_harness.memory.files import FolderLock

    folders, status = set(), False
    for path, _, new in changes:
        rest = _below(path.split("/"), projects)
        if rest and len(rest) >= 2:
            folders.add(os.path.join(data, projects, rest[0]))
            if new:
                ensure_dir(os.path.join(data, projects, rest[0]))
        status = status or bool(_below(path.split("/"), learnings))
    with ExitStack() as stack:
        for folder in sorted(f for f in folders if os.path.isdir(f)):
            stack.enter_context(FolderLock(folder))
        if status:
            stack.callback(os.close, memory_changes.status_lock(os.path.join(data, learnings)))
        now: dict[str, bytes | None] = {}
        created: list[str] = []
        try:
            for path, _, new in sorted(changes):
                now[path] = _lock_one(stack, os.path.join(data, path), bool(new) and path.endswith(".jsonl"), created)
            yield now
        except BaseException:
            for full in created:  # nothing written: the empty files made to be locked go again
                if os.path.isfile(full) and not os.path.getsize(full):
                    os.unlink(full)
            raise


def _lock_one(stack: ExitStack, full: str, create: bool, created: list[str]) -> bytes | None:
    """Take ``full``'s ``flock`` (held until ``stack`` closes) and read it; None when it does not
    exist. ``create``: a JSONL file the merge adds is made empty first (added to ``created``), so an
    ``append_line`` that would create it waits for the lock instead. why the loop: a file replaced
    while this waited is locked again as the file at the path now."""
    import fcntl

    while True:
        try:
            fd, _ = open_regular(full, os.O_CREAT if create else 0)
        except (FileNotFoundError, NotADirectoryError):
            return None
        fcntl.flock(fd, fcntl.LOCK_EX)
        if same_file(fd, full):
            stack.callback(os.close, fd)
            if create and not os.fstat(fd).st_size and full not in created:
                created.append(full)
            return _read(full)
        os.close(fd)


