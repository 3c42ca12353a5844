"""The write side of a project's memory: turn a distilled answer into file changes.

``plan()`` computes every change (lines to append, handoff items to open or close, learning files)
and writes nothing, so the worker persists only after everything is computed and
``lh distill --dry-run`` can print it. ``apply()`` performs a plan; ``persist()`` is both.

Re-processing a task writes nothing twice: an entry whose normalised summary already has a whole line
in its file is not appended (checked again at apply time under a lock on the memory folder); a
handoff item already open (or closed) is not opened (or closed) again, computed again under the
same lock (``memory.handoff``); learnings are write-once and matched by origin and title
(``memory.learnings``), on any day. So after a crash part-way through ``apply``, running the
same task again completes what is missing and nothing else; handoff.md left behind its log by such a
crash is rendered again.

An entry the answer makes again that consolidation hid (a superseded decision, a merged failure, a
deprecated learning) comes back: the mark is removed (the learning set active) in a journalled run
``lh memory undo`` can revert, and no second line is written. One the person left out with
``lh memory forget`` stays hidden (ADR 0014).

Refuses, before writing anything, a memory folder outside ``<claude dir>/projects`` and any target
that resolves outside its folder (a symlink planted in the memory folder).
"""

import os

from lazy_harness import jsonload, paths
from lazy_harness.atomic import append_line, ensure_dir, rewrite
from lazy_harness.errors import LhError, TaskError
from lazy_harness.memory import entries, files, frontmatter, handoff, ids, marks
from lazy_harness.memory.sanitize import normalise, one_line

RECENT_RECORDS = 10
RECENT_TITLES = 50
PREVIEW = 100
# Plan action kinds: the first five write, the last three say why nothing is written
APPEND, CREATE, OPEN, CLOSE, RESTORE = "append", "create", "open", "close", "restore"
SKIP, EXISTS, KEEP = "skip", "exists", "keep"


class Row(tuple):
    """``(action, path, preview)`` that prints as one aligned line."""

    __slots__ = ()

    def __new__(cls, action: str, path: str, preview: str):
        return tuple.__new__(cls, (action, path, preview))

    def __str__(self) -> str:
        return f"{self[0]:<7} {self[1]}  {self[2]}".rstrip()


class Action:
    """One change (or a reason for none): the kind, the file, a short preview, what to write."""

    __slots__ = ("kind", "path", "preview", "payload")

    def __init__(self, kind: str, path: str, preview: str = "", payload=None) -> None:
        self.kind, self.path, self.preview, self.payload = kind, path, preview, payload

    def __repr__(self) -> str:
        return f"Action({self.kind!r}, {self.path!r}, {self.preview!r})"


class Plan:
    """Everything ``apply`` would do, computed without writing."""

    def __init__(self, memory_dir: str, learnings_dir: str, meta: dict, now: float, env=None,
                 root: str | None = None) -> None:
        self.memory_dir, self.learnings_dir, self.meta, self.now, self.env = memory_dir, learnings_dir, meta, now, env
        self.root = root  # the memory root the folder must sit in (check_memory_dir)
        self.actions: list[Action] = []
        self.problems: list[str] = []  # answer problems only the memory can tell (an unknown item closed)
        self.handoff: tuple[list[str], list[str]] | None = None  # (opened, closed) asked by the answer

    def add(self, kind: str, path: str, preview: str = "", payload=None) -> None:
        preview = one_line(preview)
        if len(preview) > PREVIEW:
            preview = preview[:PREVIEW - 3] + "..."
        self.actions.append(Action(kind, path, preview, payload))

    def describe(self) -> list[Row]:
        return [Row(a.kind, a.path, a.preview) for a in self.actions]

    def __str__(self) -> str:
        return "\n".join(map(str, self.describe())) if self.actions else "nothing to write"


class Report:
    """What ``apply`` did: lines appended per file, learnings created or found, the handoff's fate."""

    def __init__(self) -> None:
        self.appended: dict[str, int] = {}
        self.created: list[str] = []
        self.existing: list[str] = []
        self.restored: list[str] = []  # ids of entries made again after consolidation hid them
        self.skipped: list[tuple[str, str]] = []
        self.handoff: str | None = None  # "written", "kept", or None: untouched
        self.opened = self.closed = 0  # handoff items

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
        if self.skipped:
            parts.append(f"{len(self.skipped)} skipped")
        parts.append(f"handoff {self.handoff or 'untouched'}"
                     + (f" ({self.opened} opened, {self.closed} closed)" if self.handoff == "written" else ""))
        return ", ".join(parts)

    __str__ = summary


