"""What a new session is told about its project: the SessionStart context within a budget
(docs/how/read-back.md). Hot path: only ``os`` and our hot-path modules at import time, never the queue or
the config; the cost stays flat in history (JSONL files read from their tail, only the newest
``CANDIDATES`` learning files)."""

from __future__ import annotations

import os

from lazy_harness import paths
from lazy_harness.memory import (
    aliases, files, handoff, handoff_log, held, ids, marks, provenance, standing, trust, usage, verdicts)
from lazy_harness.memory.lines import is_entry  # one rule for every reader (ui and the CLI read it here)
from lazy_harness.memory.fence import FENCE, date_of, label, local_time, neutral, sentence
from lazy_harness.project_identity import git_branch, project_name, project_root
from lazy_harness.recall.readback.learnings import HAND_EDITED, day_of, learning_id, own, to_show
from lazy_harness.recall.readback.prepared import SECTIONS

# why: not ``typing.TYPE_CHECKING``: ``typing`` is not imported on the hot path (house style section 3)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Collection
    from typing import Any

    from lazy_harness.config.typed import Config
    from lazy_harness.memory.aliases import Owned
    from lazy_harness.memory.handoff_log import Item
    from lazy_harness.memory.shapes import Env, Record

    # what a section is made of: its name, its heading lines and its item lines
    Section = tuple[str, list[str], "list[str] | Lines"]

# why: Claude Code cuts a hook's additionalContext past 10,000 characters; config.CONTEXT_HARD_CAP is
# the same number, kept equal by a test (this module does not import the config)
CONTEXT_HARD_CAP = 9500

CANDIDATES = 200  # newest learning files considered for ranking; never all of them
OWN_MARGIN = 40  # lines read past the newest, which may be the running session's own entries
OWN_MAX = 2000  # at most this many lines past them: a session's own entries are capped per answer
CAP_ITEM, CAP_SUMMARY, CAP_DETAIL, CAP_TITLE = 500, 200, 300, 160  # caps per item (and held.CAP_EXCERPT)
EDITED = "edited by hand since it was written"  # as ``lh memory show`` tags such a learning
SAME_NAME = "another project of this name"  # a learning's origin named as this project, under another key


# --- sections --------------------------------------------------------------------------------------

def handoff_line(item: Item, now: float, stale_days: float, cap: int = CAP_ITEM, env: Env | None = None) -> str:
    """``- open item h-1a2b3c4d, 2026-04-13 18:32, from session abc: text; stale: open 20 days``, for ``env``."""
    # why neutral: every field is text someone could have edited; a time that does not parse is as written
    opened = item["opened"] or ""
    when = local_time(files.iso_epoch(opened), minutes=True) or neutral(opened[:16].replace("T", " "), 16)
    by = item["opened_by"] or "?"
    who = provenance.name_shown(by, "session") or "?"  # why: an opener's id is shown only as an id (ADR 0033)
    origin = ("by hand" if by in (handoff_log.HAND_EDIT, "by hand")
              else neutral(f"{provenance.agent_word(item, 'opened_agent')}session {who}", 80))
    origin = provenance.item_described(item, origin, env)  # why: its opener is text the remote may write
    note = f"; stale: open {handoff.age_days(item, now)} days" if handoff.is_stale(item, now, stale_days) else ""
    return f"- {label('open item', item['id'], when, origin)}: {neutral(item['text'], cap)}{note}"


class Lines:
    """Item lines made when first read: the budget takes a few of what may be hundreds of open items."""

    def __init__(self, items: list[Item], line: Callable[[Item], str]) -> None:
        self.items, self.line = items, line
        self.made: dict[int, str] = {}

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, k: int) -> str:
        if k not in self.made:
            self.made[k] = self.line(self.items[k])
        return self.made[k]


def _handoff(mdir: str, now: float, stale_days: float, screen: held.Screen,
             stats: dict, env: Env | None = None) -> tuple[list[str], Lines]:
    session = stats.get("session")
    # why: the running session's own items are no news (ADR 0034); newest first for a short budget
    every = list(reversed(handoff.open_for_reading(mdir)))
    theirs = [i for i in every if not (session and provenance.from_session({"session_id": i["opened_by"]}, session))]
    stats["own_session"] = stats.get("own_session", 0) + len(every) - len(theirs)
    opened = [i for i in theirs if screen.keep("handoff", i["id"], str(i.get("text") or ""))]
    stats.setdefault("ids", {})["handoff"] = [i["id"] for i in opened]
    stats.setdefault("dated", {})["handoff"] = list(range(len(opened) - 1, -1, -1))
    stale = sum(1 for i in opened if handoff.is_stale(i, now, stale_days))
    head = ["", f"## Open items ({files.HANDOFF}, oldest first; closed by id when done)"]
    if stale:
        head.append(f"{stale} open longer than {stale_days} days (stale): still open, check whether they still hold.")
    return head, Lines(opened, lambda item: handoff_line(item, now, stale_days, env=env))


