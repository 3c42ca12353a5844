"""The person's changes to a project's memory: forget an entry, close a handoff item, undo a run,
approve what waits.

Shared by ``lh memory forget | close | undo | approve`` and by the page of ``lh ui``, so both go through
the same checks and write the same journal (``memory.journal``): every change here is undoable, and
one that wrote memory starts the sync the worker starts after it writes (``hand_runs.sync_after``).
How an id names its entry, the lock and the run are :mod:`lazy_harness.memory.hand_runs`'.
Errors are ``LhError`` with a hint; nothing is printed.
"""

from __future__ import annotations

import os
from contextlib import contextmanager, nullcontext

from lazy_harness.errors import LhError
from lazy_harness.memory import (changes, damage, files, frontmatter, handoff, held_review, ids, journal,
                                 learning_damage, marks, state)
from lazy_harness.memory.hand_runs import (entry_exists, journalled_run, learning_paths, not_open, not_waiting,
                                           one_at_a_time, reason_of, sync_after, the_one)
from lazy_harness.memory.sanitize import normalise, one_line

# why: not ``from typing import TYPE_CHECKING``: memory never imports ``typing`` at run time (the hooks
# load its read side: house style section 3)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator


def open_item(memory_dir: str, ref: str, verb: str = "close") -> tuple[str, str]:
    """(id, text) of the open handoff item named by its id, ``[id]`` or its exact text; ``verb``: the
    command a refusal names (``lh memory <verb> ID``)."""
    state, _ = handoff.load(memory_dir)
    bare = ref.strip()
    if bare.startswith("[") and bare.endswith("]"):  # copied as lh memory show prints it: [h-1a2b3c4d]
        ref = bare[1:-1].strip()
    ref = ids.as_typed(ref)  # why: an id typed in upper case is the item's all the same
    items = handoff.open_items(state)
    # why: an id first, over every item: an older item whose text is another's id ("h-9983e81b") took
    # the close the page's button sent by id
    item = (next((i for i in items if ref == i["id"]), None)
            or next((i for i in items if normalise(ref) == normalise(i["text"])), None))
    if item is not None:
        return item["id"], item["text"]
    raise not_open(memory_dir, ref, state, verb)


def _caught_up(memory_dir: str, project: str, now: float) -> None:
    """Before a close or forget reads the open items (under :func:`one_at_a_time`): a persist a killed
    worker left unfinished is rolled back, as the worker does before it reads (its items were never
    committed: closing one closed nothing, and the next worker opened it again); a hand edit of
    handoff.md is recorded, and handoff.md is rendered again when it is behind its log (a close killed
    before its render: the retry, told the item is not open, never rendered it). ``project``: the name
    its header gives (``project=``), as every render of the project's handoff.md gives it."""
    if os.path.isdir(memory_dir):
        handoff.import_hand_edits(memory_dir, {"session_id": "by hand", "task_id": "", "project": project}, now,
                                  if_behind=True)


def _close_item(memory_dir: str, j: journal.Journal, hid: str, reason: str, who: str, now: float) -> None:
    """Close handoff item ``hid`` in journal ``j``; refused when nothing was closed (a persist killed
    since the check, rolled back by the close, took the item with it): the change is not made."""
    changes.close_handoff_items(memory_dir, [(hid, reason)], who, now, j)
    item = handoff.load(memory_dir)[0].get(hid)
    if item is None or item.is_open or item.get("closed_by") != who:
        raise not_open(memory_dir, hid)


def forget(memory_dir: str, learnings_dir: str, project: str, entry_id: str, reason: str, now: float) -> str | None:
    """Leave a decision, failure, learning or handoff item out of everything; returns the run id, or
    None when it is already forgotten (nothing written: a second forget is no change). A held entry
    loses its hold in the same run: one state, forgotten, in every view and on every synced machine;
    a forgotten decision or learning replaces nothing any more (:func:`forget_showing`)."""
    return forget_showing(memory_dir, learnings_dir, project, entry_id, reason, now)[0]


