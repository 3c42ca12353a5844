"""The review of held entries: ``listing`` is the review list (``lh memory held``, the page's "Held
for approval", ``lh status``'s count): the held entries (memory/held.py), then the learnings a session
wrote that wait for approval to be used in other projects (ADR 0032); each entry's state comes from
memory/state.py and the hold check at read time (:class:`States`, also ``lh memory show``'s tags),
the same in every view: an entry the rules hold is held there before any hold is recorded, and
approving it (:func:`approve`) writes an approve mark as for any other. An entry copied by hand (a
learning file, :func:`copy_text`; a decision or failure line) is listed once. A forget takes a held
entry's hold marks out in its run (memory/by_hand.py), and undo never undoes a hold run.
"""

from __future__ import annotations

import os

from lazy_harness.memory import (approval, approval_key, files, held_shown, ids, lines, marks, provenance, state,
                                 trust)
from lazy_harness.memory.held import (APPROVE, APPROVED, HELD, HOLD, Approvals, approved, learning_text,
                                      numbered_entries)
from lazy_harness.memory.verdicts import Kept, listing_verdicts

TYPE_CHECKING = False  # why: not typing's, as memory/held.py
if TYPE_CHECKING:
    from collections.abc import Callable

    from lazy_harness.memory.journal import Journal
    from lazy_harness.memory.shapes import Env


def approve(memory_dir: str, learnings_dir: str, eid: str, kind: str, path: str, reason: str, j: Journal,
            now: float, env: Env | None = None, told: list[str] | None = None) -> None:
    """Release one held entry in journal ``j``: its hold marks out of marks.jsonl and an ``approve``
    mark in with this person's MAC of its text (a decision, failure or open item), or the learning
    set active, ``approved by hand; signed <mac>`` (ADR 0052), only while it is still held or active
    (read under the status lock: one forgotten or deprecated since the list was read stays so, and
    nothing is journalled for it). Raises ``approval_key.KeyRefused`` (an LhError) when the key may not
    be used, before anything is written. ``told``: gets a line for the person when the approved text of
    a learning stays replaced by a newer text of its title (:func:`newer_stands`)."""
    from lazy_harness.atomic import rewrite
    from lazy_harness.errors import LhError
    from lazy_harness.memory import changes

    if kind == "learning":
        from lazy_harness.memory import learning_damage

        learning_damage.refuse([path])  # why: a frontmatter no writer can read, named by its file and line
        meta, text = learning_text(path)
        lid = ids.of_learning(meta, path=path)
        signed = approval_key.sign("learning", lid, text, env)
        if changes.set_learning_status(path, learnings_dir, "active", None, f"{APPROVED}{approval.SIGNED}{signed}",
                                       now, j, only_from=(HELD, state.ACTIVE)) and meta.get("status") == HELD:
            # why held only: one that waited to cross projects was shown here, its title settled when written
            keys = _keys_of(memory_dir, meta, env)
            replace_older(learnings_dir, path, meta, j, now, keys)
            if (newer := newer_stands(learnings_dir, path, meta, j, now, keys)) and told is not None:
                told.append(f"{lid} is approved and stays replaced by {newer}, a newer text of its title written "
                            f"while it was held (lh memory forget {newer} shows it instead)")
        return
    texts = approval.entry_texts(memory_dir, {eid}).get(eid)
    if not texts:
        raise LhError(f"no {kind} {eid} in {memory_dir} to approve", hint="lh memory held")
    mac = approval_key.sign(kind, eid, texts[0], env)
    mpath = marks.path_of(memory_dir)
    released = [old for m in marks.read(memory_dir) if m.get("op") == HOLD and m.get("id") == eid
                and isinstance(m.get("released"), list) for old in m["released"]]
    j.track(mpath)
    # why: taken out, not countered: every reader and the search index then see the entry as never held
    rewrite(mpath, lambda data: marks.without(data, {eid}, ops=(HOLD,)))
    j.record(mpath)
    changes.add_mark(memory_dir, j, APPROVE, eid, None, reason, now, extra={"mac": mac})
    for old in dict.fromkeys(o for o in released if isinstance(o, str)):
        # why: its hold gave back the decisions it replaces (held.hold); approved, it replaces them again
        if changes.add_mark(memory_dir, j, "supersede", old, eid, f"replaced by {eid}, approved", now,
                            live=(old, eid)):
            j.note(f"supersede {old} by {eid}: approved")


