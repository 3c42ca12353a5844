"""The redactor's scan of what sync would commit or push: a staged line that holds a secret refuses
the commit, a line the remote lacks refuses the push, and unpushed commits that hold one are rewritten
into one commit of the current files (docs/how/sync.md, "When a secret refuses the round")."""

from __future__ import annotations

import json
import os

from lazy_harness import logfile
from lazy_harness.sync.repo import (BRANCH, SyncError, _empty_tree, _git, _has_head, _remote_has_branch, _run_input,
                                    outside_layout)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from collections.abc import Callable, Iterable

# what the redactor scans: added lines only, every file as text, a moved file as new lines
DIFF_OPTIONS = ("--unified=0", "--no-color", "--no-ext-diff", "--no-renames", "--text")


def _message(now: float | None) -> str:
    return f"lh sync: {os.uname().nodename} {logfile.stamp(now)}"


def _refused(leaks: list[str], data: str) -> SyncError:
    return SyncError(f"push refused: the redactor finds a secret in {', '.join(leaks[:5])}",
                     hint=f"edit that line of the file in {data} to remove or overwrite the secret, then lh sync")


def commit_local(data: str, env: Mapping[str, str] | None = None, now: float | None = None,
                 extra: Iterable[str] = (), projects: str = "projects", learnings: str = "knowledge/learnings",
                 left_out: dict[str, str] | None = None) -> bool:
    """Commit the changes to memory's files in the data folder (:func:`stage_memory`; ``projects``,
    ``learnings``: where they are, relative to it); each other path with a change is added to
    ``left_out`` with the reason. Raises SyncError (nothing committed) when a staged line holds
    something the redactor matches: a commit is never taken back once it is pushed."""
    skipped = stage_memory(data, env, projects, learnings)
    if left_out is not None:
        left_out.update(skipped)
    if _has_head(data, env) and _git(data, "diff", "--cached", "--quiet", check=False, env=env).ok:
        return False
    if not _has_head(data, env) and not _git(data, "diff", "--cached", "--name-only", env=env).stdout.strip():
        return False
    leaks = staged_secrets(data, extra, env)
    if leaks:
        _git(data, "reset", "-q", env=env)  # why: unstage only; the files stay as they are for the edit
        raise _refused(leaks, data)
    _git(data, "commit", "-q", "--no-verify", "-m", _message(now), env=env)
    return True


def stage_memory(data: str, env: Mapping[str, str] | None = None, projects: str = "projects",
                 learnings: str = "knowledge/learnings") -> dict[str, str]:
    """Stage every change git sees (``.gitignore`` applied) to a path of memory's layout
    (``repo.outside_layout``) and every removal; returns ``{path: why}`` of each other changed path,
    left unstaged (one staged by hand is unstaged). why not ``git add -A``: a ``.DS_Store`` or a
    person's notes in the data folder, once pushed, made every machine refuse the remote."""
    out = _git(data, "status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames",
               env=env).stdout
    stage, unstage, left = [], [], {}
    for entry in out.split("\0"):
        xy, path = entry[:2], entry[3:]
        if not path or (xy[1] == " " and xy[0] != "?" and outside_layout(path, projects, learnings) is None):
            # why: staged already as the folder holds it (a removal ``git rm`` or a killed round staged:
            # ``git add`` of a path gone from both the index and the folder fails every round after)
            continue
        why = outside_layout(path, projects, learnings)
        if why is None or xy[1] == "D":  # why a removal too: it takes nothing out of memory
            stage.append(path)
        elif xy[0] != "D":  # a removal staged by hand (``git rm --cached``) is committed as it is
            left[path] = why
            if xy[0] not in " ?":
                unstage.append(path)
    # why literal: a file name may hold ``*`` or ``:(``, which git reads as pathspec magic
    lenv = {**(os.environ if env is None else env), "GIT_LITERAL_PATHSPECS": "1"}
    if stage:
        _run_input(data, ["add", "-A", "--pathspec-from-file=-", "--pathspec-file-nul"], "\0".join(stage), lenv)
    if unstage and _has_head(data, env):
        _run_input(data, ["reset", "-q", "--pathspec-from-file=-", "--pathspec-file-nul"], "\0".join(unstage), lenv)
    elif unstage:
        _run_input(data, ["rm", "-q", "--cached", "--pathspec-from-file=-", "--pathspec-file-nul"],
                   "\0".join(unstage), lenv)
    return left


def left_out_line(left: Mapping[str, str], shown: int = 5) -> str | None:
    """One line naming the paths a round left out and why (``commit_local``'s ``left_out``), the
    paths of each reason together; None when there are none."""
    if not left:
        return None
    by_why: dict[str, list[str]] = {}
    for path in sorted(left):
        by_why.setdefault(left[path], []).append(path)
    parts = []
    for why, some in by_why.items():
        more = f" and {len(some) - shown} more" if len(some) > shown else ""
        names = ", ".join(logfile.terminal_safe(path, keep="") for path in some[:shown])  # a name may hold "\n"
        parts.append(f"{names}{more}: {why}")
    return "not synced: " + "; ".join(parts)


