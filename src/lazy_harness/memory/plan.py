"""What a distilled answer would change in a project's memory, computed without writing: the plan
``memory.store`` describes (lines to append, handoff items to open or close, learning files,
entries to restore, decisions to mark replaced, and why anything is skipped), and the refusal of a
memory folder outside ``<claude dir>/projects``. ``memory.apply`` performs a plan.
"""

from __future__ import annotations

import os

from lazy_harness import paths
from lazy_harness.errors import TaskError
from lazy_harness.memory import entries, files, frontmatter, handoff, handoff_log, handoff_markdown, ids, marks
from lazy_harness.memory.sanitize import normalise, one_line

# why: not ``from typing import TYPE_CHECKING``: memory never imports ``typing`` at run time (the hooks
# load its read side: house style section 3)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from lazy_harness.memory.shapes import Env

RECENT_TITLES = 50
RECENT_RECORDS = 10  # the last decisions and failures the distill prompt lists (memory/store.py)
PREVIEW = 100
# Plan action kinds: the first seven write, the last three say why nothing is written
APPEND, CREATE, OPEN, CLOSE, RESTORE, REPLACE = "append", "create", "open", "close", "restore", "replace"
REWRITE = "rewrite"  # a new text of a learning's title: a file of its own, the older text deprecated (ADR 0063)
MET = "texts of one title met"  # why a rewrite row writes no file: two machines' new texts met (_plan_splits)
SKIP, EXISTS, KEEP = "skip", "exists", "keep"


class Row(tuple):
    """``(action, path, preview)`` that prints as one aligned line."""

    __slots__ = ()

    def __new__(cls, action: str, path: str, preview: str) -> Row:
        return tuple.__new__(cls, (action, path, preview))

    def __str__(self) -> str:
        return f"{self[0]:<7} {self[1]}  {self[2]}".rstrip()


class Action:
    """One change (or a reason for none): the kind, the file, a short preview, what to write."""

    __slots__ = ("kind", "path", "preview", "payload")

    # why Any: what a kind writes is a shape of its own, read only by the code of that kind: (key,
    # line) to append, (id, learning path or None, what hid it) to restore, the checked item to create,
    # (the id replaced, the id replacing it) to replace, (the checked item, its id, the files it
    # deprecates) to rewrite (no item: the text is written already, _plan_splits)
    def __init__(self, kind: str, path: str, preview: str = "", payload: Any = None) -> None:
        self.kind, self.path, self.preview, self.payload = kind, path, preview, payload

    def __repr__(self) -> str:
        return f"Action({self.kind!r}, {self.path!r}, {self.preview!r})"


class Plan:
    """Everything ``apply`` would do, computed without writing."""

    def __init__(self, memory_dir: str, learnings_dir: str, meta: dict, now: float, env: Env | None = None,
                 root: str | None = None) -> None:
        self.memory_dir, self.learnings_dir, self.meta, self.now, self.env = memory_dir, learnings_dir, meta, now, env
        self.root = root  # the memory root the folder must sit in (check_memory_dir)
        self.actions: list[Action] = []
        self.problems: list[str] = []  # answer problems only the memory can tell (an unknown item closed)
        self.handoff: tuple[list[str], list[str]] | None = None  # (opened, closed) asked by the answer
        # the answer's decisions that name ones they replace: (its id, the ids it names, whether its line
        # is written already, why it is not shown or "")
        self.replacing: list[tuple[str, list[str], bool, str]] = []
        # every learning's id when the plan read them (learnings.taken_ids), with the ids it gave: apply's
        # writes take theirs from it. why not read again: a second scan of every file (0.5 s for 3,000
        # learnings); a file written meanwhile under the same name is refused by the exclusive create
        self.taken: dict[str, str] | None = None
        # learning files renamed by hand, under their titles' names (learnings.renamed)
        self.renamed: dict[str, list[str]] = {}
        self._written: set[str] | None = None  # written_ids
        self._keys: frozenset[str] | None = None  # own_keys

    def written_ids(self) -> set[str]:
        """The ids of the entries the store wrote to this folder (memory/written.py), read once."""
        if self._written is None:
            from lazy_harness.memory import written

            self._written = written.ids_of(self.memory_dir)
        return self._written

    def own_keys(self) -> frozenset[str]:
        """This project's memory keys, read once: its folder's, an alias of it that counts (memory/aliases.py)
        and the key the answer's meta names. A learning recording another key is another project's."""
        if self._keys is None:
            from lazy_harness.memory import aliases

            named = {one_line(self.meta.get("project_folder"))}
            self._keys = frozenset((aliases.owned(self.memory_dir, self.env).keys | named) - {""})
        return self._keys

    def add(self, kind: str, path: str, preview: str = "", payload: Any = None) -> None:
        preview = one_line(preview)
        if len(preview) > PREVIEW:
            preview = preview[:PREVIEW - 3] + "..."
        self.actions.append(Action(kind, path, preview, payload))

    def describe(self) -> list[Row]:
        return [Row(a.kind, a.path, a.preview) for a in self.actions]

    def __str__(self) -> str:
        return "\n".join(map(str, self.describe())) if self.actions else "nothing to write"