def _keys_of(memory_dir: str, meta: dict, env: Env | None) -> frozenset[str] | None:
    """The memory keys of the project whose learning ``meta`` is (its recorded key and that project's
    aliases: ``learnings.of_title``), None for one written before keys were (its origin's name decides).
    why: another repository of the same folder name shares the origin; its text is never replaced here."""
    from lazy_harness.memory import aliases

    key = meta.get("project_folder")
    if not isinstance(key, str) or not key:
        return None
    return aliases.owned(os.path.join(os.path.dirname(memory_dir.rstrip(os.sep)), key), env).keys | {key}


def replace_older(learnings_dir: str, path: str, meta: dict, j: Journal, now: float,
                  keys: frozenset[str] | None = None) -> list[str]:
    """A learning the person approved replaces the older texts of its title, as the persist would have
    had the check not held it (ADR 0063): each active one written before it, not edited by hand, is
    deprecated by it in the approval's run ``j`` (its undo shows them again). Returns their ids. ``keys``:
    its project's (:func:`_keys_of`); another project's text of the title is left as it is."""
    from lazy_harness.errors import LhError
    from lazy_harness.memory import changes, learnings
    from lazy_harness.memory.files import iso_epoch

    title, origin = str(meta.get("title") or ""), str(meta.get("origin") or "")
    versions = learnings.of_title(learnings_dir, learnings.titled_listing(learnings_dir), title, origin, keys)
    mine = next((v for v in versions if v["path"] == path), None)
    if mine is None:
        return []
    since, out = iso_epoch(mine["created"]) or 0.0, []
    for v in versions:
        if (v["path"] == path or v["status"] != state.ACTIVE or v["now"] != (v["wrote"] or v["now"])
                or (iso_epoch(v["created"]) or 0.0) >= since):
            continue
        try:
            done = changes.set_learning_status(v["path"], learnings_dir, state.DEPRECATED, mine["id"],
                                               "a new text of its title, approved by hand", now, j,
                                               only_from=state.ACTIVE)
        except LhError as exc:  # a frontmatter no writer rewrites: the older text stays shown beside it
            j.note(f"not deprecated for {mine['id']}: {exc}")
            continue
        if done:
            j.note(f"deprecate {v['id']} for {mine['id']}: a new text of its title, approved by hand")
            out.append(v["id"])
    return out


def newer_stands(learnings_dir: str, path: str, meta: dict, j: Journal, now: float,
                 keys: frozenset[str] | None = None) -> str | None:
    """A held learning the person approved after a newer text of its title was written (a later
    session's correction, which replaced the text shown while it was held) does not come back beside
    it (ADR 0071): it is deprecated by the newest active text of its title, in the approval's run, its
    approval kept in the run (forgetting the newer text shows it again, approved; undoing the run holds it
    again). Returns the newer text's id, or None when none stands after it."""
    from lazy_harness.errors import LhError
    from lazy_harness.memory import changes, learnings
    from lazy_harness.memory.files import iso_epoch

    title, origin = str(meta.get("title") or ""), str(meta.get("origin") or "")
    versions = learnings.of_title(learnings_dir, learnings.titled_listing(learnings_dir), title, origin, keys)
    mine = next((v for v in versions if v["path"] == path), None)
    since = iso_epoch(mine["created"]) if mine else None
    # why of_title's order: the newest first
    newer = next((v for v in versions if since is not None and v["path"] != path and v["status"] == state.ACTIVE
                  and (iso_epoch(v["created"]) or 0.0) > since), None)
    if mine is None or newer is None:
        return None
    why = "approved by hand after a newer text of its title was written"
    try:
        done = changes.set_learning_status(path, learnings_dir, state.DEPRECATED, newer["id"], why, now, j,
                                           only_from=state.ACTIVE, others_active=(newer["path"],))
    except LhError as exc:  # a frontmatter no writer rewrites: both texts stay shown
        j.note(f"{mine['id']} not deprecated for {newer['id']}: {exc}")
        return None
    if done:
        j.note(f"deprecate {mine['id']} for {newer['id']}: {why}")
    return newer["id"] if done else None


