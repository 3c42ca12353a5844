"""Performing a plan of ``memory.plan``, all or nothing, under the memory folder's lock: the de-dup
checked again, the handoff's changes computed again, every write recorded first (``memory.intent``)
and taken out again when one fails; and the report of what was done. See ``memory.store``.
"""

from __future__ import annotations

import os

from lazy_harness import jsonload
from lazy_harness.atomic import append_line, ensure_dir, read_bytes
from lazy_harness.errors import LhError
from lazy_harness.memory import entries, files, frontmatter, handoff, handoff_answer, handoff_markdown, marks
from lazy_harness.memory.plan import (APPEND, CREATE, EXISTS, MET, REPLACE, RESTORE, REWRITE, SKIP, Plan, _check_target,
                                      _session_time, check_memory_dir)
from lazy_harness.memory.sanitize import one_line

# why: not ``from typing import TYPE_CHECKING``: memory never imports ``typing`` at run time (the hooks
# load its read side: house style section 3)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from lazy_harness.memory.handoff_answer import Answer
    from lazy_harness.memory.intent import Intent
    from lazy_harness.memory.journal import Journal


class Report:
    """What ``apply`` did: lines appended per file, learnings created or found, the handoff's fate."""

    def __init__(self) -> None:
        self.appended: dict[str, int] = {}
        self.created: list[str] = []
        self.existing: list[str] = []
        self.restored: list[str] = []  # ids of entries made again after consolidation hid them
        self.replaced: list[str] = []  # ids of decisions the session replaced, marked superseded
        self.rewritten: list[str] = []  # ids of learnings a new text of their title deprecated (ADR 0063)
        self.skipped: list[tuple[str, str]] = []
        self.handoff: str | None = None  # "written", "kept", or None: untouched
        self.opened = self.closed = 0  # handoff items the session opened and closed
        self.hand_opened = self.hand_closed = 0  # a hand edit of handoff.md, recorded on the way
        self.held = 0  # of what was written, held for approval (set by the worker after the hold check)
        self.recovered: list[str] = []  # what rolling back a killed writer's persist did first, for the log

    def count(self, name: str) -> int:
        return sum(n for p, n in self.appended.items() if os.path.basename(p) == name)

    def summary(self) -> str:
        """One line for logs and done/ files, e.g. ``2 decisions, 1 failure, 0 learnings, handoff written``."""
        def n(count: int, word: str) -> str:
            return f"{count} {word}" + ("" if count == 1 else "s")
        parts = [n(self.count(files.DECISIONS), "decision"), n(self.count(files.FAILURES), "failure"),
                 n(len(self.created), "learning")]
        if self.existing:
            parts.append(f"{n(len(self.existing), 'learning')} already there")
        if self.restored:
            parts.append(f"{len(self.restored)} restored")
        if self.replaced:
            parts.append(f"{len(self.replaced)} replaced")
        if self.rewritten:
            parts.append(f"{n(len(self.rewritten), 'learning')} replaced by a new text of its title")
        if self.skipped:
            parts.append(f"{len(self.skipped)} skipped")
        if self.held:
            parts.append(f"{self.held} held for approval")
        hand = (f"; by a hand edit of handoff.md: {self.hand_opened} opened, {self.hand_closed} closed"
                if self.hand_opened or self.hand_closed else "")
        parts.append(f"handoff {self.handoff or 'untouched'}"
                     + (f" ({self.opened} opened, {self.closed} closed{hand})" if self.handoff == "written" else ""))
        return ", ".join(parts)

    __str__ = summary


