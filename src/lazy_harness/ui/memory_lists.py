"""A project's memory as ``lh memory show`` and ``lh memory history`` list it: its decisions and
failures, its learnings (and the general ones of other projects), its open handoff items with their
history, and its journalled runs. Each file is parsed once while it is unchanged (:mod:`.file_reads`).

Everything returned is data; the page escapes it (memory text is untrusted).
"""

from __future__ import annotations

import os

from lazy_harness.memory import aliases, files, handoff, handoff_log, held_shown, ids, standing
from lazy_harness.recall.readback import digest as recall
from lazy_harness.recall.readback import learnings as heads
from lazy_harness.ui.file_reads import parsed

TYPE_CHECKING = False
if TYPE_CHECKING:
    from lazy_harness.ui.reading import Project
    from lazy_harness.memory import held_review


def _read_records(path: str) -> list[dict]:
    # why the file's kind: a line without ``type`` and ``id`` (written by hand, or before ids) is a
    # failure in failures.jsonl; read as a decision it had a d- id, and Forget acted on another entry
    kind = "failure" if os.path.basename(path) == files.FAILURES else "decision"
    # why one_each: of the lines carrying one id (a line duplicated or reworded by hand, a synced line
    # claiming it), the one sessions are shown, as ``lh memory show`` lists it (ADR 0059)
    out = standing.one_each([rec for rec in files.read_entries(path) if recall.is_entry(rec)], kind)
    for rec in out:
        rec["id"] = ids.of_record(rec, kind)
    return out


def records(path: str) -> list[dict]:
    """Every decision or failure of a JSONL file, oldest first, each with its ``id`` (copies: the
    caller may add fields)."""
    return [dict(rec) for rec in parsed(path, _read_records) or []]


def entries(p: Project, kind: str) -> list[dict]:
    """Decisions or failures, newest first; a left-out one carries ``left_out``: its state as ``lh memory
    show`` tags it (``held_review.States``: its marks, a forget winning over a hold, then the hold check
    on its text at read time, its verdicts kept per text)."""
    import functools

    from lazy_harness.memory import held_review, state, trust

    name = files.DECISIONS if kind == "decision" else files.FAILURES
    # why States, not the marks alone: an entry the check holds before any hold was recorded (a hand
    # edit, a synced line) was listed live here while show and "Held for approval" said held
    states = held_review.States(p.memory_dir, p.learnings_dir)
    out = records(os.path.join(p.memory_dir, name))
    for i, rec in enumerate(out):
        now = states.record(kind, rec["id"], rec)
        # why: an entry held for a secret, or ended holding one, is listed redacted, as lh memory show
        # prints it (ADR 0062)
        out[i] = rec = held_shown.record(rec, kind, states.redact_by(now, functools.partial(trust.text_of, rec, kind)))
        rec["left_out"] = state.label(now) or None
    return out[::-1]


def _read_learning(path: str) -> tuple[dict, str, str] | None:
    """(head, the text the hold check reads, the check's verdict on it: '' when it passes) of a
    learning file; None when unreadable. why
    the verdict here: kept with the head while the file is unchanged, the check (about 0.1 ms a
    learning) runs once per file, not at every page load."""
    from lazy_harness.memory import held, trust

    head = heads.read_head(path)
    if head is None:
        return None
    text = held.learning_text(path)[1]
    return head, text, (trust.reason(text) or "") if text else ""


def _learning_state(meta: dict, text: str, verdict: str, cross: str) -> tuple[str, str]:
    """``held_review.learning_state(meta, text, cross)``, as ``lh memory show`` and "Held for approval" work it
    out (the frontmatter, then the hold check), without running the check again on a text whose kept
    verdict passes: for such a text that function gives the frontmatter's state, but for a held or
    waiting one that claims an approval."""
    from lazy_harness.memory import held_review, state

    now = state.of_learning(meta, cross, text)
    if verdict or (now[0] in (state.HELD, state.WAITING) and state.claims_approval(meta)):
        return held_review.learning_state(meta, text, cross)
    return now


def learnings(p: Project, cross: str = "ask") -> tuple[list[dict], list[dict]]:
    """(this project's learnings, general learnings of other projects), newest first; each with ``id``,
    ``day``, ``title``, ``learning`` (the start of its text), ``path`` and ``left_out`` (how its state
    keeps it from this project's sessions: memory/state.py, with the hold check, as ``lh memory show``
    tags it). Each file is read once while it is unchanged: its head and the check's verdict are kept.
    One learning in two files (one id and title: written on two days, or copied by hand) is listed
    once, by its newest file, with ``also_in`` naming the others, as ``lh memory show`` lists it and
    SessionStart shows it (``learnings.once_each``). ``refused``: why ``lh memory forget`` refuses its id
    (:func:`forget_refusals`), else None."""
    from lazy_harness.memory import state

    found: list[dict] = []
    texts: dict[str, tuple[str, str]] = {}
    for path in files.recent_learning_files(p.learnings_dir, 10**9):
        read = parsed(path, _read_learning)
        if read is None:
            continue
        head, text, verdict = read
        meta = dict(head, path=path)
        meta["id"] = ids.of_learning(meta, path=path)
        texts[path] = (text, verdict)
        found.append(meta)
    refused = _refusals(found)
    own: list[dict] = []
    general: list[dict] = []
    owned = aliases.owned(p.memory_dir)  # earlier keys of the project and adopted learnings (ADR 0035)
    mine_of = {meta["path"]: owned.lists(meta, p.name) for meta in found}
    # why the project's first: another project's newer file of one id and title must not stand for this one's
    listed = [m for m in found if mine_of[m["path"]] or str(m.get("scope") or "").strip().lower() != "project"]
    ended = _Ended(p)
    for meta in heads.once_each(listed):
        mine = mine_of[meta["path"]]
        meta["day"] = heads.day_of(meta) or "undated"  # why its rule: the day SessionStart shows
        now = _learning_state(meta, *texts[meta["path"]], cross)
        meta["left_out"] = state.label(now, mine) or None
        why = ended.redact_by(now, texts[meta["path"]][0])
        if why:  # why: held for a secret, or ended holding one: listed redacted (ADR 0062)
            meta["title"], meta["learning"] = held_shown.fields([str(meta.get(f) or "") for f in ("title", "learning")],
                                                                why)
        meta["refused"] = refused.get(meta["id"])
        (own if mine else general).append(meta)
    ended.save()
    return own, general


