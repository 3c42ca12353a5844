"""How every change the person makes to memory by hand is found and run: the one entry an id names (a
decision or failure line, a learning's files), the lock the changes take one at a time, the journalled
run ``lh memory undo`` reverts, and the sync started once it wrote.

Below :mod:`lazy_harness.memory.by_hand` (forget, close, undo, approve), which the commands and the page call;
nothing is printed, errors are ``LhError`` with a hint.
"""

from __future__ import annotations

import os
from contextlib import contextmanager, suppress

from lazy_harness.errors import LhError
from lazy_harness.memory import changes, files, frontmatter, held_review, ids, journal, learnings
from lazy_harness.memory.sanitize import normalise, one_line

# why: not ``from typing import TYPE_CHECKING``: memory never imports ``typing`` at run time (the hooks
# load its read side: house style section 3)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from typing import TypeVar

    T = TypeVar("T")


def reason_of(text: str) -> str:
    """A reason as it is kept in the record: one line, at most ``changes.REASON_CHARS``."""
    return one_line(text)[:changes.REASON_CHARS]


def the_one(eid: str, found: list[T], name: Callable[[T], str], hint: str,
            same: Callable[[T], object] | None = None, key: Callable[[T], str] | None = None) -> T | None:
    """The one entry of ``found`` that carries ``eid`` (None for none); two or more: refused, naming
    each, unless ``same`` gives them one text (copies of one entry) or ``key`` tells the one whose text
    the id is the hash of (``ids.claimed``: a line of another writer carrying it)."""
    try:
        return ids.one_of(eid, found, name, same, key)
    except LookupError as exc:
        raise LhError(str(exc), hint=hint) from None


# What makes two files one learning: its title and body (status fields aside); the path when unreadable.
# The one rule of every view (held_review.copy_text), so forget, approve, show, the page and consolidation agree.
learning_text = held_review.copy_text


def learning_paths(learnings_dir: str, lid: str) -> list[str]:
    """The files of the learning whose id is exactly ``lid``: one, or copies of one text (a file copied
    by hand is the same learning); refused when two texts carry it."""
    return one_learning(lid, [p for p in files.recent_learning_files(learnings_dir, 10**6)
                              if learnings.id_of(p) == lid])


def one_learning(lid: str, found: list[str]) -> list[str]:
    """``found``, the files that carry learning id ``lid``, when forget takes them as one learning (one
    file, or copies of one text); refused as :func:`learning_paths` refuses. The page asks it before it
    offers Forget."""
    hint = f"give one of them an id of its own in its frontmatter (id: {lid}0); then forget takes each by its id"
    titles = {normalise(frontmatter.read_frontmatter_values(p, ("title",)).get("title") or ids.title_of_file(p))
              for p in found} if len(found) > 1 else set()
    if len(titles) == 1 and len(set(map(learning_text, found))) > 1:
        # why: one title (and origin) is one id: the same learning written twice in its own words, on two
        # days or two machines and brought together by lh sync (or a copy edited), not two ids that collided
        raise LhError(f"{lid} names {len(found)} entries, learnings of the same title in different words (one "
                      f"learning written on two days or two machines, or a copy edited by hand): {'; '.join(found)}",
                      hint=hint)
    the_one(lid, found, str, hint, learning_text)
    return found


def entry_exists(memory_dir: str, eid: str, kind: str) -> bool:
    """Whether decisions.jsonl (or failures.jsonl) holds an entry whose id is exactly ``eid``. A line
    copied by hand (the same id and summary) is the same entry; of lines of different summaries, the
    one whose summary the id is the hash of (another writer's line carrying it takes nothing from it,
    ``ids.claimed``); refused when none or several are (two summaries of one 8 hex characters)."""
    name = files.DECISIONS if kind == "decision" else files.FAILURES
    path = os.path.join(memory_dir, name)
    found = [rec for rec in files.read_entries(path) if ids.of_record(rec, kind) == eid]
    return the_one(eid, found, lambda rec: repr(one_line(rec.get("summary"))[:80]),
                    f"give one of them its own id as its \"id\" in {path}",
                    lambda rec: normalise(rec.get("summary")), lambda rec: normalise(rec.get("summary"))) is not None


