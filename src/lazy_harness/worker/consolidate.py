"""Consolidation: one model call that keeps a project's memory current, reversibly.

The model sees the project's live entries as ``[<id>] <summary>`` lines and may only:
- ``supersede``: mark a decision replaced by a newer decision;
- ``deprecate_learnings``: deprecate one of the project's learnings in favour of another;
- ``merge_failures``: mark a failure a duplicate of another one, which is kept;
- ``close_handoff``: close an open handoff item that is done or stale.
Its answer is hostile input, checked before anything is applied (consolidate_answer.py). Nothing is
deleted: decisions and failures get a mark in marks.jsonl, learnings get frontmatter fields, handoff
items a close record. A learning file copied by hand is one learning: listed once, and every active
copy is deprecated with it (``one_per_learning``). Every run that writes a change writes a journal
(``memory.journal``), so ``lh memory undo`` restores the files byte for byte; a change dropped just
before its write is reported as not applied, never as made (``apply`` returns what it wrote).

The pieces: consolidate_prompt.py reads the live entries and builds the prompt; consolidate_answer.py
holds the answer's schema and checks it; consolidate_gates.py holds the gates an automatic run (the
worker, after it drained the queue) passes first and the lock every run holds. This module applies
the changes and runs one consolidation; the pieces' names are re-exported here.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from lazy_harness.errors import LhError, ModelError
from lazy_harness.memory import changes as edits, journal, marks
from lazy_harness.worker.consolidate_answer import (  # noqa: F401 - the pieces' names are this module's API too
    ACTIONS, REASON_CHARS, SCHEMA, Change, validate)
from lazy_harness.worker.consolidate_gates import LOCK, SCAN, Lock, gates, sessions_since  # noqa: F401
from lazy_harness.worker.consolidate_prompt import (  # noqa: F401
    INSTRUCTIONS, PER_KIND, Candidates, Entry, candidates, open_handoff, read_entries, render_prompt)

if TYPE_CHECKING:
    from lazy_harness.config.typed import Config
    from lazy_harness.memory.shapes import Env

CLOSED_BY = "consolidate"  # the session field of the close records consolidation appends to handoff.jsonl


@dataclass
class Result:
    status: str  # changed | unchanged | skipped | failed | dry-run
    reason: str
    changes: list[Change] = field(default_factory=list)  # proposed (dry-run), else written
    problems: list[str] = field(default_factory=list)
    run: str | None = None
    not_applied: list[str] = field(default_factory=list)  # ``not applied (<why>): <change>``, one per change


# --- applying ----------------------------------------------------------------------------------------

def apply(changes: list[Change], c: Candidates, memory_dir: str, learnings_dir: str, now: float,
          j: journal.Journal, copies: dict[str, list[str]] | None = None) -> tuple[list[Change], list[str]]:
    """Write the checked changes; (the changes written, a ``not applied (<why>): <change>`` line for
    each one not written). The answer was checked against the entries as they were before the model
    call: each change is checked again right before its write (the person may have forgotten an entry
    meanwhile), and one whose entry or ``other`` is no longer live is dropped with a note in the journal.
    ``copies``: the active files of each learning (``one_per_learning``); a learning missing there is
    its entry's file."""
    live = c.by_id()
    closes: list[tuple[Change, int]] = []
    done: list[Change] = []
    dropped: list[str] = []
    edited = _edited(memory_dir, c) if any(ch.action in ("supersede", "merge_failures") for ch in changes) else set()
    by_hand = _by_hand(memory_dir, c, {ch.target for ch in changes if ch.action in HIDING})
    why: str | None
    for ch in changes:
        at = _unfinished(j, ch)
        if {ch.target, ch.other} & edited:
            wrote, why = False, EDITED
        elif ch.action in HIDING and ch.target in by_hand:
            wrote, why = False, BY_HAND
        elif ch.action in ("supersede", "merge_failures"):
            op = "supersede" if ch.action == "supersede" else "merge"
            wrote = edits.add_mark(memory_dir, j, op, ch.target, ch.other, ch.reason, now,
                                   live=(ch.target, ch.other or ""))
            why = None if wrote else "no longer live"
        elif ch.action == "deprecate_learnings":
            wrote, why = _deprecate(ch, live, (copies or {}).get(ch.target) or [live[ch.target].path],
                                    learnings_dir, now, j)
        else:
            closes.append((ch, at))
            continue
        _said(ch, wrote, why, j, done, dropped, at)
    if closes:
        where = {id(ch): at for ch, at in closes}
        for ch, why in _close([ch for ch, _ in closes], memory_dir, now, j):
            _said(ch, why is None, why, j, done, dropped, where[id(ch)])
    j.save()
    return done, dropped


EDITED = "changed by hand since the model read it"


