"""The data folder as a git repository: the one way sync runs git (never a prompt; a remote that
stalls fails the round), the repository's set-up (ignore rules, merge drivers, ``origin``), repair of
what a killed round left, fetch and the merge of ``origin/main``: worked out by git off to the side,
its files written into the data folder here, under the memory writers' locks (``merge_remote``)."""

from __future__ import annotations

import functools
import json
import os
import shlex
import time

from contextlib import ExitStack, contextmanager

from lazy_harness import detach, private, proc
from lazy_harness.atomic import atomic_write, ensure_dir, same_file
from lazy_harness.errors import LhError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping

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
*.json merge=lh-journal
"""


def ignore_rules(projects: str = "projects") -> str:
    """The data folder's ``.gitignore`` when memory is kept at ``projects`` (relative to the data
    folder, ``/``-separated; ``""`` or ``.``: the data folder itself): :data:`IGNORE`, its lines for a
    project's memory folder (``projects/*/...``: the rendered handoff.md, the open-items cache) naming
    that folder instead. why: those files are this machine's wherever ``[memory] path`` puts memory;
    the knowledge folder holds nothing of the kind but locks, which ``*.lock`` keeps anywhere."""
    if projects == "projects":
        return IGNORE
    top = "" if projects in ("", ".") else _ignore_escaped(projects) + "/"
    return "".join(top + line[len("projects/"):] if line.startswith("projects/*/") else line
                   for line in IGNORE.splitlines(keepends=True))


def _ignore_escaped(folder: str) -> str:
    """``folder`` as a literal in a .gitignore line: ``\\`` before a wildcard or a backslash, and
    before a ``#`` or ``!`` that starts the line (a comment, a negation)."""
    out = "".join("\\" + c if c in "\\*?[" else c for c in folder)
    return "\\" + out if out[:1] in ("#", "!") else out


class SyncError(LhError):
    """A sync round could not complete; nothing local was lost. Its message is one line (git's error
    can be many: its lines are joined with `` | ``), for the CLI, worker.log and ``lh sync --status``."""

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(one_line(message), hint)


def one_line(text: str) -> str:
    """``text``'s non-blank lines joined into one."""
    return " | ".join(line.strip() for line in text.splitlines() if line.strip())


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


# why: whatever the person's umask (000 too), what git writes (its objects, config, the memory it
# checks out) is private, as everything else of ours is (ADR 0031)
GIT_UMASK = 0o077


def gitdir_problem(data: str) -> str | None:
    """Why git may not run in ``data``'s repository: its ``.git``, an entry directly in it, in ``refs``
    or ``refs/heads`` is a link, another user's, or open to their writing (``private``); None when
    there is no ``.git`` yet. why: git runs commands its config names (``core.fsmonitor``, a credential
    helper): a config another local user could write is their command run as the person."""
    gitdir = os.path.join(data, ".git")
    why = private.problem(gitdir)
    if why and not private.group_of_one(gitdir, why):
        return why
    if not os.path.isdir(gitdir):
        return None
    for folder in (gitdir, os.path.join(gitdir, "refs"), os.path.join(gitdir, "refs", "heads")):
        try:
            names = os.listdir(folder)
        except OSError:
            continue
        for name in names:
            path = os.path.join(folder, name)
            inner = private.problem(path) if os.path.isdir(path) else private.file_problem(path)
            if inner and not private.group_of_one(path, inner):
                return inner
    return None


def gitdir_refusal(data: str) -> SyncError | None:
    """:func:`gitdir_problem` as the error a round raises (and ``lh doctor`` prints), with what to check
    and run; None when git may run."""
    why = gitdir_problem(data)
    if not why:
        return None
    gitdir = os.path.join(data, ".git")
    if "belongs to uid" in why:  # why: chmod alone fails on another user's file (a `sudo git gc` there)
        fix = f"give it back (sudo chown -R \"$(id -un)\" {gitdir}) and chmod -R go-w {gitdir}"
    elif "symbolic link" in why:
        fix = "remove the link it names (git makes none there)"
    elif "is not a folder" in why:  # a worktree's or a submodule's .git file: another repository's
        return SyncError(f"{why}: lh sync runs no git there until it is fixed",
                         hint=f"move {gitdir} away: lh sync keeps a repository of its own in the data folder")
    else:
        fix = f"chmod -R go-w {gitdir}"
    return SyncError(f"{why}: lh sync runs no git there until it is fixed",
                     hint=f"look in {os.path.join(gitdir, 'config')} for lines you did not write, then {fix}")