def apply(p: Plan, before_commit: Callable[[Plan, Report, Intent], object] | None = None) -> Report:
    """Perform a plan, all or nothing (``memory.intent``, ADR 0021): under the folder's lock, first
    roll back a persist a killed writer left unfinished, then compute the exact bytes to append (de-dup
    re-checked, the handoff's changes computed again, so two sessions applied at once both keep
    theirs), record them, write JSONL appends, learnings, the handoff, restores; any failure on the
    way (a full disk, an I/O error) takes every byte of this persist out again before it is raised.
    ``before_commit(plan, report, intent)`` runs once everything is written, just before the commit:
    what it records with ``intent.promising`` stands or falls with the persist, and what it raises
    rolls the persist back. Not called when there is nothing to write."""
    from lazy_harness.memory import intent

    report = _planned_report(p)
    mine = [a for a in p.actions if a.kind == APPEND]
    restores = [a for a in p.actions if a.kind == RESTORE]
    creates = [a for a in p.actions if a.kind in (CREATE, REWRITE)]
    marking = restores + [a for a in p.actions if a.kind == REPLACE]  # what writes marks.jsonl, journalled
    if not mine and not marking and not creates and p.handoff is None:
        return report
    _check_targets(p, mine, bool(marking))
    ensure_dir(p.memory_dir)
    with files.FolderLock(p.memory_dir):
        report.recovered = intent.recover(p.memory_dir, p.env)
        lines = _lines_to_append(p, report)
        _note_written(p, lines)
        answer = None
        if p.handoff is not None:
            answer = handoff_answer.prepare_answer(p.memory_dir, p.handoff[0], p.handoff[1], p.meta, _session_time(p))
            if answer.records:
                state_path = os.path.join(p.memory_dir, handoff.STATE)
                lines[state_path] = [jsonload.dumps(r) for r in answer.records]
        appends = {path: intent.appended_bytes(path, todo) for path, todo in lines.items() if todo}
        md = False if answer is None or not (answer.records or answer.behind) else read_bytes(
            os.path.join(p.memory_dir, files.HANDOFF))
        if not appends and md is False and not creates and not marking:
            return report
        log = intent.begin(p.memory_dir, str(p.meta.get("task_id") or ""), str(p.meta.get("session_id") or ""),
                           appends, md, p.env)
        try:
            _write_appends(lines, report)
            _apply_learnings(p, report, log)
            if answer is not None:
                _apply_handoff(p, report, answer, log)
            _apply_restores(p, report, log)
            _apply_replaces(p, report, log)
            if before_commit is not None:
                before_commit(p, report, log)
        except BaseException:
            try:
                log.rollback(p.env)
            except OSError:
                pass  # why: the record stays; the next writer of the folder or the worker's start finishes it
            raise
        log.commit()
    return report


def _planned_report(p: Plan) -> Report:
    """What the plan already knows before writing: entries that exist, items skipped, a handoff kept."""
    report = Report()
    for a in p.actions:
        if a.kind == EXISTS:
            report.existing.append(a.path)
        elif a.kind == SKIP:
            report.skipped.append((a.path, a.preview))
    if p.handoff is not None:
        report.handoff = "kept"
    return report


def _check_targets(p: Plan, appends: list, restores: bool) -> None:
    """Every file the persist will write lies inside the memory folder (raises otherwise)."""
    check_memory_dir(p.memory_dir, p.env, p.root)
    for a in appends:
        _check_target(a.path, p.memory_dir)
    if restores:
        from lazy_harness.memory import journal
        for path in (marks.path_of(p.memory_dir), journal.folder(p.memory_dir)):
            _check_target(path, p.memory_dir)
    if p.handoff is not None:
        for name in (handoff.STATE, files.HANDOFF):
            _check_target(os.path.join(p.memory_dir, name), p.memory_dir)


def _lines_to_append(p: Plan, report: Report) -> dict[str, list[str]]:
    """The decision and failure lines still missing, by file, checked again under the lock."""
    out: dict[str, list[str]] = {}
    for name in (files.DECISIONS, files.FAILURES):
        path = os.path.join(p.memory_dir, name)
        todo = [a for a in p.actions if a.kind == APPEND and a.path == path]
        if not todo:
            continue
        keys = {a.payload[0] for a in todo}
        seen = entries.recorded(path, keys)
        kind = "decision" if name == files.DECISIONS else "failure"
        taken = entries.taken_ids(path, kind, keys)  # why: checked again under the lock, as the summaries
        for a in todo:
            key, line = a.payload
            if key in seen:
                report.skipped.append((path, f"already recorded: {a.preview}"))
                continue
            seen.add(key)
            out.setdefault(path, []).append(entries.with_fresh_id(line, kind, key, taken))
    return out


def _note_written(p: Plan, lines: dict[str, list[str]]) -> None:
    """Add to ``lines`` the record of the ids the persist writes (memory/written.py): appended with them,
    in the persist's undo record, so a rollback takes both out."""
    from lazy_harness.logfile import stamp
    from lazy_harness.memory import written

    new = [line for name in (files.DECISIONS, files.FAILURES)
           for line in lines.get(os.path.join(p.memory_dir, name), [])]
    if new:
        lines[written.path_of(p.memory_dir)] = written.lines_for(new, stamp(p.now))


def _write_appends(lines: dict[str, list[str]], report: Report) -> None:
    for path, todo in lines.items():
        if os.path.basename(path) == handoff.STATE:
            continue  # written by _apply_handoff, after the learnings
        entries.heal_tail(path)
        for line in todo:
            append_line(path, line)
            if os.path.basename(path) != "written.jsonl":  # why: a record of entries, not one (memory/written.py)
                report.appended[path] = report.appended.get(path, 0) + 1