def refuse_secret(memory_dir: str, eid: str, kind: str, files_: list[str], where: str) -> None:
    """Refuse to approve entry ``eid`` (a learning: its files ``files_``) while the redactor finds a secret
    in its text (ADR 0056): the approval would show the secret to every session. Raises an LhError that
    names the kind and the redacted words around it, never the secret, and says what to do (``where``:
    the file to edit)."""
    # why the first of a decision's or failure's texts: the one the id is the hash of, which the
    # approval signs (approval.entry_texts lists it first; another writer's line under the id is not it)
    texts = ([learning_text(p)[1] for p in files_] if kind == "learning"
             else (approval.entry_texts(memory_dir, {eid}).get(eid) or [])[:1])
    why = next(filter(None, map(trust.secret, texts)), None)
    if why:
        from lazy_harness.errors import LhError

        raise LhError(f"{eid} {why}, and is not approved while the redactor finds one: edit the secret out of "
                      f"{where} (or overwrite it with its [REDACTED:...] marker) and approve it then, or drop it",
                      hint=f"lh memory forget {eid}")


def approve_refused(memory_dir: str, h: dict) -> str | None:
    """What ``lh memory approve`` says of a listed held entry (``listing``) it refuses, as
    :func:`refuse_secret` asks it: one held for a secret the redactor still finds; None when approve
    would take it. why: ``lh memory held`` and the page offered an approval that could only be refused."""
    from lazy_harness.errors import LhError
    from lazy_harness.memory import held_shown

    if not held_shown.names_secret(h.get("reason")):
        return None
    copies = list(h.get("files") or [h["file"]])
    try:
        refuse_secret(memory_dir, h["id"], h["kind"], copies if h["kind"] == "learning" else [""], ", ".join(copies))
    except LhError as exc:
        return str(exc)
    return None


# said once by a command whose listing checks many texts itself (``listing``'s ``told``)
WAITING = ("checking this memory's entries against the hold rules: once after the rules change, as with an "
           "upgrade (a few ms an entry; the verdicts are kept)...")


def listing(memory_dir: str, learnings_dir: str, cross: str = state.ASK,
            told: Callable[[], object] | None = None, env: Env | None = None) -> list[dict]:
    """What waits for the person (``lh memory held``, the page's "Held for approval"): every entry of a
    project and every learning whose state (memory/state.py) is held, and the learnings that wait for
    approval to be used in other projects (``cross``: ``[trust] cross_projects``). Each: kind, id,
    state (held or waiting), reason, origin, text (redacted when held for a secret: ``held_shown``, ADR
    0062; the person edits the secret out of ``file``), file, ``at_read`` (held by the check at read time,
    no hold recorded yet), and a learning's ``files`` (its copies).
    A state is worked out as every view works it out (:class:`States`): the marks or frontmatter, then
    the hold check on the entry's text at read time, its verdicts kept per text (a text checked once
    is not checked again until it changes), so an entry the rules hold is listed here as ``lh memory
    search`` labels it and prompt recall leaves it out, before any SessionStart recorded its hold.
    ``told``: called once when the check reads many texts itself (``verdicts.BULK``: after an upgrade that
    changed the rules), for the command to say why it waits (:data:`WAITING`). ``env``: whose approval
    key counts (None: this process's environment)."""
    states = States(memory_dir, learnings_dir, env)
    states.verdicts.on_bulk = told
    try:
        found = (_held_records(memory_dir, states) + _held_items(memory_dir, states)
                 + _held_learnings(learnings_dir, cross, states))
    except BaseException:  # why: a Ctrl-C after minutes of checks keeps what they found
        states.save()
        raise
    states.save(whole=True)
    return _one_per_learning([h for h in found if h["state"] == state.HELD]
                            + [h for h in found if h["state"] != state.HELD])