def _guarded(data: str) -> None:
    refused = gitdir_refusal(data)
    if refused:
        raise refused


# git's variables that point it at another repository, index or config (``git rev-parse
# --local-env-vars``, and the numbered GIT_CONFIG_KEY_<n>/VALUE_<n>). why dropped: git exports
# GIT_INDEX_FILE (and a hook may see GIT_DIR) to the hooks of the person's project; a session that
# such a hook starts runs SessionStart's pull with them, and lh's git wrote its index over the
# project's, or ran what the config of that repository names
LOCAL_GIT_VARS = frozenset((
    "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_CONFIG", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT",
    "GIT_OBJECT_DIRECTORY", "GIT_DIR", "GIT_WORK_TREE", "GIT_IMPLICIT_WORK_TREE", "GIT_GRAFT_FILE",
    "GIT_INDEX_FILE", "GIT_NO_REPLACE_OBJECTS", "GIT_REPLACE_REF_BASE", "GIT_PREFIX",
    "GIT_INTERNAL_SUPER_PREFIX", "GIT_SHALLOW_FILE", "GIT_COMMON_DIR"))


def git_env(data: str, env: Mapping[str, str] | None) -> dict[str, str]:
    """``env`` (this process's by default) without :data:`LOCAL_GIT_VARS`: git then finds
    ``data``'s own ``.git``. An index file inside that ``.git`` is kept: a round's own (``_staged``)."""
    ours = os.path.join(data, ".git") + os.sep
    return {k: v for k, v in (os.environ if env is None else env).items()
            if not (k in LOCAL_GIT_VARS or k.startswith(("GIT_CONFIG_KEY_", "GIT_CONFIG_VALUE_")))
            or (k == "GIT_INDEX_FILE" and v.startswith(ours))}


def _git(data: str, *args: str, timeout: float = GIT_TIMEOUT, check: bool = True,
         env: Mapping[str, str] | None = None) -> proc.Result:
    _guarded(data)
    genv = git_env(data, env)
    # why: never a prompt, and a remote that stalls (http under 1 kB/s for 20 s, ssh unreachable for
    # 10 s) fails the round instead of holding it for minutes
    genv.update(GIT_TERMINAL_PROMPT="0", GIT_ASKPASS="true", LC_ALL="C", GIT_HTTP_LOW_SPEED_LIMIT="1000",
                GIT_HTTP_LOW_SPEED_TIME="20",
                GIT_SSH_COMMAND=genv.get("GIT_SSH_COMMAND") or "ssh -o BatchMode=yes -o ConnectTimeout=10")
    try:
        result = proc.run(["git", "-C", data, *args], timeout=timeout, env=genv, umask=GIT_UMASK)
    except proc.CommandNotFound:
        raise SyncError("git not found", hint="install git") from None
    if check and not result.ok:
        raise SyncError(f"git {args[0]} failed: {result.describe()}", hint="lh sync --status")
    return result


MERGE_TREE = (2, 38)  # the git that has ``merge-tree --write-tree`` and its --allow-unrelated-histories


def parse_version(said: str) -> tuple[int, ...] | None:
    """(2, 39, 5) of ``git version 2.39.5`` (any suffix after the numbers ignored); None when unread."""
    import re

    found = re.search(r"(\d+)\.(\d+)(?:\.(\d+))?", said)
    return tuple(int(n or 0) for n in found.groups()) if found else None


@functools.lru_cache(maxsize=4)
def git_version(search_path: str) -> tuple[int, ...] | None:
    """The version of the ``git`` found on ``search_path`` (a PATH); None when it cannot be read."""
    try:
        result = proc.run(["git", "version"], timeout=10.0, env={**os.environ, "PATH": search_path})
    except proc.CommandNotFound:
        return None
    return parse_version(result.stdout) if result.ok else None


def need_merge_tree(data: str, env: Mapping[str, str] | None = None) -> None:
    """Raise SyncError, before anything is written, when the git on PATH is older than
    :data:`MERGE_TREE`: a merge is worked out off to the side, which older ones cannot do."""
    e = os.environ if env is None else env
    version = git_version(e.get("PATH", ""))
    if version is not None and version < MERGE_TREE:
        raise SyncError(f"lh sync needs git {'.'.join(map(str, MERGE_TREE))} or later to merge another machine's "
                        f"memory; this git is {'.'.join(map(str, version))}", hint="install a newer git")


