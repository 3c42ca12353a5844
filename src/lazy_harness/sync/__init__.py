"""Memory across machines, carried by git: the data folder is a repository, ``lh sync`` one round.

One round, under ``<data>/.sync.lock`` (one sync at a time on a machine):
1. repair what a killed round left (git's stale lock files, a half-done merge), before any git runs;
2. commit local changes to memory's own files (``scan.stage_memory``: the paths
   ``layout.outside_layout`` accepts, and removals; ``.gitignore`` keeps locks, stamps, temp files and
   the rendered handoff.md out; any other file is left untracked and named once per round,
   ``not_synced``), after scanning the staged lines with the redactor: a match refuses the round and
   nothing is committed;
3. fetch, merge ``origin/main`` with our merge drivers, render handoff.md again where the handoff
   state changed;
4. scan what would go out with the redactor: a line the files hold and the remote lacks refuses the
   push, naming file and line; a commit a push would send that holds a match (left by a version
   that committed before scanning) gets the unpushed commits rewritten into one commit of the
   current files on top of ``origin/main``; commits already on the remote are never touched;
5. push; a push that lost a race with another machine goes back to 3 (a few times).

Merging never conflicts: ``*.jsonl`` files merge as a three-way set of lines (entries keyed by id, so
the same entry written on two machines stays one; a line one side removed since the common base, as
``lh memory undo`` does, stays removed; a line that does not parse is a line of its own); learnings
are write-once markdown, and when both sides hold the same learning file the one whose status moved
on (deprecated, forgotten) wins, else ours; two learnings added under one name, one on each machine,
are both kept (the other machine's under the next free name, ``sync.conflicts``). A driver that
fails keeps both sides. Journals and consolidation state are unique per run or machine-local.
A remote whose tree holds anything but memory's files (a link, a nested ``.gitignore``, a path
``.gitignore`` keeps machine-local: ``layout.outside_layout``) is refused before the merge.

Not on the hook path: SessionStart spawns ``python -m lazy_harness.sync pull`` and waits for it at
most ``pull_budget_ms``.

The modules, lowest first: ``repo_guard`` (whether another user could write a repository git runs
in: the data folder's ``.git``, a remote on this machine), ``repo`` (running git, the refusal of
such a repository, the version of git),
``repo_setup`` (ignore rules, attributes, merge drivers, ``origin``), ``layout`` (what memory is made
of, the refusal of a remote holding anything else), ``bounds`` (how many files a remote may bring,
names one disk takes for one, names that hold a secret), ``write_merged`` (a merge's files written under the
memory writers' locks), ``leftovers`` (what a killed round left), ``merge`` (fetch, the merge of
``origin/main``, and a remote whose history was rewritten), ``forgotten`` (a forget met by an edit of
its entry, said), ``replaced`` (this machine's edit of an entry replaced by another machine's, said),
``scan`` (the redactor's scan of what would be committed or pushed), ``sent_names`` (what a push may
not send by name), ``arrivals``
(this machine's record of what merges brought in, which memory/provenance.py labels as synced),
``rounds`` (``run``, ``auto_sync``, ``status``, the state file and the lock), ``drivers`` (the merge
drivers and the pull that ``python -m lazy_harness.sync`` runs, see ``__main__``).
"""

from lazy_harness.sync.drivers import merge_learning, merge_lines
from lazy_harness.sync.leftovers import repair
from lazy_harness.sync.merge import merge_remote
from lazy_harness.sync.repo import BRANCH, GIT_TIMEOUT, SyncError
from lazy_harness.sync.repo_setup import ATTRIBUTES, IGNORE, ensure_repo
from lazy_harness.sync.rounds import (LOCK, PUSH_TRIES, STATE, auto_sync, check_layout, configured_remote,
                                      read_state, rerender_handoffs, run, status)
from lazy_harness.sync.scan import (DIFF_OPTIONS, commit_local, outgoing_secrets, rewrite_unpushed, staged_secrets,
                                    unpushed_secrets)

__all__ = [
    "ATTRIBUTES", "BRANCH", "DIFF_OPTIONS", "GIT_TIMEOUT", "IGNORE", "LOCK", "PUSH_TRIES", "STATE",
    "SyncError", "auto_sync", "check_layout", "commit_local", "configured_remote", "ensure_repo",
    "merge_learning", "merge_lines", "merge_remote", "outgoing_secrets", "read_state", "repair",
    "rerender_handoffs", "rewrite_unpushed", "run", "staged_secrets", "status", "unpushed_secrets",
]