def check_memory_dir(memory_dir: str, env: Env | None = None, root: str | None = None) -> None:
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
        recs = [entries.record(kind, item, p.meta, p.now, p.env) if isinstance(item, dict) else item for item in items]
        seen, taken = _entry_ids(path, kind, [r for r in recs if isinstance(r, dict)])
        for rec, item in zip(recs, items, strict=True):
            if not isinstance(rec, dict):
                p.add(SKIP, path, f"not an object: {rec!r}")
                continue
            key, there, was = normalise(rec["summary"]), False, ""
            if not key:
                p.add(SKIP, path, "empty summary")
            elif key in seen:
                there = True
                hiding = marks.by_id(p.memory_dir) if hiding is None else hiding
                named = hiding.get(rec["id"]) or []
                if any(m["op"] not in marks.AUTOMATIC for m in named):
                    was = marks.describe(next(m for m in named if m["op"] not in marks.AUTOMATIC))
                    p.add(SKIP, path, f"kept hidden: {rec['id']} was left out with lh memory forget: {rec['summary']}")
                elif named and _wrote_it(p, path, kind, rec["id"]):
                    # why: the session read again from its start (handoff-now, a resume that rewrote its
                    # transcript) gives back what it decided then; that is no news, and brought back it stood
                    # beside what replaced it since (a closed handoff item is not reopened so either)
                    was = marks.describe(named[0])
                    p.add(SKIP, path, f"kept hidden: {rec['id']} was {was} after this session wrote it: "
                                      f"{rec['summary']}")
                elif named and not any(a.kind == RESTORE and a.payload[0] == rec["id"] for a in p.actions):
                    p.add(RESTORE, marks.path_of(p.memory_dir), f"{rec['id']} {rec['summary']}",
                          (rec["id"], None, marks.describe(named[0])))
                else:
                    p.add(SKIP, path, f"already recorded: {rec['summary']}")
            elif rec["id"] in p.written_ids():
                # why: a line the store wrote and the person deleted by hand since, given back by a session
                # (handoff-now --again, a retry): the deletion stands, as a forget does (memory/written.py)
                p.add(SKIP, path, f"kept out: {rec['id']} was deleted by hand since it was written: {rec['summary']}")
            else:
                seen.add(key)
                taken[rec["id"]] = key
                p.add(APPEND, path, rec["summary"], (key, entries.json_line(rec)))
            replaces = item.get("replaces") if kind == "decision" and key else None
            if isinstance(replaces, list) and replaces:
                p.replacing.append((rec["id"], [r for r in replaces if isinstance(r, str)], there, was))


def _wrote_it(p: Plan, path: str, kind: str, eid: str) -> bool:
    """Whether the session of ``p`` (or one it was forked from: memory/lineage.py) wrote the entry
    ``eid`` of ``path``. Read only for an entry consolidation or a later decision hid."""
    from lazy_harness.memory import lines

    return _this_session(p, *(r.get("session_id") for r in lines.read_file(path) if ids.of_record(r, kind) == eid))


def _this_session(p: Plan, *writers: object) -> bool:
    """Whether one of ``writers`` (session ids) is the session of ``p`` or one it was forked from."""
    from lazy_harness.memory import lineage

    sid = one_line(p.meta.get("session_id"))
    mine = lineage.own(p.env, sid) if sid else ()
    return any(one_line(w) in mine for w in writers if w)