def ensure_repo(data: str, remote: str, env: Mapping[str, str] | None = None, projects: str = "projects") -> None:
    """Make the data folder a repository with our ignore rules (:func:`ignore_rules` for memory kept at
    ``projects``, relative to the data folder), merge drivers and ``origin``. A stale ``config.lock``
    would stop it: :func:`repair` first."""
    ensure_dir(data)
    if not os.path.isdir(os.path.join(data, ".git")):
        _git(data, "init", "-q", env=env)
        _git(data, "symbolic-ref", "HEAD", f"refs/heads/{BRANCH}", env=env)
    for name, text in ((".gitignore", ignore_rules(projects)), (".gitattributes", ATTRIBUTES)):
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
        # why a module of its own: a journal is changed on two machines when both undo its run
        "merge.lh-journal.name": "lazy-harness: journals, the union of what was undone",
        "merge.lh-journal.driver": " ".join(map(shlex.quote, detach.module_argv("lazy_harness.sync.journal_merge")))
                                   + " %O %A %B %P",
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


def repair(data: str, env: Mapping[str, str] | None = None, now: float | None = None) -> list[str]:
    """Undo what a round killed half-way left behind: git's stale lock files (:func:`_remove_locks`),
    then a half-done merge. Call only while holding the sync lock, before the round runs any git
    (``ensure_repo``'s ``git config`` stops on a stale ``config.lock``); nothing to do without ``.git``."""
    _guarded(data)  # why first: nothing is removed from a repository another user could write
    gitdir = os.path.join(data, ".git")
    done = _remove_locks(gitdir, _stale_locks(gitdir), now)
    if os.path.exists(os.path.join(gitdir, "MERGE_HEAD")):
        _git(data, "merge", "--abort", check=False, env=env)
        done.append("aborted a half-done merge")
    return done


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
        with open(path, encoding="utf-8", errors="replace") as fh:
            pid, _, host = fh.read().strip().partition(" ")
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


def _fetch(data: str, env: Mapping[str, str] | None = None) -> None:
    """Fetch ``origin``. A round killed inside a fetch can leave the remote-tracking ref out of step
    with git's own bookkeeping ("cannot lock ref", "bad object"); that ref is only a copy of the
    remote's, so it is dropped and fetched again. When that fetch fails too (no network, the remote
    gone), a ref that named a commit is put back: ``status`` counts ahead and behind against it."""
    first = _git(data, "fetch", "-q", "origin", check=False, env=env)
    if first.ok:
        return
    gitdir = os.path.join(data, ".git")
    _remove_locks(gitdir, _stale_locks(gitdir))
    ref = f"refs/remotes/origin/{BRANCH}"
    known = _git(data, "rev-parse", "-q", "--verify", f"{ref}^{{commit}}", check=False, env=env).stdout.strip()
    _git(data, "update-ref", "-d", ref, check=False, env=env)
    again = _git(data, "fetch", "-q", "origin", check=False, env=env)
    if again.ok:
        return
    if known:
        _git(data, "update-ref", ref, known, "", check=False, env=env)
    raise SyncError(f"could not fetch from the remote: git fetch failed: {again.describe()}", hint="lh sync --status")


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


def _machine_local(parts: list[str], projects: str = "projects") -> bool:
    """Whether the path (or a folder on its way) is one :func:`ignore_rules` keeps machine-local for
    memory kept at ``projects`` (git's rules: a pattern with a ``/`` is matched from the top, one
    without against each name, a trailing ``/`` only against folders, a character after ``\\``
    literal). why: .gitignore does not apply to a path the remote tracks already."""
    from fnmatch import fnmatchcase

    for folder_only, steps in _patterns(ignore_rules(projects)):
        for k in range(1, len(parts) + 1 - folder_only):
            here = parts[:k]
            if len(steps) == 1 and fnmatchcase(here[-1], steps[0]):
                return True
            if len(steps) > 1 and len(here) == len(steps) and all(map(fnmatchcase, here, steps)):
                return True
    return False


