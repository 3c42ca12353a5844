"""Learnings for the SessionStart digest: each file's head, kept in ``<cache>/learning-heads.json`` while
its size, mtime, inode and change time are unchanged (why: reading 200 heads cost 10 to 20 ms at every
start), their ranking (:func:`rank_learnings`) and the ones the section shows (:func:`to_show`; docs/how/read-back.md).
Hot path: only ``os`` and our hot-path modules at import time."""

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
VERSION = 11  # why: bump when read_head's or brief's result changes for the same bytes, so kept heads are read again
WHOLE = 64  # whole heads kept at most: the contenders of a few projects (a dozen or two each)
# why created: ranking's first pass dates a file renamed by hand, its name's date gone, by it (``day_of``)
BRIEF = ("status", "deprecated_by", "deprecated_reason", "scope", "project_folder", "origin", "origin_session", "via",
         "created", DAMAGED)
SCREEN_MARGIN = 8  # learnings ranked beyond the section's count, to fill the places of held ones
DAMAGE_NAMED = 3  # damaged learnings named in the log line; lh memory check names them all


def read_head(path: str) -> dict | None:
    """Frontmatter and the start of a learning file, with ``DAMAGED`` for a quote left open."""
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
    """What ranking's first pass and the counts read of a head (``BRIEF``'s fields it gives, its id, its
    path). why a small dict: 200 of them are decoded at every start and encoded whenever one changes."""
    return {**{k: v for k in BRIEF if (v := head.get(k)) is not None}, "id": learning_id(head),
            "path": head["path"]}


def day_of(head: dict) -> str:
    """The day a learning is dated by: its file name's, else its ``created``, in the reader's time zone."""
    created = head.get("created")
    return date_of(os.path.basename(head["path"])) or date_of(created, iso_epoch(created))


def learning_id(head: dict) -> str:
    """A head's id as the index gives it."""
    return ids.of_learning(head, path=head["path"])


class Heads:
    """The candidates' heads: brief ones for all, whole ones on demand (:meth:`full`), cached per file."""

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
                # why the change time: a file written over with as many bytes and its mtime set back
                # (``cp -p`` of a backup, an editor that keeps times) keeps the other three
                stamp: list[int] | None = [st.st_size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns]
            except OSError:
                stamp = None
            else:
                if st.st_mode & 0o170000 != 0o100000:  # why the mask: stat.S_ISREG without ``stat``
                    self.not_files.append(path)
                    continue
            old = kept.get(path)
            if stamp is not None and isinstance(old, list) and len(old) == 6 and old[:3] == stamp[:3] \
                    and old[5] == stamp[3] and isinstance(old[3], dict) and isinstance(old[4], (dict, type(None))):
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
        """The whole head of a brief one; None when its file can no longer be read."""
        path = head["path"]
        self.used.add(path)
        full = self.fulls.get(path)
        if full is None:
            full = self.fulls[path] = read_head(path)
            self.changed = True
        return full

    def save(self) -> str | None:
        """Keep the brief heads and up to ``WHOLE`` whole ones, if ``changed``; why not written, or None."""
        if not self.changed:
            return None
        from lazy_harness.atomic import atomic_write

        # why: two projects started in turn rank different contenders; both kept spare a rewrite
        listed = [h["path"] for h in self.brief if h["path"] in self.used or h["path"] in self.had_full]
        whole = set(sorted(listed, key=lambda path: path not in self.used)[:WHOLE])  # read this time first
        keep = {}
        for head in self.brief:
            path = head["path"]
            if path in self.stamps:
                full = self.fulls.get(path) if path in whole else None
                size, mtime, inode, changed = self.stamps[path]
                keep[path] = [size, mtime, inode, _without_path(head), _without_path(full) if full else None, changed]
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
    """Active learnings, most relevant first: own, the newer day, more words shared with the project's name
    and branch, the newer time; with ``n``, the first ``n`` (only the :func:`contenders` get word overlap)."""
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
    """``heads`` less those whose id and title an earlier one has: a copy, or one learning written on two
    days (``lh sync``), is one learning, its newest file first; ``id_of``: a head's id."""
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
    """:func:`once` for the views: each kept head with ``also_in``, the paths of the files it stands for."""
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
    """The heads that can still reach the first ``n`` places of :func:`rank_learnings`, in their order."""
    chosen = {id(h) for _, h in _coarse(heads, project, n, key, legacy, cross, env)}
    return [h for h in heads if id(h) in chosen]


