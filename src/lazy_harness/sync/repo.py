"""The data folder's repository as sync runs git in it: the one way it does (never a prompt; a remote
that stalls fails the round), the check that no other user could write its ``.git`` first, the
version of git a merge needs, and the small questions a round asks git (HEAD, the remote's branch,
ancestry). The error a round raises, :class:`SyncError`, is here too."""

from __future__ import annotations

import functools
import os
import tempfile

from lazy_harness import proc
from lazy_harness.errors import LhError
from lazy_harness.sync.repo_guard import remote_problem, repository_problem

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

BRANCH = "main"
# the last commit of the remote this clone merged or pushed (sync/merge.py ``remember_remote``): a fetched
# ``origin/main`` that no longer holds it is a history its owner rewrote
SEEN = "refs/lh/remote-seen"


def seen_commit(data: str, env: Mapping[str, str] | None = None) -> str:
    """The commit :data:`SEEN` names, ``""`` before this clone merged or pushed (a machine that joins)."""
    return _git(data, "rev-parse", "-q", "--verify", f"{SEEN}^{{commit}}", check=False, env=env).stdout.strip()


def take_remote(data: str) -> str:
    """The command that records the fetched remote as the commit this clone last merged, so that the
    bounds take what it holds as known: the way on when a file or a tree they refused is the person's
    own memory (grown on another machine of theirs), on a machine that joins too (it has no
    :data:`SEEN` to forget)."""
    import shlex

    return f"git -C {shlex.quote(data)} update-ref {SEEN} refs/remotes/origin/{BRANCH}"


GIT_TIMEOUT = 120.0


class SyncError(LhError):
    """A sync round could not complete; nothing local was lost. Its message is one line (git's error
    can be many: its lines are joined with `` | ``), for the CLI, worker.log and ``lh sync --status``."""

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(one_line(message), hint)


def one_line(text: str) -> str:
    """``text``'s non-blank lines joined into one."""
    return " | ".join(line.strip() for line in text.splitlines() if line.strip())


# why: whatever the person's umask (000 too), what git writes (its objects, config, the memory it
# checks out) is private, as everything else of ours is (ADR 0031)
GIT_UMASK = 0o077
# the words every refusal of a repository ends with (hooks/start_pull.py ``SYNC_REFUSED`` looks for them)
RUNS_NO_GIT = "lh sync runs no git there until it is fixed"


def gitdir_problem(data: str) -> str | None:
    """Why git may not run in ``data``'s repository: its ``.git``, an entry directly in it, in ``refs``
    or ``refs/heads`` is a link, another user's, or open to their writing (``private``); None when
    there is no ``.git`` yet. why: git runs commands its config names (``core.fsmonitor``, a credential
    helper): a config another local user could write is their command run as the person."""
    return repository_problem(os.path.join(data, ".git"), ("refs", os.path.join("refs", "heads")))


def gitdir_refusal(data: str) -> SyncError | None:
    """:func:`gitdir_problem` as the error a round raises (and ``lh doctor`` prints), with what to check
    and run; None when git may run."""
    why = gitdir_problem(data)
    if not why:
        return None
    gitdir = os.path.join(data, ".git")
    fix = _fix(gitdir, why)
    if fix is None:  # a worktree's or a submodule's .git file: another repository's
        return SyncError(f"{why}: {RUNS_NO_GIT}",
                         hint=f"move {gitdir} away: lh sync keeps a repository of its own in the data folder")
    return SyncError(f"{why}: {RUNS_NO_GIT}",
                     hint=f"look in {os.path.join(gitdir, 'config')} for lines you did not write, then {fix}")


def _fix(gitdir: str, why: str) -> str | None:
    """What to run on the repository ``gitdir`` that :func:`repository_problem` refused with ``why``;
    None when ``gitdir`` is a file (no chmod makes it a repository)."""
    if "belongs to uid" in why:  # why: chmod alone fails on another user's file (a `sudo git gc` there)
        return f"give it back (sudo chown -R \"$(id -un)\" {gitdir}) and chmod -R go-w {gitdir}"
    if "symbolic link" in why:
        return "remove the link it names (git makes none there)"
    if "without the sticky bit" in why:  # why: about the folder holding it, which chmod -R leaves open
        return "chmod go-w (or chmod +t) the folder it names, or move the repository into a folder of yours"
    if "is not a folder" in why:
        return None
    return f"chmod -R go-w {gitdir}"


