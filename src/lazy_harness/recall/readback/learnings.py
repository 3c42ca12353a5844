"""Learnings for the SessionStart digest: each file's head (frontmatter and the start of its text),
read once and kept while the file is unchanged, their ranking (:func:`rank_learnings`) and the ones
its learnings section shows (:func:`to_show`).

Why kept: reading and parsing the 200 candidates' heads cost 10 to 20 ms at every start, and ranking's
first pass (active, shown here, own, day) needs only a few fields of each (docs/how/read-back.md):

    <cache dir>/learning-heads.json
        {"version": VERSION, "heads": {<path>: [size, mtime_ns, inode, <brief head>, <whole head or null>]}}

A head is taken from there only while its file's size, mtime and inode are the ones it was read at
(an atomic replace, an edit in place or a sync changes at least one). A missing or damaged cache
is read as empty. Hot path: only ``os`` and our hot-path modules at import time.
"""

from __future__ import annotations

import os

from lazy_harness import jsonload, paths
from lazy_harness.memory import frontmatter, held, ids, lines, own_title, provenance, state, trust
from lazy_harness.memory.fence import date_of
from lazy_harness.memory.files import iso_epoch
from lazy_harness.memory.frontmatter import DAMAGED, is_active
from lazy_harness.recall.readback import older_own

# why: not ``typing.TYPE_CHECKING``: ``typing`` is not imported on the hot path (house style section 3)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator

    from lazy_harness.config.typed import Config
    from lazy_harness.memory.aliases import Owned
    from lazy_harness.memory.shapes import Env, Record

HEAD_BYTES = 4096
MAX_HEAD_BYTES = 65536
VERSION = 9  # why: bump when read_head's or brief's result changes for the same bytes, so kept heads are read again
WHOLE = 64  # whole heads kept at most: the contenders of a few projects (a dozen or two each)
# why created: ranking's first pass dates a file renamed by hand, its name's date gone, by it (``day_of``)
BRIEF = ("status", "deprecated_by", "deprecated_reason", "scope", "project_folder", "origin", "origin_session", "via",
         "created", DAMAGED)
SCREEN_MARGIN = 8  # learnings ranked beyond the section's count, to fill the places of held ones
DAMAGE_NAMED = 3  # damaged learnings named in the log line; lh memory check names them all


def read_head(path: str) -> dict | None:
    """Frontmatter and the start of a learning file, reading only its first few kilobytes; with
    ``frontmatter.DAMAGED`` when a quote left open swallowed its keys."""
    try:  # why: a FIFO named like a learning held the session's start until the hook's timeout
        fd, _ = lines.open_regular(path)
        with open(fd, "rb") as fh:
            data = fh.read(HEAD_BYTES)
            text = data.decode("utf-8", "replace")
            if len(data) == HEAD_BYTES and (not frontmatter.opens(text) or frontmatter.not_closed(text)):
                # why: its closing line may lie past the first read
                text = (data + fh.read(MAX_HEAD_BYTES - HEAD_BYTES)).decode("utf-8", "replace")
    except OSError:
        return None
    damage: list[tuple[int, str]] = []
    meta, body = frontmatter.parse_frontmatter(text, damage) or ({}, text)
    head = {**meta, "learning": held.excerpt(body), "path": path}
    if damage:  # a quote left open: its keys swallowed (frontmatter.open_quote)
        head[DAMAGED] = frontmatter.quote_left_open(damage)
    return head


def brief(head: dict) -> dict:
    """What ranking's first pass and the counts read of a head, its id and its path: a small dict, so
    200 of them cost little to keep and load. A field the head leaves empty (None) is left out: every
    reader asks a brief head with ``get``. why: most learnings give half of ``BRIEF``; without the
    rest the cache is a quarter smaller, 0.1 ms less to decode at every start and 0.5 ms less to
    encode at a start that rewrites it (after a pull or a hand edit: 1.6 against 1.1 ms)."""
    return {**{k: v for k in BRIEF if (v := head.get(k)) is not None}, "id": learning_id(head),
            "path": head["path"]}


def day_of(head: dict) -> str:
    """The day a learning is dated by: the one its file's name begins with, else (a file named by hand)
    its frontmatter's ``created`` in the reader's time zone (``fence.date_of``, as ``lh memory search``
    prints it); '' when neither gives one."""
    created = head.get("created")
    return date_of(os.path.basename(head["path"])) or date_of(created, iso_epoch(created))


def learning_id(head: dict) -> str:
    """A head's id as the index gives it (``ids.of_learning`` with its file's name for a missing title)."""
    return ids.of_learning(head, path=head["path"])


