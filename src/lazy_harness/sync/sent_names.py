"""What this machine's push may not send by name: a file whose name holds a secret, which another
machine would refuse as a remote's (``bounds._refuse_secret_names``) and whose name every listing
prints. A commit not yet pushed that holds one (an older version's, a commit made by hand) is not
sent: the unpushed commits become one commit of the files without it, which stays here untracked and
is named each round (``scan.stage_memory`` leaves it out from then on)."""

from __future__ import annotations

import os

from lazy_harness.sync.bounds import secret_names
from lazy_harness.sync.repo import BRANCH, _empty_tree, _git, _has_head, _remote_has_branch, _run_input
from lazy_harness.sync.scan import SECRET_NAME, rewrite_unpushed

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


def leave_out_secret_names(data: str, added: Iterable[str], extra: Iterable[str], env: Mapping[str, str] | None,
                           now: float | None) -> dict[str, str]:
    """Take each of ``added`` (:func:`added_names`) whose name holds a secret out of what the push sends:
    out of the index, and the unpushed commits rewritten into one without it; the file stays as it is.
    Returns ``{name as the redactor shows it: why}`` for the round's ``not synced`` line."""
    hidden = secret_names(added, extra)
    if not hidden:
        return {}
    lenv = {**(os.environ if env is None else env), "GIT_LITERAL_PATHSPECS": "1"}
    _run_input(data, ["rm", "-q", "--cached", "--ignore-unmatch", "--pathspec-from-file=-", "--pathspec-file-nul"],
               "\0".join(hidden), lenv)
    rewrite_unpushed(data, env, now, tree=_git(data, "write-tree", env=env).stdout.strip())
    return dict.fromkeys(hidden.values(), SECRET_NAME)
