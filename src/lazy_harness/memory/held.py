"""Entries held for approval: what the hold check (memory/trust.py) caught, kept out of every session
until the person approves or forgets it.

    decision, failure, open item   a mark ``{"op": "hold", "id", "reason", "ts", "run"}`` in marks.jsonl,
                                   left out by every reader as a forgotten entry is
    learning                       frontmatter ``status: held`` (``deprecated_reason: held: <why>``),
                                   left out as a deprecated one is

Approving is a journalled run too: the hold mark is taken out and ``{"op": "approve", "id"}`` written
(a learning is set active with ``deprecated_reason: approved by hand``), so the read-time check lets
that id through from then on and ``lh memory undo`` holds it again. ``lh memory forget`` drops a held
entry for good. Every hold and approval is one run of ``lh memory history``.

``listing`` is the review list (``lh memory held``, the page's "Held for approval"): the held entries,
then the learnings a session wrote that wait for approval to be used in other projects (ADR 0032);
each entry's state comes from memory/state.py, the same in every view. A forget takes a held entry's
hold marks out in its run (memory/by_hand.py), and undo never undoes a hold run.

Who holds: the worker after it wrote a session's entries, sync after a merge, migration after it
moved old files, and the SessionStart hook for an entry it finds hostile at read time (a hand edit,
an entry older than the check); prompt recall leaves such an entry out and the next start records it.
"""

from __future__ import annotations

import os

from lazy_harness import jsonload, paths
from lazy_harness.memory import files, frontmatter, ids, marks, provenance, state, trust

# why: not ``from typing import TYPE_CHECKING``: memory never imports ``typing`` at run time (the hooks
# load its read side: house style section 3)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Container

    from lazy_harness.memory.apply import Report
    from lazy_harness.memory.journal import Journal
    from lazy_harness.memory.plan import Plan
    from lazy_harness.memory.shapes import Env

HOLD, APPROVE = "hold", "approve"
HELD = "held"  # a learning's status
APPROVED = state.APPROVED_BY_HAND  # a learning's deprecated_reason once approved


def approved(memory_dir: str, recs: list[dict] | None = None) -> set[str]:
    """Ids the person approved in this memory folder (``recs``: its marks, when read already)."""
    return {m["id"] for m in (marks.read(memory_dir) if recs is None else recs) if m.get("op") == APPROVE}


def learning_approved(meta: dict) -> bool:
    return state.approved_learning(meta)


def learning_text(path: str) -> tuple[dict, str]:
    """(frontmatter, the text the check reads) of a learning file; ({}, '') when unreadable."""
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            parsed = frontmatter.parse_frontmatter(fh.read(256 * 1024))
    except OSError:
        return {}, ""
    if parsed is None:
        return {}, ""
    meta, body = parsed
    return meta, check_text(meta, body)


def check_text(meta: dict, body: object) -> str:
    """The text the check reads of a learning: its title, ``body``, tags and cues."""
    return " ".join(str(x) for x in (meta.get("title"), body, meta.get("tags"), meta.get("cues")) if x)


def hold(memory_dir: str, learnings_dir: str, found: list[tuple[str, str, str, str]], project: str,
         now: float, why: str) -> str | None:
    """Hold every ``(kind, id, learning path or '', reason)`` of ``found`` in one journalled run;
    returns the run id (None when there was nothing left to hold)."""
    from lazy_harness.memory import changes, journal

    if not found:
        return None
    hidden = marks.hidden(memory_dir) if os.path.isdir(memory_dir) else {}
    j = journal.Journal(memory_dir, "hold", project, now)
    done = 0
    for kind, eid, path, reason in found:
        if kind == "learning":
            meta = frontmatter.read_frontmatter_values(path, ("status",))
            if (meta.get("status") or "active") != "active":
                continue
            changes.set_learning_status(path, learnings_dir, HELD, None, f"{HELD}: {reason}", now, j)
        else:
            if eid in hidden:
                continue
            os.makedirs(memory_dir, exist_ok=True)
            changes.add_mark(memory_dir, j, HOLD, eid, None, reason, now)
            hidden[eid] = {"op": HOLD}
        j.note(f"hold {eid}: {reason} ({why})")
        done += 1
    if not done:
        return None
    j.save()
    return j.run


