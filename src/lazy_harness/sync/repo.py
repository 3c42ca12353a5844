"""The data folder as a git repository: the one way sync runs git (never a prompt; a remote that
stalls fails the round), the repository's set-up (ignore rules, merge drivers, ``origin``), repair of
what a killed round left, fetch and the merge of ``origin/main``."""

from __future__ import annotations

import json
import os
import shlex

from lazy_harness import detach, proc
from lazy_harness.atomic import atomic_write, ensure_dir
from lazy_harness.errors import LhError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

BRANCH = "main"
GIT_TIMEOUT = 120.0
IGNORE = """# machine-local state of lazy-harness: never synced
.sync.lock
.sync-state.json
*.lock
*.tmp
consolidate.scan
projects/*/handoff.md
projects/*/.handoff-open.json
settings-backups/
"""
ATTRIBUTES = """*.jsonl merge=lh-lines
*.md merge=lh-learning
"""


class SyncError(LhError):
    """A sync round could not complete; nothing local was lost. Its message is one line (git's error
    can be many: its lines are joined with `` | ``), for the CLI, worker.log and ``lh sync --status``."""

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(one_line(message), hint)


def one_line(text: str) -> str:
    """``text``'s non-blank lines joined into one."""
    return " | ".join(line.strip() for line in text.splitlines() if line.strip())


class WrittenMeanwhile(SyncError):
    """The merge stopped because files were written here after the round committed (the worker, busy):
    git will not overwrite them. Committing them and merging again settles it."""

    def __init__(self, paths: list[str]) -> None:
        shown = ", ".join(paths[:3]) + (f" and {len(paths) - 3} more" if len(paths) > 3 else "")
        super().__init__(f"merge with the remote stopped: {shown or 'files'} written here during the round "
                         "(the worker was busy) would be overwritten; nothing lost, the next round merges them",
                         hint="lh sync")
        self.paths = paths


# git's words when a merge would overwrite files changed or created after the last commit
_OVERWRITE = ("would be overwritten by merge", "would be overwritten by checkout")


def _named_paths(stderr: str) -> list[str]:
    """The paths git names in its "would be overwritten" error: one per indented line under it, or
    quoted in the line itself (``Untracked working tree file 'x' would be overwritten``)."""
    out = [ln.strip() for ln in stderr.splitlines() if ln[:1] in ("\t", " ") and ln.strip()]
    for ln in stderr.splitlines():
        if "would be overwritten" in ln and ln.count("'") >= 2:
            out.append(ln.split("'")[1])
    return out


def _git(data: str, *args: str, timeout: float = GIT_TIMEOUT, check: bool = True,
         env: Mapping[str, str] | None = None) -> proc.Result:
    genv = dict(os.environ if env is None else env)
    # why: never a prompt, and a remote that stalls (http under 1 kB/s for 20 s, ssh unreachable for
    # 10 s) fails the round instead of holding it for minutes
    genv.update(GIT_TERMINAL_PROMPT="0", GIT_ASKPASS="true", LC_ALL="C", GIT_HTTP_LOW_SPEED_LIMIT="1000",
                GIT_HTTP_LOW_SPEED_TIME="20",
                GIT_SSH_COMMAND=genv.get("GIT_SSH_COMMAND") or "ssh -o BatchMode=yes -o ConnectTimeout=10")
    try:
        result = proc.run(["git", "-C", data, *args], timeout=timeout, env=genv)
    except proc.CommandNotFound:
        raise SyncError("git not found", hint="install git") from None
    if check and not result.ok:
        raise SyncError(f"git {args[0]} failed: {result.describe()}", hint="lh sync --status")
    return result