@functools.lru_cache(maxsize=4)
def _patterns(rules: str) -> tuple[tuple[bool, tuple[str, ...]], ...]:
    """``(folder only, steps as fnmatch patterns)`` of each pattern of a .gitignore text."""
    import re

    def glob(step: str) -> str:
        return re.sub(r"\\(.)", lambda m: f"[{m[1]}]" if m[1] in "*?[" else m[1], step)

    return tuple((ln.endswith("/"), tuple(glob(s) for s in ln.rstrip("/").split("/")))
                 for ln in rules.splitlines() if ln.strip() and not ln.startswith("#"))


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
    if _machine_local(parts, projects):
        return "a path this machine keeps to itself (the data folder's .gitignore)"
    if len(parts) == 1 and (parts[0] in TOP or parts[0] in STAMPS or _plain(parts[0], ".jsonl")):
        return None
    rest = _below(parts, projects)
    if rest and len(rest) in (2, 3) and not rest[0].startswith(".") and (
            (len(rest) == 2 and _plain(rest[1], ".jsonl"))
            or (len(rest) == 3 and rest[1] == "journal" and _plain(rest[2], ".json"))):
        return None
    rest = _below(parts, learnings)
    if rest and len(rest) == 2 and _month(rest[0]) and _plain(rest[1], ".md"):
        return None
    found = other_layout(path, projects, learnings)
    if found:
        return f"memory as a machine with another {found[0]} keeps it ({_shown(found[1])})"
    return "not part of memory (project JSONL files, journals, learnings)"


def _month(name: str) -> bool:
    return len(name) == 7 and name[4] == "-" and (name[:4] + name[5:]).isdigit()


def _shown(folder: str) -> str:
    return repr(folder) if folder not in ("", ".") else "the data folder itself"


def _memory_files() -> tuple[str, ...]:
    """The names of the JSONL files a project's memory folder holds."""
    from lazy_harness.memory import aliases, files, marks, usage_log

    return files.DECISIONS, files.FAILURES, files.HANDOFF_STATE, marks.MARKS, usage_log.USAGE, aliases.FILE


def other_layout(path: str, projects: str = "projects",
                 learnings: str = "knowledge/learnings") -> tuple[str, str] | None:
    """``(setting, folder)`` when ``path`` (relative to the data folder) has the shape of memory kept
    where this machine does not keep it: ``("[memory] path", folder)`` for ``<folder>/<project>/`` and a
    memory file (decisions.jsonl, ...) or ``journal/<run>.json``, ``("[knowledge] path", folder)`` for
    ``<folder>/learnings/YYYY-MM/<name>.md``; ``folder`` relative to the data folder (``""``: the data
    folder itself). None for any other path. ``projects``, ``learnings``: where this machine keeps them.
    why: another machine's memory, judged by this machine's layout alone, read as a stranger to delete."""
    parts = path.split("/")
    if any(not p or p.startswith(".") for p in parts):
        return None
    if len(parts) >= 3 and _month(parts[-2]) and _plain(parts[-1], ".md") and parts[-3] == "learnings":
        there = "/".join(parts[:-3])
        return None if "/".join(parts[:-2]) == learnings else ("[knowledge] path", there)
    if len(parts) >= 2 and parts[-1] in _memory_files():
        folder = parts[:-2]
    elif len(parts) >= 3 and parts[-2] == "journal" and _plain(parts[-1], ".json"):
        folder = parts[:-3]
    else:
        return None
    there, here = "/".join(folder), "" if projects in ("", ".") else projects
    # why: a folder inside one of this machine's project folders is no other machine's layout
    if there == here or (here and f"{there}/".startswith(f"{here}/")):
        return None
    return ("[memory] path", there)


def _other_layout_error(data: str, path: str, found: tuple[str, str], projects: str, learnings: str) -> SyncError:
    """The refusal of memory kept under another ``[memory] path`` / ``[knowledge] path``: no hint to
    delete it, since it is another machine's memory."""
    setting, there = found
    here = projects if setting == "[memory] path" else os.path.dirname(learnings)
    return SyncError(f"the remote holds {path!r}, memory kept at {_shown(there)} of the data folder by a machine "
                     f"whose {setting} differs from this one's ({os.path.normpath(os.path.join(data, here))}): "
                     "[memory] path and [knowledge] path must be the same on every machine that syncs; refused, "
                     "nothing merged",
                     hint=f"set {setting} alike in each machine's config.toml (lh config path), move the folder "
                          "to match, then lh sync")