# the states a person or consolidation gave an entry that no session sees: what a listing still
# prints of it is redacted when its text holds a secret (States.redact_by)
ENDED = (state.FORGOTTEN, state.SUPERSEDED, state.MERGED, state.DEPRECATED)
ENDED_FILE = ".ended.json"  # beside the listing's verdicts, ``listing/<memory key>.ended.json``


class States:
    """The state of each entry of a memory folder as every view shows it (``lh memory held``, ``show``,
    ``lh status``, the page): its marks (a learning: its frontmatter), the person's approvals
    (ADR 0052), then the hold check's verdict on its text, kept per text in the listing's verdicts
    file (``verdicts.listing_verdicts``)."""

    def __init__(self, memory_dir: str, learnings_dir: str, env: Env | None = None) -> None:
        self.named, self.env = marks.by_id(memory_dir, marks.OPS), env  # env: whose approval key counts
        approval.adopt_once((os.path.dirname(os.path.abspath(memory_dir)),), (learnings_dir,), env)
        self.ok = approved(memory_dir, [m for ms in self.named.values() for m in ms], env)
        self.verdicts = listing_verdicts(memory_dir, env)
        self.ended: Kept | None = None  # the verdicts of ended entries' texts (:meth:`ended_secret`)

    def record(self, kind: str, eid: str, rec: dict) -> tuple[str, str]:
        """(state, detail) of a decision, failure or open item (``rec``: an open item as ``{"text"}``)."""
        return _record_state(self.named.get(eid), self.ok, kind, eid, rec, self.verdicts)

    def marked(self, eid: str) -> bool:
        """Whether a hold mark names ``eid`` (else a held entry is held by the check at read time)."""
        return any(m.get("op") == HOLD for m in self.named.get(eid) or ())

    def learning(self, meta: dict, text: str, cross: str = state.ASK) -> tuple[str, str]:
        """:func:`learning_state`, with the kept verdicts."""
        return learning_state(meta, text, cross, self.verdicts, self.env)

    def redact_by(self, now: tuple[str, str], text: Callable[[], str]) -> str:
        """What a listing redacts an entry in state ``now`` by (``held_shown``, ADR 0062): the state's
        detail when it names a secret (a hold's reason); for an entry a person or consolidation ended
        (forgotten, superseded, merged, deprecated; an item closed), which no session sees and no check
        reads any more, the redactor's finding in its text (``text()``: what the check reads), kept per
        text (:meth:`ended_secret`); else ''."""
        if held_shown.names_secret(now[1]):
            return now[1]
        return self.ended_secret(text()) if now[0] in ENDED else ""

    def ended_secret(self, text: str) -> str:
        """``trust.secret`` of the text of an ended entry, '' for none, kept per text in a file of its own
        beside the listing's verdicts. why its own: ``lh memory held`` keeps only the verdicts it used,
        and would drop these at every run for the next ``show`` to work out again, loading the redactor."""
        if self.ended is None:
            self.ended = Kept(self.verdicts.path[:-len(".json")] + ENDED_FILE)
        return self.ended.secret(text) or ""

    def save(self, whole: bool = False) -> None:
        """Keep the verdicts worked out (``whole``: this read checked every entry, so only what it used
        is kept; else what the file held is kept too). A cache: one that cannot be written is left."""
        try:
            self.verdicts.save(keep_known=not whole)
            if self.ended is not None:
                self.ended.save(keep_known=True)
        except OSError:
            pass


def copy_text(path: str) -> object:
    """What makes two files one learning (``hand_runs.learning_text``): its title and body, status fields
    aside, the title normalised and line endings made ``\\n``; the path when unreadable. A file copied by
    hand (``cp a.md a-copy.md``) is the learning it copies in every view (``lh memory show``, ``held``,
    ``forget``, ``approve``, the page, consolidation). why here: this module is below ``by_hand`` (whose
    ``approve`` reads :func:`listing`), and the review list needs the rule too."""
    from lazy_harness.memory import frontmatter
    from lazy_harness.memory.sanitize import normalise

    try:  # why open_regular: a FIFO named as a learning held every view in open() for good
        with open(lines.open_regular(path)[0], encoding="utf-8-sig", errors="replace") as fh:
            text = fh.read()
    except OSError:
        return path
    meta, body = frontmatter.parse_frontmatter(text) or ({}, text)
    return normalise(meta.get("title")), body.replace("\r\n", "\n").strip()