def _plan_replaces(p: Plan) -> None:
    """A ``replace`` for each decision an answer's decision says it replaces (ADR 0060), applied as the
    mark consolidation writes. Only a live decision of this folder among the last RECENT_RECORDS (those
    the distill prompt listed), written before the one replacing it, while that one is shown; anything
    else is a problem line. One already replaced by it is kept as it is: the same session processed
    again writes no second mark."""
    if not p.replacing:
        return
    window = [(ids.of_record(r, "decision"), r) for r in files.tail_records(
        os.path.join(p.memory_dir, files.DECISIONS), RECENT_RECORDS)]
    order = {rid: n for n, (rid, _) in enumerate(window)}
    summaries = {rid: one_line(r.get("summary")) for rid, r in window}
    hiding, planned, where = marks.by_id(p.memory_dir), set(), marks.path_of(p.memory_dir)
    for new, targets, there, was in p.replacing:
        for old in targets:
            named = hiding.get(old) or []
            if old in planned:
                continue
            if any(m["op"] == "supersede" and m.get("by") == new for m in named):
                p.add(KEEP, where, f"{old} already replaced by {new}")
            elif old == new:
                p.problems.append(f"replaces: {new} is the decision itself; ignored")
            elif was:
                p.problems.append(f"replaces: {new} is not shown ({was}), so {old} stays; ignored")
            elif named or old not in order:
                p.problems.append(f"replaces: no live decision {old} in this project's memory; ignored")
            elif there and order.get(new, -1) < order[old]:
                p.problems.append(f"replaces: {old} was written after {new}; ignored")
            else:
                planned.add(old)
                p.add(REPLACE, where, f"{old} by {new}: {summaries[old]}", (old, new))


def _entry_ids(path: str, kind: str, recs: list[dict]) -> tuple[set[str], dict[str, str]]:
    """Give each record its id and tell which are written already: (normalised summaries recorded,
    ``{id: identity}`` of the ids taken). A record takes the id of the entry it restates: one of the
    same summary, or one first written in its words and edited by hand since (its id kept, or its
    ``text_digest`` that of the record); else an id nobody holds (ids.fresh)."""
    keys = {normalise(r["summary"]) for r in recs}
    seen, taken = entries.recorded(path, keys), entries.taken_ids(path, kind, keys)
    digests = {r["text_digest"] for r in recs if normalise(r["summary"]) not in seen and r.get("text_digest")}
    first_written = entries.ids_by_digest(path, kind, digests)
    for rec in recs:
        key = normalise(rec["summary"])
        was = None if key in seen or not key else (
            edited_since(taken, kind, key) or first_written.get(rec.get("text_digest") or ""))
        if was:
            seen.add(key)
            rec["id"] = was
        else:
            rec["id"] = ids.fresh(kind, key, taken)
    return seen, taken