class Heads:
    """The heads of the candidate files: ``brief`` ones for all (in order), the full one of a file on
    demand (:meth:`full`), each from the cache while its file is unchanged, else read from the file."""

    def __init__(self, paths_: list[str], cache_file: str) -> None:
        self.cache_file = cache_file
        kept = self._load()
        self.brief: list[dict] = []
        self.stamps: dict[str, list[int]] = {}
        self.fulls: dict[str, dict | None] = {}
        self.used: set[str] = set()
        self.had_full: set[str] = set()  # paths whose whole head came from the cache
        self.not_files: list[str] = []  # a FIFO or a folder named like a learning: passed over, named in the log
        self.changed = len(kept) != len(paths_)
        for path in paths_:
            try:
                st = os.stat(path)
                stamp: list[int] | None = [st.st_size, st.st_mtime_ns, st.st_ino]
            except OSError:
                stamp = None
            else:
                if st.st_mode & 0o170000 != 0o100000:  # why the mask: stat.S_ISREG without ``stat``
                    self.not_files.append(path)
                    continue
            old = kept.get(path)
            if stamp is not None and isinstance(old, list) and len(old) == 5 and old[:3] == stamp \
                    and isinstance(old[3], dict) and isinstance(old[4], (dict, type(None))):
                head, full = old[3], old[4]
                head["path"] = path
                if full is not None:
                    full["path"] = path
                    self.had_full.add(path)
            else:
                full = read_head(path)
                self.changed = True
                if full is None:
                    continue
                head = brief(full)
            self.brief.append(head)
            self.fulls[path] = full
            if stamp is not None:
                self.stamps[path] = stamp

    def _load(self) -> dict:
        try:  # why read_regular: a FIFO in the cache's place held the session start in open() for good
            data = jsonload.loads(lines.read_regular(self.cache_file))
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict) or data.get("version") != VERSION or not isinstance(data.get("heads"), dict):
            return {}
        return data["heads"]

    def full(self, head: dict) -> dict | None:
        """The whole head (``read_head``) of a brief one; None when its file can no longer be read."""
        path = head["path"]
        self.used.add(path)
        full = self.fulls.get(path)
        if full is None:
            full = self.fulls[path] = read_head(path)
            self.changed = True
        return full

    def save(self) -> str | None:
        """Keep the brief heads of every candidate and whole heads: those read in full this time, then
        those kept before (another project's contenders), up to ``WHOLE``; only when ``changed`` (a head
        read from its file, a file come or gone). Returns why it could not be written, or None."""
        if not self.changed:
            return None
        from lazy_harness.atomic import atomic_write

        # why: two projects started in turn rank different contenders; keeping both sets spares a
        # rewrite of this file at every start
        listed = [h["path"] for h in self.brief if h["path"] in self.used or h["path"] in self.had_full]
        whole = set(sorted(listed, key=lambda path: path not in self.used)[:WHOLE])  # read this time first
        keep = {}
        for head in self.brief:
            path = head["path"]
            if path in self.stamps:
                full = self.fulls.get(path) if path in whole else None
                keep[path] = [*self.stamps[path], _without_path(head), _without_path(full) if full else None]
        try:  # why not durable: a cache; a power loss that leaves it old or empty costs a read of the files
            atomic_write(self.cache_file, jsonload.dumps({"version": VERSION, "heads": keep}), durable=False)
        except OSError as exc:  # why: a cache; the next start reads the files again
            return f"learning heads not kept: {exc}"
        return None


def _without_path(head: dict) -> dict:
    return {k: v for k, v in head.items() if k != "path"}


# --- ranking -------------------------------------------------------------------------------------

Key = str | frozenset[str] | None  # a memory key, or a project's keys (its own and its aliases: memory/aliases.py)

# words that say nothing about a topic: branch and name words, and the everyday ones of any two titles
GENERIC = frozenset("main master trunk dev develop development feature feat fix bugfix hotfix release "
                    "head wip tmp test tests the and for with from into are was were not but can could should "
                    "would does did has have had its this that these those than then when what which where while "
                    "why how about after before over under only also just more most some any all each every one "
                    "two new old first last next own same other via use uses used using run runs make makes get "
                    "gets set add adds build builds need needs keep keeps".split())
_PUNCT = str.maketrans({c: " " for c in "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"})


def words(text: str) -> set[str]:
    """Lower-case words of three letters or more, without generic branch words."""
    return {w for w in text.lower().translate(_PUNCT).split() if len(w) > 2 and w not in GENERIC}


