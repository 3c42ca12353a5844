"""``lh memory search`` without click (why: importing click costs about 4 x a bare start), printing the
same lines as the click command: the prompt hook's ranking (``rank.rank``) without its bar and related
words; an entry is listed when it holds a word typed (or a word starting as it does), best first."""

from __future__ import annotations

import os
import time

from lazy_harness import config, paths, project_identity
from lazy_harness.logfile import one_line
from lazy_harness.memory.fence import local_time
from lazy_harness.memory.files import iso_epoch
from lazy_harness.regular_file import open_regular, read_regular

TYPE_CHECKING = False
if TYPE_CHECKING:
    import sqlite3
    from collections.abc import Callable

    from lazy_harness.config.typed import Config, RecallConfig
    from lazy_harness.memory.held_review import States
    from lazy_harness.memory.shapes import Env

    Say = Callable[..., None]  # say(text, err=False): one line printed

KINDS = ("decision", "failure", "learning", "handoff")
DEEP_MONTHS = 2  # month folders of learnings in which a search looks for hand edits (the newest)


def place(project: str | None, env: Env, say: Say) -> tuple[str, Config, str, str]:
    """(folder, config, memory folder, learnings folder) of ``project`` (default: the working directory);
    old files moved and a killed writer's leftovers rolled back first, each told through ``say``."""
    from lazy_harness.memory import intent, migrate

    cwd = os.path.abspath(project or os.getcwd())
    cfg = config.load_checked(env, warn=lambda problem: say(
        f"lh: warning: {problem}; its default is used until it is fixed (lh config validate)", err=True))
    root = project_identity.project_root(cwd)
    mdir = paths.project_memory_dir(root, None, cfg["memory"]["path"] or None)
    for line in migrate.migrate(mdir, paths.project_key(root), root, None, time.time()):
        say(f"lh: {line}", err=True)
    for line in intent.settle_all():
        say(f"lh: {line}", err=True)
    return cwd, cfg, mdir, paths.learnings_dir(cfg["knowledge"]["path"] or None)


def valid_since(value: str | None) -> bool:
    """A date (or time) that exists: ``2025-02-30`` is refused, not read as March 2nd."""
    if value is None:
        return True
    import datetime

    try:
        datetime.date.fromisoformat(value[:10])
    except ValueError:
        return False
    return iso_epoch(value) is not None