def live_tail(mdir: str, name: str, kind: str, n: int, hidden: Collection[str],
              session: str | tuple[str, ...] = "", env: Env | None = None, own: list[int] | None = None
              ) -> list[Record]:
    """The newest ``n`` live entries of a JSONL file (oldest first), none of ``session`` (ADR 0034), for
    ``env``; ``own`` receives how many of the lines read were the session's own."""
    if n <= 0:
        return []
    path = os.path.join(mdir, name)
    want = n + len(hidden)
    while True:
        recs = files.tail_records(path, want)
        live = [r for r in recs if is_entry(r) and ids.of_record(r, kind) not in hidden]
        # why: the index is not read at session start; its rule (ADR 0059), on the lines read here
        one = standing.one_each(live, kind, env)
        kept = [r for r in one if not provenance.from_session(r, session)] if session else one
        # why: the running session's own entries are the newest lines: read past them only when some are
        if len(kept) >= n or len(kept) == len(live) or len(recs) < want or want >= n + len(hidden) + OWN_MAX:
            if own is not None:
                own.append(len(one) - len(kept))
            return kept[-n:]
        want = min(want + max(OWN_MARGIN, want - n - len(hidden)), n + len(hidden) + OWN_MAX)


def _by_use(items: list[Any], id_of: Callable[[Any], str], stats: dict, section: str) -> list[Any]:
    """``items`` used first (ADR 0036), their ids in ``stats["ids"]``, their places in ``stats["dated"]``."""
    if stats.get("ranks"):
        pairs = usage.order(list(enumerate(items)), lambda pair: id_of(pair[1]), stats["ranks"])
        stats.setdefault("dated", {})[section] = [n for n, _ in pairs]
        items = [item for _, item in pairs]
    stats.setdefault("ids", {})[section] = [id_of(item) for item in items]
    return items


# per kind: its file, its heading, and the fields its line quotes after the summary (the first given)
RECENT = {"failure": (files.FAILURES, "Recent failures and their preventions",
                      (("prevention", "Prevention", CAP_DETAIL), ("resolution", "Resolution", CAP_DETAIL))),
          "decision": (files.DECISIONS, "Recent decisions", (("rationale", "Rationale", CAP_TITLE),))}


def _recent(kind: str, mdir: str, n: int, hidden: Collection[str], stats: dict,
            screen: held.Screen, env: Env | None = None) -> tuple[list[str], list[str]]:
    """The newest ``n`` entries of ``kind`` the hold check passes, newest first (one more read: the log's)."""
    name, heading, fields = RECENT[kind]
    section = kind + "s"
    own: list[int] = []
    recs = live_tail(mdir, name, kind, n + 1, hidden, stats["session"], env, own) if n > 0 else []
    stats["own_session"] = stats.get("own_session", 0) + sum(own)  # why: a resume told "no memory" had some
    stats["errors"] += files.stopped(os.path.join(mdir, name))  # junk lines kept older entries out
    stats.setdefault("more", {})[section] = len(recs) > n
    pairs = [(ids.of_record(rec, kind), rec) for rec in reversed(recs[-n:])]
    pairs = [(eid, rec) for eid, rec in pairs if screen.keep(kind, eid, trust.text_of(rec, kind))]
    # what this project is about, for the learnings section (learnings.about_here): what it shows of its own
    stats.setdefault("topic", []).extend(f"{rec.get('summary') or ''} {rec.get('tags') or ''}" for _, rec in pairs)
    items = []
    for eid, rec in _by_use(pairs, lambda pair: pair[0], stats, section):
        day = date_of(rec.get("ts"), files.iso_epoch(rec.get("ts")))  # the reader's day (fence.local_time)
        tag = label(kind, eid, day, neutral(provenance.describe(rec, kind, env=env), 120))
        summary = sentence(neutral(rec.get("summary"), CAP_SUMMARY))
        said = next(((word, text) for field, word, cap in fields if (text := neutral(rec.get(field), cap))), None)
        items.append(f"- {tag}: {summary}" + (f" {said[0]}: {sentence(said[1])}" if said else ""))
    return ["", f"## {heading} ({name}, newest first)"], items


