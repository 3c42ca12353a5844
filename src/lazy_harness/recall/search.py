"""``lh memory search``: the words' search over a project's memory and the lines it prints, without
click, so that the command can run without loading it (``lazy_harness.__main__``: importing click
costs about 4 x a bare Python start on its own) and the click command (cli/memory.py) prints the
very same lines.

The ranking is the prompt hook's (``select.rank``) without its bar and its related words: an entry
is listed when it holds a word typed (or a word starting as it does), best first.
"""

import os
import time

from lazy_harness import config, paths, project_identity
from lazy_harness.logfile import one_line
from lazy_harness.memory.files import iso_epoch

KINDS = ("decision", "failure", "learning", "handoff")
DEEP_MONTHS = 2  # month folders of learnings in which a search looks for hand edits (the newest)


def place(project: str | None, env, say) -> tuple[str, dict, str, str]:
    """(folder, config, memory folder, learnings folder) of ``project`` (default: the working
    directory); old files in Claude Code's folder are moved first, each move told through ``say``."""
    from lazy_harness.memory import migrate

    cwd = os.path.abspath(project or os.getcwd())
    cfg = config.load_fast(env)
    root = project_identity.project_root(cwd)
    mdir = paths.project_memory_dir(root, None, cfg["memory"]["path"] or None)
    for line in migrate.migrate(mdir, paths.project_key(root), root, None, time.time()):
        say(f"lh: {line}", err=True)
    return cwd, cfg, mdir, paths.learnings_dir(cfg["knowledge"]["path"] or None)


def valid_since(value: str | None) -> bool:
    return value is None or iso_epoch(value) is not None


def find(words: list[str], cwd: str, cfg: dict, mdir: str, ldir: str, all_projects: bool, kinds: list[str],
         since: str | None, limit: int, show_all: bool) -> list[dict]:
    """The best ``limit`` entries for ``words``, each with ``elsewhere`` (a project-only learning of
    another project, listed only with ``all_projects``)."""
    from lazy_harness.recall import current, lookup, select

    mdirs = paths.all_memory_dirs(None, cfg["memory"]["path"] or None) if all_projects else [mdir]
    # why: the candidates rescored exactly cost most of a search (400 of them: 32 ms at 100,000
    # entries); filters by kind or date need a wider pool to keep ``limit`` after them
    pool = max(200, limit * 5) if kinds or since else max(60, limit * 3)

    def read(conn) -> list[dict]:
        from lazy_harness.recall import fence

        keys, legacy = fence.owner_of(cwd, mdir)
        where, args = lookup.scope_sql(None if all_projects else mdirs, project_identity.project_name(cwd), keys)
        settings = dict(cfg["recall"], min_terms=1, min_coverage=0, min_score=0)
        ranked, _ = select.rank(conn, " ".join(words), where, args, settings, pool=pool,
                                keep_stopwords=True, hidden_too=show_all, scopes=[*mdirs, ""], with_related=False)
        fence.attach(conn, ranked)  # a project-only learning of another project: only with --all-projects
        for c in ranked:
            c["elsewhere"] = not fence.in_scope(c, keys, legacy)
        return [c for c in ranked if all_projects or not c["elsewhere"]]

    # why: a stat of every learning file cost 110 ms at 100,000 entries (16,700 learnings); the newest
    # month folders are where hand edits happen, and the builder the worker starts after each
    # persist looks at every file
    ranked = current.read_current(paths.recall_index_file(), mdirs, ldir, read, deep=DEEP_MONTHS)[0]
    floor = iso_epoch(since) if since else None
    return [c for c in ranked if (not kinds or c["kind"] in kinds)
            and (floor is None or (iso_epoch(c["ts"]) or 0.0) >= floor)][:limit]


def run(words: list[str], project: str | None, all_projects: bool, kinds: list[str], since: str | None,
        limit: int, as_json: bool, show_all: bool, env, say) -> None:
    """The whole command: ``say(text, err=False)`` prints one line (terminal-safe: the caller's job)."""
    cwd, cfg, mdir, ldir = place(project, env, say)
    hits = find(words, cwd, cfg, mdir, ldir, all_projects, kinds, since, limit, show_all)
    if not hits:
        say(f"no match for: {' '.join(words)}", err=True)
        return
    for c in hits:
        say(line(c, as_json, mark_of(c) if show_all else None, show_all))