def find(words: list[str], cwd: str, cfg: Config, mdir: str, ldir: str, all_projects: bool, kinds: list[str],
         since: str | None, limit: int, show_all: bool) -> tuple[list[dict], list[str]]:
    """The best ``limit`` entries for ``words``, each with ``elsewhere`` (another project's project-only
    learning, listed only with ``all_projects``), and the ``<file>: cannot be read: <why>`` of each
    learning hit left out."""
    from lazy_harness.recall.index import for_commands, lookup
    from lazy_harness.recall.prompt import admit, rank

    # the project's keys (its own and its aliases, ADR 0035) and the learnings without a key it adopted
    keys, legacy, adopted = admit.owner_of(cwd, mdir)
    mdirs = paths.all_memory_dirs(None, cfg["memory"]["path"] or None) if all_projects else [mdir]
    # why: rescoring costs most of a search (400: 32 ms at 100,000 entries); a date filter needs a wider
    # pool; the kinds are searched, not filtered after (the best 200 held no failure past 250 decisions)
    pool = max(2000, limit * 20) if since else max(60, limit * 3)

    def read(conn: sqlite3.Connection) -> list[dict]:
        where, args = lookup.scope_sql(None if all_projects else mdirs, project_identity.project_name(cwd), keys,
                                       adopted)
        if kinds:
            where, args = f"({where}) AND e.kind IN ({','.join('?' * len(kinds))})", [*args, *kinds]
        settings: RecallConfig = {**cfg["recall"], "min_terms": 1, "min_coverage": 0, "min_score": 0}
        # why: held and forgotten entries are listed too, labelled, so a person finds what to approve or bring back
        ranked, _ = rank.rank(conn, " ".join(words), where, args, settings, pool=pool,
                                keep_stopwords=True, hidden_too=True, scopes=[*mdirs, ""], with_related=False)
        admit.attach(conn, ranked)  # a project-only learning of another project: only with --all-projects
        for c in ranked:
            c["elsewhere"] = not admit.in_scope(c, keys, legacy)
        if not all_projects:
            unassigned(ranked, mdir, ldir, project_identity.project_name(cwd))
        ranked = [c for c in ranked if all_projects or not c["elsewhere"]]
        titles_here(conn, ranked, project_identity.project_name(cwd), keys, adopted, mdir)
        return ranked

    # why: a stat of every learning file cost 110 ms at 100,000 entries; hand edits are in the newest months
    ranked = for_commands.read_current(paths.recall_index_file(), mdirs, ldir, read, deep=DEEP_MONTHS)[0]
    floor = iso_epoch(since) if since else None
    ranked = [c for c in ranked if floor is None or (iso_epoch(c["ts"]) or 0.0) >= floor]
    # why here, not in rank.rank: a person wants the newest of equal matches first, the hook index order
    ranked.sort(key=lambda c: (-c["coverage"], c["bm25"], -(iso_epoch(c["ts"]) or 0.0)))
    unreadable: list[str] = []
    out = label_all(ranked, keys, project_identity.project_name(cwd), cfg, show_all, limit, mdir, ldir, unreadable)
    for c in out:
        if c.get("unassigned"):
            c["state"] = "unassigned"
            c["mark"] = f"in no project until assigned: lh memory assign {c['id']} --project {cwd}"
    return out, unreadable


def titles_here(conn: sqlite3.Connection, ranked: list[dict], project: str, keys: frozenset[str],
                adopted: frozenset[str], mdir: str) -> None:
    """Each learning hit gets ``this_project``, and one of another project whose title one of this
    project's learnings has ``title_here``, that learning's id: both listed, labelled (ADR 0071)."""
    from lazy_harness.memory import own_title, state

    learnings = [c for c in ranked if c["kind"] == "learning"]
    for c in learnings:
        c["this_project"] = c["id"] in adopted or state.written_in(c, keys, project)
    others = [c for c in learnings if not c["this_project"]]
    if not others:
        return
    from lazy_harness.recall.index import lookup

    from lazy_harness.recall.prompt import admit

    wanted = [(c["title"], c["file"]) for c in others]
    titles = {own_title.title_of(t, f) for t, f in wanted}
    kept = own_title.titles_among(lookup.own_learnings(conn, project, keys, adopted, titles), wanted,
                                  lambda row: admit.shown_here(row, mdir, None))
    for c in others:
        if lid := own_title.other_of_own_title(kept, c["title"], c["file"]):
            c["title_here"] = lid
    paired = {c["title_here"] for c in others if c.get("title_here")}
    for c in learnings:
        c["paired"] = c["id"] in paired


def unassigned(ranked: list[dict], mdir: str, ldir: str, name: str) -> None:
    """Mark ``unassigned`` (no longer ``elsewhere``) each learning hit without a key of this project's name
    that waits to be assigned with this project a candidate (``owners.orphans``). why: a search in its
    project said "no match"."""
    maybe = [c for c in ranked if c["elsewhere"] and c["kind"] == "learning" and not c.get("okey")
             and c.get("origin") == name]
    if not maybe:
        return
    from lazy_harness.memory import owners

    mroot, key = os.path.split(mdir.rstrip(os.sep))
    waiting = {h["id"] for h in owners.orphans(mroot, ldir) if h["owner"] is None and key in h["candidates"]}
    for c in maybe:
        if c["id"] in waiting:
            c["elsewhere"], c["unassigned"] = False, True


