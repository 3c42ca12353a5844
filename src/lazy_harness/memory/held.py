"""Entries held for approval: what the hold check (memory/trust.py) caught, kept out of every session
until the person approves or forgets it.

    decision, failure, open item   a mark ``{"op": "hold", "id", "reason", "ts", "run"}`` in marks.jsonl,
                                   left out by every reader as a forgotten entry is
    learning                       frontmatter ``status: held`` (``deprecated_reason: held: <why>``),
                                   left out as a deprecated one is

Approving is a journalled run too: the hold mark is taken out and ``{"op": "approve", "id", "mac"}``
written (a learning is set active with ``deprecated_reason: approved by hand; signed <mac>``), so the
read-time check lets that entry through from then on and ``lh memory undo`` holds it again. The MAC
(memory/approval.py, ADR 0052) is this person's, over the entry's kind, id and checked text: an
approval another machine or a synced file wrote, or one of another text under the same id, lets
nothing through; the entry stays held (or waiting), and the review list says why
(``approval_key.NOT_HERE``). ``lh memory forget`` drops a held entry for good. Every hold and approval is
one run of ``lh memory history``.

This module holds what the hooks read (the approvals, the read-time check :class:`Screen` and its
kept verdicts, :func:`hold`) and the scan of a memory folder for what to hold. The review list, each
entry's state as every view shows it (with the verdicts those views keep, and what makes a copied
learning file the learning it copies), and approving are in memory/held_review.py; what a persist just
wrote and what a sync round brought in (the scan of merged learnings, the verdicts kept of them), for
the checks after them, in memory/held_written.py.

Who holds: the worker after it wrote a session's entries, sync after a merge, migration after it
moved old files, and the SessionStart hook for an entry it finds hostile at read time (a hand edit,
an entry older than the check); prompt recall leaves such an entry out and the next start records it.
"""

from __future__ import annotations

import os

from lazy_harness import paths
from lazy_harness.memory import approval, approval_key, files, ids, lines, marks, provenance, state, trust
from lazy_harness.memory.verdicts import Kept, kept_verdicts
from lazy_harness.memory.marks import held_ids  # noqa: F401 - this module's word, kept in marks for the start

# why: not ``from typing import TYPE_CHECKING``: memory never imports ``typing`` at run time (the hooks
# load its read side: house style section 3)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Container, Iterator

    from lazy_harness.memory.shapes import Env

HOLD, APPROVE = "hold", "approve"
HELD = "held"  # a learning's status
APPROVED = state.APPROVED_BY_HAND  # a learning's deprecated_reason once approved


class Approvals:
    """The approve marks of a memory folder, and which of them the person made (ADR 0052). ``ok(kind,
    id, text)`` with the text at hand (the read-time check); ``id in approvals`` looks the text up in the
    folder's files (once, for every claimed id), for readers that hold only an id (prompt recall, the
    worker's model check); iterating, ``|`` and ``len`` give the ids that count. Through ``in``, an
    approval of a text that holds a secret does not count (ADR 0056: a secret holds an entry whatever
    approved it), read through the project's kept verdicts (``verdicts.kept_verdicts``)."""

    def __init__(self, memory_dir: str, recs: list[dict], env: Env | None = None, secrets: bool = True) -> None:
        self.memory_dir, self.env, self.secrets = memory_dir, env, secrets
        self.claims: dict[str, list[object]] = {}
        for m in recs:
            if m.get("op") == APPROVE:
                self.claims.setdefault(m["id"], []).append(m.get("mac"))
        self._texts: dict[str, list[str]] | None = None
        self._known: dict[str, bool] = {}
        self._verdicts: Kept | None = None

    def ok(self, kind: str, eid: str, text: str) -> bool:
        """Whether the person approved entry ``eid`` as its text ``text`` reads now."""
        given = self.claims.get(eid)
        return given is not None and approval_key.counts(kind, eid, text, given, self.env)

    def unsigned(self, kind: str, eid: str, text: str) -> bool:
        """Whether ``eid`` has an approve mark that is not the person's for ``text``."""
        return eid in self.claims and not self.ok(kind, eid, text)

    def __contains__(self, eid: object) -> bool:
        if not isinstance(eid, str) or eid not in self.claims:
            return False
        if eid not in self._known:
            if self._texts is None:
                self._texts = approval.entry_texts(self.memory_dir, set(self.claims))
            texts, kind = self._texts.get(eid) or [], ids.kind_of(eid) or ""
            self._known[eid] = bool(texts) and all(self.ok(kind, eid, t) for t in texts) \
                and not (self.secrets and bool(self._secret(texts[0])))  # the text the id is the hash of
        return self._known[eid]

    def _secret(self, text: str) -> str | None:
        if self._verdicts is None:
            # why read only: what SessionStart keeps answers for the entries it showed; not written here
            self._verdicts = kept_verdicts(self.memory_dir, self.env)
        return self._verdicts.secret(text)

    def __iter__(self) -> Iterator[str]:
        return iter([e for e in self.claims if e in self])

    def __len__(self) -> int:
        return len(list(iter(self)))

    def __or__(self, other: object) -> set[str]:
        return set(self) | set(other) if isinstance(other, (set, frozenset, Approvals)) else NotImplemented

    __ror__ = __or__


