"""Consolidation: one model call that keeps a project's memory current, reversibly.

The model sees the project's live entries as ``[<id>] <summary>`` lines and may only:
- ``supersede``: mark a decision replaced by a newer decision;
- ``deprecate_learnings``: deprecate one of the project's learnings in favour of another;
- ``merge_failures``: mark a failure a duplicate of another one, which is kept;
- ``close_handoff``: close an open handoff item that is done or stale.
Its answer is hostile input: ids must name live entries of this project and of the right kind, an
entry is changed at most once per run, chains and cycles are cut, reasons are one short redacted
line, and at most ``max_changes`` changes are made. Nothing is deleted: decisions and failures get
a mark in marks.jsonl, learnings get frontmatter fields, handoff items a close record. Every run
writes a journal (``memory.journal``), so ``lh memory undo`` restores the files byte for byte.

Automatic runs (the worker, after it drained the queue) pass four gates per project, cheapest
first: ``min_hours`` since the last run (the lock file's mtime), a scan throttle (the session count
is taken at most every ``scan_throttle_minutes``), ``min_sessions`` sessions that wrote memory since
the last run, and the lock (held by another run unless it is older than ``lock_stale_minutes``).
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field

from lazy_harness.atomic import atomic_write, ensure_dir
from lazy_harness.errors import LhError, ModelError
from lazy_harness.memory import changes as edits, files, ids, journal, marks
from lazy_harness.memory.sanitize import one_line

LOCK = "consolidate.lock"
SCAN = "consolidate.scan"
REASON_CHARS = edits.REASON_CHARS
PER_KIND = 150  # newest live entries of each kind shown to the model: the prompt stays bounded
ACTIONS = ("supersede", "deprecate_learnings", "merge_failures", "close_handoff")
_PAIR = {"supersede": ("old", "new"), "deprecate_learnings": ("id", "by"), "merge_failures": ("drop", "keep"),
         "close_handoff": ("id", None)}

_REASON = {"type": "string", "maxLength": REASON_CHARS}
SCHEMA = {
    "type": "object",
    "properties": {
        "supersede": {"type": "array", "items": {"type": "object", "properties": {
            "old": {"type": "string"}, "new": {"type": "string"}, "reason": _REASON}, "required": ["old", "new"]}},
        "deprecate_learnings": {"type": "array", "items": {"type": "object", "properties": {
            "id": {"type": "string"}, "by": {"type": "string"}, "reason": _REASON}, "required": ["id", "by"]}},
        "merge_failures": {"type": "array", "items": {"type": "object", "properties": {
            "keep": {"type": "string"}, "drop": {"type": "string"}, "reason": _REASON}, "required": ["keep", "drop"]}},
        "close_handoff": {"type": "array", "items": {"type": "object", "properties": {
            "id": {"type": "string"}, "reason": _REASON}, "required": ["id"]}},
    },
}

INSTRUCTIONS = """You keep a software project's memory current. Below are its live entries, one per line
as [<id>] <summary>, oldest first within each section. Propose only changes that are clearly right:
- supersede: a decision replaced by a NEWER decision that contradicts or replaces it (old, new ids);
- deprecate_learnings: a learning made wrong or redundant by another learning (id, by);
- merge_failures: two failures that are the same problem (keep the better written one, drop the other);
- close_handoff: an open item that later entries show is done, or that is obsolete (id).
Give a one-sentence reason for each. Use only ids from the lists. When nothing needs changing, answer
with empty lists. Answer with one JSON object with the keys supersede, deprecate_learnings,
merge_failures and close_handoff."""


@dataclass
class Entry:
    id: str
    kind: str
    text: str
    order: int
    path: str = ""
    ts: float | None = None  # when the entry was written (its record's ts)
    restored: float | None = None  # when a later session made it again after it was hidden


@dataclass
class Candidates:
    decisions: list[Entry] = field(default_factory=list)
    failures: list[Entry] = field(default_factory=list)
    learnings: list[Entry] = field(default_factory=list)
    handoff: list[Entry] = field(default_factory=list)

    def by_id(self) -> dict[str, Entry]:
        return {e.id: e for group in (self.decisions, self.failures, self.learnings, self.handoff) for e in group}

    def count(self) -> int:
        return len(self.by_id())


@dataclass
class Change:
    action: str
    target: str
    other: str | None
    reason: str

    def __str__(self) -> str:
        verb = {"supersede": "supersede {t} by {o}", "deprecate_learnings": "deprecate {t} for {o}",
                "merge_failures": "merge {t} into {o}", "close_handoff": "close {t}"}[self.action]
        return verb.format(t=self.target, o=self.other) + (f": {self.reason}" if self.reason else "")


@dataclass
class Result:
    status: str  # changed | unchanged | skipped | failed | dry-run
    reason: str
    changes: list[Change] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    run: str | None = None


# --- reading the project's live entries ----------------------------------------------------------

def read_entries(path: str) -> list[dict]:
    out = []
    try:
        with open(path, encoding="utf-8-sig", errors="replace") as fh:
            for line in fh:
                try:
                    rec = json.loads(line)
                except ValueError:
                    continue
                if isinstance(rec, dict) and "op" not in rec and isinstance(rec.get("summary"), str):
                    out.append(rec)
    except OSError:
        pass
    return out


def _learning_heads(learnings_dir: str, project: str) -> list[tuple[str, dict]]:
    out = []
    for path in reversed(files.recent_learning_files(learnings_dir, 10**6)):
        try:
            with open(path, encoding="utf-8-sig", errors="replace") as fh:
                parsed = files.parse_frontmatter(fh.read(65536))
        except OSError:
            continue
        if parsed and parsed[0].get("origin") == project:
            out.append((path, parsed[0]))
    return out


def open_handoff(memory_dir: str) -> list[tuple[str, str]]:
    """(id, text) of the project's open handoff items."""
    from lazy_harness.memory import handoff

    state, _ = handoff.load(memory_dir)
    return [(item["id"], item["text"]) for item in handoff.open_items(state)]


