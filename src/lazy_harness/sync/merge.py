"""Fetch and the merge of ``origin/main``: worked out by git off to the side (``git merge-tree``, our
merge drivers), its files written into the data folder under the memory writers' locks
(sync/write_merged.py), then HEAD moved (``merge_remote``)."""

from __future__ import annotations

import os

from lazy_harness.sync.bounds import check_arrivals, refuse_one_on_disk
from lazy_harness.sync.layout import _refuse_huge_files, _refuse_long_lines, _refuse_strangers
from lazy_harness.sync.leftovers import _remove_locks, _stale_locks
from lazy_harness.sync.repo import (BRANCH, SEEN, SyncError, _empty_tree, _git, _is_ancestor, _remote_has_branch,
                                    _run_input, file_at, need_merge_tree, one_line, seen_commit)
from lazy_harness.sync.repo_setup import TOP, top_files
from lazy_harness.sync.write_merged import _install

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping


def _fetch(data: str, env: Mapping[str, str] | None = None) -> None:
    """Fetch ``origin``, pruning: a branch the remote no longer has (a remote re-created empty) leaves
    no ``origin/main`` behind, which would read as the remote holding this machine's memory already.
    A round killed inside a fetch can leave the remote-tracking ref out of step
    with git's own bookkeeping ("cannot lock ref", "bad object"); that ref is only a copy of the
    remote's, so it is dropped and fetched again. When that fetch fails too (no network, the remote
    gone), a ref that named a commit is put back: ``status`` counts ahead and behind against it."""
    first = _git(data, "fetch", "-q", "--prune", "origin", check=False, env=env)
    if first.ok:
        return
    gitdir = os.path.join(data, ".git")
    _remove_locks(gitdir, _stale_locks(gitdir))
    ref = f"refs/remotes/origin/{BRANCH}"
    known = _git(data, "rev-parse", "-q", "--verify", f"{ref}^{{commit}}", check=False, env=env).stdout.strip()
    _git(data, "update-ref", "-d", ref, check=False, env=env)
    again = _git(data, "fetch", "-q", "--prune", "origin", check=False, env=env)
    if again.ok:
        return
    if known:
        _git(data, "update-ref", ref, known, "", check=False, env=env)
    url = shown_url(_git(data, "remote", "get-url", "origin", check=False, env=env).stdout.strip())
    raise SyncError(f"could not fetch from the remote: git fetch failed: {again.describe()}",
                    hint=f"check the network and that [sync] remote {url} is reachable (lh config path shows "
                         "the file); what was committed here waits for the next round")


def shown_url(url: str) -> str:
    """A remote's URL as a hint shows it: a user or token before ``@`` in a URL with a scheme
    (``https://ghp_...@host/...``) left out. why: the hint is kept in the state file and shown by
    ``lh doctor``, where a token does not belong."""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(url)
    except ValueError:
        return url
    if not parts.scheme or "@" not in parts.netloc:
        return url
    return parts._replace(netloc="***@" + parts.netloc.rpartition("@")[2]).geturl()


def known_remote(data: str, env: Mapping[str, str] | None = None) -> str:
    """The last commit of the remote this clone merged or pushed (:data:`~lazy_harness.sync.repo.SEEN`;
    before any round recorded it, ``origin/main`` as the last fetch left it), ``""`` when none."""
    for ref in (SEEN, f"refs/remotes/origin/{BRANCH}"):
        got = _git(data, "rev-parse", "-q", "--verify", f"{ref}^{{commit}}", check=False, env=env).stdout.strip()
        if got:
            return got
    return ""


def rewritten_from(data: str, known: str, env: Mapping[str, str] | None = None, accept: bool = False) -> str:
    """``known`` (:func:`known_remote` before the fetch) when the fetched ``origin/main`` no longer
    holds it: the remote's owner rewrote its history (a secret purged, say); ``""`` otherwise, and
    when the remote has no branch (new or re-created empty: this machine's memory goes out). Unless
    ``accept``, a rewritten history raises SyncError. why: a merge of it with ours would push back
    everything the rewrite took out, and say only "pushed"."""
    if not known or not _remote_has_branch(data, env):
        return ""
    theirs = _git(data, "rev-parse", f"origin/{BRANCH}^{{commit}}", env=env).stdout.strip()
    if _is_ancestor(data, known, theirs, env):
        return ""
    if not accept:
        raise SyncError(f"the history of the remote was rewritten: origin/{BRANCH} no longer holds {known[:12]}, "
                        "the last commit of it this machine knew; nothing merged or pushed", hint=_rewrite_hint(data))
    return known


