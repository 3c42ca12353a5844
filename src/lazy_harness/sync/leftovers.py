"""What a round killed half-way leaves in the repository, undone before the next round runs any git:
git's stale lock files (kept while a ``git gc`` of ours still runs), an index git cannot read and a
half-done merge."""

from __future__ import annotations

import os
import time

from lazy_harness.regular_file import read_regular
from lazy_harness.sync.repo import _git, _guarded
from lazy_harness.sync.write_merged import STAGE

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping


def repair(data: str, env: Mapping[str, str] | None = None, now: float | None = None) -> list[str]:
    """Undo what a round killed half-way left behind: git's stale lock files (:func:`_remove_locks`),
    an index git cannot read (:func:`_rebuilt_index`), then a half-done merge. Call only while holding
    the sync lock, before the round runs any git (``ensure_repo``'s ``git config`` stops on a stale
    ``config.lock``); nothing to do without ``.git``."""
    _guarded(data)  # why first: nothing is removed from a repository another user could write
    gitdir = os.path.join(data, ".git")
    done = _remove_locks(gitdir, _stale_locks(gitdir), now)
    done += _rebuilt_index(data, gitdir, env)
    if os.path.exists(os.path.join(gitdir, "MERGE_HEAD")):
        _git(data, "merge", "--abort", check=False, env=env)
        done.append("aborted a half-done merge")
    return done


def _rebuilt_index(data: str, gitdir: str, env: Mapping[str, str] | None) -> list[str]:
    """Put the index back from HEAD when git cannot read it; the line saying so, or none. The index
    only holds what a round staged, and every round stages anew from the files, so nothing of memory
    is in it alone. why: a git of a killed round that outlived it (killed while git ran) and the next
    round's git can write one index (its lock taken for stale, :func:`_remove_locks`); git then stops on
    "index file smaller than expected" in every round after. The files in the folder are not touched."""
    index = os.path.join(gitdir, "index")
    if not os.path.isfile(index):
        return []
    # why a path that matches nothing: git reads the whole index and prints none of it
    read = _git(data, "ls-files", "-z", "--", ":(literal).lh-matches-nothing", check=False, env=env)
    if read.ok or "index" not in read.stderr:
        return []
    os.unlink(index)
    if _git(data, "rev-parse", "-q", "--verify", "HEAD", check=False, env=env).ok:
        _git(data, "reset", "-q", env=env)
    return ["rebuilt an index git could not read from the last commit (the files are as they were)"]


def _stale_locks(gitdir: str) -> list[str]:
    """Every lock file of git's (``<file>.lock``) a round of ours can leave when killed: in ``.git``
    itself (the index, the merge's own ``lh-merge.index``, config, HEAD, ORIG_HEAD, packed-refs) and
    below ``.git/refs``. why not ``.git/objects``: a lock there (a gc's commit-graph) stops no round."""
    try:
        found = [os.path.join(gitdir, n) for n in sorted(os.listdir(gitdir)) if n.endswith(".lock")]
    except OSError:
        return []
    for base, _, names in sorted(os.walk(os.path.join(gitdir, "refs"))):
        found += [os.path.join(base, n) for n in sorted(names) if n.endswith(".lock")]
    return [path for path in found if os.path.isfile(path)]


GC_STALE = 12 * 3600  # seconds: git takes a gc.pid older than this for a gc that died


def _remove_locks(gitdir: str, locks: list[str], now: float | None = None) -> list[str]:
    """Remove ``locks``; a line for each removed. The rule index.lock always had: one left while we
    hold the sync lock belongs to no live round of ours, so it goes whatever its age (git writes no pid
    in a lock file to check, and a round right after a killed one finds its leftovers seconds old). The
    one git of ours that outlives the sync lock is a ``git gc --auto`` a commit or fetch started in the
    background: while ``.git/gc.pid`` names one (:func:`_gc_running`), the locks it may hold (all but
    the index's, the merge's index's and the config's, which no gc takes) stay, and the next round
    removes them. A git a person runs by hand in the data folder at that very moment can lose its
    lock, as before."""
    gc = _gc_running(gitdir, now)
    done = []
    for lock in locks:
        rel = os.path.relpath(lock, gitdir).replace(os.sep, "/")
        if gc and rel not in ("index.lock", f"{STAGE}.index.lock", "config.lock"):
            continue
        try:
            os.unlink(lock)
        except FileNotFoundError:
            continue
        done.append(f"removed a stale {rel}")
    return done


def _gc_running(gitdir: str, now: float | None = None) -> bool:
    """Whether ``.git/gc.pid`` names a ``git gc`` still running, by git's own test: the file written
    under :data:`GC_STALE` ago, and its pid alive on this host (one of another host's is taken as
    running: it cannot be checked from here)."""
    path = os.path.join(gitdir, "gc.pid")
    try:
        # why read_regular: a FIFO in its place held the round in open() before any git ran
        pid, _, host = read_regular(path, 4096).decode("utf-8", "replace").strip().partition(" ")
        age = (time.time() if now is None else now) - os.stat(path).st_mtime
    except OSError:
        return False
    if age > GC_STALE or not pid.isdigit():
        return False
    if host != os.uname().nodename:
        return True
    try:
        os.kill(int(pid), 0)
    except PermissionError:
        return True  # alive, another user's
    except (OSError, OverflowError):
        return False
    return True

