"""Whose memory is whose when keys changed (docs/how/project-key.md, ADR 0035): the projects this
machine knows, the learnings no project owns yet, and memory folders whose project folder is gone.

- ``aliases.known_projects``: every project seen here, from Claude Code's project folders (each holds
  transcripts whose ``cwd`` names the folder a session ran in), the roots the worker wrote for and
  the memory folders (the ``project`` name their decisions and failures carry). It lives in
  memory/aliases.py with ``aliases.keyless_owner``, the rule below, because ``aliases.Owned.lists``
  (``lh memory show``, the page, consolidation) decides by it too.
- :func:`orphans` and :func:`adopt_orphans`: a ``scope: project`` learning written before keys were
  recorded has only its origin's name (``origin: api``). It is adopted (an ``adopt`` line in the
  owner's ``aliases.jsonl``) by the one project of that name, or, of two or more, by the one whose
  Claude Code folder still holds its session's transcript; else (none of that name, or no transcript
  to decide) it stays unassigned and is listed (``lh memory unassigned``, the page) with the command
  that assigns it.
- :func:`earlier_folders` and :func:`adopt_folder`: after a project folder moves, its key changes
  and its new memory folder is empty; the old one is listed with what it holds and where its
  project was (``lh memory path --old``), and taken over only when the person says so
  (``lh memory adopt KEY``): two projects are never merged silently. A folder a live project took
  over (an alias in its ``aliases.jsonl``) is that project's (:func:`live_owners`): listed with its
  owner, not offered, and refused without ``--force``. A path-keyed folder whose project never ran
  here (``migrate.ran_here``) is another machine's, brought by sync: listed apart, not offered,
  refused without ``--force`` and then copied, never emptied (``migrate.take_over``).

Not the hot path: the worker and the commands run these; the hooks only read ``aliases.jsonl``, and a
project's first start asks :func:`moved_from` (imported there, on that rare path).
"""

from __future__ import annotations

import os

from lazy_harness.memory import aliases, files, frontmatter, ids
from lazy_harness.regular_file import open_regular

# why: not ``from typing import TYPE_CHECKING``: memory never imports ``typing`` at run time (the hooks
# load its read side: house style section 3)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from lazy_harness.memory.journal import Journal
    from lazy_harness.memory.shapes import Env

# --- learnings written before keys were recorded ----------------------------------------------------

def _legacy(path: str) -> dict | None:
    """The head of an active ``scope: project`` learning without a recorded key; None otherwise."""
    quick = frontmatter.read_frontmatter_values(path, ("project_folder", "scope"))
    if quick.get("project_folder") or str(quick.get("scope") or "").strip().lower() not in ("project", "'project'"):
        return None  # why: most files stop here, after a 4 KB read
    try:  # why open_regular: a FIFO in the learning's place would hold the reader in open() for good
        with open(open_regular(path)[0], encoding="utf-8", errors="replace") as fh:
            parsed = frontmatter.parse_frontmatter(fh.read(65536))
    except OSError:
        return None
    head = parsed[0] if parsed else {}
    if head.get("project_folder") or str(head.get("scope") or "").strip().lower() != "project":
        return None
    # why text only: a hand edit can make it a list (``origin: [api]``), which names no one project; one
    # such file stopped every adoption (the worker's run, lh memory unassigned) with a TypeError
    if not frontmatter.is_active(head) or not isinstance(head.get("origin"), str) or not head["origin"].strip():
        return None
    head["id"], head["path"] = ids.of_learning(head, path=path), path
    return head


def orphans(memory_root: str, learnings_dir: str, env: Env | None = None) -> list[dict]:
    """Each legacy learning no project adopted, with ``owner`` (the memory key it goes to,
    ``aliases.keyless_owner``: the one project of its name, or of several the one its transcript names; None
    when that is not one project) and ``candidates`` (the keys of the projects of its name)."""
    taken = aliases.adopted_anywhere(memory_root)
    found = [h for h in map(_legacy, files.recent_learning_files(learnings_dir, 10**9))
             if h is not None and h["id"] not in taken]
    if not found:
        return []
    folders = aliases.claude_folders(env)
    by_name = aliases.keys_by_name(aliases.known_projects(memory_root, env, folders))
    for head in found:
        head["candidates"] = by_name.get(head["origin"], [])
        head["owner"] = aliases.keyless_owner(head, head["candidates"], folders, env)
    return found


def adopt_orphans(memory_root: str, learnings_dir: str, now: float,
                  env: Env | None = None) -> tuple[list[str], list[dict]]:
    """Adopt every legacy learning that has one owner; (log lines, the ones left unassigned)."""
    lines, left = [], []
    for head in orphans(memory_root, learnings_dir, env):
        if head["owner"] is None:
            left.append(head)
            continue
        folder = os.path.join(memory_root, head["owner"])
        # keyless_owner asks the transcript only when two or more projects have the name
        why = "its session's transcript" if len(head["candidates"]) > 1 else "the one project of its name"
        if aliases.record(folder, aliases.ADOPT, head["id"], why, now):
            lines.append(f"learning {head['id']} ({head['origin']}) adopted by {head['owner']}")
    return lines, left