def _rewrite_hint(data: str) -> str:
    """The two ways on from a rewritten remote. why both: a remote re-created from an older clone (a
    machine long offline pushed first) reads the same as a purge, and the hint named only
    ``--accept-rewrite``, which then took out of this machine's memory what it had pushed since."""
    import shlex

    git = f"git -C {shlex.quote(data)} update-ref -d"
    return ("if its owner rewrote it on purpose (a secret purged), lh sync --accept-rewrite takes the new history and "
            "keeps what this machine changed since; if it lost commits by accident (re-created from an older "
            f"clone), {git} {SEEN} && {git} refs/remotes/origin/{BRANCH}, then lh sync merges it and sends back "
            "what it lacks (docs/how/sync.md)")


def remember_remote(data: str, env: Mapping[str, str] | None = None) -> None:
    """Record ``origin/main`` as the last commit of the remote this clone merged or pushed."""
    if _remote_has_branch(data, env):
        _git(data, "update-ref", SEEN, f"refs/remotes/origin/{BRANCH}", env=env)


def merge_remote(data: str, env: Mapping[str, str] | None = None, projects: str = "projects",
                 learnings: str = "knowledge/learnings", rewritten: str = "", extra: tuple[str, ...] = ()) -> list[str]:
    """Merge ``origin/main`` into ours; returns the paths the merge changed here. A remote holding
    anything but memory, a line no reader reads, or a file grown past any memory file's size, is refused
    first (``layout._refuse_strangers``, ``layout._refuse_long_lines``, ``layout._refuse_huge_files``), as is
    one that brings more files than memory grows to or a name holding a secret (``bounds.check_arrivals``,
    ``extra``: the person's redactor patterns), or a merge holding two names one disk takes for one
    (``bounds.refuse_one_on_disk``); ``projects`` and ``learnings``:
    where this machine keeps them, relative to the data folder). ``rewritten``: the remote's commit
    this clone last knew, when its owner rewrote the history since (:func:`rewritten_from`): what this
    machine changed since then goes on top of the new history (:func:`_onto_rewritten`).

    why not ``git merge``: its checkout unlinks and recreates each file it changes, taking no lock the
    memory writers take, so a line appended meanwhile went to the unlinked file or was written over
    (ADR 0015). The merge is worked out off to the side (``git merge-tree``, the same merge drivers),
    then each changed file is written under its writers' locks (``write_merged._install``), then HEAD moves."""
    if not _remote_has_branch(data, env):
        return []
    before = _git(data, "rev-parse", "-q", "--verify", "HEAD", check=False, env=env).stdout.strip()
    theirs = _git(data, "rev-parse", f"origin/{BRANCH}^{{commit}}", env=env).stdout.strip()
    # why before the check: nothing of a remote this machine holds already is merged, and memory it
    # pushed under a [memory] path it has since changed (and moved) must not be refused as another's
    if before and not rewritten and _is_ancestor(data, theirs, before, env):
        return []
    check_arrivals(data, before, env, projects, extra)  # why first: a tree of 200,000 files is refused by its count
    _refuse_strangers(data, env, projects, learnings)
    _refuse_long_lines(data, before, env)
    _refuse_huge_files(data, before, seen_commit(data, env), env)  # why not known_remote: see there
    if before and rewritten:
        need_merge_tree(data, env)
        commit = _onto_rewritten(data, before, theirs, rewritten, env, projects)
    elif not before or _is_ancestor(data, before, theirs, env):
        commit = theirs  # a fast-forward, as ``git merge`` makes it
    else:
        need_merge_tree(data, env)
        tree = _merged_tree(data, before, theirs, env, projects)
        commit = _git(data, "commit-tree", tree, "-p", before, "-p", theirs, "-m",
                      f"Merge remote-tracking branch 'origin/{BRANCH}'", env=env).stdout.strip()
    if not rewritten:  # why not then: what the owner's rewrite took out stays out (--accept-rewrite)
        commit = _ledger_kept(data, before, theirs, commit, env)
    refuse_one_on_disk(data, before, commit, env)
    changes = _changes(data, before, commit, env)
    _install(data, changes, commit, env, projects, learnings)
    _git(data, "update-ref", "-m", f"lh sync: merge origin/{BRANCH}", "HEAD", commit, before, env=env)
    _git(data, "reset", "-q", env=env)  # the index to the merge (the files are written already)
    return [path for path, _, _ in changes]