def forget_showing(memory_dir: str, learnings_dir: str, project: str, entry_id: str, reason: str,
                   now: float) -> tuple[str | None, list[str]]:
    """:func:`forget`, and the ids shown again: the decisions the forgotten one had replaced (its
    ``supersede`` marks, ADR 0060, taken out in the same run) or the learnings it had (their
    ``deprecated_by``), which nothing else leaves out; another project's own learning is named with its
    project (``l-1a2b3c4d in project shop``: ``changes.release_learnings``). ``entry_id`` as typed
    (``ids.as_typed``)."""
    entry_id = ids.as_typed(entry_id)
    kind = ids.kind_of(entry_id)
    if kind is None:
        raise LhError(f"{entry_id!r} is not an id (d-, f-, l- or h- and 8 to 40 hex characters)", hint="lh memory show")
    shown: list[str] = []
    with one_at_a_time(memory_dir, learnings_dir if kind == "learning" else None):
        return _forget(memory_dir, learnings_dir, project, entry_id, kind, reason_of(reason), now, shown), shown


def forget_said(eid: str, undo: str | None, shown: list[str]) -> str:
    """What a forget says, the same in ``lh memory forget`` and on the page (``undo``: how to undo its
    run; None: nothing was written)."""
    if undo is None:
        return f"{eid} is already forgotten"
    back = f" ({'it was' if len(shown) == 1 else 'they were'} replaced by {eid})"
    return f"forgot {eid} (undo: {undo})" + (f"; shown again: {', '.join(shown)}{back}" if shown else "")


def _forget(memory_dir: str, learnings_dir: str, project: str, entry_id: str, kind: str, reason: str,
            now: float, shown: list[str]) -> str | None:
    """:func:`forget` once its lock is held: the check, then the journalled change."""
    if kind == "learning":
        marked = _learning_files_to_forget(learnings_dir, entry_id)
        if not marked:
            return None
        listed = _listed_here(memory_dir, project)
        _refuse_elsewhere(listed, project, entry_id, marked[0])
        # why a deprecated one gives nothing back: what it replaced is its replacement's (as a decision's)
        replaces = not any(frontmatter.read_frontmatter_values(p, ("status",)).get("status") == state.DEPRECATED
                           for p in marked)

        def make(j: journal.Journal, now: float) -> None:
            for path in marked:  # why each: a copy left active would still reach every session
                changes.set_learning_status(path, learnings_dir, "forgotten", None, reason, now, j)
            if replaces:  # why: a forgotten learning replaces nothing (ADR 0060), as a forgotten decision
                shown.extend(changes.release_learnings(memory_dir, learnings_dir, j, entry_id, listed))
    else:
        every = marks.by_id(memory_dir, marks.OPS)
        was = state.of_marks(every.get(entry_id))
        if was[0] == state.FORGOTTEN:
            return None
        if kind in ("decision", "failure"):
            if not entry_exists(memory_dir, entry_id, kind):
                raise damage.no_entry(memory_dir, entry_id, kind)
            # why a superseded one may be: the person's word outlasts its replacement (forgotten later,
            # the replacement gives back only what no forget hides)
            if was[0] == state.MERGED:
                raise LhError(f"{entry_id} is already left out ({state.label(was)})")

            def make(j: journal.Journal, now: float) -> None:
                _unhold(memory_dir, j, entry_id, was[0])
                changes.add_mark(memory_dir, j, "forget", entry_id, None, reason, now)
                if was[0] != state.SUPERSEDED:  # why: replaced itself, what it replaced is its replacement's
                    shown.extend(changes.release(memory_dir, j, entry_id))
        else:
            _caught_up(memory_dir, project, now)
            try:
                hid, _ = open_item(memory_dir, entry_id, "forget")
            except LhError:
                if _was_forgotten(memory_dir, entry_id):  # closed by a forget already: no change
                    return None
                raise
            held_item = state.of_marks(every.get(hid))[0]

            def make(j: journal.Journal, now: float) -> None:
                _close_item(memory_dir, j, hid, reason, handoff.FORGOTTEN_BY, now)
                _unhold(memory_dir, j, hid, held_item)
    return journalled_run(memory_dir, "forget", project, f"forget {entry_id}: {reason}", make, now)