def _plan_learnings(p: Plan, distilled: dict) -> None:
    items = distilled.get("learnings") or []
    if not items:
        return
    from lazy_harness.memory import learnings
    origin = one_line(p.meta.get("project"))
    recent = learnings.recent_ids(p.learnings_dir, RECENT_TITLES)
    scanned = learnings.heads(p.learnings_dir)  # every learning file's head, read once
    p.renamed = learnings.renamed(scanned)
    listing = learnings.with_renamed(learnings.names_by_slug(p.learnings_dir), p.renamed)
    batch: set[str] = set()
    taken = None  # every learning's id, read once a learning is to be written
    here: dict[str, list[str]] | None = None  # this project's learnings by title, read once one is not found by its id
    for item in items:
        title = one_line(item.get("title")) if isinstance(item, dict) else ""
        key = ids.title_key(title)  # why not normalise: a title of symbols only is a learning too
        if not key:
            p.add(SKIP, p.learnings_dir, "learning without a title")
            continue
        # why its words: a title spelt otherwise (``orders-table``) is the same title (ADR 0063); two texts of
        # it in one answer were each written as a new text of the title, and both shown
        if ids.title_words(title) in batch:
            p.add(SKIP, p.learnings_dir, f"twice in this answer: {title}")
            continue
        batch.add(ids.title_words(title))
        if taken is None:
            taken = p.taken = learnings.taken_ids(p.learnings_dir, scanned)
        identity = ids.key_of("learning", title, origin)
        lid = edited_since(taken, "learning", identity)
        if lid is not None and learnings.only_damaged(p.learnings_dir, lid):
            lid = None  # why: its quote swallowed its keys, not a title edited by hand: a new learning
        if lid is None:
            lid = learnings.fresh_id(taken, origin, title)
            taken[lid] = identity
        same = _text_of_title(p, item, (title, origin), listing, taken)
        if same == "":
            continue  # a new text of the title: planned as a rewrite
        lid = same or lid
        path, exists = learnings.find_slot(p.learnings_dir, title, p.now, origin, lid)
        # why: re-processed after midnight, or restated weeks later: the same learning, on another day
        found = path if exists else learnings.file_of(p.learnings_dir, listing, title, lid, p.now)
        theirs = bool(found) and _theirs(p, str(found))
        if not found or theirs:
            here = _of_keys(p, scanned) if here is None else here
            found = learnings.readable(here.get(key) or [])
            if found:  # why: written under this project's key by a machine whose folder has another name
                lid = learnings.id_of(found) or lid
        if not found and theirs:
            _plan_new_text(p, item, (title, origin), taken, [])
        elif not found and taken.get(lid) != identity:  # its title edited by hand, its file renamed too
            p.add(SKIP, p.learnings_dir, f"already there as {lid}, its title edited by hand since: {title}")
        else:
            _plan_learning(p, item, title, lid, (path, exists, found), lid in recent)


def _theirs(p: Plan, path: str) -> bool:
    """Whether the learning file ``path`` records another project's key: a repository of the same folder
    name (so the same ``origin``) wrote it, and its id, derived from origin and title, is this one's.
    why: taken for this project's learning, its text was "already there" and this project's was lost, or
    this project's session deprecated it. A file with no key counts by its name, as before."""
    from lazy_harness.memory import learnings

    return learnings.foreign(frontmatter.read_frontmatter_values(path, ("project_folder",)), p.own_keys())


def _mark_gone(versions: list[dict], sid: str, transcript: object) -> None:
    """Mark ``gone`` each of the session's versions whose ``origin_part`` names bytes its transcript no
    longer holds (``origin_check`` no longer that part's check: the transcript was rewritten, or the
    session resumed into a new file): a part read now cannot be that part read again (``learnings._before``)."""
    if not sid or not isinstance(transcript, str) or not transcript:
        return
    from lazy_harness import part_check

    for v in versions:
        if v["session"] == sid and v["part"] is not None and v["check"]:
            v["gone"] = part_check.check(transcript, v["part"][1]) != v["check"]


def _text_of_title(p: Plan, item: dict, named: tuple[str, str], listing: dict[str, list[str]],
                   taken: dict[str, str]) -> str | None:
    """The id of the file of this title the answer's learning is (``learnings.restates``), None when the
    title has no file here, or "" once its new text is planned as a ``rewrite`` (ADR 0063): a file of
    its own beside the others of the title, the active ones deprecated by it; "" too for a text a newer
    one of its title replaced, kept hidden."""
    from lazy_harness.memory import learnings, lineage

    title, origin = named
    versions = learnings.of_title(p.learnings_dir, listing, title, origin, p.own_keys())
    if not versions:
        return None
    sid = one_line(p.meta.get("session_id"))
    read = learnings.read_part(p.meta)
    _mark_gone(versions, sid, p.meta.get("transcript"))
    same, older = learnings.restates(versions, item.get("learning"), lineage.own(p.env, sid) if sid else (),
                                     (sid, read[0]) if sid and read else None)
    was = next((v for v in versions if v["id"] == same), None)
    if was is not None and learnings.replaced(was, {v["id"] for v in versions}):
        # why: a text a newer one of its title replaced, written again, is no news (a stale note read
        # again); brought back it stood beside the newer one, written anew two sessions took turns
        p.add(SKIP, was["path"], f"kept hidden: {same} was replaced by {was['by']}, a newer text of its title: {title}")
        return ""
    if same:
        return same
    _plan_new_text(p, item, named, taken, older)
    return ""