def _refuse_strangers(data: str, env: Mapping[str, str] | None, projects: str, learnings: str) -> None:
    """Refuse a remote whose tree holds anything but memory's plain files. A symbolic link checked out
    as ``projects`` or ``knowledge/learnings`` would send every later write of the worker outside the
    data folder, a submodule has no place in it either; a nested ``.gitignore`` stops this machine's
    new memory from being committed, a nested ``.gitattributes`` turns the merge drivers off, a folder
    at ``handoff.md`` takes the rendered file's place (``outside_layout``)."""
    listing = _git(data, "ls-tree", "-r", "-z", "--full-tree", f"origin/{BRANCH}", env=env).stdout
    stranger = ""
    for entry in listing.split("\0"):
        if not entry:
            continue
        meta, _, path = entry.partition("\t")
        mode = meta.partition(" ")[0]
        if mode not in ("100644", "100755"):
            stranger = f"{'a symbolic link' if mode == '120000' else 'a non-file'} at {path!r}"
            break
        why = outside_layout(path, projects, learnings)
        found = other_layout(path, projects, learnings) if why else None
        if found:  # why before any stranger: its hint to delete must not reach another machine's memory
            raise _other_layout_error(data, path, found, projects, learnings)
        stranger = stranger or (f"{path!r}, {why}" if why else "")
    if stranger:
        raise SyncError(f"the remote holds {stranger}: refused, nothing merged",
                        hint="delete it on the remote, then lh sync")


def merge_remote(data: str, env: Mapping[str, str] | None = None, projects: str = "projects",
                 learnings: str = "knowledge/learnings") -> list[str]:
    """Merge ``origin/main`` into ours; returns the paths the merge changed here. A remote holding
    anything but memory is refused first (``_refuse_strangers``; ``projects`` and ``learnings``:
    where this machine keeps them, relative to the data folder).

    why not ``git merge``: its checkout unlinks and recreates each file it changes, taking no lock the
    memory writers take, so a line appended meanwhile went to the unlinked file or was written over
    (ADR 0015). The merge is worked out off to the side (``git merge-tree``, the same merge drivers),
    then each changed file is written under its writers' locks (:func:`_install`), then HEAD moves."""
    if not _remote_has_branch(data, env):
        return []
    before = _git(data, "rev-parse", "-q", "--verify", "HEAD", check=False, env=env).stdout.strip()
    theirs = _git(data, "rev-parse", f"origin/{BRANCH}^{{commit}}", env=env).stdout.strip()
    # why before the check: nothing of a remote this machine holds already is merged, and memory it
    # pushed under a [memory] path it has since changed (and moved) must not be refused as another's
    if before and _is_ancestor(data, theirs, before, env):
        return []
    _refuse_strangers(data, env, projects, learnings)
    if not before or _is_ancestor(data, before, theirs, env):
        commit = theirs  # a fast-forward, as ``git merge`` makes it
    else:
        need_merge_tree(data, env)
        tree = _merged_tree(data, before, theirs, env, projects)
        commit = _git(data, "commit-tree", tree, "-p", before, "-p", theirs, "-m",
                      f"Merge remote-tracking branch 'origin/{BRANCH}'", env=env).stdout.strip()
    changes = _changes(data, before, commit, env)
    _install(data, changes, commit, env, projects, learnings)
    _git(data, "update-ref", "-m", f"lh sync: merge origin/{BRANCH}", "HEAD", commit, before, env=env)
    _git(data, "reset", "-q", env=env)  # the index to the merge (the files are written already)
    return [path for path, _, _ in changes]


def _is_ancestor(data: str, older: str, newer: str, env: Mapping[str, str] | None) -> bool:
    return _git(data, "merge-base", "--is-ancestor", older, newer, check=False, env=env).ok