def _restored_at(memory_dir: str) -> dict[str, float]:
    """``{id: when}`` of the entries a store run brought back (journals of kind ``restore``, not undone)."""
    from lazy_harness.memory import journal
    from lazy_harness.memory.files import iso_epoch

    out: dict[str, float] = {}
    for run in journal.runs(memory_dir):
        when = iso_epoch(run.get("started"))
        if run.get("kind") != "restore" or run.get("undone") or when is None:
            continue
        for eid in run.get("restored") or []:
            if isinstance(eid, str):
                out[eid] = max(out.get(eid, when), when)
    return out


def candidates(memory_dir: str, learnings_dir: str, project: str) -> Candidates:
    from lazy_harness.memory.files import iso_epoch

    hidden = marks.hidden(memory_dir)
    restored = _restored_at(memory_dir)
    c = Candidates()
    for kind, name, bucket in (("decision", files.DECISIONS, c.decisions), ("failure", files.FAILURES, c.failures)):
        seen: set[str] = set()
        for n, rec in enumerate(read_entries(os.path.join(memory_dir, name))):
            eid = ids.of_record(rec, kind)
            if eid in hidden or eid in seen:
                continue
            seen.add(eid)
            bucket.append(Entry(eid, kind, one_line(rec["summary"]), n, ts=iso_epoch(rec.get("ts")),
                                restored=restored.get(eid)))
        del bucket[:-PER_KIND]
    for n, (path, head) in enumerate(_learning_heads(learnings_dir, project)):
        if (head.get("status") or "active") != "active":
            continue
        lid = ids.of_learning(head)
        if lid not in hidden:
            c.learnings.append(Entry(lid, "learning", one_line(head.get("title")), n, path))
    del c.learnings[:-PER_KIND]
    for n, (hid, text) in enumerate(open_handoff(memory_dir)):
        c.handoff.append(Entry(hid, "handoff", one_line(text), n))
    return c


def render_prompt(c: Candidates, project: str, extra_patterns=()) -> str:
    from lazy_harness.redact import redact

    parts = [INSTRUCTIONS, f"\nProject: {project}"]
    for title, group in (("Decisions", c.decisions), ("Failures", c.failures), ("Learnings", c.learnings),
                         ("Open handoff items", c.handoff)):
        parts.append(f"\n## {title}")
        parts += [f"[{e.id}] {e.text[:300]}" for e in group] or ["(none)"]
    return redact("\n".join(parts) + "\n", tuple(extra_patterns))[0]


# --- the answer -------------------------------------------------------------------------------------