def rank_learnings(heads: list[dict], project: str, branch: str | None, n: int | None = None,
                   key: Key = None, legacy: Callable[[Record], bool] | None = None,
                   cross: str = state.AUTO, env: Env | None = None) -> list[dict]:
    """Active learnings, most relevant first: same origin, then the newer day (:func:`day_of`: the date
    in the file name, else its ``created``; so that word overlap decides within a day), then more words
    in common with the project's name and branch, then the newer time. With ``n``, only the first
    ``n`` (word overlap is computed only for the :func:`contenders`). ``cross``: the ``[trust]
    cross_projects`` policy (memory/state.py)."""
    topic = words(f"{project} {branch or ''}")
    ranked = []
    for rank_key, h in _coarse(once(heads), project, n, key, legacy, cross, env):
        text = _text(h, "title", "scope", "learning")
        fine = (len(topic & words(text)) if topic else 0, iso_epoch(h.get("created")) or 0.0,
                os.path.basename(h["path"]))
        ranked.append((rank_key + fine, h))
    ranked.sort(key=lambda kh: kh[0], reverse=True)
    return [h for _, h in ranked][:n]


def _text(head: dict, *fields: str) -> str:
    tags = head.get("tags")  # a list, or one tag as written by hand
    return " ".join(str(x) for x in [*map(head.get, fields), *(tags if isinstance(tags, list) else [tags])] if x)


def once(heads: list[dict], id_of: Callable[[dict], str] = learning_id) -> list[dict]:
    """``heads`` less those whose id and title (normalised, as ``held_review.copy_text``) an earlier one has: a
    file a person copied, or the same learning written on two days (two machines, brought together by
    ``lh sync``), is one learning; the newest file, listed first, stands for it.

    why not the excerpt too: both files of a learning restated on another day carry one id (ids.py),
    each in its own words; the digest listed it twice. ``id_of``: a head's id (a brief head carries it)."""
    by_id: dict[str, list[dict]] = {}
    for h in heads:
        by_id.setdefault(id_of(h), []).append(h)
    if len(by_id) == len(heads):  # why: the usual case; the titles' normalising cost 0.3 ms for 200 heads
        return list(heads)
    from lazy_harness.memory.sanitize import normalise

    copies = set()
    for same in (group for group in by_id.values() if len(group) > 1):
        titles: set[str] = set()
        for h in same:
            title = normalise(h.get("title") or "")
            if title in titles:
                copies.add(id(h))
            titles.add(title)
    return [h for h in heads if id(h) not in copies]


def once_each(heads: list[dict]) -> list[dict]:
    """:func:`once` for the views that list learnings (``lh memory show``, the page): each kept head with
    ``also_in``, the paths of the files it stands for, so a person can merge them or delete all but one."""
    by_id: dict[str, list[dict]] = {}
    for h in heads:
        by_id.setdefault(learning_id(h), []).append(h)
    kept = once(heads)
    for k in kept:
        k["also_in"] = [h["path"] for h in by_id[learning_id(k)] if h is not k and once([k, h]) == [k]]
    return kept


def contenders(heads: list[dict], project: str, n: int | None, key: Key = None,
               legacy: Callable[[Record], bool] | None = None, cross: str = state.AUTO,
               env: Env | None = None) -> list[dict]:
    """The heads that can still reach the first ``n`` places of :func:`rank_learnings`, in their order:
    ranking them gives what ranking all of them gives. Needs only brief heads: only these are read whole."""
    chosen = {id(h) for _, h in _coarse(heads, project, n, key, legacy, cross, env)}
    return [h for h in heads if id(h) in chosen]


def _coarse(heads: list[dict], project: str, n: int | None, key: Key, legacy: Callable[[Record], bool] | None,
            cross: str, env: Env | None = None) -> list[tuple[tuple[bool, str], dict]]:
    """(rank key, head) of the active heads shown in this project that can still reach the first ``n``
    places, best first, by the first pass: own, then the day. Shown here: what its state lets reach a
    session of this project (memory/state.py); one written here always does (why asked first: it spares
    most heads the state's reading)."""
    active = [h for h in heads if is_active(h) and (key is None or (held.belongs(h, key, legacy) and (
        state.written_in(h, key, project) or state.reaches(state.of_learning(h, cross, env=env)[0], False))))]
    # why day_of, not the name's first ten characters: a file renamed by hand (``zebra-notes.md``) sorted
    # after every date, so it ranked as the newest learning whatever its age
    coarse = sorted(((own(h, project, key), day_of(h)), k) for k, h in enumerate(active))
    coarse.reverse()
    if n is not None and len(coarse) > n:
        coarse = [c for c in coarse if n > 0 and c[0] >= coarse[n - 1][0]]
    return [(rank_key, active[k]) for rank_key, k in coarse]