def _listed_here(memory_dir: str, project: str) -> Callable[[dict], bool]:
    """Whether this project lists a learning (its frontmatter, with ``id``), and so may forget it or give
    it back: one meant for other projects too, or its own (``Owned.lists``)."""
    from lazy_harness.memory import aliases

    owned = aliases.owned(memory_dir)
    return lambda meta: state.crosses(meta) or owned.lists(meta, project)


def _refuse_elsewhere(listed: Callable[[dict], bool], project: str, lid: str, path: str) -> None:
    """Refuse a learning kept to another project (scope ``project``, not this one's: ``listed``): no
    view of this project lists it, so its id came from elsewhere; it is forgotten in its own."""
    meta = {**frontmatter.read_frontmatter_values(path, ("project_folder", "origin", "scope")), "id": lid}
    if listed(meta):
        return
    origin = one_line(meta.get("origin"))[:80] or "another project"
    raise LhError(f"{lid} is a learning kept to project {origin}, not shown in {project}",
                  hint=f"lh memory forget {lid} --project <the folder of {origin}>")


def _learning_files_to_forget(learnings_dir: str, lid: str) -> list[str]:
    """The files of learning ``lid`` not forgotten yet ([] when all are); refused when there is none, or
    when one's frontmatter does not close (writing it would mean guessing where it ends)."""
    found = learning_paths(learnings_dir, lid)
    if not found:
        raise LhError(f"no learning {lid} in {learnings_dir}", hint="lh memory search")
    learning_damage.refuse(found)
    return [p for p in found
            if frontmatter.read_frontmatter_values(p, ("status",)).get("status") != state.FORGOTTEN]


def _unhold(memory_dir: str, j: journal.Journal, eid: str, was: str) -> None:
    """Take a held entry's hold marks out of marks.jsonl (in journal ``j``): no stale hold stays
    behind a forget, here or on a machine it syncs to."""
    if was != state.HELD:
        return
    from lazy_harness.atomic import rewrite

    path = marks.path_of(memory_dir)
    j.track(path)
    rewrite(path, lambda data: marks.without(data, {eid}, ops=("hold",)))
    j.record(path)


def _was_forgotten(memory_dir: str, hid: str) -> bool:
    """Whether handoff item ``hid`` was closed by a forget."""
    state_, _ = handoff.load(memory_dir)
    item = state_.get(hid.strip().strip("[]").strip())
    return item is not None and item.get("closed_by") == handoff.FORGOTTEN_BY


def close(memory_dir: str, project: str, ref: str, reason: str, now: float) -> tuple[str, str, str]:
    """Close an open handoff item (by id or exact text); returns (its id, its text, the run id). Under
    :func:`one_at_a_time`: a second close of the item sent at once is told it is not open."""
    reason = reason_of(reason)
    with one_at_a_time(memory_dir):
        _caught_up(memory_dir, project, now)
        hid, text = open_item(memory_dir, ref)
        run = journalled_run(memory_dir, "close", project, f"close {hid}: {reason}",
                             lambda j, now: _close_item(memory_dir, j, hid, reason, "by hand", now), now)
    return hid, text, run


NEVER_UNDONE = ("hold",)