def check_memory_dir(memory_dir: str, env=None, root: str | None = None) -> None:
    """Refuse a memory folder that is not ``<memory root>/<key>`` once symlinks are resolved.

    ``root``: the projects folder of ``[memory] path`` (``paths.memory_root``); None: the default one.
    """
    root = root or paths.memory_root(None, env)
    real = os.path.realpath(memory_dir)
    if os.path.dirname(real) != os.path.realpath(root) or os.path.basename(real) in ("", ".", ".."):
        raise TaskError(f"memory folder {memory_dir!r} is not inside {root!r}; nothing written",
                        hint="lh queue show <task id>")


def _check_target(path: str, folder: str) -> None:
    if not paths.is_within(path, folder):
        raise TaskError(f"{path!r} resolves outside {folder!r}; nothing written", hint=f"remove the symlink {path}")


def _plan_entries(p: Plan, distilled: dict) -> None:
    hiding = None  # marks.jsonl, read once an answer restates a recorded entry
    for kind, name in (("decision", files.DECISIONS), ("failure", files.FAILURES)):
        items = distilled.get(kind + "s") or []
        if not items:
            continue
        path = os.path.join(p.memory_dir, name)
        recs = [entries.record(kind, item, p.meta, p.now) if isinstance(item, dict) else item for item in items]
        seen = entries.recorded(path, {normalise(r["summary"]) for r in recs if isinstance(r, dict)})
        for rec in recs:
            if not isinstance(rec, dict):
                p.add(SKIP, path, f"not an object: {rec!r}")
                continue
            key = normalise(rec["summary"])
            if not key:
                p.add(SKIP, path, "empty summary")
            elif key in seen:
                hiding = marks.by_id(p.memory_dir) if hiding is None else hiding
                named = hiding.get(rec["id"]) or []
                if any(m["op"] not in marks.AUTOMATIC for m in named):
                    p.add(SKIP, path, f"kept hidden: {rec['id']} was left out with lh memory forget: {rec['summary']}")
                elif named and not any(a.kind == RESTORE and a.payload[0] == rec["id"] for a in p.actions):
                    p.add(RESTORE, marks.path_of(p.memory_dir), f"{rec['id']} {rec['summary']}",
                          (rec["id"], None, marks.describe(named[0])))
                else:
                    p.add(SKIP, path, f"already recorded: {rec['summary']}")
            else:
                seen.add(key)
                p.add(APPEND, path, rec["summary"], (key, entries.json_line(rec)))


def _plan_learnings(p: Plan, distilled: dict) -> None:
    items = distilled.get("learnings") or []
    if not items:
        return
    from lazy_harness.memory import learnings
    origin = one_line(p.meta.get("project"))
    recent = learnings.recent_ids(p.learnings_dir, RECENT_TITLES)
    listing = learnings.names_by_slug(p.learnings_dir)
    batch: set[str] = set()
    for item in items:
        title = one_line(item.get("title")) if isinstance(item, dict) else ""
        key = normalise(title)
        if not key:
            p.add(SKIP, p.learnings_dir, "learning without a title")
            continue
        if key in batch:
            p.add(SKIP, p.learnings_dir, f"twice in this answer: {title}")
            continue
        batch.add(key)
        lid = ids.learning_id(origin, title)
        path, exists = learnings.find_slot(p.learnings_dir, title, p.now, origin)
        # why: re-processed after midnight, or restated weeks later: the same learning, on another day
        found = path if exists else learnings.file_of(p.learnings_dir, listing, title, lid, p.now)
        status = (frontmatter.read_frontmatter_values(found, ("status",)).get("status") or "active") if found else ""
        if found and status == "deprecated":  # what consolidation writes
            p.add(RESTORE, found, f"{lid} {title}", (lid, found, status))
        elif found and status not in ("", "active"):
            how = "left out with lh memory forget" if status == "forgotten" else f"marked {status!r}"
            p.add(SKIP, found, f"kept hidden: {lid} was {how}: {title}")
        elif exists:
            p.add(EXISTS, path, title)
        elif lid in recent:
            p.add(SKIP, p.learnings_dir, f"a recent learning has this title: {title}")
        elif found:
            p.add(EXISTS, found, title)
        else:
            p.add(CREATE, path, title, item)