def _added_secrets(diff: str, extra: Iterable[str] = ()) -> list[str]:
    """``path:line`` for every added line of a ``--unified=0`` diff (one or many) the redactor matches."""
    from lazy_harness.redact import redact

    found: list[str] = []
    path, line_no, header = "?", 0, False
    run: list[str] = []  # the added lines in a row, read together too (below)

    def end_run() -> None:
        # why: a secret over several lines (``password: |`` and the value under it, a key wrapped by a
        # terminal) is one in no line alone; the run is named by its first line
        if len(run) > 1 and not any(f.startswith(f"{path}:") and int(f.rsplit(":", 1)[1]) >= line_no - len(run)
                                    for f in found) and redact("\n".join(run), tuple(extra))[1]:
            found.append(f"{path}:{line_no - len(run)}")
        run.clear()

    for line in diff.splitlines():
        if not (not header and line.startswith("+")) and run:
            end_run()
        if line.startswith("diff "):
            header = True  # why: an added line "++ x" reads "+++ x": only a header line names a file
        elif header and line.startswith("+++ "):
            path = line[6:] if line.startswith("+++ b/") else line[4:]
        elif line.startswith("@@"):
            header = False
            try:
                line_no = int(line.split("+", 1)[1].split(",", 1)[0].split(" ", 1)[0])
            except (IndexError, ValueError):
                line_no = 0
        elif not header and line.startswith("+"):
            if _holds_secret(line[1:], tuple(extra), redact):
                found.append(f"{path}:{line_no}")
            run.append(line[1:])
            line_no += 1
    if run:
        end_run()
    return found


def _holds_secret(line: str, extra: tuple[str, ...], redact: Callable[[str, tuple[str, ...]], tuple[str, int]]) -> bool:
    """Whether the redactor matches ``line``, or, for a JSON line with escapes, one of its strings:
    ``password=\\"x\\"`` in a JSONL file is ``password="x"`` once read."""
    if redact(line, extra)[1]:
        return True
    if "\\" not in line or not line.lstrip().startswith(("{", "[")):
        return False
    try:
        value = json.loads(line)
    except (ValueError, RecursionError):
        return False
    todo, texts = [value], []
    while todo:
        item = todo.pop()
        if isinstance(item, str):
            texts.append(item)
        elif isinstance(item, dict):
            todo += [*item.keys(), *item.values()]
        elif isinstance(item, list):
            todo += item
    return any(redact(text, extra)[1] for text in texts)


def staged_secrets(data: str, extra: Iterable[str] = (), env: Mapping[str, str] | None = None) -> list[str]:
    """``path:line`` for every secret the redactor finds in lines staged since the last commit."""
    base = "HEAD" if _has_head(data, env) else _empty_tree(data, env)
    return _added_secrets(_git(data, "diff", "--cached", *DIFF_OPTIONS, base, env=env).stdout, extra)


def outgoing_secrets(data: str, extra: Iterable[str] = (), env: Mapping[str, str] | None = None) -> list[str]:
    """``path:line`` for every secret the redactor finds in lines HEAD holds and the remote lacks."""
    base = f"origin/{BRANCH}" if _remote_has_branch(data, env) else _empty_tree(data, env)
    return _added_secrets(_git(data, "diff", *DIFF_OPTIONS, base, "HEAD", env=env).stdout, extra)


def unpushed_secrets(data: str, extra: Iterable[str] = (), env: Mapping[str, str] | None = None) -> list[str]:
    """``path:line`` for every secret the redactor finds in any commit a push would send: each commit
    against its parent, a merge against each of its parents."""
    # why: a push sends every commit, not only the last state; a merge diffed against each parent also
    # shows the lines it took from the remote, which at worst costs a needless rewrite, never a leak
    since = ["--not", f"refs/remotes/origin/{BRANCH}"] if _remote_has_branch(data, env) else []
    log = _git(data, "log", "-p", "-m", "--format=", *DIFF_OPTIONS, "HEAD", *since, env=env).stdout
    return _added_secrets(log, extra)


def rewrite_unpushed(data: str, env: Mapping[str, str] | None = None, now: float | None = None) -> None:
    """Replace the commits a push would send by one commit of HEAD's files on top of ``origin/main``
    (a root commit when the remote has no branch yet). Call after the merge: HEAD's files then hold
    everything the remote has. Commits already on the remote, the index and the files stay as they are."""
    old = _git(data, "rev-parse", "HEAD", env=env).stdout.strip()
    parent = ["-p", f"refs/remotes/origin/{BRANCH}"] if _remote_has_branch(data, env) else []
    new = _git(data, "commit-tree", "HEAD^{tree}", *parent, "-m", _message(now), env=env).stdout.strip()
    _git(data, "update-ref", "-m", "lh sync: unpushed commits held a secret", "HEAD", new, old, env=env)