def ensure_repo(data: str, remote: str, env: Mapping[str, str] | None = None) -> None:
    """Make the data folder a repository with our ignore rules, merge drivers and ``origin``."""
    ensure_dir(data)
    if not os.path.isdir(os.path.join(data, ".git")):
        _git(data, "init", "-q", env=env)
        _git(data, "symbolic-ref", "HEAD", f"refs/heads/{BRANCH}", env=env)
    for name, text in ((".gitignore", IGNORE), (".gitattributes", ATTRIBUTES)):
        path = os.path.join(data, name)
        try:
            with open(path, encoding="utf-8") as fh:
                current = fh.read()
        except OSError:
            current = None
        if current != text:
            atomic_write(path, text)
    # why -P: git runs the driver in the synced folder, whose files come from the remote (a json.py
    # there would be imported first); quoted: the shell runs it
    driver = " ".join(map(shlex.quote, detach.module_argv("lazy_harness.sync")))
    settings = {
        "user.name": "lazy-harness", "user.email": "lazy-harness@localhost", "commit.gpgsign": "false",
        "core.symlinks": "false",  # why: a link from the remote is checked out as a plain file, never followed
        "merge.lh-lines.name": "lazy-harness: union of JSONL lines by id",
        "merge.lh-lines.driver": f"{driver} merge-lines %O %A %B %P",
        "merge.lh-learning.name": "lazy-harness: write-once learnings",
        "merge.lh-learning.driver": f"{driver} merge-learning %O %A %B %P",
        "core.quotepath": "false",
    }
    stamp = os.path.join(data, ".git", "lh-setup")
    wanted = json.dumps(settings, sort_keys=True)
    try:
        with open(stamp, encoding="utf-8") as fh:
            done = fh.read() == wanted
    except OSError:
        done = False
    if not done:  # why: eight `git config` runs cost more than the rest of a quiet round
        for key, value in settings.items():
            _git(data, "config", key, value, env=env)
        atomic_write(stamp, wanted)
    have = _git(data, "remote", "get-url", "origin", check=False, env=env)
    if not have.ok:
        _git(data, "remote", "add", "origin", remote, env=env)
    elif have.stdout.strip() != remote:
        _git(data, "remote", "set-url", "origin", remote, env=env)


def repair(data: str, env: Mapping[str, str] | None = None) -> list[str]:
    """Undo what a round killed half-way left behind. Call only while holding the sync lock."""
    done = []
    gitdir = os.path.join(data, ".git")
    index_lock = os.path.join(gitdir, "index.lock")
    if os.path.exists(index_lock):
        os.unlink(index_lock)  # why: we hold the sync lock, so no git of ours is running here
        done.append("removed a stale index.lock")
    if os.path.exists(os.path.join(gitdir, "MERGE_HEAD")):
        _git(data, "merge", "--abort", check=False, env=env)
        done.append("aborted a half-done merge")
    for ref_lock in _ref_locks(gitdir):
        os.unlink(ref_lock)
        done.append(f"removed {os.path.relpath(ref_lock, gitdir)}")
    return done


def _ref_locks(gitdir: str) -> list[str]:
    out = []
    for base, _, names in os.walk(os.path.join(gitdir, "refs")):
        out += [os.path.join(base, n) for n in names if n.endswith(".lock")]
    if os.path.exists(os.path.join(gitdir, "HEAD.lock")):
        out.append(os.path.join(gitdir, "HEAD.lock"))
    return out


def _fetch(data: str, env: Mapping[str, str] | None = None) -> None:
    """Fetch ``origin``. A round killed inside a fetch can leave the remote-tracking ref out of step
    with git's own bookkeeping ("cannot lock ref"); that ref is only a copy of the remote's, so it is
    dropped and fetched again."""
    first = _git(data, "fetch", "-q", "origin", check=False, env=env)
    if first.ok:
        return
    _git(data, "update-ref", "-d", f"refs/remotes/origin/{BRANCH}", check=False, env=env)
    for ref_lock in _ref_locks(os.path.join(data, ".git")):
        os.unlink(ref_lock)
    _git(data, "fetch", "-q", "origin", env=env)


def _has_head(data: str, env: Mapping[str, str] | None = None) -> bool:
    return _git(data, "rev-parse", "-q", "--verify", "HEAD", check=False, env=env).ok