class _Ended:
    """What a learning is listed redacted by (``held_review.States.redact_by``), the project's states
    read only for a learning a person or consolidation ended (forgotten, deprecated)."""

    def __init__(self, p: Project) -> None:
        self.p = p
        self.states: held_review.States | None = None

    def redact_by(self, now: tuple[str, str], text: str) -> str:
        if held_shown.names_secret(now[1]):
            return now[1]
        from lazy_harness.memory import held_review

        if now[0] not in held_review.ENDED:
            return ""
        if self.states is None:
            self.states = held_review.States(self.p.memory_dir, self.p.learnings_dir)
        return self.states.ended_secret(text)

    def save(self) -> None:
        if self.states is not None:
            self.states.save()


def learning_secret(path: str) -> str:
    """The hold check's finding of a secret in a learning file (``trust.secret``'s reason), '' for none:
    for a list that does not work out a learning's state ("Learnings without a project") to show one
    that holds a secret redacted (ADR 0062). Read from the verdict kept with the file's head while it is
    unchanged; only a text held by the other rules is read for a secret again."""
    from lazy_harness.memory import held_shown, trust

    read = parsed(path, _read_learning)
    if read is None or not read[2]:
        return ""
    return read[2] if held_shown.names_secret(read[2]) else trust.secret(read[1]) or ""


def forget_refusals(p: Project) -> dict[str, str]:
    """``{id: why}`` of the learnings ``lh memory forget`` refuses to forget (one id on two texts: one
    learning written on two days in its own words), the message it gives, hint included. "Held for
    approval" asks it, the learnings list is given it (:func:`learnings`)."""
    found = []
    for path in files.recent_learning_files(p.learnings_dir, 10**9):
        read = parsed(path, _read_learning)
        if read is not None:
            found.append({"path": path, "id": ids.of_learning(dict(read[0], path=path), path=path)})
    return _refusals(found)


def _refusals(found: list[dict]) -> dict[str, str]:
    """:func:`forget_refusals` of learning heads (``id``, ``path``), asked of ``hand_runs.one_learning``,
    the check forget makes. why only ids in two files or more: a single file is never refused, and the
    check reads each file it is given."""
    from lazy_harness.errors import LhError
    from lazy_harness.memory import hand_runs

    paths: dict[str, list[str]] = {}
    for meta in found:
        paths.setdefault(meta["id"], []).append(meta["path"])
    out = {}
    for lid, some in paths.items():
        if len(some) > 1:
            try:
                hand_runs.one_learning(lid, some)
            except LhError as exc:
                out[lid] = str(exc)
    return out


def handoff_items(p: Project) -> list[dict]:
    """Open items, oldest first, each with ``history``: every record of its id, oldest first, and
    ``left_out``: its tag in ``lh memory show`` (held by a mark or by the hold check at read time), or
    None."""
    from lazy_harness.memory import held_review, state

    loaded, _ = handoff.load(p.memory_dir)
    history: dict[str, list[dict]] = {}
    for rec in handoff_log.read_records(p.memory_dir) or []:
        if isinstance(rec, dict) and isinstance(rec.get("id"), str):
            history.setdefault(rec["id"], []).append(rec)
    items = handoff.open_items(loaded)
    # why: an item the check holds (a hand edit of handoff.md) was listed as any other, show tags it
    states = held_review.States(p.memory_dir, p.learnings_dir) if items else None
    out = []
    for item in items:
        recs = sorted(history.get(item["id"], []), key=lambda r: str(r.get("ts") or ""))
        tag = state.label(states.record("handoff", item["id"], {"text": str(item.get("text") or "")})) if states else ""
        # why: an item held for a secret is listed redacted, its history's texts too (ADR 0062)
        said = {}
        if held_shown.names_secret(tag):
            said = {"text": held_shown.text(item.get("text"), tag)}
            recs = [{**r, "text": held_shown.text(r.get("text"), tag)} if "text" in r else r for r in recs]
        out.append({**item, **said, "history": recs, "left_out": tag or None})
    return out


def runs(p: Project) -> list[dict]:
    """Every journalled change of the project, newest first (``lh memory history``): those journaled
    under its earlier keys with ``earlier``, the folder they are journaled in (undone here all the same:
    ``project_runs.to_undo``); and the runs journaled in another project's memory that changed one of
    its own learnings, each of those with ``elsewhere``: (where it is journaled and undone, its changes
    to this project's learnings)."""
    from lazy_harness.memory import changes, project_runs
    from lazy_harness.memory.journal_format import run_order

    own = [{**r, "earlier": where} if where else r for r, where in project_runs.runs(p.folder, p.memory_dir, p.name)]
    others = changes.listed_elsewhere(p.memory_dir, p.learnings_dir, p.name, {str(r["run"]) for r in own})
    return sorted(own + others, key=run_order, reverse=True)