def run(words: list[str], project: str | None, all_projects: bool, kinds: list[str], since: str | None,
        limit: int, as_json: bool, show_all: bool, env: Env, say: Say) -> int:
    """The whole command; 0 when something matched, else 1 (as grep)."""
    cwd, cfg, mdir, ldir = place(project, env, say)
    from lazy_harness.memory import files

    # why these two: the index reads past a folder or a FIFO there; not memory.damage's check: 13 ms
    for path in (os.path.join(mdir, files.DECISIONS), os.path.join(mdir, files.FAILURES)):
        if why := _not_a_file(path):
            say(f"lh: {path}: cannot be read: {why}; searched the rest of memory", err=True)
    hits, unreadable = find(words, cwd, cfg, mdir, ldir, all_projects, kinds, since, limit, show_all)
    for said in unreadable:  # a learning file the index holds and a FIFO or a folder stands in for now
        say(f"lh: {said}; searched the rest of memory (hint: move it aside)", err=True)
    if not hits:
        say(f"no match for: {' '.join(words)}", err=True)
        return 1
    for c in hits:
        say(line(c, as_json, c.get("mark") or None, show_all))
    return 0


def _not_a_file(path: str) -> str:
    """Why ``path`` is no file to read ('' : a regular file, or nothing, there)."""
    try:
        mode = os.stat(path).st_mode & 0o170000  # why the mask: stat.S_IFMT without ``stat``
    except OSError:
        return ""
    return "" if mode == 0o100000 else "a folder, not a file" if mode == 0o040000 else "not a regular file"


def line(c: dict, as_json: bool, mark: str | None, show_all: bool) -> str:
    """One hit as the command prints it; one held for a secret redacted (ADR 0062)."""
    from lazy_harness.memory import held_shown

    said = held_shown.text(c["title"], c.get("secret") or mark)
    if as_json:
        import json

        text = one_line(said, 100, safe=False)  # why: JSON keeps the stored text
        obj = {"kind": c["kind"], "id": c["id"], "title" if c["kind"] == "learning" else "summary": text,
               "file": c["file"], "line": c["line"] or None, "score": round(c["coverage"] - c["bm25"] / 1000.0, 4),
               "project": c["origin"], "date": date_of(c["ts"])}
        if show_all or mark:
            obj["mark"] = mark
        obj["state"] = c.get("state", "active")
        if c.get("elsewhere"):
            obj["project_only"] = True
        if "this_project" in c:
            obj["this_project"] = c["this_project"]
        obj |= {k: c[k] for k in ("title_here", "also_in") if c.get(k)}
        if came_from(c):
            obj["came_from"] = one_line(came_from(c), 80, safe=False)
        # why: json escapes C0 controls but not DEL, C1 or bidi; their \uXXXX keeps the JSON exact
        return json.dumps(obj, ensure_ascii=False)
    title = one_line(said, 100)
    where_ = f"{c['file']}:{c['line']}" if c["line"] else c["file"]
    label = f"  [{mark}]" if mark else ""
    if c.get("elsewhere"):
        label += f"  [project-only: {one_line(c['origin'] or 'unknown', 40)}]"
    if c.get("title_here"):  # why: both texts of one title listed, only this project's given to its sessions
        label += f"  [another project's text of this title: this project's is {c['title_here']}]"
    elif c.get("paired"):
        label += "  [this project's]"
    if came_from(c):
        label += f"  [{one_line(came_from(c), 80)}]"
    return (f"{c['kind']:<8}  {c['id']}  {date_of(c['ts']):<10}  {c['origin'] or '-'}  {title}{label}  {where_}"
            + (f"  [{second(c['also_in'])}]" if c.get("also_in") else ""))


def came_from(c: dict) -> str:
    """``sync from laptop-2 (ana)`` for a hit another machine wrote; '' for this machine's own."""
    prov = str(c.get("prov") or "")
    return prov.split(": ", 1)[0] if prov.startswith("sync from ") else ""


def second(others: list[str]) -> str:
    """The note on a learning listed once whose ``others`` files hold it too (``lh memory show`` too)."""
    return f"{'a second file' if len(others) == 1 else f'{len(others)} more files'} of it: {', '.join(others)}"