class NotOpen(LhError):
    """The handoff item is not open (any more): nothing was changed."""


def not_open(memory_dir: str, ref: str, state_: dict | None = None, verb: str = "close") -> NotOpen:
    """The refusal of an item that is not open; one whose line the person reworded in handoff.md names
    the id it is open as now. why: the line kept its ``[h-...]`` tag, so the person names the item by
    it, and "no open handoff item" contradicted the file; nothing is closed for them (the new words
    may say it is not done)."""
    from lazy_harness.memory import handoff

    now_as = handoff.reworded_as(state_, ref) if state_ is not None else None
    if now_as is not None:
        return NotOpen(f"{ref} was reworded by hand in handoff.md and is open as {now_as['id']}: "
                       f"{one_line(now_as['text'])[:120]!r}", hint=f"lh memory {verb} {now_as['id']}")
    item = state_.get(ref) if state_ is not None else None
    if item is not None and not item.is_open:  # why: as a second forget says "already forgotten"
        from lazy_harness.memory.fence import local_time

        when = local_time(files.iso_epoch(item.get("closed")), minutes=True) or "?"
        return NotOpen(f"{ref} is closed already ({when} {handoff.by_whom(item.get('closed_by'))}"
                       f"{handoff.why_closed(item.get('reason'))}): {one_line(item['text'])[:120]!r}",
                       hint="lh memory show --history")
    return NotOpen(f"no open handoff item {ref!r} in {memory_dir}", hint="lh memory show")


LOCK = ".by-hand.lock"  # in the memory folder, and in the learnings folder: see one_at_a_time


@contextmanager
def one_at_a_time(memory_dir: str, learnings_dir: str | None = None) -> Iterator[None]:
    """Hold the memory folder's lock of the person's changes (``<memory dir>/.by-hand.lock``, never
    deleted; sync's ``*.lock`` keeps it on this machine) while one forget, approve or close checks
    and writes. why: the check ("already forgotten", "is it held", "is it open") read before any
    lock let the same Forget sent from two ``lh ui`` pages, or a page and ``lh memory forget``, write two
    marks and two runs, the undo of one leaving the entry forgotten by the other; the page's own lock
    orders only its own process. An ``flock``: two processes, and two threads of one, wait for each
    other. With ``learnings_dir`` (a change of a learning), then the learnings folder's own
    (``<learnings>/.by-hand.lock``) too. why: a learning of another project is on every project's
    page, and its file is in the learnings folder every project shares; under the project's lock
    alone, a Forget or Approve from two projects at once both passed the check and wrote a run in
    each project's journal. Always in this order, the project's then the learnings', and taken before
    every lock the writes take (the folder's, the learnings' status lock, a file's own), by nothing
    else: no one holding those waits for them, so nothing deadlocks, and nothing under them calls a
    model. No memory folder: nothing of it to change, and none is made for the lock (a change of a
    learning, which journals there, makes it with its journal once it writes, under the learnings'
    lock); no learnings folder: no learning to change, and none is made for its lock. why not made
    for the lock: ``approve --all`` with nothing to approve left the folder of a project without
    memory, which ``lh memory path --old`` then listed in every other project."""
    from lazy_harness import atomic

    held_fds: list[int] = []
    try:
        for folder in (memory_dir, learnings_dir):
            if folder is not None and os.path.isdir(folder):
                held_fds.append(atomic.lock(os.path.join(folder, LOCK)))
        yield
    finally:
        for fd in reversed(held_fds):
            os.close(fd)


def journalled_run(memory_dir: str, kind: str, project: str, note: str,
                   make: Callable[[journal.Journal, float], object], now: float) -> str:
    """Run ``make(journal, now)`` as one journalled change of ``kind``; returns the run id for undo."""
    j = journal.Journal(memory_dir, kind, project, now)
    try:
        make(j, now)
    except NotOpen:
        # why: refused before any change (a close finding its item no longer open, ``by_hand``): no run to
        # list or undo. Only then: a change stopped partway by another error keeps its journal, so what it
        # did can still be undone
        with suppress(OSError):
            os.unlink(j.path)
        raise
    j.note(note)
    j.save()
    sync_after()
    return j.run