def undo(memory_dir: str, learnings_dir: str, run: str | None, stale_days: float,
         now: float) -> tuple[dict, list, list]:
    """Put back the files a run changed (None: the newest not yet undone); (run data, restored, problems).
    A hold is never undone (ADR 0032): the check would hold the same entries again at the next read,
    and between the two reads every view would disagree; ``approve`` and ``forget`` end a hold."""
    rendered = os.path.join(memory_dir, files.HANDOFF)
    # why the folder's lock, here and not in journal.undo (intent.rollback calls that with it held): a
    # persist that opened an item between this fold of handoff.jsonl and the render was left out of
    # handoff.md, and the open items' cache written with the new files' stamp hid it from every read
    # back. No folder: nothing journalled there, and journal.undo says so.
    # and, inside it, the learnings' status lock: a learning's status fields are put back under the lock
    # every writer of them takes (see _status_locked)
    here = os.path.isdir(memory_dir)
    with files.FolderLock(memory_dir) if here else nullcontext():
        if here:
            # why first, and before the status lock (a killed persist's rollback comes first): a hand edit
            # of handoff.md saved since the run is recorded in handoff.jsonl, as every writer does, so
            # the undo takes out only the run's lines and handoff.md, rendered from the log, keeps the
            # edit; without it handoff.md, "derived", was rendered from the log alone and the edit lost
            handoff.import_hand_edits(memory_dir, {"session_id": "by hand", "task_id": ""}, now, stale_days,
                                      locked=True)
        with _status_locked(learnings_dir):
            data, restored, problems = journal.undo(memory_dir, (memory_dir, learnings_dir), run,
                                                    derived=(rendered,), never=NEVER_UNDONE)
            if any(f.get("path") == rendered for f in data["files"]):  # derived from handoff.jsonl
                handoff.after_undo(memory_dir, {"session_id": "undo", "task_id": data["run"],
                                                "project": data.get("project") or ""}, now, stale_days)
    if any(os.path.basename(str(f.get("path"))) == "marks.jsonl" for f in data["files"]):
        _refresh_usage(memory_dir)  # why: an undone merge no longer counts its entry's use for another
    sync_after()  # why always: the run's journal was written back, marked undone or restored in part
    return data, restored, problems


@contextmanager
def _status_locked(learnings_dir: str) -> Iterator[None]:
    """Hold the learnings folder's status lock (``changes.status_lock``) while an undo puts learnings'
    status fields back. why: every other writer of those fields takes it; without it a forget made
    between the undo's read of a learning and its write was overwritten, the person's forget lost.
    Taken inside the memory folder's lock, the order a persist's restore takes them in; nothing
    ``journal.undo`` or the render calls takes it again (a second flock in one process waits forever).
    No learnings folder: no learning to put back, and none is made for the lock."""
    if not os.path.isdir(learnings_dir):
        yield
        return
    fd = changes.status_lock(learnings_dir)
    try:
        yield
    finally:
        os.close(fd)


def _refresh_usage(memory_dir: str) -> None:
    """The counts the budget cuts read, again after marks changed (memory/usage_log.py); never raises:
    the undo is done, and the next accounting writes them anyway."""
    from lazy_harness.memory import usage_log

    try:
        usage_log.refresh_ranks(None, memory_dir)
    except (OSError, ValueError):
        pass


def undo_said(data: dict, restored: list, problems: list) -> tuple[str, list[str]]:
    """What an undo says, the same in ``lh memory undo`` and on the page: (its line, one line per newer
    run it passed over and per file it left alone). A partial undo says how to finish it."""
    run, kind = data["run"], data.get("kind", "?")
    passed = list(data.get("passed_over") or [])
    if not problems:
        return f"undid {run} ({kind}): {len(restored)} file(s) restored", passed
    return (f"run {run} ({kind}) is not undone: {len(restored)} file(s) restored, {len(problems)} left alone "
            f"(put them back as they were after the run, then lh memory undo {run} again)",
            passed + [f"not restored: {problem}" for problem in problems])


def _named(h: dict) -> str:
    """An entry of ``held_review.listing`` in a refusal: its text, and a learning's file (two texts of one
    id may share a title)."""
    text = repr(one_line(h.get("text") or h.get("file") or "")[:80])
    return f"{text} ({h['file']})" if h.get("kind") == "learning" else text


def approve(memory_dir: str, learnings_dir: str, project: str, entry_ids: list[str] | str, reason: str,
            now: float, every: bool = False, cross: str = state.ASK,
            told: list[str] | None = None) -> tuple[str, list[str]]:
    """Approve entries in one run (ADR 0024, 0032): a held one is shown to sessions again, a learning
    that waited is shown in every project. ``every``: all the learnings that wait for approval to be
    used in other projects (not the entries the hold check held: each of those needs its id).
    Returns the run id for ``lh memory undo`` and the ids approved (what ``every`` took is known here only);
    ``told`` gets a line for each approved learning a newer text of its title still replaces."""
    wanted = [ids.as_typed(e) for e in ([entry_ids] if isinstance(entry_ids, str) else entry_ids)]
    # why under one_at_a_time, from the listing to the run: the same Approve sent twice at once wrote two
    # approvals and two runs; the second now finds the entry no longer held, as after an earlier approval
    of_learnings = every or "learning" in map(ids.kind_of, wanted)
    with one_at_a_time(memory_dir, learnings_dir if of_learnings else None):
        return _approve(memory_dir, learnings_dir, project, wanted, reason, now, every, cross, told)