def approved(memory_dir: str, recs: list[dict] | None = None, env: Env | None = None,
             secrets: bool = True) -> Approvals:
    """What the person approved in this memory folder (``recs``: its marks, when read already). At the
    first read by this version on this machine, the approvals present are taken as theirs
    (``approval.adopt_once``). ``secrets=False``: the caller knows already which texts hold a secret
    (prompt recall: the index's reason), so ``in`` does not look for one."""
    recs = marks.read(memory_dir) if recs is None else recs
    where = os.path.abspath(memory_dir)
    approval.adopt_once((os.path.dirname(where),), (paths.learnings_dir(None, env),), env, known={where: recs})
    return Approvals(memory_dir, recs, env, secrets)


def learning_approved(meta: dict, text: str | None = None, path: str | None = None, env: Env | None = None) -> bool:
    """Whether the person approved a learning (``meta``: its frontmatter or head; ``text``: what the
    check reads of it, else its file, ``path`` or ``meta["path"]``, is read) and its text holds no
    secret (ADR 0056: a secret holds a learning whatever approved it)."""
    if not state.approved_learning(meta, text, path, env):
        return False
    if text is None:
        where = path or meta.get("path")
        text = learning_text(where)[1] if isinstance(where, str) else ""
    return not trust.secret(text)


learning_text = approval.learning_text  # (frontmatter, the text the check reads) of a learning file
check_text = approval.check_text  # the text the check reads of a learning: title, body, tags and cues


def hold(memory_dir: str, learnings_dir: str, found: list[tuple[str, str, str, str]], project: str,
         now: float, why: str, by_rules: bool = False) -> str | None:
    """Hold every ``(kind, id, learning path or '', reason)`` of ``found`` in one journalled run;
    returns the run id (None when there was nothing left to hold).

    ``by_rules``: ``found`` is the rules' verdict (``trust.reason``), which every read applies again
    (SessionStart's check, a sync's merge check, a migration): an entry that carries an approve mark,
    or a learning whose frontmatter says approved, is then not held, whoever signed the approval (ADR
    0032, 0052). Such a hold would outrank the person's approval on the machine that made it, once
    synced there; on a machine that cannot verify the approval, the read-back's rules leave the entry
    out all the same. Not a secret's reason (``trust.secret``), which holds the entry all the same:
    a secret holds an entry whatever approved it (ADR 0056). Not for the worker's holds (the model
    check, the learned check, an answer over the cap): nothing applies those verdicts again at read
    time, so an approve mark forged in synced memory must not stop them."""
    from lazy_harness.memory import changes, journal

    if not found:
        return None
    recs = marks.read(memory_dir) if os.path.isdir(memory_dir) else []
    hidden, claimed = marks.hidden(memory_dir, recs), _claimed(recs) if by_rules else set()
    j = journal.Journal(memory_dir, "hold", project, now)
    done, released = 0, set()
    for kind, eid, path, reason in found:
        if by_rules and not reason.startswith(trust.SECRET) and (
                eid in claimed or (kind == "learning" and state.claims_approval(learning_text(path)[0] or {}))):
            continue
        if kind == "learning":
            # why the check inside: read under the status lock, so a forget made since is never written over
            if not changes.set_learning_status(path, learnings_dir, HELD, None, f"{HELD}: {reason}", now, j,
                                               only_from=state.ACTIVE):
                continue
            # why: a held learning stands for nothing; the older text of its title it deprecated is shown again
            changes.release_learnings(memory_dir, learnings_dir, j, eid, lambda _meta: True, became=HELD)
        else:
            if eid in hidden:
                continue
            from lazy_harness.atomic import ensure_dir

            ensure_dir(memory_dir)  # why not makedirs: a umask of 002 would leave it open to the group
            replaced = _replaced_by(recs, eid) if kind == "decision" else []
            changes.add_mark(memory_dir, j, HOLD, eid, None, reason, now,
                             extra={"released": replaced} if replaced else None)
            hidden[eid] = {"op": HOLD}
            for old in replaced:
                j.note(f"release {old}: its replacement {eid} is held")
            if replaced:
                released.add(eid)
        j.note(f"hold {eid}: {reason} ({why})")
        done += 1
    if not done:
        return None
    if released:  # why: a held decision stands for nothing; the one it replaced is shown again (ADR 0060)
        changes.unmark(memory_dir, j, released, ops=("supersede",), field="by")
    j.save()
    return j.run