def line(c: dict, as_json: bool, mark: str | None, show_all: bool) -> str:
    """One hit as the command prints it."""
    if as_json:
        import json

        text = one_line(c["title"], 100, safe=False)  # why: JSON keeps the stored text
        obj = {"kind": c["kind"], "id": c["id"], "title" if c["kind"] == "learning" else "summary": text,
               "file": c["file"], "line": c["line"] or None, "score": round(c["coverage"] - c["bm25"] / 1000.0, 4),
               "project": c["origin"], "date": date_of(c["ts"])}
        if show_all:
            obj["mark"] = mark
        if c.get("elsewhere"):
            obj["project_only"] = True
        # why: json escapes C0 controls but not DEL, C1 or bidi; their \uXXXX keeps the JSON exact
        return json.dumps(obj, ensure_ascii=False)
    title = one_line(c["title"], 100)
    where_ = f"{c['file']}:{c['line']}" if c["line"] else c["file"]
    label = f"  [{mark}]" if mark else ""
    if c.get("elsewhere"):
        label += f"  [project-only: {one_line(c['origin'] or 'unknown', 40)}]"
    return f"{c['kind']:<8}  {c['id']}  {date_of(c['ts']):<10}  {c['origin'] or '-'}  {title}{label}  {where_}"


def date_of(ts) -> str:
    return ts[:10] if isinstance(ts, str) and len(ts) >= 10 else "undated"


def mark_of(hit: dict) -> str | None:
    """How a left-out entry is marked (``superseded by d-...``, ``deprecated``...), None when it is live."""
    from lazy_harness.memory import frontmatter, marks

    if hit["kind"] == "learning":
        try:
            with open(hit["file"], encoding="utf-8", errors="replace") as fh:
                meta = frontmatter.parse_frontmatter(fh.read(65536))
        except OSError:
            return None
        front = meta[0] if meta else {}
        status = str(front.get("status") or "active")
        if status == "active":
            return None
        return f"{status} for {front['deprecated_by']}" if front.get("deprecated_by") else status
    if hit["kind"] in ("decision", "failure"):
        rec = marks.hidden(os.path.dirname(hit["file"])).get(hit["id"])
        return marks.describe(rec) if rec else None
    return None


# --- the command line without click ---------------------------------------------------------------

def parse(args: list[str]) -> dict | None:
    """The options of ``lh memory search ARGS`` when they are plain (the words, ``--project``,
    ``--all-projects``, ``--kind``, ``--since``, ``-n``, ``--json``, ``--all``, each valid), else None:
    then click parses them and says what is wrong (``--help`` too)."""
    opts: dict = {"words": [], "project": None, "all_projects": False, "kinds": [], "since": None, "limit": 20,
                  "as_json": False, "show_all": False}
    flags = {"--all-projects": "all_projects", "--json": "as_json", "--all": "show_all"}
    valued = {"--project": "project", "--kind": "kinds", "--since": "since", "-n": "limit"}
    i = 0
    while i < len(args):
        a = args[i]
        i += 1
        if not a.startswith("-") or a == "-":
            opts["words"].append(a)
            continue
        if a in flags:
            opts[flags[a]] = True
            continue
        name, eq, value = a.partition("=")
        if name not in valued or (eq and name == "-n"):
            return None  # --help, --, an unknown option, -n=5 (click reads that as the value "=5")
        if not eq:
            if i >= len(args):
                return None
            value = args[i]
            i += 1
        key = valued[name]
        if key == "kinds":
            if value not in KINDS:
                return None
            opts["kinds"].append(value)
        elif key == "limit":
            if not value.isdigit() or int(value) < 1:
                return None
            opts["limit"] = int(value)
        elif key == "since":
            if not valid_since(value):
                return None
            opts["since"] = value
        else:
            if not value or os.path.isfile(value):  # click's Path(file_okay=False) says why
                return None
            opts["project"] = value
    return opts if opts["words"] else None