def assign(memory_root: str, lid: str, key: str, now: float) -> bool:
    """The person's choice: learning ``lid`` is the project of memory key ``key``'s. True when written."""
    return aliases.record(os.path.join(memory_root, key), aliases.ADOPT, lid, "assigned by hand", now)


# --- memory folders whose project moved -------------------------------------------------------------

def learnings_by_key(learnings_dir: str) -> dict[str, int]:
    """How many learnings were written under each memory key (their ``project_folder``), and, for
    each learning written without one (``origin: <name>`` only), its id counted once: the folder that
    adopted it holds it (:func:`holds`). why one map: a learning id (``l-...``) is never a memory key."""
    out: dict[str, int] = {}
    for p in files.recent_learning_files(learnings_dir, 10**9):
        quick = frontmatter.read_frontmatter_values(p, ("project_folder", "id", "origin", "title"))
        key = quick.get("project_folder") or ids.of_learning(quick, path=p)
        if isinstance(key, str) and key:
            out[key] = out.get(key, 0) + 1
    return out


def holds(memory_dir: str, learnings_dir: str, by_key: dict[str, int] | None = None) -> dict[str, int]:
    """What a memory folder holds: decision and failure lines, open items, learnings that are its
    own: written under its key or a key it counts as its own (an alias), or adopted by it (``by_key``:
    :func:`learnings_by_key` when the caller counted them already, for many folders). why the adopted
    ones too: a folder whose only memory was a learning it adopted read as empty, so after its project
    moved ``lh memory path --old`` did not list it, and the learning was in no project."""
    from lazy_harness.memory import handoff

    out = {}
    for kind, name in (("decisions", files.DECISIONS), ("failures", files.FAILURES)):
        try:
            # why open_regular: a FIFO in the file's place held lh memory path --old and the page in open()
            with open(open_regular(os.path.join(memory_dir, name))[0], "rb") as fh:
                out[kind] = sum(1 for ln in fh if ln.strip() and b'"op"' not in ln)
        except OSError:
            out[kind] = 0
    out["open items"] = len(handoff.open_for_reading(memory_dir))
    counts = learnings_by_key(learnings_dir) if by_key is None else by_key
    own = aliases.owned(memory_dir)
    out["learnings"] = sum(counts.get(k, 0) for k in own.keys | own.adopted)
    return out


def live_owners(memory_root: str, projects: dict[str, dict], but: str = "") -> dict[str, dict]:
    """``{memory key: the live project (of :func:`aliases.known_projects`) whose memory it is}``: each
    live project's own key, and each earlier key its folder names as an alias (it took that folder
    over, so the learnings written under it are that project's), the own keys first. ``but``: the key
    of a project left out (the one asking). Reads one small ``aliases.jsonl`` per live project, no
    transcript. why: a live project maps to its current key only, so its path-keyed folder, left as an
    alias after it gained an origin, looked like no one's and was offered to every other project."""
    live = {k: p for k, p in sorted(projects.items()) if p["live"] and k != but}
    out = dict(live)
    for key, p in live.items():
        for alias in sorted(aliases.owned(os.path.join(memory_root, key)).keys):
            out.setdefault(alias, p)
    return out


def earlier_folders(memory_dir: str, memory_root: str, env: Env | None = None) -> list[dict]:
    """Memory folders that are not ``memory_dir`` and that are no live project's own, each with
    ``key``, ``names``, ``root`` (where its project was, from its Claude Code folder's transcripts or
    the root the worker kept beside the key, or None), ``aliased`` (``memory_dir`` already counts
    it as its own), ``owner`` (the root of another live project that took it over as an alias
    (:func:`live_owners`), else None: not to be offered) and ``elsewhere`` (a path-keyed folder whose
    project never ran on this machine, ``migrate.ran_here``: another machine's, brought by sync; not
    to be offered: adopting it takes a project from the machine it lives on)."""
    from lazy_harness.memory import last_key, migrate

    mine = aliases.owned(memory_dir).keys
    folders = aliases.claude_folders(env)
    projects = aliases.known_projects(memory_root, env, folders)
    live = {k for k, p in projects.items() if p["live"]}
    taken = live_owners(memory_root, projects, os.path.basename(memory_dir.rstrip(os.sep)))
    was = {key: root for key, root in last_key.recorded_roots(env) if root}  # where the worker last saw it
    out = []
    for folder in aliases.memory_folders(memory_root):
        key = os.path.basename(folder)
        if folder == memory_dir.rstrip(os.sep) or key in live:
            continue
        owner = None if key in mine else taken.get(key)
        out.append({"key": key, "names": sorted(aliases.project_names(folder)),
                    "root": folders.get(key) or was.get(key), "aliased": key in mine, "folder": folder,
                    "owner": owner["root"] if owner else None,
                    "elsewhere": not migrate.ran_here(folder, env, folders)})
    return out