def _replaced_by(recs: list[dict], eid: str) -> list[str]:
    """The ids decision ``eid`` is marked as replacing (``supersede`` marks by it), once each."""
    return list(dict.fromkeys(m["id"] for m in recs if m.get("op") == "supersede" and m.get("by") == eid
                              and isinstance(m.get("id"), str)))


def scan_records(memory_dir: str, env: Env | None = None,
                 only: Container[str] | None = None) -> list[tuple[str, str, str, str]]:
    """Live decisions, failures and open items of a memory folder that the check holds and nobody approved.
    Its callers (sync after a merge, migration after a move) bring lines in: at the first read of this
    version, this folder's approvals are not adopted (ADR 0052), the others are. An entry with an
    approve mark is left alone, whoever signed it (:func:`hold`). ``only``: the ids to check (what a
    merge brought in), the others passed over; None: every one. why: the check costs about 1 ms an
    entry of realistic text (benchmarks/bench_hold_check_sync.py; 18,000 decisions: 18 s of a round that
    merged one line, against a pull budget of 1.5 s)."""
    from lazy_harness.memory import handoff

    recs = marks.read(memory_dir)
    where = os.path.abspath(memory_dir)
    approval.adopt_once((os.path.dirname(where),), (), env, unless=(where,))
    hidden, claimed = marks.hidden(memory_dir, recs), _claimed(recs)
    out = []
    for kind, name in (("decision", files.DECISIONS), ("failure", files.FAILURES)):
        for _, rec in numbered_entries(os.path.join(memory_dir, name)):
            eid = ids.of_record(rec, kind)
            if eid in hidden or eid in claimed or (only is not None and eid not in only):
                continue
            reason = trust.check(rec, kind)
            if reason:
                out.append((kind, eid, "", reason))
    for item in handoff.open_for_reading(memory_dir):
        if item["id"] not in hidden and item["id"] not in claimed and (only is None or item["id"] in only):
            reason = trust.reason(str(item.get("text") or ""))
            if reason:
                out.append(("handoff", item["id"], "", reason))
    return out


def _claimed(recs: list[dict]) -> set[str]:
    """The ids that carry an approve mark among marks ``recs``, whoever wrote it."""
    return {m["id"] for m in recs if m.get("op") == APPROVE}