def sync_after() -> None:
    """Once a change by hand wrote memory: the sync the worker starts once it wrote memory
    (``detach.spawn_sync``, ``python -m lazy_harness.sync after-write --now``), so the other machines
    get a forget now, not after the next distillation (SessionStart's pull commits, never pushes). That
    process reads config.toml and syncs only with a remote and ``auto`` on, as after the worker's
    writes, but without waiting for ``interval_minutes``; it is not waited for, and one that cannot start fails no
    change (the next round sends it). why here and not in the CLI: the page's actions call these
    functions too. why the look at ``<data>/.git`` first: memory reads no config (the CLI and the page
    pass what it needs), and a machine that never synced has no repository there: no process for it."""
    from lazy_harness import detach, paths

    if not os.path.isdir(os.path.join(paths.data_dir(), ".git")):
        return
    with suppress(OSError):
        detach.spawn_sync(at_once=True)


def not_waiting(memory_dir: str, learnings_dir: str, eid: str, kind: str, cross: str) -> LhError:
    """Why ``lh memory approve`` refuses ``eid``, which nothing holds and which waits for no approval: no
    such entry (where it looked), a forgotten one (an undo brings it back, not approve), or what it is
    (approved already, replaced, shown where it belongs). ``cross``: the ``[trust] cross_projects`` policy."""
    from lazy_harness.memory import state

    meta: dict = {}
    if kind == "learning":
        found = [p for p in files.recent_learning_files(learnings_dir, 10**6) if learnings.id_of(p) == eid]
        if not found:
            return LhError(f"no learning {eid} in {learnings_dir}", hint="lh memory held")
        meta = {**frontmatter.read_frontmatter_values(found[0], _STATE_KEYS), "path": found[0]}
        name, detail = state.of_learning(meta, cross)
    else:
        name, detail = _state_of_entry(memory_dir, eid, kind)
    if name == "":
        return LhError(f"no {'handoff item' if kind == 'handoff' else kind} {eid} in {memory_dir}",
                       hint="lh memory held")
    if name == state.FORGOTTEN:
        return LhError(f"{eid} is forgotten, and approve does not bring it back", hint=f"lh memory undo {eid}")
    why = {state.APPROVED: f"it is approved already, and {_who_gets(kind, meta)}",
           state.ACTIVE: "nothing holds it from the sessions it is for"}.get(name)
    why = why or f"it is {state.label((name, detail))}"
    return LhError(f"{eid} waits for no approval: {why}", hint="lh memory held lists what waits")


def _who_gets(kind: str, meta: dict) -> str:
    """Whose sessions get an approved entry: a general learning (any scope but ``project``) every
    project's; a project's learning the project's that wrote it; a decision, failure or open item this
    project's. why: "other projects' sessions get it" was said of each, and only the first goes there."""
    from lazy_harness.memory import state

    if kind != "learning":
        return "this project's sessions get it"
    if state.crosses(meta):
        return "other projects' sessions get it"
    return "the sessions of the project that wrote it get it (scope: project)"


# the frontmatter keys state.of_learning reads
_STATE_KEYS = ("status", "scope", "origin", "project_folder", "via", "origin_session", "deprecated_by",
               "deprecated_reason")


def _state_of_entry(memory_dir: str, eid: str, kind: str) -> tuple[str, str]:
    """(state, detail) of decision, failure or handoff item ``eid`` for :func:`not_waiting`; ("", "") when
    no line carries it."""
    from lazy_harness.memory import handoff, marks, state

    if kind == "handoff":
        item = handoff.load(memory_dir)[0].get(eid)
        if item is None:
            return "", ""
        if item.get("closed_by") == handoff.FORGOTTEN_BY:
            return state.FORGOTTEN, ""
        return (state.ACTIVE, "") if item.is_open else ("closed", "")
    name = files.DECISIONS if kind == "decision" else files.FAILURES
    if not any(ids.of_record(rec, kind) == eid for rec in files.read_entries(os.path.join(memory_dir, name))):
        return "", ""
    return state.of_marks(marks.by_id(memory_dir, marks.OPS).get(eid))