def _edited(memory_dir: str, c: Candidates) -> set[str]:
    """The decisions and failures of ``c`` whose text is no longer what the model read: reworded (their
    ``id`` kept) or taken out of their log by hand while it answered. why: a mark hides the id, so a
    supersede judged on the old words would hide the person's new ones."""
    import os

    from lazy_harness.memory import files, ids
    from lazy_harness.memory.sanitize import normalise, one_line

    out: set[str] = set()
    for kind, name, group in (("decision", files.DECISIONS, c.decisions), ("failure", files.FAILURES, c.failures)):
        now: dict[str, set[str]] = {}
        for rec in files.read_entries(os.path.join(memory_dir, name)):
            now.setdefault(ids.of_record(rec, kind), set()).add(normalise(one_line(rec["summary"])))
        out |= {e.id for e in group if now.get(e.id) != {normalise(e.text)}}
    return out


HIDING = ("supersede", "merge_failures", "deprecate_learnings")  # the changes that hide their target
BY_HAND = "edited by hand since it was written: the person's word stands"


def _by_hand(memory_dir: str, c: Candidates, targets: set[str]) -> set[str]:
    """The ``targets`` (entries a change would hide) the person edited by hand since they were written: a
    decision or failure whose text is not the one its ``text_digest`` was taken of, a learning whose text
    is not (ADR 0064's rule, ``learning_text.edited_by_hand``). why: the person's word was superseded or
    deprecated for a text the model judged newer; undoable, but hidden without a word to the person."""
    if not targets:
        return set()
    import os

    from lazy_harness.memory import files, ids, provenance
    from lazy_harness.memory.learning_text import file_edited_by_hand

    out = {e.id for e in c.learnings if e.id in targets and e.path and file_edited_by_hand(e.path)}
    for kind, name in (("decision", files.DECISIONS), ("failure", files.FAILURES)):
        for rec in files.read_entries(os.path.join(memory_dir, name)):
            if (eid := ids.of_record(rec, kind)) in targets and provenance.edited_by_hand(rec, kind):
                out.add(eid)
    return out


UNFINISHED = "the run stopped while writing it; lh memory show tells whether it was written"


def _unfinished(j: journal.Journal, ch: Change) -> int:
    """Note ``ch`` in the journal before its write, as unfinished; its index there. why: the journal is
    saved with each change's intent, before its write, so a run killed after a write (before the next
    save) still lists every change it may have made; :func:`_said` replaces the line once it is known."""
    j.note(f"{ch} ({UNFINISHED})")
    return len(j.data["changes"]) - 1


def _said(ch: Change, wrote: bool, why: str | None, j: journal.Journal, done: list[Change],
          dropped: list[str], at: int) -> None:
    """Say in the journal (at ``at``, its unfinished line) what became of ``ch``; in ``done`` when it wrote
    anything (a learning deprecated in some of its files only: undo has that to put back), and its line
    in ``dropped`` when it was not written whole."""
    line = str(ch) if why is None else f"{'partly' if wrote else 'not'} applied ({why}): {ch}"
    j.data["changes"][at] = line
    if wrote:
        done.append(ch)
    if why is not None:
        dropped.append(line)


def _close(closes: list[Change], memory_dir: str, now: float,
           j: journal.Journal) -> list[tuple[Change, str | None]]:
    """Close the handoff items of ``closes``, but one held (or forgotten) since the prompt was read: the
    marks are read again right before the write. A held item is the person's to approve or forget;
    closed, it would leave ``lh memory held``. Each change with None when its item was closed, else why
    not: one closed or forgotten meanwhile (``lh memory close``, a session) is left as it is by
    close_items, which closes only open items; the log read afterwards says which it closed."""
    from lazy_harness.memory import handoff

    hidden = marks.hidden(memory_dir)
    said: list[tuple[Change, str | None]] = []
    ok = []
    for ch in closes:
        if ch.target in hidden:
            said.append((ch, marks.describe(hidden[ch.target])))
        else:
            ok.append(ch)
    if ok:
        edits.close_handoff_items(memory_dir, [(ch.target, ch.reason) for ch in ok], CLOSED_BY, now, j)
        state, _ = handoff.load(memory_dir)
        for ch in ok:
            item = state.get(ch.target)
            mine = item is not None and not item.is_open and item.get("closed_by") == CLOSED_BY
            said.append((ch, None if mine else "no longer open"))
    return said


def _deprecate(ch: Change, live: dict[str, Entry], files_of: list[str], learnings_dir: str, now: float,
               j: journal.Journal) -> tuple[bool, str | None]:
    """Deprecate a learning for another, only while both are still active: read again under the status
    lock every writer of a learning's status takes (``changes.set_learning_fields``), so a forget the
    person made meanwhile is never written over. ``files_of``: every active file of the learning (a file
    copied by hand is the same learning: a copy left active would keep reaching every session, as
    ``lh memory forget`` says too). (whether a file was written, None when all were, else why not)."""
    from lazy_harness.memory import frontmatter

    if ch.other not in live:
        return False, "no longer live"
    for path in files_of:  # why first: a copy refused after another was written would stay active
        if frontmatter.file_not_closed(path):
            return False, f"{path}: {frontmatter.NOT_CLOSED}"
    done, why = 0, "no longer live"
    for path in files_of:
        try:
            done += edits.set_learning_status(path, learnings_dir, "deprecated", ch.other, ch.reason, now, j,
                                              only_from="active", others_active=(live[ch.other].path,))
        except (LhError, OSError) as exc:  # a frontmatter we will not rewrite, a file gone: the others still apply
            why = str(exc)
    if done == len(files_of):
        return True, None
    return bool(done), why if not done else f"{done} of its {len(files_of)} files deprecated; {why}"