def _merged_tree(data: str, ours: str, theirs: str, env: Mapping[str, str] | None, projects: str = "projects") -> str:
    """The tree of the three-way merge of ``ours`` and ``theirs`` (the merge drivers run for it), the
    work tree untouched. Its only conflicts may be a file removed on one side and changed on the other
    (our merge drivers never run for those): git leaves the changed version in the tree, and it is
    kept. why keep it: a removal of memory is an undo or a cleanup of one machine, a change another
    machine's new entries, which must not be lost. The top-level ``.gitignore`` and ``.gitattributes``
    are this machine's whatever the merge made of them (:func:`_ours_on_top`). Anything else raises
    SyncError."""
    result = _git(data, "merge-tree", "--write-tree", "-z", "--allow-unrelated-histories", ours, theirs,
                  check=False, env=env)
    fields = result.stdout.split("\0")
    if result.code not in (0, 1) or not fields[0]:
        raise SyncError(f"merge with the remote failed: {result.describe()}", hint="lh sync --status")
    stages: dict[str, set[str]] = {}
    for entry in fields[1:] if result.code == 1 else ():
        if not entry:
            break
        meta, _, path = entry.partition("\t")
        stages.setdefault(path, set()).add(meta.rsplit(" ", 1)[-1])
    # why not the top-level pair: they are this machine's (ensure_repo writes them every round), and
    # two versions' texts met as an add/add or both-changed conflict that stopped every round
    memory = {path: s for path, s in stages.items() if path not in TOP}
    if result.code == 1 and (not stages or any(s not in ({"1", "2"}, {"1", "3"}) for s in memory.values())):
        shown = ", ".join(sorted(stages)) or one_line(" ".join(f for f in fields[1:] if f))
        raise SyncError(f"merge with the remote failed: conflicts in {shown}", hint="lh sync --status")
    return _ours_on_top(data, fields[0], env, projects)


def _ours_on_top(data: str, tree: str, env: Mapping[str, str] | None, projects: str = "projects") -> str:
    """``tree`` with this machine's top-level ``.gitignore`` and ``.gitattributes`` (:func:`ignore_rules`
    of ``projects``, :data:`ATTRIBUTES`) in place of whatever the merge made of them, conflict markers
    included.
    why not a union of the ignore lines: no machine reads another's; each round writes its own
    before it stages anything, and :func:`_machine_local` judges the remote's paths by this version's."""
    genv = dict(os.environ if env is None else env)
    kept = [e for e in _git(data, "ls-tree", "-z", tree, env=env).stdout.split("\0")
            if e and e.partition("\t")[2] not in TOP]
    for name, text in zip(TOP, (ignore_rules(projects), ATTRIBUTES), strict=True):
        blob = _run_input(data, ["hash-object", "-w", "--no-filters", "--stdin"], text, genv).stdout.strip()
        kept.append(f"100644 blob {blob}\t{name}")
    return _run_input(data, ["mktree", "-z"], "\0".join(kept) + "\0", genv).stdout.strip()


def _changes(data: str, before: str, commit: str, env: Mapping[str, str] | None) -> list[tuple[str, str, str]]:
    """``(path, blob before, blob after)`` of every file ``commit`` changes against ``before`` (``""``:
    nothing committed yet); a blob is ``""`` where the file is absent."""
    out = _git(data, "diff-tree", "-r", "-z", "--no-renames", before or _empty_tree(data, env), commit,
               env=env).stdout.split("\0")
    changes = []
    for meta, path in zip(out[0::2], out[1::2], strict=False):
        _, _, old, new, _ = meta.split(" ")
        changes.append((path, "" if set(old) == {"0"} else old, "" if set(new) == {"0"} else new))
    return changes


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


def _run_input(data: str, args: list[str], text: str, env: Mapping[str, str]) -> proc.Result:
    _guarded(data)
    result = proc.run(["git", "-C", data, *args], input=text, timeout=GIT_TIMEOUT, env=git_env(data, env),
                      umask=GIT_UMASK)
    if not result.ok:
        raise SyncError(f"git {args[0]} failed: {result.describe()}", hint="lh sync --status")
    return result


def _sizes(data: str, blobs: list[str], env: Mapping[str, str] | None) -> dict[str, int]:
    if not blobs:
        return {}
    _guarded(data)
    out = proc.run(["git", "-C", data, "cat-file", "--batch-check"], input="\n".join(blobs) + "\n",
                   timeout=GIT_TIMEOUT, env=git_env(data, env), umask=GIT_UMASK).stdout
    return {sha: int(size) for sha, _, size in (ln.split(" ") for ln in out.splitlines() if ln.count(" ") == 2)}


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
    with open(path, "rb") as fh:
        return fh.read()


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
            fd = os.open(full, os.O_RDONLY | (os.O_CREAT if create else 0), 0o600)
        except (FileNotFoundError, NotADirectoryError):
            return None
        fcntl.flock(fd, fcntl.LOCK_EX)
        if same_file(fd, full):
            stack.callback(os.close, fd)
            if create and not os.fstat(fd).st_size and full not in created:
                created.append(full)
            return _read(full)
        os.close(fd)


def _empty_tree(data: str, env: Mapping[str, str] | None = None) -> str:
    return _git(data, "hash-object", "-t", "tree", "/dev/null", env=env).stdout.strip()
