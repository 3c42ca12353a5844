"""The data folder made a repository sync can run in: its ignore rules (what stays this machine's),
its attributes (which merge driver each kind of file gets), the merge drivers registered in its
config, and ``origin``."""

from __future__ import annotations

import json
import os
import shlex

from lazy_harness import detach
from lazy_harness.atomic import atomic_write, ensure_dir
from lazy_harness.regular_file import read_regular
from lazy_harness.sync.repo import BRANCH, SEEN, _git

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

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


# the top-level pair ensure_repo writes: this machine's, whatever a remote holds (merge._ours_on_top)
TOP = (".gitignore", ".gitattributes")


def top_files(projects: str = "projects") -> tuple[tuple[str, str], ...]:
    """``(name, text)`` of each of :data:`TOP` as this machine writes it for memory kept at
    ``projects``: :func:`ignore_rules`, :data:`ATTRIBUTES`."""
    return tuple(zip(TOP, (ignore_rules(projects), ATTRIBUTES), strict=True))


def ensure_repo(data: str, remote: str, env: Mapping[str, str] | None = None, projects: str = "projects") -> None:
    """Make the data folder a repository with our ignore rules (:func:`ignore_rules` for memory kept at
    ``projects``, relative to the data folder), merge drivers and ``origin``. A stale ``config.lock``
    would stop it: :func:`~lazy_harness.sync.leftovers.repair` first."""
    ensure_dir(data)
    if not os.path.isdir(os.path.join(data, ".git")):
        _git(data, "init", "-q", env=env)
        _git(data, "symbolic-ref", "HEAD", f"refs/heads/{BRANCH}", env=env)
    for name, text in top_files(projects):
        path = os.path.join(data, name)
        try:  # why read_regular: a FIFO there held every round in open(); replaced by the file, as a wrong one
            current = read_regular(path).decode("utf-8")
        except (OSError, UnicodeDecodeError):
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
        done = read_regular(stamp) == wanted.encode("utf-8")
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
        # why: what the old remote held says nothing of the new one; kept, a new empty remote read as
        # holding it already (nothing pushed) and one holding other memory as the old one rewritten.
        # The first round with it joins as a machine's first round does.
        for ref in (f"refs/remotes/origin/{BRANCH}", SEEN):
            _git(data, "update-ref", "-d", ref, check=False, env=env)