def one_per_learning(c: Candidates) -> tuple[Candidates, dict[str, list[str]], list[str]]:
    """``c`` with each learning listed once, ``{id: its active files}`` and one problem line per id that
    two texts carry. A file copied by hand (one id, one title and body: ``hand_runs.learning_text``) is
    the same learning, as ``lh memory show`` and ``forget`` take it: shown once, and a change acts on
    every copy. An id of two texts (a copy edited afterwards, or a pair written before ids were checked
    for collisions) is left out: acting on one would hide a text the person may want, and the id cannot
    say which."""
    from dataclasses import replace

    from lazy_harness.memory import hand_runs

    groups: dict[str, list[Entry]] = {}
    for e in c.learnings:
        groups.setdefault(e.id, []).append(e)
    kept: list[Entry] = []
    copies: dict[str, list[str]] = {}
    problems: list[str] = []
    for lid, group in groups.items():
        copies[lid] = [e.path for e in group]
        if len({hand_runs.learning_text(p) for p in copies[lid]}) > 1:
            problems.append(f"learning {lid} left out: {len(group)} files of different texts carry it "
                            f"({'; '.join(copies[lid])}); give one of them an id of its own")
            continue
        kept.append(group[-1])  # why the last: the newest, the one by_id() gave
    kept.sort(key=lambda e: e.order)
    return replace(c, learnings=kept), copies, problems


# --- one run -----------------------------------------------------------------------------------------

def _refresh_usage(env: Env | None, memory_dir: str) -> None:
    """The counts the budget cuts read, again: a merged failure's use now counts for the one it was
    merged into (memory/usage_log.py). why never raising: the merge is written; the next accounting
    writes the counts anyway."""
    from lazy_harness.memory import usage_log

    try:
        usage_log.refresh_ranks(env, memory_dir)
    except (OSError, ValueError):
        pass


def run(memory_dir: str, learnings_dir: str, project: str, cfg: Config, env: Env | None, now: float | None = None,
        dry_run: bool = False, automatic: bool = False, kind: str = "consolidate") -> Result:
    """Consolidate one project. ``automatic``: pass the gates first. Never raises for a model failure."""
    from lazy_harness.worker import calls

    now = time.time() if now is None else now
    ccfg = cfg["consolidate"]
    if automatic:
        why = gates(memory_dir, ccfg, now)
        if why:
            return Result("skipped", why)
    lock = Lock(memory_dir, ccfg["lock_stale_minutes"] * 60)
    busy = lock.acquire(now)
    if busy:
        return Result("skipped", busy)
    completed = False
    try:
        c, copies, refused = one_per_learning(candidates(memory_dir, learnings_dir, project))
        refused = c.left_out + refused
        if c.count() < 2:
            completed = not dry_run
            return Result("unchanged", f"{c.count()} live entries: nothing to consolidate", [], refused)
        extra = tuple(cfg["compound_loop"].get("redact_patterns") or ())
        prompt = render_prompt(c, project, extra)
        meta = {"project": project, "session_id": "", "task_id": "consolidate"}
        try:
            answer, _ = calls.run_model(prompt, cfg, env, meta, schema=SCHEMA, kind="consolidate")
        except calls.Wait as exc:  # a spend cap reached, or the API unreachable: try at a later drain
            return Result("failed", f"model call not made: {exc.message}")
        except ModelError as exc:
            return Result("failed", f"model call failed: {exc.message}")
        changes, problems = validate(answer, c, int(ccfg["max_changes"]), extra)
        problems = refused + problems
        if dry_run:
            return Result("dry-run", f"{len(changes)} change(s) proposed", changes, problems)
        completed = True
        if not changes:
            return Result("unchanged", "no change proposed", [], problems)
        return _applied(changes, c, copies, problems, (memory_dir, learnings_dir, project, kind), env, now)
    finally:
        lock.release(completed, now)


def _applied(changes: list[Change], c: Candidates, copies: dict[str, list[str]], problems: list[str],
             where: tuple[str, str, str, str], env: Env | None, now: float) -> Result:
    """Apply ``changes`` in a new journalled run; the Result says what was written. A run that wrote
    nothing (every change dropped: an entry forgotten while the model answered) is ``unchanged`` and
    leaves no journal, as a forget of what is already forgotten leaves none: nothing to list or undo."""
    import os
    from contextlib import suppress

    memory_dir, learnings_dir, project, kind = where
    j = journal.Journal(memory_dir, kind, project, now)
    done, dropped = apply(changes, c, memory_dir, learnings_dir, now, j, copies)
    said = f"{len(done)} change(s)" + (f"; {len(dropped)} not applied" if dropped else "")
    if not done:
        with suppress(OSError):
            os.unlink(j.path)
        return Result("unchanged", said, [], problems, None, dropped)
    if any(ch.action == "merge_failures" for ch in done):
        _refresh_usage(env, memory_dir)
    return Result("changed", said, done, problems, j.run, dropped)