def _coarse(heads: list[dict], project: str, n: int | None, key: Key, legacy: Callable[[Record], bool] | None,
            cross: str, env: Env | None = None) -> list[tuple[tuple[bool, str], dict]]:
    """(rank key, head) of the active heads shown here that can reach the first ``n`` places, by the first
    pass (own, then the day). why written here asked first: it spares most heads the state's reading."""
    active = [h for h in heads if is_active(h) and (key is None or (held.belongs(h, key, legacy) and (
        state.written_in(h, key, project) or state.reaches(state.of_learning(h, cross, env=env)[0], False))))]
    # why day_of: a file renamed by hand (``zebra-notes.md``) sorted after every date
    coarse = sorted(((own(h, project, key), day_of(h)), k) for k, h in enumerate(active))
    coarse.reverse()
    if n is not None and len(coarse) > n:
        coarse = [c for c in coarse if n > 0 and c[0] >= coarse[n - 1][0]]
    return [(rank_key, active[k]) for rank_key, k in coarse]


def about_here(heads: list[dict], project: str, branch: str | None, key: Key,
               topic_texts: list[str]) -> list[dict]:
    """``heads`` less another project's learnings sharing no word of title and tags with this project's
    name, branch, own learnings and ``topic_texts`` (why: a place at every start takes evidence)."""
    mine = [own(h, project, key) for h in heads]
    if all(mine):  # why: the usual case spares the words of every head
        return heads
    marks = [words(f"{_text(h, 'title')} {'' if h.get('title') else ids.title_of_file(h['path'])}") for h in heads]
    topic = words(" ".join([project, branch or "", *topic_texts])).union(
        *(m for m, o in zip(marks, mine, strict=True) if o))
    return [h for h, m, o in zip(heads, marks, mine, strict=True) if o or topic & m]


def own(head: dict, project: str, key: Key) -> bool:
    """Written in this project: by its key if known, else by its origin's name, or adopted (id in ``key``)."""
    known = provenance.key_of(head)
    if key is not None and known:
        return provenance.is_key(known, key)
    return head.get("origin") == project or (isinstance(key, frozenset) and "path" in head and learning_id(head) in key)


# --- what the section shows ----------------------------------------------------------------------

def to_show(candidates: list[str], n: int, root: str, cfg: Config, env: Env, stats: dict, screen: held.Screen,
            owned: Owned) -> list[dict]:
    """The whole heads of the first ``n`` learnings of ``candidates`` the digest shows, ranked, the held
    ones left out; ``stats`` get what was read (own, held, waiting, damaged)."""
    # why the adopted ids beside the keys (an id is never a key): a learning this project adopted is its own
    project, key, cross = stats["project"], owned.keys | owned.adopted, state.policy(cfg)
    legacy = provenance.legacy_owner(paths.projects_dir(env), paths.project_key(root), project, owned.adopted)
    heads = Heads(candidates, paths.learning_heads_file(env))
    if candidates:  # why: with none listed (``context.learnings = 0``) the check stats the files itself
        # why: SessionStart's index check compares them with what the index read (``writer.edited``)
        stats["learning_stamps"] = heads.stamps
    if heads.not_files:  # why named: passed over in silence, nobody learns why the learning is gone
        more = f", and {len(heads.not_files) - DAMAGE_NAMED} more" if len(heads.not_files) > DAMAGE_NAMED else ""
        stats["errors"].append(f"{len(heads.not_files)} learning(s) not a regular file, not read "
                               f"({'; '.join(heads.not_files[:DAMAGE_NAMED])}{more}); move them aside")
    readable = _readable(heads.brief, stats)
    # another project's learnings wait for approval (ADR 0032); why crosses() first: one compare a head
    waiting = [] if cross == state.AUTO else [
        h for h in readable if state.crosses(h) and not state.written_in(h, key, project)
        and state.of_learning(h, cross, env=env)[0] == state.WAITING]
    brief = standing_here(readable, stats["session"], key, legacy, waiting)
    # why: not shown again to the session that wrote them, they are still this project's word on their titles
    written = {older_own.title_key(f) for h in readable
               if provenance.from_session(h, stats["session"], "origin_session") and own(h, project, key)
               and is_active(h) and (f := heads.full(h)) is not None}
    stats["own_learnings"] = sum(1 for h in brief if own(h, project, key) and is_active(h))
    stats["held_learnings"] = [h["id"] for h in readable if h.get("status") == "held"]
    waiting_ids = {h["id"]: h for h in waiting}
    stats["waiting_learnings"] = list(waiting_ids)
    stats["waiting_held"] = _held_check(heads, waiting_ids, screen)
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
    mark_hand_edits(shown)
    return shown