def validate(obj, c: Candidates, max_changes: int, extra_patterns=()) -> tuple[list[Change], list[str]]:
    """The changes an answer may make, in its order; one problem line per thing refused."""
    from lazy_harness.redact import redact

    problems: list[str] = []
    if not isinstance(obj, dict):
        return [], [f"answer is not an object: {type(obj).__name__}"]
    for key in obj:
        if key not in ACTIONS:
            problems.append(f"unknown key {one_line(key)[:40]!r} ignored")
    live = c.by_id()
    kinds = {"supersede": "decision", "deprecate_learnings": "learning", "merge_failures": "failure",
             "close_handoff": "handoff"}
    changed: set[str] = set()   # entries this run marks: each at most once
    targets: set[str] = set()   # entries this run names as the one that stays
    out: list[Change] = []
    for action in ACTIONS:
        items = obj.get(action)
        if items is None:
            continue
        if not isinstance(items, list):
            problems.append(f"{action}: expected a list, got {type(items).__name__}")
            continue
        first, second = _PAIR[action]
        for raw in items:
            if not isinstance(raw, dict):
                problems.append(f"{action}: not an object")
                continue
            target, other = raw.get(first), raw.get(second) if second else None
            label = f"{action} {one_line(target)[:20]!r}"
            if not isinstance(target, str) or live.get(target) is None or live[target].kind != kinds[action]:
                problems.append(f"{label}: unknown {kinds[action]} id, ignored")
                continue
            if second and (not isinstance(other, str) or live.get(other) is None or live[other].kind != kinds[action]):
                problems.append(f"{label}: {second} {one_line(other)[:20]!r} is not a live {kinds[action]}, ignored")
                continue
            if other == target:
                problems.append(f"{label}: names itself, ignored")
                continue
            if target in changed or target in targets or (other is not None and other in changed):
                problems.append(f"{label}: chained with another change of this run, ignored")
                continue
            if action == "supersede" and live[other].order <= live[target].order:
                problems.append(f"{label}: {other} is not newer, ignored")
                continue
            # why: an entry a session made again after consolidation hid it keeps its old line; what was
            # written before it came back is not newer than it
            if action == "supersede" and live[target].restored is not None and (
                    live[other].ts or 0.0) < live[target].restored:
                problems.append(f"{label}: {target} was made again after {other}, ignored")
                continue
            if len(out) >= max_changes:
                problems.append(f"{label}: over max_changes ({max_changes}), ignored")
                continue
            reason = one_line(raw.get("reason") if isinstance(raw.get("reason"), str) else "")[:REASON_CHARS]
            reason = redact(reason, tuple(extra_patterns))[0]
            changed.add(target)
            if other is not None:
                targets.add(other)
            out.append(Change(action, target, other, reason))
    return out, problems


# --- applying ----------------------------------------------------------------------------------------

def apply(changes: list[Change], c: Candidates, memory_dir: str, learnings_dir: str, now: float,
          j: journal.Journal) -> None:
    live = c.by_id()
    closes = []
    for ch in changes:
        j.note(str(ch))
        if ch.action == "supersede":
            edits.add_mark(memory_dir, j, "supersede", ch.target, ch.other, ch.reason, now)
        elif ch.action == "merge_failures":
            edits.add_mark(memory_dir, j, "merge", ch.target, ch.other, ch.reason, now)
        elif ch.action == "deprecate_learnings":
            try:
                edits.set_learning_status(live[ch.target].path, learnings_dir, "deprecated", ch.other, ch.reason,
                                          now, j)
            except LhError as exc:  # a frontmatter we will not rewrite: the other changes still apply
                j.note(f"not applied: {exc}")
        else:
            closes.append((ch.target, ch.reason))
    if closes:
        edits.close_handoff_items(memory_dir, closes, "consolidate", now, j)
    j.save()


# --- gates and the lock ------------------------------------------------------------------------------