def date_of(ts: object) -> str:
    """A hit's day in the reader's time zone; a time that does not parse as written."""
    return local_time(iso_epoch(ts)) or (ts[:10] if isinstance(ts, str) and len(ts) >= 10 else "undated")


def label_all(hits: list[dict], key: str | frozenset[str], project: str, cfg: Config, show_all: bool,
              limit: int, mdir: str, ldir: str, unreadable: list[str]) -> list[dict]:
    """The first ``limit`` hits, each with its ``state`` and ``mark`` as ``lh memory show`` tags it;
    superseded, merged and deprecated ones only with ``show_all``. A learning whose file cannot be read is
    left out and named in ``unreadable``."""
    from lazy_harness.memory import state

    cross = state.policy(cfg)
    seen = Seen(mdir, ldir)
    seen.wanted = {os.path.basename(c["file"])[11:] for c in hits if c["kind"] == "learning"}
    out = []
    for c in hits:
        if c["kind"] == "learning" and seen.learning(c["file"]) is None:
            unreadable.append(seen.unreadable[c["file"]])
            continue
        if c["kind"] == "learning":
            seen.as_digest_lists(c)
        now = seen.state_of(c, cross)
        if now[0] in (state.SUPERSEDED, state.MERGED, state.DEPRECATED) and not show_all:
            continue
        c["state"], c["mark"] = now[0], state.label(now, state.written_in(c, key, project))
        c["secret"] = seen.redact_by(c, now)  # why: printed redacted when it names a secret (ADR 0062)
        if not c["origin"] and c["kind"] != "learning":  # an open item names no project: its folder's
            c["origin"] = seen.project_of(os.path.dirname(c["file"]), project)
        out.append(c)
        if len(out) >= limit:
            break
    seen.save()
    return out