def numbered_entries(path: str) -> list[tuple[int, dict]]:
    """Every decision or failure of a JSONL file with its line number (from 1), read as every view reads
    it (``files.read_entries``): through ``lines.read_numbered`` (the rules of ``lines.read_marked``,
    with each record's line) and ``lines.entry_fields``, so a damaged line is salvaged as SessionStart
    salvages it and the hold check, ``lh memory held``, ``approve`` and ``show`` see it under the id
    SessionStart holds; a salvaged copy of a whole entry is that entry, and a last line without its
    newline that is not a whole object (a write in flight) is not read. [] when unreadable."""
    try:
        found = lines.read_numbered(path, lines.entry_fields)
    except OSError:
        return []
    where = {id(rec): n for n, rec, _ in found}  # id() of each record: its line
    kept = lines.without_salvaged_twins([(rec, salvaged) for _, rec, salvaged in found])
    return [(where[id(rec)], rec) for rec in kept if "op" not in rec and isinstance(rec.get("summary"), str)]


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
    """The text the check reads of a learning's head (recall.readback.learnings.read_head): its file's
    name too, as words. why the name: the read-back shows it, and a file synced in or made by hand is
    named as its maker chose, whatever its title says (``...-ignore-previous-instructions.md``)."""
    text = check_text(head, head.get("learning"))
    path = head.get("path")
    return f"{text} {ids.title_of_file(path)}" if isinstance(path, str) and path else text


CAP_EXCERPT = 240


def excerpt(body: str) -> str:
    """The start of a learning's ``## Learning`` section (or of its body), on one line: what the
    read-back shows of it (a head's ``learning``), so what its check reads (:func:`head_text`)."""
    at = body.find("## Learning")
    if at >= 0:
        chunk = body[at:].partition("\n")[2]
    else:
        chunk = body.lstrip()
        while chunk.startswith("#"):
            chunk = chunk.partition("\n")[2].lstrip()
    return " ".join(chunk[:4 * CAP_EXCERPT].partition("\n#")[0].split())


# why: Kept.save runs when the read ends, and a start killed at its timeout keeps nothing it worked out:
# a text this long (tens of milliseconds of the rules, up to a tenth of a second) is kept as soon as it
# is checked, so the next start goes on from there (ADR 0088)
KEEP_AT_ONCE = 2000


class Screen:
    """The hold check at read time (memory/trust.py): an entry whose text reads as an instruction to
    the agent is left out, unless the person approved it; what it left out is in ``found``, for the
    SessionStart hook to hold (:func:`hold`)."""

    def __init__(self, approved: Approvals | set[str], hidden: Container[str] = frozenset(),
                 verdicts: Kept | None = None) -> None:
        """``verdicts``: a :class:`Kept` that answers for texts already checked."""
        self.approved, self.hidden, self.verdicts = approved, hidden, verdicts
        self.found: list[tuple[str, str, str, str]] = []

    def keep(self, kind: str, eid: str, text: str, head: dict | None = None) -> bool:
        if eid in self.hidden:  # an open item held (or forgotten) by a mark
            return False
        # why ok() with the text: an approve mark counts only as the person's MAC of this very text; a
        # plain set of ids (a caller's own word) is taken as it is. A learning: the person's MAC of its
        # file's text (ADR 0052)
        env = self.approved.env if isinstance(self.approved, Approvals) else None  # whose key counts
        checks = self.verdicts.checks if self.verdicts is not None else 0
        if (head is not None and state.approved_learning(head, env=env)) or (
                self.approved.ok(kind, eid, text) if isinstance(self.approved, Approvals) else eid in self.approved):
            # why: a secret holds an entry whatever approved it (ADR 0056); kept per text, so an approved
            # entry without one costs a lookup, not the redactor
            why = trust.secret(text) if self.verdicts is None else self.verdicts.secret(text)
        else:
            why = trust.reason(text) if self.verdicts is None else self.verdicts.reason(text)
        if self.verdicts is not None and self.verdicts.checks > checks and len(text) >= KEEP_AT_ONCE:
            try:
                self.verdicts.save(keep_known=True)
                # why: the save when the read ends still writes only what this read used
                self.verdicts.worked_out += 1
            except OSError:  # why: a cache; the save when the read ends says what failed
                pass
        if why:
            self.found.append((kind, eid, head["path"] if head else "", why))
        return not why

    def unread(self) -> list[str]:
        """The entries left out unread for their length (``trust.TOO_LONG``), as words for hooks.log:
        ``decision d-1a2b3c4d not read: too long to check (307,245 characters, over the 16,000 ...)``."""
        return [f"{kind} {eid} not read: {why.partition('):')[0]})" for kind, eid, _, why in self.found
                if why.startswith(trust.TOO_LONG)]