def _learnings(root: str, cfg: Config, env: Env, stats: dict, screen: held.Screen,
               owned: Owned) -> tuple[list[str], list[str]]:
    n, kdir, project = int(cfg["context"]["learnings"]), stats["knowledge_dir"], stats["project"]
    candidates = files.recent_learning_files(os.path.join(kdir, "learnings"), CANDIDATES) if n > 0 else []
    stats["learning_candidates"] = len(candidates)
    stats["candidates_cut"] = len(candidates) >= CANDIDATES  # older files than these: learnings.older_own_wins
    shown = to_show(candidates, n, root, cfg, env, stats, screen, owned)
    items = []
    for head in _by_use(shown, learning_id, stats, "learnings"):
        rel = neutral(os.path.relpath(head["path"], kdir), 200)
        title = neutral(head.get("title") or ids.title_of_file(head["path"]), CAP_TITLE)
        origin = neutral(provenance.describe(head, "learning", session_key="origin_session",
                                             project_field="origin", env=env), 120)
        if head.get("origin") == project and not own(head, project, owned.keys):
            origin += f", {SAME_NAME}"  # why: "in api" alone reads as this project's own (~/work/api, ~/clients/api)
        if head.get(HAND_EDITED):  # why: another text of its title is shown too (learnings.mark_hand_edits)
            origin += f", {EDITED}"
        text = neutral(head.get("learning"), held.CAP_EXCERPT)
        tag = label("learning", learning_id(head), day_of(head), origin)
        items.append(f"- {tag}: {title} ({rel})" + (f": {text}" if text else ""))
    return ["", f"## Learnings relevant to this project (learnings/ in {kdir}, same project first)"], items


# --- budget ----------------------------------------------------------------------------------------

NOUNS = {"handoff": "open item{} (the oldest)", **{s: s[:-1] + "{}" for s in SECTIONS[1:]}}  # "{}": the plural


def _fit(header: list[str], sections: list[Section], budget: int,
         dated: dict[str, list[int]] | None = None) -> tuple[list[str], dict[str, int], dict[str, int]]:
    """Lines within ``budget``: each section its first item, then an equal share of the room (why: 300 long
    open items cannot push the newest prevention out), then the rest by priority, in ``dated`` order."""
    lines = list(header)
    room = max(0, budget - (sum(len(ln) + 1 for ln in lines) - 1))
    live = [(name, head, items) for name, head, items in sections if items]
    share = room // len(live) if live else 0
    taken = {name: 0 for name, _, _ in live}
    cost = dict(taken)

    def item_cost(head: list[str], items: list[str] | Lines, k: int) -> int:
        return len(items[k]) + 1 + (sum(len(h) + 1 for h in head) if k == 0 else 0)

    spare = room
    # first one item of every section when it fits at all, then the guaranteed shares, then the rest by
    # priority. why `<= spare` in the shares too: a first item the first pass had no room for would not fit
    for most, limit in ((1, room), (None, share), (None, room)):
        for name, head, items in live:
            while taken[name] < len(items) and (most is None or taken[name] < most) \
                    and (c := item_cost(head, items, taken[name])) <= spare and cost[name] + c <= limit:
                spare, cost[name], taken[name] = spare - c, cost[name] + c, taken[name] + 1
    for name, head, items in live:
        if taken[name]:
            got = [items[k] for k in range(taken[name])]
            place = (dated or {}).get(name)
            lines += head + ([line for _, line in sorted(zip(place, got, strict=False))] if place else got)
    left = {name: len(items) - taken[name] for name, _, items in live}
    return lines, dict.fromkeys(SECTIONS, 0) | taken, dict.fromkeys(SECTIONS, 0) | left


def _footer(left: dict[str, int], budget: int) -> str:
    parts = [f"{n} " + NOUNS[s].format("s" if n != 1 else "") for s, n in left.items() if n]
    return (f"Left out for space: {', '.join(parts)} (context.max_chars is {budget}); "
            "`lh memory show --all` prints all of it.")


