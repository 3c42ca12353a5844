"""What was just written, as the checks after it read it: what a persist wrote (worker/hold_checks.py
``owed_checks``: each entry's text for the model check, its record for the learned check, and what it
wrote past an answer's per-session cap, to hold: memory/held.py ``hold``), and what a sync round
brought in: the learnings it merged that the check holds (:func:`scan_learnings`), and the verdicts
the next SessionStart reads (:func:`keep_arrived`, kept in :func:`arrived_verdicts`)."""

from __future__ import annotations

import os

from lazy_harness import jsonload
from lazy_harness.memory import approval, ids, state, trust
from lazy_harness.memory.held import check_text, excerpt, head_text, learning_approved, learning_text
from lazy_harness.memory.verdicts import Kept, arrived_verdicts_file
from lazy_harness.memory.approval import learning_parts

TYPE_CHECKING = False  # why: not typing's, as memory/held.py
if TYPE_CHECKING:
    from lazy_harness.memory.shapes import Env
    from lazy_harness.memory.apply import Report
    from lazy_harness.memory.plan import Plan


def written_texts(plan: Plan, report: Report) -> list[tuple[str, str, str, str]]:
    """``(kind, id, learning path or '', the text the check reads)`` of each entry a persist just wrote
    (the rules read them in the worker's hold step, ``hold_checks._hold``): what the worker's model check
    (worker/model_check.py) judges."""
    out = []
    for kind, eid, path, checked, _ in _written(plan, report):
        # why text_of for a learning too: its fields (a persist's of before them: its whole text as "learning")
        text = trust.text_of(checked, kind) if kind != "handoff" else str(checked.get("text") or "")
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
    from lazy_harness.memory.learnings import fields_of

    for path in report.created:
        meta, body = learning_parts(path) or ({}, "")
        if meta and str(meta.get("status") or "active") == "active" \
                and not learning_approved(meta, check_text(meta, body), path):
            found.append(("learning", ids.of_learning(meta, path=path), path, fields_of(meta, body), "learning"))
    return found + _opened_items(plan)


def _opened_items(plan: Plan) -> list[tuple[str, str, str, dict, str]]:
    """The open items this persist opened: new ones, and ones closed before that it opened again. An
    item kept open from an earlier session is not one: it was checked when it was opened (or is owed
    that check, worker/owed.py), and judging it again made every distillation that wrote nothing new
    pay for a model check. Read after the persist wrote: an item counts when the record that opened
    its present span (``opened_by``, ``opened_task``) is this session's and this task's."""
    if not (plan.handoff or ([], []))[0]:
        return []
    from lazy_harness.memory import handoff
    from lazy_harness.memory.sanitize import one_line

    # why the session too: a task named no id is distilled as "-" (worker/pipeline.py), so the id
    # alone may be another session's; the records keep both as one_line leaves them
    sid, tid = one_line(plan.meta.get("session_id")), one_line(plan.meta.get("task_id"))
    out = []
    for item in handoff.open_for_reading(plan.memory_dir):
        if item.get("opened_by") == sid and item.get("opened_task") == tid:
            text = " ".join(str(item.get("text") or "").split())
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


def scan_learnings(paths_: list[str], env: Env | None = None) -> list[tuple[str, str, str, str]]:
    """Active learning files among ``paths_`` that the check holds and nobody approved. ``paths_`` are
    what a sync just merged: at the first read of this version, their approvals are not adopted, those
    of the other learnings in their folders are (ADR 0052). A learning whose frontmatter says approved
    is left alone, whoever signed it (``held.hold``)."""
    roots = {os.path.dirname(os.path.dirname(os.path.abspath(p))) for p in paths_}
    approval.adopt_once((), sorted(roots), env, unless=[os.path.abspath(p) for p in paths_])
    out = []
    for path in paths_:
        meta, text = learning_text(path)
        if not meta or str(meta.get("status") or "active") != "active" or state.claims_approval(meta):
            continue
        reason = trust.reason(text)
        if reason:
            out.append(("learning", ids.of_learning(meta, path=path), path, reason))
    return out


ARRIVED_MAX = 4096  # verdicts kept of what rounds brought in: the newest, for the next starts of any project


def arrived_verdicts(env: Env | None = None) -> Kept:
    """The verdicts a sync round worked out on what it merged (``sync.rounds.hold_merged``), in
    ``arrived/verdicts.json`` beside SessionStart's files: the text each start checks of a new entry,
    whichever project's start reads it first. why: the first start after a pull worked them out itself,
    and its first use of the check (compiling its rules and the redactor's) cost it about 100 ms."""
    return Kept(arrived_verdicts_file(env))


def keep_arrived(memory_dirs: list[str], only: set[str] | None, learning_files: list[str],
                 env: Env | None = None) -> int:
    """Work out the verdicts of what a sync round brought in, on the texts SessionStart checks (the
    read-back's text of a decision, failure or open item whose id is in ``only``, of each learning
    file's head), and keep them with those of earlier rounds, the newest :data:`ARRIVED_MAX`
    (:func:`arrived_verdicts`). With ``only`` None (every entry of the folders changed) no line is
    taken: a first round brings a whole memory, and its starts work out what they read. Returns how
    many texts were checked. May raise OSError."""
    from lazy_harness.memory.approval import learning_parts

    texts = _line_texts(memory_dirs, only) if only is not None else []
    for path in learning_files:
        parsed = learning_parts(path)
        if parsed is not None:  # why head_text: the start checks a learning's head with its file's name
            texts.append(head_text({**parsed[0], "learning": excerpt(parsed[1]), "path": path}))
    keep_texts(texts, env)
    return len(texts)


def keep_texts(texts: list[str], env: Env | None = None) -> None:
    """Add the verdicts of ``texts`` to the arrivals' (:func:`arrived_verdicts`), the newest
    :data:`ARRIVED_MAX` kept: a text this round brought again counts as new. May raise OSError."""
    if not texts:
        return
    kept = arrived_verdicts(env)
    for text in texts:
        kept.reason(text)
        key = ids.text_digest(text)
        kept.known[key] = kept.known.pop(key)  # why: to the end, so a trim keeps what the last round brought
    kept.worked_out += 1  # why: the new order is written too
    if len(kept.known) > ARRIVED_MAX:  # why the newest: the next starts read what the last rounds brought
        kept.known = dict(list(kept.known.items())[-ARRIVED_MAX:])
    kept.save(keep_known=True)


def _line_texts(memory_dirs: list[str], only: set[str]) -> list[str]:
    """The texts SessionStart checks (``recall.readback.digest``) of the decisions, failures and open
    items of ``memory_dirs`` whose id is in ``only``."""
    from lazy_harness.memory import files, handoff
    from lazy_harness.memory.held import numbered_entries

    texts = []
    for mdir in memory_dirs:
        for kind, name in (("decision", files.DECISIONS), ("failure", files.FAILURES)):
            texts += [trust.text_of(rec, kind) for _, rec in numbered_entries(os.path.join(mdir, name))
                      if ids.of_record(rec, kind) in only]
        texts += [str(i.get("text") or "") for i in handoff.open_for_reading(mdir) if i["id"] in only]
    return texts