def moved_from(root: str, mdir: str, env: Env | None = None) -> list[tuple[str, str]]:
    """(memory key, folder) of the memory of this project's earlier folders that are gone: named by the
    worker's records (``last_key.moved_here``) or by Claude Code's folder of ``root`` (moved along),
    less those another of them, or this project, took over (a folder moved twice is named by the last
    one). The start tells them once; ``lh memory show`` names them while this project has no memory."""
    from lazy_harness.memory import last_key

    found = last_key.moved_here(root, mdir, env)
    found += [f for f in _by_transcripts(root, mdir, env) if f[0] not in {k for k, _ in found}]
    memory_root = os.path.dirname(mdir.rstrip(os.sep))
    taken = {k for last, _ in [*found, (os.path.basename(mdir.rstrip(os.sep)), "")]
             for k in aliases.owned(os.path.join(memory_root, last)).keys if k != last}
    return [(key, was) for key, was in found if key not in taken]


def _by_transcripts(root: str, mdir: str, env: Env | None) -> list[tuple[str, str]]:
    """(memory key, folder) of the folder the newest transcript in Claude Code's folder of ``root``
    ran in, when that folder is gone and its path-keyed memory folder is there. why: a person who moves
    a project often moves Claude Code's folder of it too (its sessions stay for ``--resume``); its
    transcripts then say where the project was, also when no record of the worker does. One listdir
    and a few lines of one transcript, at a project's first start here."""
    from lazy_harness import paths

    was = aliases.transcript_cwd(os.path.join(paths.projects_dir(env), paths.project_key(root)))
    if not was or not os.path.isabs(was) or was == root or os.path.lexists(was):
        return []
    key = paths.project_key(was)
    folder = os.path.join(os.path.dirname(mdir.rstrip(os.sep)), key)
    return [(key, was)] if key != os.path.basename(mdir.rstrip(os.sep)) and os.path.isdir(folder) else []


ADOPT = "adopt"  # the journalled run of ``lh memory adopt``, in the adopting folder


def adopt_journalled(old_dir: str, memory_dir: str, now: float, project: str | None = None) -> tuple[list[str], str]:
    """:func:`adopt_folder` as one journalled run of kind ``adopt`` in ``memory_dir``'s journal: (its log
    lines, the run). ``lh memory undo`` puts both folders back: the earlier folder's files, this folder's
    entries (only the lines the run appended: a session's since are kept) and its alias record. why: adopt
    was the one command that changed memory with no run, so nothing undid it (``journal.undo`` writes in
    the earlier folder only for a run of this kind that names it, ``folders``)."""
    from lazy_harness.atomic import ensure_dir, read_bytes
    from lazy_harness.memory import journal, migrate

    ensure_dir(memory_dir)
    old_key = os.path.basename(old_dir.rstrip(os.sep))
    j = journal.Journal(memory_dir, ADOPT, project or "", now)
    j.data["folders"] = [old_key]
    names = (*migrate.JSONL, *migrate.OWN, migrate.HANDOFF)
    watched = [os.path.join(d, n) for d in (old_dir, memory_dir) for n in names]
    watched.append(os.path.join(memory_dir, aliases.FILE))
    before = {path: read_bytes(path) for path in watched}
    for path in watched:
        j.track(path)
    out = adopt_folder(old_dir, memory_dir, now, project)
    for path in watched:
        _recorded(j, path, before[path], read_bytes(path), here=path.startswith(memory_dir + os.sep))
    j.note(f"adopt {old_key} into {os.path.basename(memory_dir.rstrip(os.sep))}"
           + (f": {'; '.join(out)}" if out else ""))
    j.save()
    return out, j.run


def _recorded(j: Journal, path: str, before: bytes | None, after: bytes | None, here: bool) -> None:
    """Note ``path`` as the run left it; a JSONL file of this folder the run appended to, with its lines
    (its undo takes out only those, keeping a session's written since)."""
    grown = after is not None and path.endswith(".jsonl") and here and after != before \
        and after.startswith(before or b"")
    if not grown:
        j.record(path)
        return
    for line in (after or b"")[len(before or b""):].decode("utf-8", "replace").splitlines():
        if line.strip():
            j.record(path, appended=line)


def adopt_folder(old_dir: str, memory_dir: str, now: float, project: str | None = None) -> list[str]:
    """Take over the memory of ``old_dir`` (an earlier folder of this project, named ``project``):
    its decisions, failures, open items and marks merged into ``memory_dir`` (entry by entry, as the
    migration does: a rerun after a cut adds nothing twice), then its key recorded as an alias, so the
    learnings written under it are this project's, and what it owned carried over. Returns log lines."""
    from lazy_harness.atomic import ensure_dir
    from lazy_harness.memory import migrate
    from lazy_harness.memory.files import FolderLock

    ensure_dir(memory_dir)
    old_key = os.path.basename(old_dir.rstrip(os.sep))
    out = []
    with FolderLock(memory_dir):  # the files first, then the alias: a rerun after a cut ends the move
        out += migrate.take_over(old_dir, memory_dir, now)
        if aliases.record(memory_dir, aliases.ALIAS, old_key, "adopted by hand", now, locked=True, project=project):
            out.append(f"learnings written under {old_key} are this project's ({aliases.FILE})")
    return out + aliases.carry(old_dir, memory_dir, now, project)  # what the old folder owned, this one owns now