def _at_read(why: str) -> str:
    """The reason of an entry held by the check at read time (``lh memory approve`` and ``forget`` settle
    it as they settle one held by a mark)."""
    return f"{why} (at read time, no hold recorded yet)"


def _one_per_learning(found: list[dict]) -> list[dict]:
    """``found`` (held entries first, learnings newest first) with a learning copied by hand listed
    once (``copy_text``: one id, one title and body), by its first entry there, the newest file of its
    strictest state; ``files`` of each learning's entry: every held or waiting file of it, which
    ``approve`` releases together. A copy whose text differs is another entry under that id, listed."""
    out: list[dict] = []
    first: dict[tuple[str, object], dict] = {}
    for h in found:
        if h["kind"] != "learning":
            out.append(h)
            continue
        key = (h["id"], copy_text(h["file"]))
        if key in first:
            first[key]["files"].append(h["file"])
            continue
        first[key] = h = {**h, "files": [h["file"]]}
        out.append(h)
    return out


def learning_state(meta: dict, text: str, cross: str = state.ASK, verdicts: Kept | None = None,
                   env: Env | None = None) -> tuple[str, str]:
    """(state, detail) of a learning: its frontmatter, then the hold check on ``text`` (``learning_text``;
    ``verdicts``: a :class:`Kept` that answers for texts already checked). One whose frontmatter says
    approved but whose approval is not the person's (ADR 0052) says so."""
    now = state.of_learning(meta, cross, text, env)
    why, secret = _looks(text, verdicts, now[0])
    if now[0] in (state.ACTIVE, state.WAITING):
        now = state.with_verdict(now, why)
    if now[0] in (state.HELD, state.WAITING) and state.claims_approval(meta):
        now = now[0], f"{now[1]}; {approval_key.NOT_HERE}" if now[1] else approval_key.NOT_HERE
    return state.with_verdict(now, None, secret)


_LOOKED = (state.ACTIVE, state.APPROVED, state.WAITING, state.HELD)  # the states a secret holds


def _looks(text: str, verdicts: Kept | None, now: str) -> tuple[str | None, str | None]:
    """(the hold check's verdict, the redactor's finding) on the text of an entry in state ``now``, each
    worked out once (``verdicts``: kept per text); (None, None) for a state no secret changes. why the
    finding apart: a secret holds an entry whatever else holds or approved it (ADR 0056), and the
    verdict names only the first reason found."""
    if now not in _LOOKED:
        return None, None
    if verdicts is not None:
        return verdicts.reason(text), verdicts.secret(text)
    why = trust.reason(text)
    return why, (why if not why or why.startswith(trust.SECRET) else trust.secret(text))


def _record_state(named: list[dict] | None, ok: Approvals, kind: str, eid: str, rec: dict,
                  verdicts: Kept | None = None) -> tuple[str, str]:
    """(state, detail) of a decision, failure or open item (``rec``: what the check reads, as
    ``{"text"}`` for an item) from its marks, with its approval checked against its text: one approved
    by a mark that is not the person's is held when the check holds it, and says why. With
    ``verdicts``, an active one is held when the check holds its text (as SessionStart's ``held.Screen``
    reads it: ``trust.text_of``). A secret the redactor finds in the text holds it whatever else holds
    or approved it, its reason after any other (ADR 0056)."""
    now = state.of_marks(named)
    text = trust.text_of(rec, kind)
    if now[0] == state.ACTIVE and verdicts is not None:
        now = state.with_verdict(now, verdicts.reason(text))
    elif now[0] in (state.HELD, state.APPROVED) and ok.unsigned(kind, eid, text):
        now = (state.HELD, trust.check(rec, kind) or "") if now[0] == state.APPROVED else now
        now = (state.HELD, f"{now[1]}; {approval_key.NOT_HERE}") if now[1] else (state.ACTIVE, "")
    return state.with_verdict(now, None, _looks(text, verdicts, now[0])[1])