def _render_marks(memory_dir: str, j: journal.Journal, now: float) -> None:
    """handoff.md rendered again in run ``j`` once an open item is approved: its note said held
    (memory/handoff_held.py), and the person reading the file next must not find it still marked. A hand
    edit saved before the run is recorded first, outside it (as ``close`` does)."""
    meta = {"session_id": "by hand", "task_id": j.run}
    handoff.import_hand_edits(memory_dir, meta, now)
    rendered = os.path.join(memory_dir, files.HANDOFF)
    j.track(rendered)
    handoff.import_hand_edits(memory_dir, meta, now, if_behind=True)
    j.record(rendered)


SHOWN_IDS = 3  # held entries a refused ``approve --all`` names


def _nothing_waits(listing: list[dict]) -> LhError:
    """``approve --all`` with no learning waiting: what the hold check held, if anything, each of
    which needs its id (``--all`` leaves them to the person, one by one, by design)."""
    held_ids = list(dict.fromkeys(h["id"] for h in listing if h["state"] == state.HELD))
    if not held_ids:
        return LhError("nothing waits for approval", hint="lh memory held")
    n = len(held_ids)
    shown = ", ".join(held_ids[:SHOWN_IDS]) + (f" and {n - SHOWN_IDS} more" if n > SHOWN_IDS else "")
    which = ("1 entry is held by the hold check and needs" if n == 1 else
             f"{n} entries are held by the hold check and need")
    return LhError(f"no learning waits for approval to be used in other projects (what --all approves); {which} "
                   f"approving by id: {shown}", hint=f"lh memory held, then lh memory approve {held_ids[0]}")


def _approve(memory_dir: str, learnings_dir: str, project: str, wanted: list[str], reason: str, now: float,
             every: bool, cross: str, told: list[str] | None = None) -> tuple[str, list[str]]:
    """:func:`approve` once its lock is held."""
    waiting = held_review.listing(memory_dir, learnings_dir, cross)
    by_id: dict[str, list[dict]] = {}
    for h in waiting:
        by_id.setdefault(h["id"], []).append(h)
    if every:
        wanted += [h["id"] for h in waiting if h["state"] == state.WAITING and h["id"] not in wanted]
    if not wanted:
        raise _nothing_waits(waiting)
    found = []
    for eid in dict.fromkeys(wanted):
        kind = ids.kind_of(eid)
        if kind is None:
            raise LhError(f"{eid!r} is not an id (d-, f-, l- or h- and 8 to 40 hex characters)", hint="lh memory held")
        one = the_one(eid, by_id.get(eid, []), _named, "lh memory held",
                       key=None if kind == "learning" else lambda h: normalise(h.get("text")))
        if one is None:  # why: no such entry, a forgotten one (undo brings it back) and one approved read apart
            raise not_waiting(memory_dir, learnings_dir, eid, kind, cross)
        # why every file: a copy of the learning left held (or waiting) would keep it from sessions
        found.append((eid, kind, list(one.get("files") or [one["file"]]) if kind == "learning" else [""]))
        # why before any write: a secret holds an entry whatever approved it (ADR 0056)
        held_review.refuse_secret(memory_dir, eid, kind, found[-1][2], ", ".join(one.get("files") or [one["file"]]))
    reason = reason_of(reason)
    from lazy_harness.memory import approval_key

    approval_key.read_key(create=True)  # why first: a key that may not be used refuses the run before any write

    def make(j: journal.Journal, at: float) -> None:
        for eid, kind, paths_ in found:
            for path in paths_:
                held_review.approve(memory_dir, learnings_dir, eid, kind, path, reason, j, at, told=told)
        if any(kind == "handoff" for _, kind, _ in found):
            _render_marks(memory_dir, j, at)

    approved = [e for e, _, _ in found]
    note = f"approve {', '.join(approved)}: {reason}"
    return journalled_run(memory_dir, "approve", project, note, make, now), approved