def remote_refusal(url: str, data: str, env: Mapping[str, str] | None = None) -> SyncError | None:
    """The error a round raises (and ``lh doctor`` prints) when the remote ``url`` is on this machine
    and another user could write what git runs there (``repo_guard.remote_problem``; a relative path
    is read from ``data``, where git runs); None when git may use it, or when it is another machine's."""
    found = remote_problem(url, data, env)
    if not found:
        return None
    where, why = found
    said = f"[sync] remote {url}: {why}: {RUNS_NO_GIT}"
    if why.startswith((f"{where} is a symbolic link", f"{where} is not a folder")):
        return SyncError(said, hint="set [sync] remote to the path of a bare repository of yours (git init --bare "
                                    "PATH), not a link to one or a file (lh config path shows the file)")
    return SyncError(said, hint=f"look in {os.path.join(where, 'config')} and {os.path.join(where, 'hooks')} "
                                f"for what you did not write, then {_fix(where, why)}")


def refusal(data: str, remote: str, env: Mapping[str, str] | None = None) -> SyncError | None:
    """:func:`gitdir_refusal`, else :func:`remote_refusal` of ``remote``: what ``lh sync --status`` and
    ``lh doctor`` say before they run any git."""
    return gitdir_refusal(data) or (remote_refusal(remote, data, env) if remote else None)


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


# why: never a prompt, git's messages in one language (a round reads them), and a remote that stalls
# (http under 1 kB/s for 20 s) fails the round instead of holding it for minutes. Every git of a round
# gets them (git_env), those fed on stdin too
NO_PROMPT = {"GIT_TERMINAL_PROMPT": "0", "GIT_ASKPASS": "true", "LC_ALL": "C", "GIT_HTTP_LOW_SPEED_LIMIT": "1000",
             "GIT_HTTP_LOW_SPEED_TIME": "20"}


def git_env(data: str, env: Mapping[str, str] | None) -> dict[str, str]:
    """The environment every git of a round runs with: ``env`` (this process's by default) without
    :data:`LOCAL_GIT_VARS`, so git finds ``data``'s own ``.git`` (an index file inside that ``.git`` is
    kept: a round's own, ``write_merged._staged``), with :data:`NO_PROMPT`, and without an empty
    ``GIT_SSH_COMMAND`` or ``GIT_SSH``."""
    ours = os.path.join(data, ".git") + os.sep
    genv = {k: v for k, v in (os.environ if env is None else env).items()
            if not (k in LOCAL_GIT_VARS or k.startswith(("GIT_CONFIG_KEY_", "GIT_CONFIG_VALUE_")))
            or (k == "GIT_INDEX_FILE" and v.startswith(ours))}
    genv.update(NO_PROMPT)
    for var in ("GIT_SSH_COMMAND", "GIT_SSH"):
        if not genv.get(var, "x"):  # why: an empty one ("export GIT_SSH_COMMAND=") hid the person's config
            del genv[var]
    return genv


BATCH_SSH = "ssh -o BatchMode=yes -o ConnectTimeout=10"  # why: no password prompt; unreachable for 10 s fails
REMOTE_COMMANDS = frozenset(("fetch", "push", "ls-remote", "pull", "clone"))  # those that may run ssh


def _persons_ssh(data: str, genv: Mapping[str, str]) -> bool:
    """Whether the person chose how git runs ssh: ``GIT_SSH_COMMAND`` or ``GIT_SSH`` in the environment,
    or ``core.sshCommand`` in a git config. why: git lets ``GIT_SSH_COMMAND`` override both, so setting
    ours took away a person's key or wrapper and the round could not log in; theirs is used as it is
    (without our batch mode). Asked at each command that reaches the remote (a round makes two), not
    kept: a config chosen by the remote's url (``includeIf "hasconfig:remote.*.url:..."``) holds only
    once the first round made the repository and its remote."""
    if genv.get("GIT_SSH_COMMAND") or genv.get("GIT_SSH"):
        return True
    try:
        got = proc.run(["git", "-C", data, "config", "--get", "core.sshCommand"], timeout=GIT_TIMEOUT, env=dict(genv))
    except proc.CommandNotFound:
        return False  # why: _git says "git not found" next
    return got.ok and bool(got.stdout.strip())


