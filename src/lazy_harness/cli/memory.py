"""``lh memory show`` and ``lh memory search``: a project's memory as the next session sees it, and
a word search over decisions, failures and learnings.

Not the hot path: these read every record and every learning. ``show`` starts with the very text
the SessionStart hook would give (same config, same builder) so what you see is what the model gets.
"""

import json
import os
import re
import time

import click

from lazy_harness import config, paths
from lazy_harness.memory import files, recall

WEIGHTS = {
    "decision": (("summary", 3), ("tags", 2), ("rationale", 1), ("context", 1), ("alternatives", 1)),
    "failure": (("summary", 3), ("tags", 2), ("prevention", 1), ("root_cause", 1), ("resolution", 1)),
    "learning": (("title", 3), ("tags", 2), ("body", 1)),
}
FULL = 2000  # characters of one field in the full lists


def _records(path: str) -> list[tuple[int, dict]]:
    """Every JSON object of a JSONL file with its line number; unreadable lines are skipped."""
    out = []
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            for n, line in enumerate(fh, 1):
                try:
                    rec = json.loads(line)
                except ValueError:
                    continue
                if isinstance(rec, dict):
                    out.append((n, rec))
    except FileNotFoundError:
        pass
    except OSError as exc:
        click.echo(f"lh: cannot read {path}: {exc.strerror or exc}", err=True)
    return out


def _learnings(ldir: str, origin: str | None) -> list[dict]:
    """Every learning (newest first) with its frontmatter and body; only ``origin``'s when given."""
    out = []
    for path in files.recent_learning_files(ldir, 10**9):
        try:
            with open(path, encoding="utf-8", errors="replace") as fh:
                text = fh.read()
        except OSError:
            continue
        meta, body = files.parse_frontmatter(text) or ({}, text)
        if origin is not None and meta.get("origin") != origin:
            continue
        meta.update(path=path, body=body, day=os.path.basename(path)[:10])
        out.append(meta)
    return out


def _setting(project: str | None) -> tuple[str, dict, str, str]:
    cwd = os.path.abspath(project or os.getcwd())
    cfg = config.load_fast(os.environ)
    return cwd, cfg, paths.memory_dir(cwd), paths.learnings_dir(cfg["knowledge"]["path"] or None)


@click.group()
def memory() -> None:
    """Show or search a project's memory."""


@memory.command()
@click.option("--project", type=click.Path(file_okay=False), help="A folder of the project (default: here).")
def show(project: str | None) -> None:
    """What the next session receives, then everything in memory."""
    cwd, cfg, mdir, ldir = _setting(project)
    name = paths.project_name(cwd)
    if not cfg["context"]["enabled"]:
        click.echo(f"The next session receives nothing: context.enabled is false ({paths.config_file()}).")
    else:
        text, _ = recall.build_context(cwd, cfg, os.environ, time.time(), "show")
        click.echo(text if text else f"The next session receives nothing: no memory for project {name} yet ({mdir}).")
    click.echo(f"\n==== everything in the memory of {name} ====")
    handoff = files.read_handoff(mdir)
    if handoff:
        who = f" at the end of session {handoff['session']}" if handoff["session"] else ""
        click.echo(f"Open handoff items ({len(handoff['items'])}, {handoff['path']}, "
                   f"written {handoff['written'] or 'at an unknown time'}{who}):")
        for item in handoff["items"]:
            click.echo(f"  - {recall.one_line(item, FULL)}")
    else:
        click.echo("Open handoff items: none")
    for title, fname, detail in (("Decisions", files.DECISIONS, "rationale"),
                                 ("Failures", files.FAILURES, "prevention")):
        path = os.path.join(mdir, fname)
        records = _records(path)
        click.echo(f"{title} ({len(records)}, {path}):")
        for _, rec in records:
            extra = recall.one_line(rec.get(detail), FULL)
            click.echo(f"  {_date(rec.get('ts'))}  {recall.one_line(rec.get('summary'), FULL)}"
                       + (f"  {detail.capitalize()}: {extra}" if extra else ""))
    own = _learnings(ldir, name)
    click.echo(f"Learnings from {name} ({len(own)}, {ldir}):")
    for item in own:
        click.echo(f"  {item['day']}  {recall.one_line(item.get('title'), FULL)}  "
                   f"({os.path.relpath(item['path'], os.path.dirname(ldir))})")


def _date(ts) -> str:
    return ts[:10] if isinstance(ts, str) and len(ts) >= 10 else "undated"


def _tokens(value) -> list[str]:
    if isinstance(value, list):
        return [t for v in value for t in _tokens(v)]
    if value is None:
        return []
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return re.findall(r"\w+", text.lower())


def _score(doc: dict, kind: str, terms: list[str]) -> tuple[int, int]:
    """(distinct query words found, sum of field weight x occurrences). A word matches a token it
    equals or begins (``queue`` finds ``queues``)."""
    found: set[str] = set()
    score = 0
    for field, weight in WEIGHTS[kind]:
        for token in _tokens(doc.get(field)):
            for term in terms:
                if token.startswith(term):
                    found.add(term)
                    score += weight
    return len(found), score


def _documents(mdirs: list[str], ldir: str, origin: str | None):
    """(kind, doc, where, project, when) for every decision, failure and learning in scope."""
    for mdir in mdirs:
        fallback = os.path.basename(os.path.dirname(mdir))
        for kind, fname in (("decision", files.DECISIONS), ("failure", files.FAILURES)):
            path = os.path.join(mdir, fname)
            for n, rec in _records(path):
                yield (kind, rec, f"{path}:{n}", str(rec.get("project") or fallback), rec.get("ts"),
                       recall.one_line(rec.get("summary"), 100))
    for item in _learnings(ldir, origin):
        yield ("learning", item, item["path"], str(item.get("origin") or "?"), item.get("created") or item["day"],
               recall.one_line(item.get("title"), 100))


@memory.command()
@click.argument("words", nargs=-1, required=True)
@click.option("--project", type=click.Path(file_okay=False), help="A folder of the project (default: here).")
@click.option("--all-projects", is_flag=True, help="Search every project's memory and every learning.")
@click.option("-n", "limit", default=20, show_default=True, help="How many results to print.")
def search(words: tuple[str, ...], project: str | None, all_projects: bool, limit: int) -> None:
    """Find decisions, failures and learnings by words, best first.

    Summaries and titles weigh 3, tags 2, the other fields 1; results matching more of the words
    come first, then higher scores, then newer ones. This project's memory and learnings unless
    --all-projects.
    """
    cwd, _, mdir, ldir = _setting(project)
    terms = sorted({t for w in words for t in _tokens(w)})
    if all_projects:
        base = paths.projects_dir()
        try:
            keys = sorted(os.listdir(base))
        except OSError:
            keys = []
        mdirs, origin = [os.path.join(base, k, "memory") for k in keys], None
    else:
        mdirs, origin = [mdir], paths.project_name(cwd)
    hits = []
    for kind, doc, where, proj, when, title in _documents(mdirs, ldir, origin):
        found, score = _score(doc, kind, terms)
        if found:
            hits.append(((found, score, recall.iso_epoch(when) or 0.0), kind, _date(when), proj, title, where))
    if not hits:
        click.echo(f"no match for: {' '.join(words)}", err=True)
        return
    hits.sort(key=lambda h: h[0], reverse=True)
    for _, kind, day, proj, title, where in hits[:limit]:
        click.echo(f"{kind:<8}  {day:<10}  {proj}  {title}  {where}")


from lazy_harness.cli.memory_changes import register  # noqa: E402

register(memory)