def scan_records(memory_dir: str) -> list[tuple[str, str, str, str]]:
    """Live decisions, failures and open items of a memory folder that the check holds and nobody approved."""
    from lazy_harness.memory import handoff

    recs = marks.read(memory_dir)
    hidden, ok = marks.hidden(memory_dir, recs), approved(memory_dir, recs)
    out = []
    for kind, name in (("decision", files.DECISIONS), ("failure", files.FAILURES)):
        try:
            with open(os.path.join(memory_dir, name), "rb") as fh:
                lines = fh.read().split(b"\n")
        except OSError:
            continue
        for line in lines:
            try:
                rec = jsonload.loads(line) if line.strip() else None
            except (ValueError, RecursionError):  # why: a synced line may nest past the stack
                continue
            if not isinstance(rec, dict) or "op" in rec or not isinstance(rec.get("summary"), str):
                continue
            eid = ids.of_record(rec, kind)
            if eid in hidden or eid in ok:
                continue
            reason = trust.check(rec, kind)
            if reason:
                out.append((kind, eid, "", reason))
    for item in handoff.open_for_reading(memory_dir):
        if item["id"] not in hidden and item["id"] not in ok:
            reason = trust.reason(str(item.get("text") or ""))
            if reason:
                out.append(("handoff", item["id"], "", reason))
    return out


def scan_learnings(paths_: list[str]) -> list[tuple[str, str, str, str]]:
    """Active learning files among ``paths_`` that the check holds and nobody approved."""
    out = []
    for path in paths_:
        meta, text = learning_text(path)
        if not meta or str(meta.get("status") or "active") != "active" or learning_approved(meta):
            continue
        reason = trust.reason(text)
        if reason:
            out.append(("learning", ids.of_learning(meta, path=path), path, reason))
    return out


def held_ids(memory_dir: str) -> dict[str, dict]:
    """``{id: its hold mark}`` of the decisions, failures and open items held in a memory folder."""
    return {m["id"]: m for m in marks.read(memory_dir) if m.get("op") == HOLD}


def approve(memory_dir: str, learnings_dir: str, eid: str, kind: str, path: str, reason: str, j: Journal) -> None:
    """Release one held entry in journal ``j``: its hold marks out of marks.jsonl and an ``approve``
    mark in (a decision, failure or open item), or the learning set active, approved by hand."""
    from lazy_harness.atomic import rewrite
    from lazy_harness.memory import changes

    if kind == "learning":
        changes.set_learning_status(path, learnings_dir, "active", None, APPROVED, _now(j), j)
        return
    mpath = marks.path_of(memory_dir)
    j.track(mpath)
    # why: taken out, not countered: every reader and the search index then see the entry as never held
    rewrite(mpath, lambda data: marks.without(data, {eid}, ops=(HOLD,)))
    j.record(mpath)
    changes.add_mark(memory_dir, j, APPROVE, eid, None, reason, _now(j))


def _now(j: Journal) -> float:
    import time

    return time.time()


def listing(memory_dir: str, learnings_dir: str, cross: str = state.ASK) -> list[dict]:
    """What waits for the person (``lh memory held``, the page's "Held for approval"): every entry of a
    project and every learning whose state (memory/state.py) is held, and the learnings that wait for
    approval to be used in other projects (``cross``: ``[trust] cross_projects``). Each: kind, id,
    state (held or waiting), reason, origin, text, file.
    why a decision's, failure's or open item's state comes from its marks alone, and a learning's from
    its frontmatter and the check: reading every decision and failure through the check cost the page
    9 s at 15,000 entries; one the check catches at read time is held by a mark once SessionStart reads
    it, and prompt recall leaves it out meanwhile (its "why" table says held). Learnings were always
    read through it here."""
    named = marks.by_id(memory_dir, marks.OPS)
    found = _held_records(memory_dir, named) + _held_items(memory_dir, named) + _held_learnings(learnings_dir, cross)
    return [h for h in found if h["state"] == state.HELD] + [h for h in found if h["state"] != state.HELD]


def learning_state(meta: dict, text: str, cross: str = state.ASK) -> tuple[str, str]:
    """(state, detail) of a learning: its frontmatter, then the hold check on ``text`` (``learning_text``)."""
    now = state.of_learning(meta, cross)
    if now[0] in (state.ACTIVE, state.WAITING):
        return state.with_verdict(now, trust.reason(text))
    return now


def _held_records(memory_dir: str, named: dict[str, list[dict]]) -> list[dict]:
    out = []
    for kind, name in (("decision", files.DECISIONS), ("failure", files.FAILURES)):
        path = os.path.join(memory_dir, name)
        try:
            with open(path, "rb") as fh:
                lines = fh.read().split(b"\n")
        except OSError:
            continue
        for n, line in enumerate(lines, 1):
            try:
                rec = jsonload.loads(line) if line.strip() else None
            except (ValueError, RecursionError):
                continue
            if not isinstance(rec, dict) or "op" in rec or not isinstance(rec.get("summary"), str):
                continue
            eid = ids.of_record(rec, kind)
            now = state.of_marks(named.get(eid))
            if now[0] == state.HELD:
                out.append({"kind": kind, "id": eid, "state": state.HELD, "reason": now[1],
                            "origin": provenance.describe(rec, kind), "text": rec.get("summary") or "",
                            "file": f"{path}:{n}"})
    return out