def about_here(heads: list[dict], project: str, branch: str | None, key: Key,
               topic_texts: list[str]) -> list[dict]:
    """``heads`` less another project's learnings sharing no word (:func:`words`) of title (as shown: its file's
    name without one) and tags with this project's name, branch, own learnings' titles and tags, and
    ``topic_texts`` (the summaries and tags of the decisions and failures the start shows). why: a place
    at every start takes evidence of being about this project; prompt recall judges the others per prompt."""
    mine = [own(h, project, key) for h in heads]
    if all(mine):  # why: the usual case spares the words of every head
        return heads
    marks = [words(f"{_text(h, 'title')} {'' if h.get('title') else ids.title_of_file(h['path'])}") for h in heads]
    topic = words(" ".join([project, branch or "", *topic_texts])).union(
        *(m for m, o in zip(marks, mine, strict=True) if o))
    return [h for h, m, o in zip(heads, marks, mine, strict=True) if o or topic & m]


def own(head: dict, project: str, key: Key) -> bool:
    """Written in this project: by its key when known (``~/work/api`` and ``~/clients/x/api`` are two);
    one written before keys were recorded, by its origin's name (a rank, not an access: ``belongs``), or
    adopted by the project (its id among ``key``: :func:`to_show`)."""
    known = provenance.key_of(head)
    if key is not None and known:
        return provenance.is_key(known, key)
    return head.get("origin") == project or (isinstance(key, frozenset) and "path" in head and learning_id(head) in key)


# --- what the section shows ----------------------------------------------------------------------

def to_show(candidates: list[str], n: int, root: str, cfg: Config, env: Env, stats: dict, screen: held.Screen,
            owned: Owned) -> list[dict]:
    """The whole heads of the first ``n`` learnings of ``candidates`` (the newest files) the digest shows,
    ranked, with what the hold check holds left out; the digest's ``stats`` get what was read (the
    learnings of this project, the held ones, those waiting for approval, the damaged ones)."""
    # why the adopted ids beside the keys (an id is never a key): a learning written before keys were
    # recorded that this project adopted under another name (a folder renamed, then ``lh memory adopt``)
    # is its own (:func:`own`); it counted as another project's, so a memory of only such learnings read
    # as none, and one sharing no word with the project's name was left out
    project, key, cross = stats["project"], owned.keys | owned.adopted, state.policy(cfg)
    legacy = provenance.legacy_owner(paths.projects_dir(env), paths.project_key(root), project, owned.adopted)
    heads = Heads(candidates, paths.learning_heads_file(env))
    if candidates:  # why: with none listed (``context.learnings = 0``) the check stats the files itself
        # why: SessionStart's index check compares them with what the index read (``writer.edited``): an
        # edit written into a file changes no folder's ``stat``, and these are stat'ed here anyway
        stats["learning_stamps"] = heads.stamps
    if heads.not_files:  # why named: passed over in silence, nobody learns why the learning is gone
        more = f", and {len(heads.not_files) - DAMAGE_NAMED} more" if len(heads.not_files) > DAMAGE_NAMED else ""
        stats["errors"].append(f"{len(heads.not_files)} learning(s) not a regular file, not read "
                               f"({'; '.join(heads.not_files[:DAMAGE_NAMED])}{more}); move them aside")
    readable = _readable(heads.brief, stats)
    # why: what the running session itself wrote is neither news nor a reason to speak (ADR 0034). why
    # once before the state is asked: the newest file of an id stands for it (ADR 0059), so an inactive
    # copy written last hides an older active one instead of leaving it to be shown
    brief = once([h for h in readable if not provenance.from_session(h, stats["session"], "origin_session")],
                 lambda h: h["id"])
    # why: not shown again to the session that wrote them, they are still this project's word on their titles
    written = {older_own.title_key(f) for h in readable
               if provenance.from_session(h, stats["session"], "origin_session") and own(h, project, key)
               and is_active(h) and (f := heads.full(h)) is not None}
    stats["own_learnings"] = sum(1 for h in brief if own(h, project, key) and is_active(h))
    stats["held_learnings"] = [h["id"] for h in readable if h.get("status") == "held"]
    # another project's learnings a session wrote wait for the person's approval (ADR 0032); why
    # crosses() first: a learning kept to its project never waits, and it costs one compare where the
    # others read the key and the whole status (200 heads at every start)
    waiting = {} if cross == state.AUTO else {
        h["id"]: h for h in readable if state.crosses(h) and not state.written_in(h, key, project)
        and state.of_learning(h, cross, env=env)[0] == state.WAITING}
    stats["waiting_learnings"] = list(waiting)
    stats["waiting_held"] = _held_check(heads, waiting, screen)
    want = n + SCREEN_MARGIN  # why: ranked (and read whole) only as far as a few held ones could reach
    whole = [f for f in map(heads.full, contenders(brief, project, want, key, legacy, cross, env)) if f is not None]
    if problem := heads.save():
        stats["errors"].append(problem)
    related = about_here(whole, project, stats["branch"], key, stats.get("topic") or [])
    stats["unrelated_learnings"] = len(whole) - len(related)
    # why: a held one leaves its place; zip stops at n before the hold check reads one more
    kept = own_title_wins((h for h in rank_learnings(related, project, stats["branch"], want, key, legacy, cross, env)
                           if screen.keep("learning", learning_id(h), held.head_text(h), h)), project, key, written)
    older = older_own.Older(candidates, env) if candidates and stats.get("candidates_cut") else None
    shown = [h for _, h in zip(range(n), older_own_wins(kept, older, project, key, screen), strict=False)]
    if older is not None and (problem := older.save()):
        stats["errors"].append(problem)
    return shown


