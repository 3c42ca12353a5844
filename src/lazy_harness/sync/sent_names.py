"""What this machine's push may not send by name, which every other machine would refuse as a
remote's (ADR 0067):
- a file whose name holds a secret (``bounds._refuse_secret_names``), whose name every listing prints.
  A commit not yet pushed that holds one (an older version's, a commit made by hand) is not sent: the
  unpushed commits become one commit of the files without it, which stays here untracked and is named
  each round (``scan.stage_memory`` leaves it out from then on);
- two names one disk takes for one (``bounds.refuse_one_on_disk``): project folders ``-home-me-Shop``
  and ``-home-me-shop`` that a Linux machine keeps for ``~/Shop`` and ``~/shop``. The push is refused,
  naming both: which of two projects' memory to rename is the person's choice."""

from __future__ import annotations

import os

from lazy_harness.sync.bounds import _paths, both_shown, differ_in, one_on_disk, rename_way, secret_names
from lazy_harness.sync.repo import BRANCH, SyncError, _empty_tree, _git, _has_head, _remote_has_branch, _run_input
from lazy_harness.sync.scan import SECRET_NAME, journals_of_secret_names, rewrite_unpushed

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping


def added_names(data: str, env: Mapping[str, str] | None) -> list[str]:
    """The paths HEAD holds that ``origin/main`` lacks (every path of HEAD when the remote has no branch;
    none before a first commit)."""
    if not _has_head(data, env):
        return []
    base = f"refs/remotes/origin/{BRANCH}" if _remote_has_branch(data, env) else _empty_tree(data, env)
    out = _git(data, "diff-tree", "-r", "-z", "--no-renames", "--name-only", "--diff-filter=A", base, "HEAD",
               env=env).stdout
    return [p for p in out.split("\0") if p]


def unpushed_names(data: str, env: Mapping[str, str] | None) -> set[str]:
    """The paths any commit a push would send adds (a merge: those new to all its parents), whether HEAD
    still holds them or not: a file renamed or deleted since, or taken out of the index by a round that
    died before its rewrite (none before a first commit)."""
    if not _has_head(data, env):
        return set()
    since = ["--not", f"refs/remotes/origin/{BRANCH}"] if _remote_has_branch(data, env) else []
    out = _git(data, "log", "-z", "--cc", "--name-only", "--no-renames", "--diff-filter=A", "--format=", "HEAD",
               *since, env=env).stdout
    return {p for p in out.split("\0") if p.strip()}


def leave_out_secret_names(data: str, added: Iterable[str], extra: Iterable[str], env: Mapping[str, str] | None,
                           now: float | None) -> tuple[dict[str, str], bool]:
    """Take each of ``added`` (:func:`added_names`) whose name holds a secret out of what the push sends:
    out of the index, and the unpushed commits rewritten into one without it; the file stays as it is.
    The unpushed commits are rewritten too when one of them holds such a name HEAD no longer holds
    (:func:`unpushed_names`): a push sends every commit, and the remote's history keeps each name.
    Returns ``{name as the redactor shows it: why}`` for the round's ``not synced`` line, and whether
    the commits were rewritten."""
    extra = tuple(extra)
    hidden = secret_names(added, extra)
    # why the journals too: one an older version committed names such a file in its ``path``; left in,
    # the line scan refused every round for a line no edit of the file takes the secret out of
    journals = journals_of_secret_names(data, [p for p in added if p not in hidden], extra)
    if not hidden and not journals:
        gone = secret_names(unpushed_names(data, env), extra)
        remote = f"refs/remotes/origin/{BRANCH}" if gone and _remote_has_branch(data, env) else ""
        if gone and not set(gone) <= _paths(data, remote, env):
            rewrite_unpushed(data, env, now)  # why: a name the remote holds already is not taken back
            return {}, True
        return {}, False
    lenv = {**(os.environ if env is None else env), "GIT_LITERAL_PATHSPECS": "1"}
    _run_input(data, ["rm", "-q", "--cached", "--ignore-unmatch", "--pathspec-from-file=-", "--pathspec-file-nul"],
               "\0".join([*hidden, *journals]), lenv)
    rewrite_unpushed(data, env, now, tree=_git(data, "write-tree", env=env).stdout.strip())
    return {**dict.fromkeys(hidden.values(), SECRET_NAME), **{j: why for j, why in journals.items() if why}}, True


def refuse_one_on_disk(data: str, added: list[str], env: Mapping[str, str] | None) -> None:
    """Refuse the push when HEAD holds two names that differ only in case or Unicode normalisation and
    one of them has a path below it that the remote lacks (one of ``added``, :func:`added_names`): every
    other machine would refuse the remote for the pair, on every platform (``bounds.refuse_one_on_disk``).
    A pair the remote holds already is left to the machines that refuse it."""
    if not added:
        return
    held = _paths(data, "HEAD", env)
    pair = one_on_disk(held - set(added), held)  # why not a second listing: HEAD's paths but added are the remote's
    if not pair:
        return
    what, how = "file" if pair[0] in held else "folder", differ_in(pair)
    raise SyncError(f"push refused: this machine holds {both_shown(pair)}, names that differ only "
                    f"in {how}, one {what} on a case-insensitive or normalising disk (macOS, "
                    "Windows), which every other machine would refuse; nothing pushed",
                    hint=f"rename one of them in {data}{rename_way(how, what)}, then lh sync")