def _plan_new_text(p: Plan, item: dict, named: tuple[str, str], taken: dict[str, str], older: list[str]) -> None:
    """A ``rewrite`` row for a new text of the title ``named`` (title, origin): a file of its own, its id
    derived from title, origin, text and session (``learnings.version_id``), deprecating ``older``. With
    none, the project's first text of a title a repository of the same name has (:func:`_theirs`): that
    one's file is left as it is, and the id differs from its id."""
    from lazy_harness.memory import learnings

    title, origin = named
    sid = one_line(p.meta.get("session_id"))
    vid = learnings.version_id(taken, origin, title, item.get("learning"), sid)
    taken[vid] = ids.key_of("learning", title, origin)
    path, exists = learnings.find_slot(p.learnings_dir, title, p.now, origin, vid)
    if exists:
        p.add(EXISTS, path, title)
        return
    replaced = [learnings.id_of(o) or "?" for o in older]
    p.add(REWRITE, path, f"{vid} {title}" + (f" (replaces {', '.join(replaced)})" if replaced else ""),
          (item, vid, older))


def _plan_splits(p: Plan) -> None:
    """A ``rewrite`` row, with no file to write, for each title two new texts replaced the same older
    text of (``changes.rewrite_claims``: two machines each rewrote it before a sync round met): the
    newest stands and the others are deprecated by it, in the persist's ``rewrite`` run (ADR 0063).
    A title the answer rewrites itself is settled by that row."""
    from lazy_harness.memory import changes, learnings

    claims, undone = changes.rewrite_claims(p.memory_dir)
    split = [old for old, by in claims.items() if len(by) > 1]
    if not split:
        return
    planned = {o for a in p.actions if a.kind == REWRITE for o in a.payload[2]}
    listing = learnings.titled_listing(p.learnings_dir)
    # why every claimant, not only the old text's: a machine that rewrote its own new text again holds
    # the newest of its line in a file the old text's runs do not name
    claimants = set().union(*claims.values())
    for old in sorted(split):
        head = frontmatter.read_frontmatter_values(old, ("title", "origin"))
        title = one_line(head.get("title"))
        versions = learnings.of_title(p.learnings_dir, listing, title, one_line(head.get("origin")), p.own_keys())
        keep, older = learnings.newest_of(versions, claimants, undone)
        older = [o for o in older if o not in planned]
        if keep and older:
            planned.update(older)
            replaced = ", ".join(learnings.id_of(o) or "?" for o in older)
            p.add(REWRITE, keep["path"], f"{keep['id']} {title} (replaces {replaced}: {MET})",
                  (None, keep["id"], older))


def met(memory_dir: str, learnings_dir: str, meta: dict, now: float, env: Env | None = None,
        root: str | None = None) -> Plan:
    """The plan of a sync round that merged a project's memory: only the titles whose new texts met
    settled (:func:`_plan_splits`), where they meet, so the next session start shows one text."""
    check_memory_dir(memory_dir, env, root)
    p = Plan(memory_dir, learnings_dir, meta, now, env, root)
    _plan_splits(p)
    if p.actions:  # why: the run is the project's, named as its sessions' runs are (its learnings' origin)
        origin = frontmatter.read_frontmatter_values(p.actions[0].path, ("origin",)).get("origin")
        p.meta = {**meta, "project": one_line(origin) or meta.get("project")}
    return p


def _of_keys(p: Plan, scanned: list[tuple[str, dict]]) -> dict[str, list[str]]:
    """This project's learnings by title key (``learnings.of_keys``): under its memory key, an alias of
    it (memory/aliases.py) or the key the answer's meta names."""
    from lazy_harness.memory import learnings

    return learnings.of_keys(p.learnings_dir, p.own_keys(), scanned)