def _plan_handoff(p: Plan, distilled: dict) -> None:
    opened = handoff.items(distilled.get("handoff") or [])
    closed = handoff.items(distilled.get("handoff_closed") or [])
    path = os.path.join(p.memory_dir, handoff.STATE)
    state, pending = handoff.load(p.memory_dir)
    for rec in pending:  # hand edits of handoff.md (or a legacy one) not yet in the state
        p.add(OPEN if rec["op"] == handoff.OPEN else CLOSE, path, f"[{rec['id']}] {rec['text']} (by hand)")
    if not (opened or closed):
        if pending or handoff.behind(p.memory_dir, state):  # a hand edit to import, a render a kill cut
            p.handoff = ([], [])
        return  # why: an empty answer says nothing about open items; only a close closes one
    if pending:
        state = handoff.fold(list(handoff.read_records(p.memory_dir) or []) + pending)
    recs, notes, problems = handoff.changes(state, opened, closed, p.meta, _session_time(p))
    p.problems.extend(problems)
    for rec in recs:
        p.add(OPEN if rec["op"] == handoff.OPEN else CLOSE, path, f"[{rec['id']}] {rec['text']}")
    for note in notes:
        p.add(KEEP, path, note)
    p.handoff = (opened, closed)


def _session_time(p: Plan) -> float:
    """The time handoff records carry: the session's (its transcript's mtime), else now."""
    t = p.meta.get("session_time")
    return float(t) if isinstance(t, (int, float)) and not isinstance(t, bool) else p.now


def plan(distilled: dict, memory_dir: str, learnings_dir: str, meta: dict, now: float, env=None,
         root: str | None = None) -> Plan:
    """Every change the (validated, redacted) distilled answer calls for, computed without writing.

    ``meta``: project, session_id, task_id, cwd, session_time (epoch of the session, for handoff records).
    ``now``: epoch seconds, stamped with the local offset. ``handoff`` opens or restates items,
    ``handoff_closed`` closes open ones (by id or exact text); empty or missing lists change nothing.
    """
    check_memory_dir(memory_dir, env, root)
    p = Plan(memory_dir, learnings_dir, meta, now, env, root)
    _plan_entries(p, distilled)
    _plan_learnings(p, distilled)
    _plan_handoff(p, distilled)
    return p


def apply(p: Plan) -> Report:
    """Perform a plan, all or nothing (``memory.intent``, ADR 0021): under the folder's lock, first
    roll back a persist a killed writer left unfinished, then compute the exact bytes to append (de-dup
    re-checked, the handoff's changes computed again, so two sessions applied at once both keep
    theirs), record them, write JSONL appends, learnings, the handoff, restores; any failure on the
    way (a full disk, an I/O error) takes every byte of this persist out again before it is raised."""
    from lazy_harness.memory import intent

    report = _planned_report(p)
    mine = [a for a in p.actions if a.kind == APPEND]
    restores = [a for a in p.actions if a.kind == RESTORE]
    creates = [a for a in p.actions if a.kind == CREATE]
    if not mine and not restores and not creates and p.handoff is None:
        return report
    _check_targets(p, mine, bool(restores))
    ensure_dir(p.memory_dir)
    with files.FolderLock(p.memory_dir):
        intent.recover(p.memory_dir, p.env)
        lines = _lines_to_append(p, report)
        answer = None
        if p.handoff is not None:
            answer = handoff.prepare_answer(p.memory_dir, p.handoff[0], p.handoff[1], p.meta, _session_time(p))
            if answer.records:
                state_path = os.path.join(p.memory_dir, handoff.STATE)
                lines[state_path] = [jsonload.dumps(r) for r in answer.records]
        appends = {path: intent.appended_bytes(path, todo) for path, todo in lines.items() if todo}
        md = False if answer is None or not (answer.records or answer.behind) else intent.read_bytes(
            os.path.join(p.memory_dir, files.HANDOFF))
        if not appends and md is False and not creates and not restores:
            return report
        log = intent.begin(p.memory_dir, str(p.meta.get("task_id") or ""), str(p.meta.get("session_id") or ""),
                           appends, md, p.env)
        try:
            _write_appends(lines, report)
            _apply_learnings(p, report, log)
            if answer is not None:
                _apply_handoff(p, report, answer)
            _apply_restores(p, report, log)
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
        seen = entries.recorded(path, {a.payload[0] for a in todo})
        for a in todo:
            key, line = a.payload
            if key in seen:
                report.skipped.append((path, f"already recorded: {a.preview}"))
                continue
            seen.add(key)
            out.setdefault(path, []).append(line)
    return out