def own_title_wins(ranked: Iterable[dict], project: str, key: Key, known: Iterable[str] = ()) -> Iterator[dict]:
    """``ranked`` (own learnings first: :func:`rank_learnings`) less another project's learning of a
    title one of this project's has (or one of ``known``): the rule of memory/own_title.py, which prompt
    recall applies too."""
    return own_title.own_title_wins(ranked, lambda h: own(h, project, key),
                                    lambda h: own_title.title_of(h.get("title"), h["path"]), known)


def older_own_wins(kept: Iterable[dict], older: older_own.Older | None, project: str, key: Key,
                   screen: held.Screen) -> Iterator[dict]:
    """``kept`` less another project's learning of a title one of this project's learnings older than the
    candidates has (``older``: None when every file is a candidate), as prompt recall leaves it out."""
    found: dict[str, bool] = {}
    for h in kept:
        if older is not None and not own(h, project, key):
            title = older_own.title_key(h)
            if title not in found:
                found[title] = _older_own(older, h, title, project, key, screen)
            if found[title]:
                continue
        yield h


def _older_own(older: older_own.Older, other: dict, title: str, project: str, key: Key, screen: held.Screen) -> bool:
    """Whether a learning of this project older than the candidates, shown here, has ``title``."""
    for path in older.files(older_own.stem_of(older_own.raw_title(other))):
        head = read_head(path)
        if head is None or head.get(DAMAGED) or not is_active(head) or not own(head, project, key) \
                or older_own.title_key(head) != title:
            continue
        n = len(screen.found)
        shown = screen.keep("learning", learning_id(head), held.head_text(head), head)
        del screen.found[n:]  # why: judged only to know whether it is shown; the start reads it nowhere else
        if shown:
            return True
    return False


def _readable(brief: list[dict], stats: dict) -> list[dict]:
    """``brief`` less the learnings whose quote left open swallowed their keys (``frontmatter.DAMAGED``),
    each named in ``stats["errors"]`` by file and line. why: whose it is, its scope and status cannot be
    read; shown nowhere and counted as no project's waiting learning, it was also named nowhere."""
    damaged = [h for h in brief if h.get(DAMAGED)]
    if not damaged:
        return brief
    named = [f"{h['path']}:{str(h[DAMAGED]).removeprefix('line ')}" for h in damaged[:DAMAGE_NAMED]]
    more = f", and {len(damaged) - DAMAGE_NAMED} more" if len(damaged) > DAMAGE_NAMED else ""
    stats["errors"].append(f"{len(damaged)} damaged learning(s) not read ({'; '.join(named)}{more}); "
                           "lh memory check names them")
    return [h for h in brief if not h.get(DAMAGED)]


def _held_check(heads: Heads, waiting: dict[str, dict], screen: held.Screen) -> Callable[[str], bool]:
    """Whether the hold check holds the waiting learning of an id (``lh memory held`` lists it as held,
    though its frontmatter may say active), read whole only when asked (why: all at every start cost
    5 ms with a few hundred). Not in ``screen.found``: another project's learning is not held here."""
    verdict = trust.reason if screen.verdicts is None else screen.verdicts.reason

    def holds(lid: str) -> bool:
        whole = heads.full(waiting[lid]) if lid in waiting else None
        return whole is not None and bool(verdict(held.head_text(whole)))

    return holds