class Seen:
    """What the labels of one search read, each once: the states per memory folder, the handoff items, the
    decision and failure lines, the learnings, each folder's project name."""

    def __init__(self, mdir: str, ldir: str) -> None:
        self.mdir, self.ldir = mdir, ldir
        self.states: dict[str, States] = {}
        self.items: dict[str, tuple[dict, set[str]]] = {}
        self.rows: dict[str, list[bytes]] = {}
        self.slugs: dict[str, list[tuple[str, str]]] | None = None
        self.wanted: set[str] = set()  # the names (past the day) of the learning hits: the files looked for
        self.names: dict[str, str] = {}  # memory folder -> its project's name
        self.origins: Callable[[], dict[str, str]] | None = None  # memory key -> a learning's origin
        self.learnings: dict[str, tuple[dict, str] | None] = {}  # a learning's file -> ``learning_of`` it
        self.unreadable: dict[str, str] = {}  # a learning's file -> ``<file>: cannot be read: <why>``

    def learning(self, path: str) -> tuple[dict, str] | None:
        """``learning_of(path)``, read once; None when unreadable (:attr:`unreadable`); a file gone: empty."""
        if path not in self.learnings:
            try:
                self.learnings[path] = learning_of(path)
            except FileNotFoundError:
                self.learnings[path] = {}, ""
            except OSError as exc:
                from lazy_harness.memory import damage  # why here: only for such a file (13 ms)

                self.learnings[path] = None
                self.unreadable[path] = f"{path}: cannot be read: {damage.unreadable(path) or exc.strerror or exc}"
        return self.learnings[path]

    def as_digest_lists(self, hit: dict) -> None:
        """A learning hit as the digest lists it: the newest of the files of its id and title on any day,
        with ``also_in``, the others (one learning written on two days, brought together by ``lh sync``)."""
        from lazy_harness.memory import files, frontmatter, ids
        from lazy_harness.memory.sanitize import normalise

        if self.slugs is None:  # why: only the files of the hits' names are opened
            self.slugs = {}
            # why the hits' names only: a path of each of 16,700 learnings cost 30 ms
            wanted = self.wanted or {os.path.basename(hit["file"])[11:]}
            for month in files.month_folders(self.ldir):
                try:
                    names = os.listdir(os.path.join(self.ldir, month))
                except OSError:
                    continue
                for name in [n for n in names if n[11:] in wanted]:
                    self.slugs.setdefault(name[11:], []).append((month, name))
        named = sorted(self.slugs.get(os.path.basename(hit["file"])[11:], []), reverse=True)  # newest first
        heads = [{**frontmatter.read_frontmatter_values(p, ("id", "title", "origin", "created")), "path": p}
                 for p in (os.path.join(self.ldir, m, n) for m, n in named if files.is_learning_name(n))]
        same = [h for h in heads if ids.of_learning(h, path=h["path"]) == hit["id"]]
        mine = next((h for h in same if h["path"] == hit["file"]), None)
        # why the title too: one id and one title are one learning (the digest's rule, learnings.once)
        same = [h for h in same if mine and normalise(h.get("title") or "") == normalise(mine.get("title") or "")]
        if len(same) > 1:
            first, *others = same
            hit.update(file=first["path"], title=first.get("title") or hit["title"],
                       ts=first.get("created") or hit["ts"], also_in=[h["path"] for h in others])

    def state_of(self, hit: dict, cross: str) -> tuple[str, str]:
        """(state, detail) of a hit: a learning's frontmatter, or its folder's marks (an approval checked
        against its text, ADR 0052) and an open item's log; then the hold check's verdict."""
        from lazy_harness.memory import frontmatter, state

        if hit["kind"] == "learning":
            meta, text = self.learning(hit["file"]) or ({}, "")
            if meta.get(frontmatter.DAMAGED):  # why: whose it is cannot be read, so it waits for no approval
                return state.DAMAGED, meta[frontmatter.DAMAGED]
            return self.of(self.mdir).learning({**meta, "path": hit["file"]}, text, cross)
        folder = os.path.dirname(hit["file"])
        if hit["kind"] == "handoff":
            from lazy_harness.memory import handoff

            if folder not in self.items:  # as every reader sees them (handoff.load)
                loaded = handoff.load(folder)[0]
                self.items[folder] = loaded, {i["id"] for i in handoff.forgotten_items(loaded)}
            items, forgotten = self.items[folder]
            item = items.get(hit["id"]) or {}
            if hit["id"] in forgotten:
                return state.FORGOTTEN, str(item.get("reason") or "")
            return self.of(folder).record("handoff", hit["id"], {"text": str(item.get("text") or hit["title"])})
        states = self.of(folder)
        # why only one with an approve mark is read (its MAC of its text, ADR 0052): all lines cost 35 ms
        rec = self.record(hit) if hit["id"] in states.ok.claims else None
        if rec is None:
            return state.with_verdict(state.of_marks(states.named.get(hit["id"])), hit.get("hold"))
        return states.record(hit["kind"], hit["id"], rec)

    def redact_by(self, hit: dict, now: tuple[str, str]) -> str:
        """What the hit's title is printed redacted by: a secret its hold or its text names."""
        folder = self.mdir if hit["kind"] == "learning" else os.path.dirname(hit["file"])
        return self.of(folder).redact_by(now, lambda: self.checked_text(hit))

    def checked_text(self, hit: dict) -> str:
        """What the hold check reads of a hit (its title when its line is gone)."""
        from lazy_harness.memory import trust

        if hit["kind"] == "learning":
            return (self.learning(hit["file"]) or ({}, ""))[1]
        if hit["kind"] == "handoff":
            item = self.items.get(os.path.dirname(hit["file"]), ({}, set()))[0].get(hit["id"]) or {}
            return str(item.get("text") or hit["title"])
        rec = self.record(hit)
        return trust.text_of(rec, hit["kind"]) if rec is not None else str(hit["title"] or "")

    def project_of(self, folder: str, project: str) -> str:
        """The name of the project whose memory ``folder`` is (``folder_names.name_of`` for another's)."""
        if os.path.normpath(folder) == os.path.normpath(self.mdir):
            return project
        if folder not in self.names:
            import functools

            from lazy_harness.memory import folder_names

            # why read once and only when asked: the learnings' heads name only a folder no decision names
            self.origins = self.origins or functools.cache(lambda: folder_names.origins_by_key(self.ldir))
            self.names[folder] = folder_names.name_of(folder, self.origins)
        return self.names[folder]

    def of(self, folder: str) -> States:
        from lazy_harness.memory import held_review

        if folder not in self.states:
            self.states[folder] = held_review.States(folder, self.ldir)
        return self.states[folder]

    def record(self, hit: dict) -> dict | None:
        """The decision or failure of a hit, from its line (the file read as bytes once, not parsed)."""
        from lazy_harness import jsonload
        from lazy_harness.memory import ids, lines

        path = hit["file"]
        if path not in self.rows:
            try:  # why read_regular: a FIFO in the file's place held the search in open() for good
                self.rows[path] = read_regular(path).split(b"\n")
            except OSError:
                self.rows[path] = []
        rows, number = self.rows[path], hit["line"] or 0
        raw = rows[number - 1] if 0 < number <= len(rows) else b""
        try:
            recs = [jsonload.loads(raw)] if raw.strip() else []
        except (ValueError, RecursionError):
            recs = lines.records_of(raw, lines.entry_fields)[0]  # salvaged as every view salvages it
        return next((r for r in recs if isinstance(r, dict) and "op" not in r and isinstance(r.get("summary"), str)
                     and ids.of_record(r, hit["kind"]) == hit["id"]), None)

    def save(self) -> None:
        for states in self.states.values():
            states.save()