def _plan_learning(p: Plan, item: dict, title: str, lid: str, where: tuple[str, bool, str | None],
                   recent: bool) -> None:
    """What to do with one learning of id ``lid``: ``where`` is (its slot, whether the slot holds it,
    the file holding it on any day or None); ``recent``: a recent learning has its id."""
    from lazy_harness.memory import changes

    path, exists, found = where
    head = frontmatter.read_frontmatter_values(found, ("status", "origin_session")) if found else {}
    status = (head.get("status") or "active") if found else ""
    if found and status == "deprecated" and _this_session(p, head.get("origin_session")):
        # why: the session that wrote it, read again from its start, gives it back: no news (_plan_entries)
        p.add(SKIP, found, f"kept hidden: {lid} was deprecated after this session wrote it: {title}")
    elif found and status == "deprecated" and changes.deprecated_by_a_run(p.memory_dir, found):
        p.add(RESTORE, found, f"{lid} {title}", (lid, found, status))  # what consolidation or a rewrite wrote
    elif found and status == "deprecated":
        p.add(SKIP, found, f"kept hidden: {lid} was deprecated by hand: {title}")
    elif found and status not in ("", "active"):
        how = "left out with lh memory forget" if status == "forgotten" else f"marked {status!r}"
        p.add(SKIP, found, f"kept hidden: {lid} was {how}: {title}")
    elif exists:
        p.add(EXISTS, path, title)
    elif recent:
        p.add(SKIP, p.learnings_dir, f"a recent learning has this title: {title}")
    elif found:
        p.add(EXISTS, found, title)
    else:
        p.add(CREATE, path, title, item)


def edited_since(taken: Mapping[str, str], kind: str, identity: str) -> str | None:
    """The id of an entry first written as ``identity`` and changed by hand since: an id of
    ``taken`` (``{id: present identity}``) that derives from ``identity`` while the entry's present
    identity does not derive it (its summary or title reworded, its id kept). None: there is none.

    why: the same session processed again (handoff-now, a retry) restates the entry in its old
    wording; a new entry beside the person's fix brought the old wording back.
    """
    full = ids.long_hex(identity)
    for n in range(ids.HEX, ids.LONGEST + 1):  # why every length: a lengthened id outlives what it clashed with
        eid = ids.PREFIXES[kind] + full[:n]
        holder = taken.get(eid)
        if holder is not None and holder != identity and not ids.derives(eid, kind, holder):
            return eid
    return None


def _plan_handoff(p: Plan, distilled: dict) -> None:
    opened = handoff.items(distilled.get("handoff") or [])
    closed = handoff.items(distilled.get("handoff_closed") or [])
    path = os.path.join(p.memory_dir, handoff.STATE)
    state, pending = handoff.load(p.memory_dir)
    for rec in pending:  # hand edits of handoff.md (or a legacy one) not yet in the state
        p.add(OPEN if rec["op"] == handoff.OPEN else CLOSE, path, f"[{rec['id']}] {rec['text']} (by hand)")
    if not (opened or closed):
        if pending or handoff_markdown.behind(p.memory_dir, state):  # a hand edit to import, a render a kill cut
            p.handoff = ([], [])
        return  # why: an empty answer says nothing about open items; only a close closes one
    if pending:
        state = handoff.fold(list(handoff.read_records(p.memory_dir) or []) + pending)
    recs, notes, problems = handoff.changes(state, opened, closed, p.meta, _session_time(p))
    p.problems.extend(problems)
    for rec in recs:
        if rec["op"] == handoff_log.RESTATE:
            continue  # why: the item stays as it is; its "still open" note below says so
        p.add(OPEN if rec["op"] == handoff.OPEN else CLOSE, path, f"[{rec['id']}] {rec['text']}")
    for note in notes:
        p.add(KEEP, path, note)
    p.handoff = (opened, closed)


def _session_time(p: Plan) -> float:
    """The time handoff records carry: the session's (its transcript's mtime), else now."""
    t = p.meta.get("session_time")
    return float(t) if isinstance(t, (int, float)) and not isinstance(t, bool) else p.now


def plan(distilled: dict, memory_dir: str, learnings_dir: str, meta: dict, now: float, env: Env | None = None,
         root: str | None = None) -> Plan:
    """Every change the (validated, redacted) distilled answer calls for, computed without writing.

    ``meta``: project, session_id, task_id, cwd, session_time (epoch of the session, for handoff records).
    ``now``: epoch seconds, stamped with the local offset. ``handoff`` opens or restates items,
    ``handoff_closed`` closes open ones (by id or exact text); empty or missing lists change nothing.
    """
    check_memory_dir(memory_dir, env, root)
    p = Plan(memory_dir, learnings_dir, meta, now, env, root)
    _plan_entries(p, distilled)
    _plan_replaces(p)
    _plan_learnings(p, distilled)
    _plan_splits(p)
    _plan_handoff(p, distilled)
    return p