def _run_of(p: Plan, kind: str, log: Intent | None) -> Journal:
    """A journalled run of ``kind`` for the plan's project, named in the persist's intent ``log`` (so a
    persist rolled back takes it back too)."""
    from lazy_harness.memory import journal

    j = journal.Journal(p.memory_dir, kind, one_line(p.meta.get("project")), p.now)
    if log is not None:
        log.journal(j.run, (p.memory_dir, p.learnings_dir))
    return j


def _apply_restores(p: Plan, report: Report, log: Intent | None = None) -> None:
    """Bring back what the answer made again and consolidation hid, checked again under the lock: one
    journalled run (kind ``restore``), so ``lh memory history`` lists it and ``lh memory undo`` reverts it.
    why: the mark is removed as undo removes one, not countered by a new kind of line: every reader, the
    search index and sync's merge of marks.jsonl already take a removed line for an entry never hidden."""
    todo = [a for a in p.actions if a.kind == RESTORE]
    if not todo:
        return
    from lazy_harness.memory import changes

    j = _run_of(p, "restore", log)
    why = f"made again by session {one_line(p.meta.get('session_id')) or '?'}"
    hiding, gone = marks.by_id(p.memory_dir), set()
    for a in todo:
        eid, path, was = a.payload
        if path is None:
            named = hiding.get(eid) or []
            if not named or any(m["op"] not in marks.AUTOMATIC for m in named):
                report.skipped.append((a.path, f"not restored, hidden by hand or shown already: {eid}"))
                continue
            gone.add(eid)
        else:
            if frontmatter.read_frontmatter_values(path, ("status",)).get("status") != "deprecated":
                report.skipped.append((path, f"not restored, no longer deprecated: {eid}"))
                continue
            try:
                before = changes.fields_before_deprecation(p.memory_dir, path)
                # why only_from: the look above is not under the status lock; a forget or hold the person
                # made since is theirs, and a learning left as it is was not restored
                if before is None:
                    done = changes.set_learning_status(path, p.learnings_dir, "active", None, why, p.now, j,
                                                       only_from="deprecated")
                else:  # why: the fields it had (a person's signed approval, ADR 0052), not a new reason
                    done = changes.set_learning_fields(path, p.learnings_dir, before, j, only_from="deprecated")
            except LhError as exc:  # a frontmatter we will not rewrite (aliases, too long, not UTF-8): left
                report.skipped.append((path, f"not restored: {exc}"))
                continue
            if not done:
                report.skipped.append((path, f"not restored, no longer deprecated: {eid}"))
                continue
        j.note(f"restore {eid}: {why} (was {was})")
        report.restored.append(eid)
    if gone:
        changes.unmark(p.memory_dir, j, gone)
    if report.restored:
        j.data["restored"] = list(report.restored)  # read by consolidation: made again, so newer (ADR 0014)
        j.save()


def _apply_replaces(p: Plan, report: Report, log: Intent | None = None) -> None:
    """Mark each decision the answer replaces superseded by the new one (ADR 0060): the mark consolidation
    writes, in one journalled run (kind ``replace``) that ``lh memory undo`` reverts. After the restores:
    a decision made again is shown before it replaces one. ``add_mark`` checks again, under the lock of
    marks.jsonl, that both are still shown: one hidden meanwhile (a forget, the same session applied
    twice at once) is left as it is."""
    todo = [a for a in p.actions if a.kind == REPLACE]
    hidden = marks.hidden(p.memory_dir) if todo else {}
    for a in [a for a in todo if hidden.keys() & set(a.payload)]:
        report.skipped.append((a.path, f"not replaced, hidden meanwhile: {a.preview}"))
        todo.remove(a)
    if not todo:
        return
    from lazy_harness.memory import changes

    j = _run_of(p, "replace", log)
    why = f"replaced by a decision of session {one_line(p.meta.get('session_id')) or '?'}"
    for a in todo:
        old, new = a.payload
        if changes.add_mark(p.memory_dir, j, "supersede", old, new, why, p.now, live=(old, new)):
            j.note(f"supersede {old} by {new}: {why}")
            report.replaced.append(old)
        else:
            report.skipped.append((a.path, f"not replaced, hidden meanwhile: {a.preview}"))
    if report.replaced:
        j.save()
    else:  # why: a run that wrote nothing leaves no journal, as consolidation's: nothing to list or undo
        from contextlib import suppress

        with suppress(OSError):
            os.unlink(j.path)