def _held_items(memory_dir: str, named: dict[str, list[dict]]) -> list[dict]:
    from lazy_harness.memory import handoff

    out = []
    for item in handoff.open_for_reading(memory_dir):
        now = state.of_marks(named.get(item["id"]))
        if now[0] == state.HELD:
            out.append({"kind": "handoff", "id": item["id"], "state": state.HELD, "reason": now[1],
                        "origin": f"session {item.get('opened_by') or '?'}", "text": item.get("text") or "",
                        "file": os.path.join(memory_dir, files.HANDOFF)})
    return out


def _held_learnings(learnings_dir: str, cross: str) -> list[dict]:
    out = []
    for path in files.recent_learning_files(learnings_dir, 10**9):
        meta, text = learning_text(path)
        if not meta:
            continue
        now = learning_state(meta, text, cross)
        if now[0] in (state.HELD, state.WAITING):
            out.append({"kind": "learning", "id": ids.of_learning(meta, path=path), "state": now[0], "reason": now[1],
                        "origin": provenance.describe(meta, "learning", session_key="origin_session",
                                                      project_field="origin"),
                        "text": meta.get("title") or "", "file": path})
    return out


def scan_written(plan: Plan, report: Report) -> list[tuple[str, str, str, str]]:
    """What a persist just wrote (``memory.store`` plan and report) that the check holds: the lines it
    appended, the learnings it created, the handoff items the answer opened. They are one session's
    entries, so they are checked together too (``trust.check_session``): a payload split across two
    of them holds both."""
    found = _written(plan, report)
    verdicts = trust.check_session([(f[3], f[4]) for f in found])
    return [(f[0], f[1], f[2], why) for f, why in zip(found, verdicts, strict=True) if why]


def written_texts(plan: Plan, report: Report) -> list[tuple[str, str, str, str]]:
    """``(kind, id, learning path or '', the text the check reads)`` of each entry a persist just wrote
    (what :func:`scan_written` checks): what the worker's model check (worker/model_check.py) judges."""
    out = []
    for kind, eid, path, checked, _ in _written(plan, report):
        if kind in ("decision", "failure"):
            text = trust.text_of(checked, kind)
        else:
            text = str(checked.get("learning") if kind == "learning" else checked.get("text") or "")
        out.append((kind, eid, path, text))
    return out


def written_records(plan: Plan, report: Report) -> list[tuple[str, str, str, dict, str]]:
    """``(kind, id, learning path or '', the record the rules read, its kind)`` of each entry a persist
    just wrote: what the learned check (worker/learned_check.py) reads beside the rules."""
    return _written(plan, report)


def _appended(plan: Plan) -> list[tuple[str, dict]]:
    """(kind, record) of each decision or failure line a persist's plan appends."""
    out = []
    for a in plan.actions:
        if a.kind == "append":
            try:
                rec = jsonload.loads(a.payload[1])
            except ValueError:
                continue
            kind = str(rec.get("type"))
            if kind in ("decision", "failure"):
                out.append((kind, rec))
    return out


def _written(plan: Plan, report: Report) -> list[tuple[str, str, str, dict, str]]:
    # (kind, id, file, what is checked, its kind)
    found = [(kind, ids.of_record(rec, kind), "", rec, kind) for kind, rec in _appended(plan)]
    for path in report.created:
        meta, text = learning_text(path)
        if meta and str(meta.get("status") or "active") == "active" and not learning_approved(meta):
            found.append(("learning", ids.of_learning(meta, path=path), path, {"learning": text}, "learning"))
    return found + _opened_items(plan)


def _opened_items(plan: Plan) -> list[tuple[str, str, str, dict, str]]:
    opened: list = (plan.handoff or ([], []))[0]
    if not opened:
        return []
    from lazy_harness.memory import handoff

    texts = {" ".join(str(t).split()) for t in opened}
    out = []
    for item in handoff.open_for_reading(plan.memory_dir):
        text = " ".join(str(item.get("text") or "").split())
        if text in texts:
            out.append(("handoff", item["id"], "", {"text": text}, "handoff"))
    return out


OVER_CAP = "past the per-session cap"


def scan_over_cap(plan: Plan, report: Report, over: list[list]) -> list[tuple[str, str, str, str]]:
    """What a persist wrote of ``over`` (``[section, item]`` pairs past an answer's cap, worker/answer.py):
    the lines it appended and the learnings it created with those summaries and titles, to hold. An
    item already recorded is not held: its entry is the earlier one."""
    from lazy_harness.memory.sanitize import normalise

    wanted = {normalise(str(item.get("title" if section == "learnings" else "summary") or ""))
              for section, item in over}
    out = [(kind, ids.of_record(rec, kind), "", OVER_CAP) for kind, rec in _appended(plan)
           if normalise(str(rec.get("summary") or "")) in wanted]
    for path in report.created:
        meta, _ = learning_text(path)
        if meta and normalise(str(meta.get("title") or "")) in wanted:
            out.append(("learning", ids.of_learning(meta, path=path), path, OVER_CAP))
    return out