def build_context(cwd: str, cfg: Config, env: Env, now: float, source: str, trouble: tuple[int, str | None] = (0, None),
                  session: str | tuple[str, ...] = "") -> tuple[str | None, dict]:
    """The additionalContext for a session starting in ``cwd`` (None: nothing to say) and stats.
    ``session``: the ids whose entries are left out (ADR 0034); ``trouble``: ``queue.distill_trouble``."""
    budget = max(0, min(int(cfg["context"]["max_chars"]), CONTEXT_HARD_CAP))
    root = project_root(cwd)
    project = project_name(root)
    mdir = paths.project_memory_dir(root, env, cfg["memory"]["path"] or None)
    stats: dict = {"project": project, "memory_dir": mdir,
                   "knowledge_dir": paths.knowledge_dir(cfg["knowledge"]["path"] or None, env),
                   "branch": git_branch(cwd), "source": source,
                   "max_chars": budget, "chars": 0, "units": 0, "errors": [], "learning_candidates": 0,
                   "own_learnings": 0, "distill_failed": trouble[0], "session": session}
    sections = read_sections(root, cfg, env, now, stats)
    stats["available"] = {name: len(items) for name, _, items in sections}
    # other projects' learnings alone do not make this project's memory
    if not (stats["own_learnings"] or any(stats["available"][s] for s in SECTIONS[:3])):
        if not (trouble[0] or stats.get("withheld")):
            stats["shown"], stats["left_out"] = dict.fromkeys(SECTIONS, 0), dict.fromkeys(SECTIONS, 0)
            stats["since"], stats["until"] = -FOREVER, FOREVER
            return None, stats
        sections = []
    header = header_lines(project, mdir, trouble, stats.get("withheld"))
    text, shown, left = fill(header, sections, budget, dated=stats.get("dated"))
    # why both: the log counts as the budget does (UTF-16 units), the usage record characters
    stats.update(shown=shown, left_out=left, chars=len(text), units=units(text))
    # the characters each printed item's line took, in the order of stats["ids"] (the usage record)
    stats["item_chars"] = {name: [len(items[k]) + 1 for k in range(shown[name])] for name, _, items in sections}
    stats["since"], stats["until"] = window(sections[0][2] if sections else [], now, cfg["handoff"]["stale_days"])
    return (text or None), stats


FOREVER = 1e18  # a time no text waits for (JSON has no infinity)


def window(handoff_lines: list[str] | Lines, now: float, stale_days: float) -> tuple[float, float]:
    """(since, until): the times between which the text made ``now`` reads the same as time passes
    (recall/readback/prepared.py). It changes when an open item turns stale (the count in the section's
    heading), and when a stale one whose line was made turns a day older (its "open N days"); nothing
    else in the digest depends on the time."""
    since, until = [-FOREVER], [FOREVER]
    items, made = (handoff_lines.items, handoff_lines.made) if isinstance(handoff_lines, Lines) else ([], {})
    for k, item in enumerate(items):
        opened = item["opened_epoch"]
        if opened is None:
            continue
        turns = opened + float(stale_days) * handoff.DAY
        if not handoff.is_stale(item, now, stale_days):
            until.append(turns)
            continue
        since.append(turns)
        if k in made:
            age = handoff.age_days(item, now)
            since.append(opened + age * handoff.DAY)
            until.append(opened + (age + 1) * handoff.DAY)
    return max(since), min(until)


def digest(cwd: str, cfg: Config, env: Env, now: float, source: str, session: str | tuple[str, ...] = "",
           trouble: Callable[[], tuple[int, str | None]] | None = None) -> tuple[str | None, dict]:
    """:func:`build_context` with ``trouble()`` (``queue.distill_trouble``; an OSError goes to the errors)."""
    problem = None
    try:
        got = trouble() if trouble is not None else (0, None)
    except OSError as exc:
        got, problem = (0, None), f"queue: {type(exc).__name__}: {exc}"
    text, stats = build_context(cwd, cfg, env, now, source, trouble=got, session=session)
    if problem:
        stats["errors"].append(problem)
    return text, stats