def _apply_learnings(p: Plan, report: Report, log: Intent | None = None) -> None:
    todo = [a for a in p.actions if a.kind in (CREATE, REWRITE)]
    if not todo:
        return
    from lazy_harness.atomic import sweep_stale_temps
    from lazy_harness.memory import learnings
    for folder in {os.path.dirname(a.path) for a in todo}:
        sweep_stale_temps(folder)  # why: the temp file of a learning whose writer was killed mid-write
    taken = learnings.taken_ids(p.learnings_dir) if p.taken is None else p.taken  # why: read once, not per learning
    rewrites = []
    by = f"a new text of its title, by session {one_line(p.meta.get('session_id')) or '?'}"
    for a in todo:
        item, lid = (a.payload, None) if a.kind == CREATE else a.payload[:2]
        if item is None:  # two texts of a title met: the one that stands is written already (plan._plan_splits)
            rewrites.append((str(lid), list(a.payload[2]), f"{MET}: the newest stands"))
            continue
        path, written = learnings.write_learning(p.learnings_dir, item, p.meta, p.now, taken=taken, lid=lid, env=p.env,
                                                 before_create=None if log is None else log.creating)
        (report.created if written else report.existing).append(path)
        if a.kind == REWRITE:
            rewrites.append((str(lid), list(a.payload[2]) + _raced(p, item, str(lid), a.payload[2]), by))
    if rewrites:
        _deprecate_older(p, report, rewrites, log)


def _raced(p: Plan, item: dict, new: str, older: list[str]) -> list[str]:
    """The active texts of the title another persist wrote since this one was planned, each replacing one
    of ``older`` (two sessions correcting one title at once: the plan is made before the folder's lock),
    not edited by hand: replaced by this new text too. why: each deprecated only the old text, and both
    new ones were shown."""
    from lazy_harness.memory import learnings

    if not older:
        return []
    # why the plan's renamed files: another persist's new text has the name its title gives
    listing = learnings.with_renamed(learnings.names_by_slug(p.learnings_dir), p.renamed)
    versions = learnings.of_title(p.learnings_dir, listing, one_line(item.get("title")),
                                  one_line(p.meta.get("project")))
    since = {v["by"] for v in versions if v["path"] in older and v["status"] == "deprecated"} - {new}
    return [v["path"] for v in versions if v["id"] in since and v["status"] == "active"
            and v["now"] == (v["wrote"] or v["now"]) and v["path"] not in older]


def _deprecate_older(p: Plan, report: Report, rewrites: list[tuple[str, list[str], str]], log: Intent | None) -> None:
    """Deprecate each older text of a title for the new one just written (ADR 0063), as consolidation
    deprecates a learning: ``deprecated_by`` the new id, in one journalled run (kind ``rewrite``) of the
    persist, so a rollback takes it back, ``lh memory undo`` reverts it and forgetting the new text gives
    the old one back. Only while it is still active: a forget or a hold the person made since stands."""
    from lazy_harness.memory import changes, learnings

    j = _run_of(p, "rewrite", log)
    for new, older, why in rewrites:
        for path in older:
            old = learnings.id_of(path) or "?"
            try:
                done = changes.set_learning_status(path, p.learnings_dir, "deprecated", new, why, p.now, j,
                                                   only_from="active")
            except LhError as exc:  # a frontmatter we will not rewrite: the older text stays shown beside
                report.skipped.append((path, f"not deprecated for {new}: {exc}"))
                continue
            if done:
                j.note(f"deprecate {old} for {new}: {why}")
                report.rewritten.append(old)
    if report.rewritten:
        j.save()
    else:  # why: a run that wrote nothing leaves no journal, as _apply_replaces
        from contextlib import suppress

        with suppress(OSError):
            os.unlink(j.path)


def _apply_handoff(p: Plan, report: Report, answer: Answer, log: Intent | None = None) -> None:
    stale_days = p.meta.get("stale_days", handoff.STALE_DAYS)
    written = handoff_answer.write_answer(p.memory_dir, answer, p.meta, p.now, stale_days,
                                          None if log is None else log.rendering)
    if written:
        # why: a hand edit of handoff.md is recorded by the first write after it: the person's, not the task's
        mine = [r for r in written if r.get("session_id") != handoff_markdown.HAND_EDIT]
        hand = [r for r in written if r.get("session_id") == handoff_markdown.HAND_EDIT]
        report.opened = sum(1 for r in mine if r["op"] == handoff.OPEN)
        report.closed = sum(1 for r in mine if r["op"] == handoff.CLOSE)  # why: a restate record is neither
        report.hand_opened = sum(1 for r in hand if r["op"] == handoff.OPEN)
        report.hand_closed = len(hand) - report.hand_opened
        report.handoff = "written" if report.opened or report.closed or hand else "kept"