def _remote_has_branch(data: str, env: Mapping[str, str] | None = None) -> bool:
    return _git(data, "rev-parse", "-q", "--verify", f"refs/remotes/origin/{BRANCH}", check=False, env=env).ok


# what memory is made of, relative to the data folder (``/``-separated): besides the top-level pair
# ensure_repo writes, a JSONL file at the top (the cost ledger) or in a project's memory folder, a
# journalled run, a learning. Anything else the remote holds is refused before it is merged.
TOP = (".gitignore", ".gitattributes")
# why: the empty stamps of the worker's sync and SessionStart's pull are not in IGNORE, so every remote
# holds them already
STAMPS = (".sync-push", ".sync-pull")
GIT_FILES = (".gitignore", ".gitattributes", ".gitmodules")


def _machine_local(parts: list[str]) -> bool:
    """Whether the path (or a folder on its way) is one ``IGNORE`` keeps machine-local (git's rules:
    a pattern with a ``/`` is matched from the top, one without against each name, a trailing ``/``
    only against folders). why: .gitignore does not apply to a path the remote tracks already."""
    from fnmatch import fnmatchcase

    for pattern in (ln for ln in IGNORE.splitlines() if ln.strip() and not ln.startswith("#")):
        folder_only, steps = pattern.endswith("/"), pattern.rstrip("/").split("/")
        for k in range(1, len(parts) + 1 - folder_only):
            here = parts[:k]
            if len(steps) == 1 and fnmatchcase(here[-1], steps[0]):
                return True
            if len(steps) > 1 and len(here) == len(steps) and all(map(fnmatchcase, here, steps)):
                return True
    return False


def _below(parts: list[str], folder: str) -> list[str] | None:
    """The parts of a path below ``folder`` (``""`` or ``.``: the data folder itself), or None."""
    top = [] if folder in ("", ".") else folder.split("/")
    return parts[len(top):] if parts[:len(top)] == top and len(parts) > len(top) else None


def _plain(name: str, suffix: str) -> bool:
    return name.endswith(suffix) and len(name) > len(suffix) and not name.startswith(".")


def outside_layout(path: str, projects: str = "projects", learnings: str = "knowledge/learnings") -> str | None:
    """Why ``path`` (in the remote's tree, relative to the data folder) is no part of memory, or None
    when it is. ``projects``, ``learnings``: where this machine keeps them, relative to the data folder."""
    parts = path.split("/")
    if parts[-1] in GIT_FILES and (len(parts) > 1 or parts[-1] not in TOP):
        return "a git control file other than the top-level .gitignore and .gitattributes"
    if _machine_local(parts):
        return "a path this machine keeps to itself (the data folder's .gitignore)"
    if len(parts) == 1 and (parts[0] in TOP or parts[0] in STAMPS or _plain(parts[0], ".jsonl")):
        return None
    rest = _below(parts, projects)
    if rest and len(rest) in (2, 3) and not rest[0].startswith(".") and (
            (len(rest) == 2 and _plain(rest[1], ".jsonl"))
            or (len(rest) == 3 and rest[1] == "journal" and _plain(rest[2], ".json"))):
        return None
    rest = _below(parts, learnings)
    if rest and len(rest) == 2 and len(rest[0]) == 7 and rest[0][4] == "-" and (
            rest[0][:4] + rest[0][5:]).isdigit() and _plain(rest[1], ".md"):
        return None
    return "not part of memory (project JSONL files, journals, learnings)"


def _refuse_strangers(data: str, env: Mapping[str, str] | None, projects: str, learnings: str) -> None:
    """Refuse a remote whose tree holds anything but memory's plain files. A symbolic link checked out
    as ``projects`` or ``knowledge/learnings`` would send every later write of the worker outside the
    data folder, a submodule has no place in it either; a nested ``.gitignore`` stops this machine's
    new memory from being committed, a nested ``.gitattributes`` turns the merge drivers off, a folder
    at ``handoff.md`` takes the rendered file's place (``outside_layout``)."""
    listing = _git(data, "ls-tree", "-r", "-z", "--full-tree", f"origin/{BRANCH}", env=env).stdout
    for entry in listing.split("\0"):
        if not entry:
            continue
        meta, _, path = entry.partition("\t")
        mode = meta.partition(" ")[0]
        if mode not in ("100644", "100755"):
            what = f"{'a symbolic link' if mode == '120000' else 'a non-file'} at {path!r}"
        else:
            why = outside_layout(path, projects, learnings)
            what = f"{path!r}, {why}" if why else ""
        if what:
            raise SyncError(f"the remote holds {what}: refused, nothing merged",
                            hint="delete it on the remote, then lh sync")


