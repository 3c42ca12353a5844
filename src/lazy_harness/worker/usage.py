"""The usage accounting of one distilled session (ADR 0036, docs/how/usage.md).

Reads what the hooks recorded the session was shown (``<state>/<session>.seen``, memory/usage.py) and
the session's transcript; appends to the project's usage.jsonl (memory/usage_log.py) what is new:
the characters injected, each entry shown, each entry used (its distinctive content in what the
agent did after it was shown: worker/evidence.py), each failure distilled again whose marks came
after it was shown (recurred); each showing in the memory folder it came from. Then the counts the
budget cuts read are written again, and a recurrence is kept for the next SessionStart to tell the
person.

Runs after the persist; never fails the task (the caller logs what it raises).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from lazy_harness.memory import files, handoff, ids, learnings, standing, trust, usage, usage_log
from lazy_harness.memory.sanitize import one_line
from lazy_harness.regular_file import open_regular
from lazy_harness.worker import evidence

if TYPE_CHECKING:
    from collections.abc import Sequence

    from lazy_harness.memory.shapes import Env


def texts_of(memory_dir: str, learnings_dir: str, wanted: set[str], env: Env | None = None) -> dict[str, str]:
    """The text of each wanted entry still in memory: its fields (decision, failure), its file
    (learning), its words (open item); each field, and each item of a list field, ``evidence.joined``
    (its marks are read in each alone: none runs from one field into the next). ``env``: the profile's
    (which line of an id stands: ``standing.one_each``)."""
    out: dict[str, str] = {}
    for kind, name in (("decision", files.DECISIONS), ("failure", files.FAILURES)):
        if any(ids.kind_of(i) == kind for i in wanted):
            # why one_each: of the lines carrying one id, the one every reader shows (ADR 0059); the last
            # line read was a synced one claiming the id, and its words counted as use of the entry
            for rec in standing.one_each(files.read_entries(os.path.join(memory_dir, name)), kind, env):
                eid = ids.of_record(rec, kind)
                if eid in wanted:
                    out[eid] = _fields_text(rec, kind)
    if any(ids.kind_of(i) == "learning" for i in wanted):
        for path in files.recent_learning_files(learnings_dir, 10**6):
            lid = learnings.id_of(path)
            if lid in wanted and lid not in out:
                try:
                    # why open_regular: a FIFO named as a learning held the worker in open() for good
                    with open(open_regular(path)[0], encoding="utf-8", errors="replace") as fh:
                        out[lid] = _learning_text(fh.read(20_000))
                except OSError:
                    continue
    if any(ids.kind_of(i) == "handoff" for i in wanted):
        state, _ = handoff.load(memory_dir)
        out.update({i: str(item.get("text") or "") for i, item in state.items() if i in wanted})
    return out


def _fields_text(rec: dict, kind: str) -> str:
    """The fields of a decision or failure that ``trust.text_of`` reads, ``evidence.joined``. why not
    ``trust.text_of``: it joins them with a space (the hold check reads an instruction split across
    two fields whole), and a rare phrase ran from one field into the next."""
    return evidence.joined([p for f in trust.FIELDS.get(kind, ("summary",)) for p in _pieces(rec.get(f))])


def _pieces(value: object) -> list[str]:
    """A field's text, a list field's items each on its own (as ``trust.text_of`` reads them, less the
    joins): tags, cues and alternatives are each said alone."""
    if not value:
        return []
    if isinstance(value, (list, tuple)):
        return [p for v in value for p in _pieces(v)]
    return [value if isinstance(value, str) else str(value)]


def _learning_text(text: str) -> str:
    """What a learning says: its title, tags and cues, and its body, each read alone (``evidence.joined``);
    not the rest of its frontmatter
    (origin, project_folder, session ids, status fields), whose words a session's tool calls name for
    reasons of their own (a Read of the project's own path counted every learning of it as used)."""
    from lazy_harness.memory import frontmatter

    parsed = frontmatter.parse_frontmatter(text)
    if not parsed:
        return text
    meta, body = parsed
    return evidence.joined([p for v in (meta.get("title"), meta.get("tags"), meta.get("cues")) for p in _pieces(v)]
                           + [body])


def first_shown(showings: Sequence[tuple[float, str, int, list[tuple[str, int]]]],
                ) -> tuple[dict[str, tuple[float, int]], int]:
    """Each entry's first showing (time, characters of its line) and the characters injected in all."""
    first: dict[str, tuple[float, int]] = {}
    for when, _, _, shown in showings:
        for eid, chars in shown:
            if ids.kind_of(eid) is not None and eid not in first:
                first[eid] = (when, chars)
    return first, sum(chars for _, _, chars, _ in showings)


def session_lines(session_id: str, showings: Sequence[tuple[float, str, int, list[tuple[str, int]]]],
                  start: int = 0) -> list[dict]:
    """The session's ``session`` lines (memory/usage_log.py): one per showing, dated at it, with the
    characters injected up to and including it (``chars``, counted from ``start``: :func:`counted_before`)
    and, after the first, before it (``before``);
    a showing that adds none has no line. why one per showing and not one dated at the first: a session
    resumed days later had its new characters dated at its first showing, and the week's count
    (``usage_log.this_week``) dropped them while it counted the session and its showings."""
    out: list[dict] = []
    total = start
    for n, (when, _, chars, _) in enumerate(showings):
        before, total = total, total + max(chars, 0)
        if n == 0 or total > before:
            more = {"before": before} if before else {}
            out.append(usage_log.line("session", when, session=session_id, chars=total, **more))
    return out


def counted_before(records: list[dict], session_id: str,
                   showings: Sequence[tuple[float, str, int, list[tuple[str, int]]]]) -> int:
    """The characters usage.jsonl (``records``) already counts for the session before its first showing
    read: the largest ``chars`` of its ``session`` lines dated before it, 0 when none. why: a session
    whose ``.seen`` file ``lh queue purge`` removed, resumed later, has only its new showings; totalled
    from 0 they repeated a total already written, and the resume's characters were lost."""
    if not showings:
        return 0
    # why a margin: a line is dated in whole milliseconds cut down, a ``.seen`` time is rounded; the
    # line of the first showing itself stands up to a few milliseconds before it
    first = showings[0][0] - 0.01
    # why the lines dated at a showing read are left out: after a clock stepped back, a later showing is
    # dated before the first, and the line an earlier distillation wrote of it was taken for a total
    # recorded before them all: every showing's characters were counted again on top of it
    ours = {int(when * 1000) for when, _, _, _ in showings}
    return max((r["chars"] for r in records if r["op"] == "session" and r.get("session") == session_id
                and r["at"] < first and round(r["at"] * 1000) not in ours and isinstance(r.get("chars"), int)),
               default=0)


def recurred(distilled: dict, first: dict[str, tuple[float, int]], marks: dict[str, list[str]],
             acts: list[tuple[float, str, str]]) -> list[str]:
    """The failures of this answer that memory had shown the session and that happened after it showed
    them: the same failure, by the store's de-duplication (the id of its normalised summary, lengthened
    or not: ``ids.derives``), whose marks (the stored entry's, and the answer's own of it) appear in an
    act at or after its first showing, or that memory showed before the session's first act (all the
    session did came after memory said it). why: prompt recall shows a failure when the person asks
    about it, mostly after it happened; distilled again, it did not happen *again* after memory said it."""
    out = []
    shown = [eid for eid in first if ids.kind_of(eid) == "failure"]
    for item in distilled.get("failures") or []:
        if isinstance(item, dict):
            key = ids.key_of("failure", one_line(item.get("summary")))
            for eid in shown:
                if eid in out or not ids.derives(eid, "failure", key):
                    continue
                told = (marks.get(eid) or []) + evidence.marks_of(_item_text(item))
                before_any = bool(acts) and all(when >= first[eid][0] for when, _, _ in acts)
                if before_any or evidence.first_use(told, acts, first[eid][0]):
                    out.append(eid)
    return out


def _item_text(item: dict) -> str:
    """What a distilled failure says, its fields' strings ``evidence.joined`` (the answer's own words of
    it, each field read alone)."""
    return evidence.joined([v for k, v in item.items() if k != "summary" and isinstance(v, str)])


def folders_of(showings: Sequence[tuple[float, str, int, list[tuple[str, int]], str]], memory_dir: str,
               ) -> dict[str, list[tuple[float, str, int, list[tuple[str, int]]]]]:
    """The session's showings by the memory folder they came from: a line that names no folder, or
    names one that is not a folder beside ``memory_dir`` (the session's own), counts in ``memory_dir``."""
    root, own = os.path.dirname(os.path.normpath(memory_dir)), usage.memory_key_of(memory_dir)
    out: dict[str, list[tuple[float, str, int, list[tuple[str, int]]]]] = {}
    for when, source, chars, shown, key in showings:
        folder = memory_dir
        if key and key != own and os.path.isdir(os.path.join(root, key)):
            folder = os.path.join(root, key)
        out.setdefault(folder, []).append((when, source, chars, shown))
    return out


def account(session_id: str, transcript: str, distilled: dict, memory_dir: str, learnings_dir: str, env: Env | None,
            now: float) -> str:
    """Append what this distillation learnt of the session's usage, each showing in the memory folder
    it came from (memory/usage.py: ``note``); returns words for worker.log. A scripted run's part of
    the session (``claude -p``, ``codex exec``, later typed in: the worker does not distil it) counts
    nothing: neither its acts nor the showings made for it (``evidence.for_scripted_run``)."""
    showings = usage.read_showings(env, session_id)
    if not session_id or not showings:
        return ""
    acts, prompts = evidence.read(transcript)
    showings = [s for s in showings if not evidence.for_scripted_run(s[0], s[1] == "prompt", prompts)]
    said: list[str] = []
    for folder, group in folders_of(showings, memory_dir).items():
        words = _account_folder(session_id, distilled, folder, learnings_dir, env, now, group, acts)
        said.append(words if folder == memory_dir else f"{usage.memory_key_of(folder)}: {words}")
    return "; ".join(said)


def _account_folder(session_id: str, distilled: dict, memory_dir: str, learnings_dir: str, env: Env | None,
                    now: float, showings: list[tuple[float, str, int, list[tuple[str, int]]]],
                    acts: list[tuple[float, str, str]]) -> str:
    """:func:`account` for the showings of one memory folder: usage.jsonl read once, what is new
    appended and the ranks written from both (``usage_log.record``)."""
    first, _ = first_shown(showings)
    marks = {eid: evidence.marks_of(text) for eid, text in texts_of(memory_dir, learnings_dir, set(first), env).items()}
    hits = {eid: evidence.first_use(marks.get(eid) or [], acts, when) for eid, (when, _) in first.items()}
    again = recurred(distilled, first, marks, acts)

    recurred_before: list[str] = []

    def new_of(records: list[dict]) -> list[dict]:
        done = usage_log.of_session(records, session_id)
        recurred_before.extend(eid for op, eid in done if op == "recurred")
        new: list[dict] = []
        start = counted_before(records, session_id, showings)
        new += [r for r in session_lines(session_id, showings, start) if ("session", str(r["chars"])) not in done]
        for eid, (when, chars) in first.items():
            if ("shown", eid) not in done:
                # why: an entry with no marks can never be seen used; said so, it is not ranked unused
                unmarked = {"measurable": False} if eid in marks and not marks[eid] else {}
                new.append(usage_log.line("shown", when, session=session_id, id=eid, chars=chars, **unmarked))
            hit = hits[eid]
            if hit and ("used", eid) not in done:
                new.append(usage_log.line("used", hit[0], session=session_id, id=eid, evidence=hit[1][:200]))
        new += [usage_log.line("recurred", now, session=session_id, id=eid)
                for eid in again if ("recurred", eid) not in done]
        return new

    new, _ = usage_log.record(env, memory_dir, new_of)
    told = [r["id"] for r in new if r["op"] == "recurred"]
    if told or recurred_before:
        # why those of the lines written before too: a worker killed between the ``recurred`` line and
        # this kept none, and the session counted again finds the line written; one kept is not kept twice
        usage.keep_recurred(env, usage.memory_key_of(memory_dir), sorted(recurred_before) + told, session_id)
    used = sum(1 for r in new if r["op"] == "used")
    return (f"usage: {len(first)} shown, {used} newly used" + (f", recurred {','.join(told)}" if told else ""))