class Lock:
    """``consolidate.lock`` in the memory folder: holder ``pid start`` while a run holds it, empty
    after; its mtime is the start of the last run that completed. A holder older than ``stale``
    seconds (a run that hung) is taken over. Check-and-take happens under a flock of the file."""

    def __init__(self, memory_dir: str, stale: float) -> None:
        self.path = os.path.join(memory_dir, LOCK)
        self.stale = stale
        self.previous_mtime: float | None = None
        self.held = False

    def last_run(self) -> float | None:
        try:
            st = os.stat(self.path)
        except OSError:
            return None
        if st.st_mtime <= 0:
            return None
        return st.st_mtime if st.st_size == 0 or self._holder() is None else None

    def _holder(self) -> tuple[int, float] | None:
        try:
            with open(self.path, encoding="ascii", errors="replace") as fh:
                parts = fh.read().split()
            return int(parts[0]), float(parts[1])
        except (OSError, ValueError, IndexError):
            return None

    def acquire(self, now: float) -> str | None:
        """None when taken; else why not."""
        import fcntl

        ensure_dir(os.path.dirname(self.path))
        existed = os.path.exists(self.path)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            st = os.fstat(fd)
            holder = self._holder() if st.st_size else None
            if holder is not None:
                pid, started = holder
                from lazy_harness.atomic import _pid_alive

                if _pid_alive(pid) and now - started < self.stale:
                    return f"another consolidation (pid {pid}) holds {self.path}"
            # why: a failed run must not count as a run; mtime 0 means "never completed"
            self.previous_mtime = st.st_mtime if existed and st.st_size == 0 else 0.0
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()} {now!r}\n".encode("ascii"), 0)
            os.fsync(fd)
            self.held = True
            return None
        finally:
            os.close(fd)

    def release(self, completed: bool, now: float) -> None:
        """Empty the file; its mtime becomes ``now`` when the run completed, else what it was."""
        if not self.held:
            return
        with open(self.path, "w", encoding="ascii"):
            pass
        when = now if completed else self.previous_mtime
        if when is not None:
            os.utime(self.path, (when, when))
        self.held = False


def sessions_since(memory_dir: str, since: float | None) -> int:
    """Distinct sessions that wrote decisions, failures or handoff items after ``since``."""
    from lazy_harness.memory.files import iso_epoch

    found: set[str] = set()
    for name in (files.DECISIONS, files.FAILURES, "handoff.jsonl"):
        try:
            with open(os.path.join(memory_dir, name), encoding="utf-8-sig", errors="replace") as fh:
                for line in fh:
                    try:
                        rec = json.loads(line)
                    except ValueError:
                        continue
                    if not isinstance(rec, dict) or not rec.get("session_id"):
                        continue
                    when = iso_epoch(rec.get("ts"))
                    if since is None or (when is not None and when > since):
                        found.add(str(rec["session_id"]))
        except OSError:
            continue
    return len(found)


def gates(memory_dir: str, ccfg: dict, now: float) -> str | None:
    """Why an automatic run must not happen now (cheapest gate first), or None."""
    if not ccfg["enabled"]:
        return "consolidate.enabled is false"
    last = Lock(memory_dir, ccfg["lock_stale_minutes"] * 60).last_run()
    if last is not None and now - last < ccfg["min_hours"] * 3600:
        return f"last run {(now - last) / 3600:.1f} h ago < {ccfg['min_hours']} h"
    scan = os.path.join(memory_dir, SCAN)
    try:
        scanned = os.stat(scan).st_mtime
    except OSError:
        scanned = None
    if scanned is not None and now - scanned < ccfg["scan_throttle_minutes"] * 60:
        return "session count taken recently (scan throttle)"
    atomic_write(scan, "")
    os.utime(scan, (now, now))
    n = sessions_since(memory_dir, last)
    if n < ccfg["min_sessions"]:
        return f"{n} session(s) since the last run < {ccfg['min_sessions']}"
    return None


# --- one run -----------------------------------------------------------------------------------------

def run(memory_dir: str, learnings_dir: str, project: str, cfg: dict, env, now: float | None = None,
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
        c = candidates(memory_dir, learnings_dir, project)
        if c.count() < 2:
            completed = not dry_run
            return Result("unchanged", f"{c.count()} live entries: nothing to consolidate")
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
        if dry_run:
            return Result("dry-run", f"{len(changes)} change(s) proposed", changes, problems)
        completed = True
        if not changes:
            return Result("unchanged", "no change proposed", [], problems)
        j = journal.Journal(memory_dir, kind, project, now)
        apply(changes, c, memory_dir, learnings_dir, now, j)
        return Result("changed", f"{len(changes)} change(s)", changes, problems, j.run)
    finally:
        lock.release(completed, now)