def belongs(head: dict, key: str | frozenset[str], legacy: Callable[[dict], bool] | None = None) -> bool:
    """Whether a learning may be shown in the project of memory key ``key`` (or any of a set of keys:
    its own and its aliases, memory/aliases.py): a ``scope: project`` one
    only in its own project, known by the key recorded with it, or for one written before keys were
    recorded by ``legacy(head)`` (``provenance.legacy_owner``); any other scope everywhere (ADR 0024)."""
    if str(head.get("scope") or "").strip().lower() != "project":
        return True
    recorded = provenance.key_of(head)
    if recorded:
        return provenance.is_key(recorded, key)
    return bool(legacy is not None and legacy(head))


def head_text(head: dict) -> str:
    """The text the check reads of a learning's head (recall.readback.learnings.read_head)."""
    return check_text(head, head.get("learning"))


# --- the check's verdicts, kept per text ------------------------------------------------------------
# why: SessionStart screens every open item, the newest failures and decisions and the learnings it
# ranks (Screen). Most of those texts are the same from one start to the next, and a memory's ordinary
# words (run, get, user, system, env) send many of them past the check's cheap look into the regular
# expressions, whose compilation alone costs tens of milliseconds (300 open items of realistic text:
# about 150 ms a start). So the verdicts are kept, per project, in
#     <cache dir>/verdicts/<memory key>.json   {"rules": <trust.rules_stamp()>, "verdicts": {<text digest>: reason}}
# keyed by a 16-byte digest of the exact text (an edited text is a new key) and stamped with a digest of
# the check's source (an upgrade or an edit of the rules works every verdict out again). Only the verdicts the
# last read used are written back, and only when one was worked out. A missing, damaged or foreign file
# reads as empty: a cache, never memory.

class Kept:
    """The verdicts of one file: :meth:`reason` answers from it or asks the check, :meth:`save` writes
    back what this read used when anything was worked out."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.known: dict[str, str] = {}
        self.used: dict[str, str] = {}
        self.worked_out = 0
        try:
            with open(path, "rb") as fh:
                data = jsonload.loads(fh.read())
        except (OSError, ValueError):
            return
        rules = trust.rules_stamp()
        if isinstance(data, dict) and isinstance(data.get("verdicts"), dict) and rules and data.get("rules") == rules:
            self.known = {k: v for k, v in data["verdicts"].items() if isinstance(v, str)}

    def reason(self, text: str) -> str | None:
        """``trust.reason(text)``, kept."""
        key = ids.text_digest(text)
        why = self.known.get(key)
        if why is None:
            why = trust.reason(text) or ""
            self.known[key] = why
            self.worked_out += 1
        self.used[key] = why
        return why or None

    def save(self) -> bool:
        """Write the verdicts this read used, when one of them was worked out; True when written.
        May raise OSError."""
        if not self.worked_out:
            return False
        from lazy_harness.atomic import atomic_write

        atomic_write(self.path, jsonload.dumps({"rules": trust.rules_stamp(), "verdicts": self.used}))
        self.worked_out = 0
        return True


def kept_verdicts(memory_dir: str, env: Env | None) -> Kept:
    """The kept verdicts of the project whose memory is ``memory_dir``."""
    return Kept(paths.hold_verdicts_file(os.path.basename(memory_dir), env))


class Screen:
    """The hold check at read time (memory/trust.py): an entry whose text reads as an instruction to
    the agent is left out, unless the person approved it; what it left out is in ``found``, for the
    SessionStart hook to hold (:func:`hold`)."""

    def __init__(self, approved: set[str], hidden: Container[str] = frozenset(),
                 verdicts: Kept | None = None) -> None:
        """``verdicts``: a :class:`Kept` that answers for texts already checked."""
        self.approved, self.hidden, self.verdicts = approved, hidden, verdicts
        self.found: list[tuple[str, str, str, str]] = []

    def keep(self, kind: str, eid: str, text: str, head: dict | None = None) -> bool:
        if eid in self.hidden:  # an open item held (or forgotten) by a mark
            return False
        if eid in self.approved or (head is not None and learning_approved(head)):
            return True
        why = trust.reason(text) if self.verdicts is None else self.verdicts.reason(text)
        if why:
            self.found.append((kind, eid, head["path"] if head else "", why))
        return not why