def read_sections(root: str, cfg: Config, env: Env, now: float, stats: dict) -> list[Section]:
    """``(name, heading lines, item lines)`` of every section, in priority order, screened by the hold
    check; a section that fails to read is empty, its error in ``stats["errors"]``."""
    ctx, mdir = cfg["context"], stats["memory_dir"]
    stale_days = cfg["handoff"]["stale_days"]
    recs, withheld = None, False  # why: marks.jsonl read once for what is left out and what is approved
    try:
        recs = marks.read(mdir)
        hidden = marks.hidden(mdir, recs)
    except Exception as exc:
        # why: without the marks, what the person forgot or held would be shown: those sections are left out
        stats["errors"].append(f"marks: {type(exc).__name__}: {exc}; decisions, failures and open items left out")
        recs, hidden, withheld = [], {}, True
        stats["withheld"] = marks.path_of(mdir)
    stats["hidden"] = hidden
    stats["ranks"] = usage.load_ranks(env, mdir, cfg["usage"]["unused_after"])
    kept = verdicts.kept_verdicts(mdir, env)
    provenance.keep_verdicts(kept.reason)  # why: a name's hold check kept between starts too
    owned = aliases.owned(mdir, env)  # why: learnings written under an earlier key of this project are its own
    screen = stats["screen"] = held.Screen(held.approved(mdir, recs, env), hidden, kept)
    builders = (("handoff", lambda: _handoff(mdir, now, stale_days, screen, stats, env)),
                ("failures", lambda: _recent("failure", mdir, int(ctx["failures"]), hidden, stats, screen, env)),
                ("decisions", lambda: _recent("decision", mdir, int(ctx["decisions"]), hidden, stats, screen, env)),
                ("learnings", lambda: _learnings(root, cfg, env, stats, screen, owned)))
    sections: list[Section] = []
    for name, build in builders:
        try:
            head, items = ([], []) if withheld and name != "learnings" else build()
        except Exception as exc:  # why: one unreadable file must not cost the session the other sections
            stats["errors"].append(f"{name}: {type(exc).__name__}: {exc}")
            head, items = [], []
        sections.append((name, head, items))
    stats["errors"] += screen.unread()  # why: hooks.log says what a start could not read, and why
    try:
        kept.save()
    except OSError as exc:  # why: a cache; the next start works the verdicts out again
        stats["errors"].append(f"hold verdicts not kept: {exc}")
    return sections


def header_lines(project: str, mdir: str, trouble: tuple[int, str | None], withheld: str | None = None) -> list[str]:
    """The fence, the title, where memory lives, a line if distillation fails or marks cannot be read."""
    header = [FENCE, f"# Memory of project {neutral(project, 200)} (lazy-harness)",
              f"Read at session start from {neutral(mdir, 400)}; each section names its file."]
    failed, last = trouble
    if failed:
        since = f"since the last successful one at {last}" if last else "and none has succeeded yet"
        header.append(f"Distillation is failing: {failed} distillation task{'s' if failed != 1 else ''} failed "
                      f"{since}, so this memory may be missing recent sessions; `lh queue` shows why.")
    if withheld:
        header.append(f"Decisions, failures and open items are left out: {neutral(withheld, 400)} cannot be read, "
                      "and without it entries the person forgot or held would come back; `lh doctor` says why.")
    return header


def units(text: str) -> int:
    """:func:`lazy_harness.memory.fence.units` (UTF-16 units) counted on the UTF-8 bytes. why: the UTF-16
    codec is read from disk at its first use, 0.2 ms of a start
    (tests/recall/readback/test_digest_units.py)."""
    if text.isascii():
        return len(text)
    raw = text.encode("utf-8", "surrogatepass")
    # a code point past U+FFFF is four bytes in UTF-8, led by F0 to F4; no other code point has such a lead
    return len(text) + sum(raw.count(lead) for lead in (b"\xf0", b"\xf1", b"\xf2", b"\xf3", b"\xf4"))


def fill(header: list[str], sections: list[Section], budget: int, units_cap: int | None = None,
         dated: dict[str, list[int]] | None = None) -> tuple[str, dict[str, int], dict[str, int]]:
    """(the text within ``budget``, shown and left out per section): :func:`_fit`, again with room for the
    footer when something is left out. ``units_cap``: the limit in :func:`units` (``budget`` by default)."""
    cap = budget if units_cap is None else units_cap
    lines, shown, left = _fit(header, sections, budget, dated)
    if any(left.values()):
        reserve = len(_footer({s: 10**5 for s in SECTIONS}, cap)) + 1
        fewer, fewer_shown, fewer_left = _fit(header, sections, budget - reserve, dated)
        footer = _footer(fewer_left, cap)
        if sum(len(ln) + 1 for ln in fewer) + len(footer) <= budget:
            lines, shown, left = fewer + [footer], fewer_shown, fewer_left
    while lines and sum(len(ln) + 1 for ln in lines) - 1 > budget:
        lines.pop()  # why: only the header's lines can be over: items and the footer were fitted
    text = "\n".join(lines)
    length = units(text)
    if length > cap and budget > 0:
        # why in proportion: each code point over the plane counts twice, so as much less room overshoots
        return fill(header, sections, min(budget - 1, budget * cap // length), cap, dated)
    return text, shown, left