def standing_here(readable: list[dict], session: str | tuple[str, ...], key: Key,
                  legacy: Callable[[Record], bool] | None, waiting: list[dict]) -> list[dict]:
    """The brief heads that stand for their ids at this start: ``readable`` less what the running session
    wrote (no news to it, ADR 0034), less what cannot be shown here (another project's ``scope: project``
    learning, or one without a key this project neither adopted nor wrote: ``held.belongs``; another
    project's waiting for approval, ``waiting``), then the newest file of each id (``once``, ADR 0059).
    why that order: a learning corrected by hand in a new file (its title kept, no key) is its id's newest
    file; kept first, it displaced the project's own text and was left out itself, so the start showed
    neither until the correction was adopted, and never when two projects have its origin's name."""
    left = {id(h) for h in waiting}
    return once([h for h in readable if not provenance.from_session(h, session, "origin_session")
                 and id(h) not in left and (key is None or held.belongs(h, key, legacy))], lambda h: h["id"])


HAND_EDITED = "edited_by_hand"  # set on a shown head whose text the person edited beside another of its title


def mark_hand_edits(shown: list[dict]) -> None:
    """Set :data:`HAND_EDITED` on each of ``shown`` edited by hand since it was written while another text
    of its title (by its words) is shown too, as ``lh memory show`` tags it. why: a session's new text of a
    title is written beside a text the person edited and does not replace it (ADR 0063), and the start
    showed both with nothing telling them apart. Only such a title's files are read whole."""
    titles: dict[str, int] = {}
    for h in shown:
        titles[older_own.title_key(h)] = titles.get(older_own.title_key(h), 0) + 1
    if all(n == 1 for n in titles.values()):
        return
    from lazy_harness.memory.learning_text import file_edited_by_hand

    for h in shown:
        if titles[older_own.title_key(h)] > 1 and file_edited_by_hand(h["path"]):
            h[HAND_EDITED] = True


def own_title_wins(ranked: Iterable[dict], project: str, key: Key, known: Iterable[str] = ()) -> Iterator[dict]:
    """``ranked`` less another project's learning of a title an own one (or ``known``) has
    (memory/own_title.py)."""
    return own_title.own_title_wins(ranked, lambda h: own(h, project, key),
                                    lambda h: own_title.title_of(h.get("title"), h["path"]), known)


def older_own_wins(kept: Iterable[dict], older: older_own.Older | None, project: str, key: Key,
                   screen: held.Screen) -> Iterator[dict]:
    """``kept`` less another project's learning of a title an own learning older than the candidates has."""
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
    """``brief`` less the learnings a quote left open damaged, each named in ``stats["errors"]``."""
    damaged = [h for h in brief if h.get(DAMAGED)]
    if not damaged:
        return brief
    named = [f"{h['path']}:{str(h[DAMAGED]).removeprefix('line ')}" for h in damaged[:DAMAGE_NAMED]]
    more = f", and {len(damaged) - DAMAGE_NAMED} more" if len(damaged) > DAMAGE_NAMED else ""
    stats["errors"].append(f"{len(damaged)} damaged learning(s) not read ({'; '.join(named)}{more}); "
                           "lh memory check names them")
    return [h for h in brief if not h.get(DAMAGED)]


def _held_check(heads: Heads, waiting: dict[str, dict], screen: held.Screen) -> Callable[[str], bool]:
    """Whether the hold check holds the waiting learning of an id, read whole only when asked (all at every
    start cost 5 ms). Not in ``screen.found``: another project's learning is not held here."""
    verdict = trust.reason if screen.verdicts is None else screen.verdicts.reason

    def holds(lid: str) -> bool:
        whole = heads.full(waiting[lid]) if lid in waiting else None
        return whole is not None and bool(verdict(held.head_text(whole)))

    return holds