def merge_remote(data: str, env: Mapping[str, str] | None = None, projects: str = "projects",
                 learnings: str = "knowledge/learnings") -> list[str]:
    """Merge ``origin/main`` into ours; returns the paths the merge changed here. A remote holding
    anything but memory is refused first (``_refuse_strangers``; ``projects`` and ``learnings``:
    where this machine keeps them, relative to the data folder)."""
    if not _remote_has_branch(data, env):
        return []
    _refuse_strangers(data, env, projects, learnings)
    before = _git(data, "rev-parse", "-q", "--verify", "HEAD", check=False, env=env).stdout.strip()
    if not before:  # nothing of ours committed yet: take the remote's history as it is
        # why: not ``reset --hard``, which overwrites a file the worker wrote since the round's commit
        result = _git(data, "merge", "-q", "--ff-only", f"origin/{BRANCH}", check=False, env=env)
        if not result.ok:
            _merge_failed(data, result, env)
        return _git(data, "ls-files", env=env).stdout.splitlines()
    result = _git(data, "merge", "-q", "--no-edit", "--allow-unrelated-histories", f"origin/{BRANCH}",
                  check=False, env=env)
    if not result.ok and not _settle_removals(data, env):
        _merge_failed(data, result, env)
    after = _git(data, "rev-parse", "HEAD", env=env).stdout.strip()
    if after == before:
        return []
    return _git(data, "diff", "--name-only", before, after, env=env).stdout.splitlines()


def _settle_removals(data: str, env: Mapping[str, str] | None = None) -> bool:
    """A merge whose only conflicts are a file removed on one side and changed on the other (our merge
    drivers never run for those): the changed file is kept, the merge committed; whether it was so.
    why keep it: a removal of memory is an undo or a cleanup of one machine, a change another
    machine's new entries, which must not be lost; and left unmerged, every later round failed."""
    if not os.path.exists(os.path.join(data, ".git", "MERGE_HEAD")):
        return False
    listed = _git(data, "status", "--porcelain=v1", "-z", "--untracked-files=no", env=env).stdout.split("\0")
    unmerged = [(entry[:2], entry[3:]) for entry in listed if entry[:2] in ("DD", "AU", "UD", "UA", "DU", "AA", "UU")]
    if not unmerged or any(code not in ("UD", "DU") for code, _ in unmerged):
        return False
    for _, path in unmerged:
        if not os.path.isfile(os.path.join(data, path)):
            return False
        _git(data, "add", "--", path, env=env)
    return _git(data, "commit", "-q", "--no-edit", "--no-verify", check=False, env=env).ok


def _merge_failed(data: str, result: proc.Result, env: Mapping[str, str] | None = None) -> None:
    """Abort what the merge left and raise: ``WrittenMeanwhile`` when git refused to overwrite files
    written here after the round's commit, else a SyncError with git's words."""
    if os.path.exists(os.path.join(data, ".git", "MERGE_HEAD")):
        _git(data, "merge", "--abort", check=False, env=env)
    if any(words in result.stderr for words in _OVERWRITE):
        raise WrittenMeanwhile(_named_paths(result.stderr))
    raise SyncError(f"merge with the remote failed: {result.describe()}", hint="lh sync --status")


def _empty_tree(data: str, env: Mapping[str, str] | None = None) -> str:
    return _git(data, "hash-object", "-t", "tree", "/dev/null", env=env).stdout.strip()