def _write_appends(lines: dict[str, list[str]], report: Report) -> None:
    for path, todo in lines.items():
        if os.path.basename(path) == handoff.STATE:
            continue  # written by _apply_handoff, after the learnings
        entries.heal_tail(path)
        for line in todo:
            append_line(path, line)
            report.appended[path] = report.appended.get(path, 0) + 1


def _apply_restores(p: Plan, report: Report, log=None) -> None:
    """Bring back what the answer made again and consolidation hid, checked again under the lock: one
    journalled run (kind ``restore``), so ``lh memory history`` lists it and ``lh memory undo`` reverts it.
    why: the mark is removed as undo removes one, not countered by a new kind of line: every reader, the
    search index and sync's merge of marks.jsonl already take a removed line for an entry never hidden."""
    todo = [a for a in p.actions if a.kind == RESTORE]
    if not todo:
        return
    from lazy_harness.memory import changes, journal

    j = journal.Journal(p.memory_dir, "restore", one_line(p.meta.get("project")), p.now)
    if log is not None:
        log.journal(j.run, (p.memory_dir, p.learnings_dir))
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
                changes.set_learning_status(path, p.learnings_dir, "active", None, why, p.now, j)
            except LhError as exc:  # a frontmatter we will not rewrite (aliases, too long): left as it is
                report.skipped.append((path, f"not restored: {exc}"))
                continue
        j.note(f"restore {eid}: {why} (was {was})")
        report.restored.append(eid)
    if gone:
        path = marks.path_of(p.memory_dir)
        j.track(path)
        # why: consolidation and lh memory forget append marks without the folder lock
        rewrite(path, lambda data: marks.without(data, gone))
        j.record(path)
    if report.restored:
        j.data["restored"] = list(report.restored)  # read by consolidation: made again, so newer (ADR 0014)
        j.save()


def _apply_learnings(p: Plan, report: Report, log=None) -> None:
    todo = [a for a in p.actions if a.kind == CREATE]
    if not todo:
        return
    from lazy_harness.atomic import sweep_stale_temps
    from lazy_harness.memory import learnings
    for folder in {os.path.dirname(a.path) for a in todo}:
        sweep_stale_temps(folder)  # why: the temp file of a learning whose writer was killed mid-write
    for a in todo:
        path, written = learnings.write_learning(p.learnings_dir, a.payload, p.meta, p.now,
                                                 before_create=None if log is None else log.creating)
        (report.created if written else report.existing).append(path)


def _apply_handoff(p: Plan, report: Report, answer) -> None:
    stale_days = p.meta.get("stale_days", handoff.STALE_DAYS)
    written = handoff.write_answer(p.memory_dir, answer, p.meta, p.now, stale_days)
    if written:
        report.handoff = "written"
        report.opened = sum(1 for r in written if r["op"] == handoff.OPEN)
        report.closed = len(written) - report.opened


def persist(distilled: dict, memory_dir: str, learnings_dir: str, meta: dict, now: float, env=None) -> Report:
    """Plan, then apply: nothing is written unless the whole answer could be planned."""
    return apply(plan(distilled, memory_dir, learnings_dir, meta, now, env))


def existing_memory(memory_dir: str, learnings_dir: str) -> dict:
    """What the prompt shows for de-duplication, read from file tails: the cost does not grow with history."""
    from lazy_harness.memory.learnings import recent_titles
    state, _ = handoff.load(memory_dir)
    left_out = marks.hidden(memory_dir)
    out: dict = {"replaced": []}
    for key, name, kind in (("decisions", files.DECISIONS, "decision"), ("failures", files.FAILURES, "failure")):
        recs = files.tail_records(os.path.join(memory_dir, name), RECENT_RECORDS)
        # why: an entry consolidation replaced is not current; listed apart, so the model neither takes it
        # for current memory nor is kept from recording it again when a session goes back to it
        out[key] = [r for r in recs if ids.of_record(r, kind) not in left_out]
        out["replaced"] += [r for r in recs
                            if (left_out.get(ids.of_record(r, kind)) or {}).get("op") in marks.AUTOMATIC]
    out.update(learning_titles=recent_titles(learnings_dir, RECENT_TITLES),
               handoff_open=[(i["id"], i["text"]) for i in handoff.open_items(state)])
    return out


def read_handoff(memory_dir: str) -> dict | None:
    """``{"items": [open item texts, oldest first], "ids": [...]}``, or None when there is no handoff at all."""
    state, _ = handoff.load(memory_dir)
    if not state:
        return None
    opened = handoff.open_items(state)
    return {"items": [i["text"] for i in opened], "ids": [i["id"] for i in opened]}