LEDGER = "ledger.jsonl"  # the cost ledger, at the top of the data folder (paths.ledger_file)


def _ledger_kept(data: str, before: str, theirs: str, commit: str, env: Mapping[str, str] | None) -> str:
    """``commit``, or a merge of ``before`` and ``theirs`` like it whose ledger also holds every line
    ``before``'s held (after the merged ones). why: the ledger is a record of spend that the caps read;
    a line removed on the remote (anyone who can push can empty the file) was taken out here by the
    merge, or by a fast-forward, and this machine's spend of the day with it (ADR 0065)."""
    ours = file_at(data, before, LEDGER, env) if before else None
    if not ours:
        return commit
    merged = file_at(data, commit, LEDGER, env) or ""
    # why each line as it is: str.strip() takes more than JSON's spaces (U+001F, U+3000), so a remote's
    # copy padded so was taken for this machine's line, whose MAC it no longer held (cost/own.py)
    have = {ln.rstrip("\r") for ln in merged.split("\n")}
    lost = [ln for ln in ours.split("\n") if ln.strip() and ln.rstrip("\r") not in have]
    if not lost:
        return commit
    genv = dict(os.environ if env is None else env)
    text = merged + ("" if not merged or merged.endswith("\n") else "\n") + "".join(ln + "\n" for ln in lost)
    blob = _run_input(data, ["hash-object", "-w", "--no-filters", "--stdin"], text, genv).stdout.strip()
    kept = [e for e in _git(data, "ls-tree", "-z", commit, env=env).stdout.split("\0")
            if e and e.partition("\t")[2] != LEDGER]
    tree = _run_input(data, ["mktree", "-z"], "\0".join([*kept, f"100644 blob {blob}\t{LEDGER}"]) + "\0",
                      genv).stdout.strip()
    return _git(data, "commit-tree", tree, "-p", before, "-p", theirs, "-m",
                f"Merge remote-tracking branch 'origin/{BRANCH}' (the ledger's lines kept)", env=env).stdout.strip()


def _onto_rewritten(data: str, ours: str, theirs: str, old: str, env: Mapping[str, str] | None,
                    projects: str = "projects") -> str:
    """A commit on top of ``theirs`` (the remote's rewritten history) of the three-way merge of ``ours``
    and ``theirs`` from ``old`` (the remote's commit this clone last knew), with our merge drivers: what
    this machine changed since ``old`` is kept, what the rewrite took out of ``old`` stays out.
    why commits made for it: git 2.38's ``merge-tree`` takes the base from the history, which the
    rewrite cut (an orphan commit shares none); one root commit of ``old``'s files with a commit of
    each side's files on it gives the merge that base. They stay unreferenced (gc drops them)."""
    def commit(tree: str, *parents: str, message: str = "lh sync: merge base of a rewritten remote") -> str:
        args = [arg for p in parents for arg in ("-p", p)]
        return _git(data, "commit-tree", tree, *args, "-m", message, env=env).stdout.strip()

    root = commit(f"{old}^{{tree}}")
    tree = _merged_tree(data, commit(f"{ours}^{{tree}}", root), commit(f"{theirs}^{{tree}}", root), env, projects)
    return commit(tree, theirs, message=f"lh sync: this machine's memory on the rewritten origin/{BRANCH}")


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
    """``tree`` with this machine's top-level ``.gitignore`` and ``.gitattributes`` (``repo_setup.top_files``
    of ``projects``) in place of whatever the merge made of them, conflict markers included.
    why not a union of the ignore lines: no machine reads another's; each round writes its own
    before it stages anything, and ``layout._machine_local`` judges the remote's paths by this version's."""
    genv = dict(os.environ if env is None else env)
    kept = [e for e in _git(data, "ls-tree", "-z", tree, env=env).stdout.split("\0")
            if e and e.partition("\t")[2] not in TOP]
    for name, text in top_files(projects):
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