def learning_of(path: str) -> tuple[dict, str]:
    """(frontmatter, the text the check reads) of a learning file as ``lh memory show`` reads it, a quote
    left open named under ``frontmatter.DAMAGED``; OSError when it cannot be read."""
    from lazy_harness.memory import frontmatter, held

    with open(open_regular(path)[0], encoding="utf-8", errors="replace") as fh:  # why text mode: \r\n read as \n
        text = fh.read()
    damage: list[tuple[int, str]] = []
    meta, body = frontmatter.parse_frontmatter(text, damage) or ({}, text)
    if damage:
        meta = {**meta, frontmatter.DAMAGED: frontmatter.quote_left_open(damage)}
    return meta, held.check_text(meta, body)


# --- the command line without click ---------------------------------------------------------------

# an option's value the quick parse takes; click says what is wrong with another
_VALID = {"kinds": KINDS.__contains__, "limit": lambda v: v.isdecimal() and len(v) < 19 and int(v) >= 1,
          "since": valid_since, "project": lambda v: bool(v) and os.path.isdir(v)}


def parse(args: list[str]) -> dict | None:
    """The options of ``lh memory search ARGS`` if plain and valid, else None (click says what's wrong)."""
    opts: dict = {"words": [], "project": None, "all_projects": False, "kinds": [], "since": None, "limit": 20,
                  "as_json": False, "show_all": False}
    flags = {"--all-projects": "all_projects", "--json": "as_json", "--all": "show_all"}
    valued = {"--project": "project", "--kind": "kinds", "--since": "since", "-n": "limit"}
    rest = iter(args)
    for a in rest:
        if not a.startswith("-") or a == "-":
            opts["words"].append(a)
        elif a in flags:
            opts[flags[a]] = True
        else:
            name, eq, value = a.partition("=")
            if name not in valued or (eq and name == "-n"):
                return None  # --help, --, an unknown option, -n=5 (click reads that as the value "=5")
            key, got = valued[name], value if eq else next(rest, None)
            if got is None or not _VALID[key](got):
                return None
            if key == "kinds":
                opts["kinds"].append(got)
            else:
                opts[key] = int(got) if key == "limit" else got
    return opts if opts["words"] else None