def _held_records(memory_dir: str, states: States) -> list[dict]:
    out = []
    for kind, name in (("decision", files.DECISIONS), ("failure", files.FAILURES)):
        path = os.path.join(memory_dir, name)
        numbered = numbered_entries(path)
        # why: a line copied by hand (its id and summary) is one entry, listed by its last copy as show lists it
        kept = {id(rec) for rec in files.without_copies([rec for _, rec in numbered])}
        for n, rec in numbered:
            if id(rec) not in kept:
                continue
            eid = ids.of_record(rec, kind)
            now = states.record(kind, eid, rec)
            if now[0] == state.HELD:
                # why the summary as the check's whole text redacts it: a secret across two fields (ADR 0062)
                said = held_shown.record(rec, kind, now[1])
                out.append(_entry(kind, eid, now, states.marked(eid), provenance.describe(rec, kind, env=states.env),
                                  said.get("summary") or "", f"{path}:{n}"))
    return out


def _entry(kind: str, eid: str, now: tuple[str, str], marked: bool, origin: str, text: str, where: str) -> dict:
    """A held decision, failure or open item as the review list gives it."""
    at_read = not marked and approval_key.NOT_HERE not in now[1]
    return {"kind": kind, "id": eid, "state": state.HELD, "reason": _at_read(now[1]) if at_read else now[1],
            "origin": origin, "text": text, "file": where, "at_read": at_read}


def _held_items(memory_dir: str, states: States) -> list[dict]:
    from lazy_harness.memory import handoff

    out = []
    for item in handoff.open_for_reading(memory_dir):
        now = states.record("handoff", item["id"], {"text": str(item.get("text") or "")})
        if now[0] == state.HELD:
            out.append(_entry("handoff", item["id"], now, states.marked(item["id"]), _item_origin(item, states.env),
                              held_shown.text(item.get("text"), now[1]), os.path.join(memory_dir, files.HANDOFF)))
    return out


def _item_origin(item: dict, env: Env | None = None) -> str:
    """Who opened an open item, in SessionStart's words: ``by hand`` for a line typed into handoff.md
    or one ``lh memory`` opened, else ``session 5e6f7a8b`` (``Codex session ...`` for a Codex one); an
    opening ``lh sync`` brought in says so (``provenance.item_described``)."""
    from lazy_harness.memory.handoff_markdown import HAND_EDIT

    by = item.get("opened_by")
    # why: the pseudo-session of a hand edit, cut to a session's 8 characters, read "session hand-edi"
    who = ("by hand" if by in (HAND_EDIT, "by hand") else
           f"{provenance.agent_word(item, 'opened_agent')}session {provenance.name_shown(by, 'session') or '?'}")
    return provenance.item_described(item, who, env)  # why: an opening sync brought in is no one's of this machine


def _held_learnings(learnings_dir: str, cross: str, states: States) -> list[dict]:
    out = []
    for path in files.recent_learning_files(learnings_dir, 10**9):
        meta, text = learning_text(path)
        if not meta:
            continue
        now = states.learning({**meta, "path": path}, text, cross)
        if now[0] in (state.HELD, state.WAITING):
            eid = ids.of_learning(meta, path=path)
            # why: held by the check, its frontmatter not saying so: no hold recorded yet
            at_read = now[0] == state.HELD and state.of_learning({**meta, "path": path}, cross, text,
                                                                 states.env)[0] != state.HELD
            out.append({"kind": "learning", "id": eid, "state": now[0],
                        "reason": _at_read(now[1]) if at_read else now[1],
                        "origin": provenance.describe({**meta, "path": path}, "learning",
                                                      session_key="origin_session", project_field="origin",
                                                      env=states.env),
                        "text": held_shown.text(meta.get("title"), now[1]), "file": path, "at_read": at_read,
                        "crosses": state.crosses(meta)})
    return out