def _remote_guarded(data: str, args: tuple[str, ...], genv: Mapping[str, str]) -> None:
    """Raise :func:`remote_refusal` for each URL the git command ``args`` reaches (its remote's, as
    ``git remote get-url`` gives them: ``insteadOf`` applied, a push's ``pushurl``), looked at again
    before each command that reaches it. A name that is no remote is the URL itself."""
    name = next((a for a in args[1:] if not a.startswith("-")), "origin")
    push = ["--push"] if args[0] == "push" else []
    try:
        got = proc.run(["git", "-C", data, "remote", "get-url", "--all", *push, name], timeout=GIT_TIMEOUT,
                       env=dict(genv))
    except proc.CommandNotFound:
        return  # why: _git says "git not found" next
    for url in got.stdout.splitlines() if got.ok else [name]:
        refused = remote_refusal(url, data, genv)
        if refused:
            raise refused


def _git(data: str, *args: str, timeout: float = GIT_TIMEOUT, check: bool = True,
         env: Mapping[str, str] | None = None) -> proc.Result:
    _guarded(data)
    genv = git_env(data, env)
    if args and args[0] in REMOTE_COMMANDS:
        _remote_guarded(data, args, genv)
        if not _persons_ssh(data, genv):
            genv["GIT_SSH_COMMAND"] = BATCH_SSH
    try:
        result = proc.run(["git", "-C", data, *args], timeout=timeout, env=genv, umask=GIT_UMASK)
    except proc.CommandNotFound:
        raise SyncError("git not found", hint="install git") from None
    if check and not result.ok:
        raise SyncError(f"git {args[0]} failed: {result.describe()}", hint="lh sync --status")
    return result


def _run_input(data: str, args: list[str], text: str, env: Mapping[str, str]) -> proc.Result:
    """git ``args`` in ``data`` reading ``text``. why from a file written whole before git starts, not a
    pipe: a round killed while it wrote the pipe left git running on what it had read. Given no paths,
    ``git add -A --pathspec-from-file=-`` staged the whole data folder, and the git outlived the round
    into the next one, whose removal of the stale ``index.lock`` let the two write one index: every
    round after stopped on "index file smaller than expected". The file has no name (``TemporaryFile``)
    and sits in ``.git``: nothing is left behind, nothing written outside the data folder (but for a
    ``.git`` that is no folder, a case no round of ours makes: then the system's temp folder)."""
    _guarded(data)
    gitdir = os.path.join(data, ".git")
    with tempfile.TemporaryFile(dir=gitdir if os.path.isdir(gitdir) else None) as fed:
        fed.write(text.encode("utf-8"))
        fed.flush()
        fed.seek(0)
        result = proc.run(["git", "-C", data, *args], stdin=fed, timeout=GIT_TIMEOUT, env=git_env(data, env),
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


def _empty_tree(data: str, env: Mapping[str, str] | None = None) -> str:
    return _git(data, "hash-object", "-t", "tree", "/dev/null", env=env).stdout.strip()


def file_at(data: str, commit: str, rel: str, env: Mapping[str, str] | None) -> str | None:
    """The file ``rel`` as ``commit`` holds it, None when it holds none."""
    got = _git(data, "cat-file", "blob", f"{commit}:{rel}", check=False, env=env)
    return got.stdout if got.ok else None


def _has_head(data: str, env: Mapping[str, str] | None = None) -> bool:
    return _git(data, "rev-parse", "-q", "--verify", "HEAD", check=False, env=env).ok


def _remote_has_branch(data: str, env: Mapping[str, str] | None = None) -> bool:
    return _git(data, "rev-parse", "-q", "--verify", f"refs/remotes/origin/{BRANCH}", check=False, env=env).ok


def _is_ancestor(data: str, older: str, newer: str, env: Mapping[str, str] | None) -> bool:
    return _git(data, "merge-base", "--is-ancestor", older, newer, check=False, env=env).ok


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

