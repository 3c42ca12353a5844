"""``lh memory usage``: which memory entries sessions were shown, which they used, which failures
recurred after memory showed them (docs/how/usage.md, ADR 0036); ``--reset ID`` counts an entry anew.

Also the one line ``lh status`` prints for the week (:func:`week_line`).
"""

from __future__ import annotations

import json
import os
import time

import click

from lazy_harness.cli.options import project_option, warn_config
from lazy_harness.logfile import terminal_safe

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from lazy_harness.config.typed import Config
    from lazy_harness.memory.usage_log import Entry, Tally


def _mdirs(project: str | None, all_projects: bool) -> tuple[list[str], str, str, dict[str, str] | None]:
    """(the memory folders, what they are called in the report, the learnings folder, and with
    ``all_projects`` ``{memory folder: its project's name}`` as the page names it: ui/reading.py)."""
    from lazy_harness import config, paths
    from lazy_harness.project_identity import project_name

    cfg = config.load(os.environ, warn_config)
    ldir = paths.learnings_dir(cfg["knowledge"]["path"] or None)
    if all_projects:
        mdirs = paths.all_memory_dirs(None, cfg["memory"]["path"] or None)
        return mdirs, "every project", ldir, _names(mdirs, cfg)
    cwd = os.path.abspath(project or os.getcwd())
    return [paths.memory_dir(cwd, None, cfg["memory"]["path"] or None)], project_name(cwd), ldir, None


def _names(mdirs: list[str], cfg: Config) -> dict[str, str]:
    """``{memory folder: the name lh ui lists its project under}`` (ui/reading.py), else the folder's name."""
    from lazy_harness.ui import reading

    try:
        here = os.getcwd()
    except OSError:  # why: run in a folder deleted under the shell; no project is the current one
        here = os.sep
    named = {p.key: p.name for p in reading.projects(here, cfg, None)}
    return {m: named.get(os.path.basename(m), os.path.basename(m)) for m in mdirs}


def _day(iso: str | None) -> str:
    return iso[:16].replace("T", " ") if iso else "never"


TITLE = 60  # characters of an entry's title in a row
GONE = "(no longer in memory)"  # a row's id that memory no longer holds: nothing to forget


def _print(t: Tally, name: str, where: str, learnings_dir: str, names: dict[str, str] | None) -> None:
    """The report; with ``names`` (``--all-projects``) each row and costly entry ends with its project."""
    totals = t.totals()
    click.echo(terminal_safe(f"memory usage of {name} ({where})"))
    if not t.entries and totals["sessions"]:  # why: "none shown yet" beside a total of sessions read as untrue
        click.echo("no entry's showings count now (reset with lh memory usage --reset since); the total below "
                   "still counts the sessions and the characters injected")
    elif not t.entries:
        click.echo("no entry shown to a distilled session yet (the worker counts a session when it distils it)")
    else:
        last = f"{'last used':<16}  project" if names is not None else "last used"
        click.echo(f"{'id':<10}  {'kind':<8}  {'shown':>5}  {'used':>4}  {'recurred':>8}  "
                   f"{'last shown':<16}  {last}")
    for row in t.report(names)["entries"]:
        used = row["used"] if row.get("measurable", True) else "-"  # no marks: the audit cannot tell its use
        last = f"{_day(row['last_used']):<16}  {row['project']}" if names is not None else _day(row["last_used"])
        click.echo(terminal_safe(f"{row['id']:<10}  {row['kind']:<8}  {row['shown']:>5}  {used:>4}  "
                                 f"{row['recurred']:>8}  {_day(row['last_shown']):<16}  {last}"))
    click.echo(f"total: {totals['sessions']} session(s), {totals['shown']} shown, {totals['used']} used, "
               f"{totals['injected_chars']} characters injected, {totals['recurrences']} recurrence(s)")
    costly = _costly(t, learnings_dir)
    if costly:
        titles = _titles(costly, learnings_dir)
        lost = any(e.kind == "learning" and (e.folder, e.id) not in titles for e in costly)
        odd = _unreadable_learnings(learnings_dir) if lost else ""
        click.echo("most characters for the least use:")
        for e in costly:
            # deleted or retyped; a learning perhaps in a file that cannot be read (a FIFO in its place)
            gone = odd if e.kind == "learning" and odd else GONE
            title = _short(titles[e.folder, e.id]) if (e.folder, e.id) in titles else gone
            of = f"{names.get(e.folder) or os.path.basename(e.folder)}  " if names is not None else ""
            click.echo(terminal_safe(f"  {e.id}  {of}{e.chars} characters in {len(e.shown)} session(s), "
                                     f"used in {len(e.used)}: {title}"))


def _costly(t: Tally, learnings_dir: str, n: int = 5) -> list[Entry]:
    """The ``n`` entries that cost the most for the least use, less those readers leave out of their own
    folder (forgotten, merged, superseded, held; a learning forgotten or deprecated, a handoff item
    closed: ``memory.done_with``, as the page's "Never used" does): no use forgetting them; less
    those the audit cannot measure (``Tally.costly``)."""
    from lazy_harness.memory.done_with import done_with

    some = [e for e in t.costly(len(t.entries)) if len(e.used) < len(e.shown)]
    wanted: dict[str, set[str]] = {}
    for e in some:
        wanted.setdefault(e.folder, set()).add(e.id)
    # why read once: with --all-projects every folder's learnings are the one shared folder's
    heads = list(_learning_heads(learnings_dir)) if any(e.kind == "learning" for e in some) else []
    gone = {mdir: done_with(mdir, eids, heads) for mdir, eids in wanted.items()}
    return [e for e in some if e.id not in gone[e.folder]][:n]


def _learning_heads(learnings_dir: str) -> Iterator[tuple[str, dict]]:
    """``(id, head)`` of each learning file, as ``done_with`` judges them."""
    from lazy_harness.memory import files
    from lazy_harness.recall.readback import learnings as heads

    for path in files.recent_learning_files(learnings_dir, 10**9):
        if (head := heads.read_head(path)) is not None:
            yield heads.learning_id(head), head


def _unreadable_learnings(learnings_dir: str) -> str:
    """``(not in a readable file; <file>: cannot be read: <why>)`` when a learning file is there that cannot
    be read (a FIFO or a folder in its place: whose it is cannot be told), '' when none is: then a
    learning not found is no longer in memory."""
    from lazy_harness.memory import damage, files

    odd = [f"{p}: cannot be read: {why}" for p in files.recent_learning_files(learnings_dir, 10**6)
           if (why := damage.unreadable(p))]
    more = f", and {len(odd) - 1} more such file(s)" if len(odd) > 1 else ""
    return f"(not in a readable file; {odd[0]}{more})" if odd else ""


def _short(title: str) -> str:
    title = " ".join(title.split())
    return title if len(title) <= TITLE else title[:TITLE - 1].rstrip() + "\u2026"


def _titles(wanted: list[Entry], learnings_dir: str) -> dict[tuple[str, str], str]:
    """``{(folder, id): summary, title or text}`` of the wanted entries still in memory, each looked up
    in its own folder (a learning in the learnings folder every project shares); an entry the hold check
    finds a secret in is named redacted, as every listing prints it (ADR 0062)."""
    out: dict[tuple[str, str], str] = {}
    learned = _learning_titles(learnings_dir, {e.id for e in wanted if e.kind == "learning"})
    for mdir in sorted({e.folder for e in wanted}):
        found = _folder_titles(mdir, {e.id for e in wanted if e.folder == mdir})
        found.update({e.id: learned[e.id] for e in wanted if e.folder == mdir and e.id in learned})
        out.update({(mdir, eid): title for eid, title in _redacted(mdir, found).items()})
    return out


def _redacted(mdir: str, found: dict[str, list[str]]) -> dict[str, str]:
    """``{id: title}`` of ``{id: the fields the hold check reads, title first}``: the title redacted
    when the check finds a secret in the whole text (one split between the title and the next field
    too: ``held_shown.fields``), asked of the verdicts the listings keep for ``mdir``."""
    from lazy_harness.memory import held_shown, verdicts

    kept = verdicts.listing_verdicts(mdir)
    out = {eid: held_shown.fields(values, kept.secret(held_shown.SEP.join(values)))[0] if values[0] else ""
           for eid, values in found.items()}
    try:
        kept.save(keep_known=True)
    except OSError:  # why: a cache; the list is printed all the same
        pass
    return out


def _fields(rec: dict, kind: str) -> list[str]:
    """An entry's fields as the hold check reads them (``trust.text_of``), its summary first ("" when it
    has none)."""
    from lazy_harness.memory import trust

    def flat(value: object) -> str:
        return " ".join(flat(v) for v in value) if isinstance(value, (list, tuple)) else str(value)

    summary = str(rec.get("summary") or "")
    return [summary] + [flat(rec[f]) for f in trust.FIELDS.get(kind, ()) if f != "summary" and rec.get(f)]


def _folder_titles(mdir: str, wanted: set[str]) -> dict[str, list[str]]:
    """``{id: [summary or text, the other fields the hold check reads]}`` of the wanted decisions,
    failures and handoff items of one folder."""
    from lazy_harness.memory import files, handoff, ids, standing

    out: dict[str, list[str]] = {}
    kinds = {ids.kind_of(i) for i in wanted}
    for kind, name in (("decision", files.DECISIONS), ("failure", files.FAILURES)):
        # why one_each: the wording every reader shows of an id several lines carry (ADR 0059), not the first
        for rec in standing.one_each(files.read_entries(os.path.join(mdir, name)), kind) if kind in kinds else []:
            eid = ids.of_record(rec, kind)
            if eid in wanted:
                out.setdefault(eid, _fields(rec, kind))
    if "handoff" in kinds:
        state, _ = handoff.load(mdir)
        out.update({i: [str(item.get("text") or "")] for i, item in state.items() if i in wanted and i not in out})
    return out


def _learning_titles(learnings_dir: str, wanted: set[str]) -> dict[str, list[str]]:
    """``{id: [title, body, tags, cues]}`` of the wanted learnings: what the hold check reads of each
    (``approval.check_text``)."""
    from lazy_harness.memory import approval, files, ids, learnings

    out: dict[str, list[str]] = {}
    if not wanted:
        return out
    for path in files.recent_learning_files(learnings_dir, 10**6):
        lid = learnings.id_of(path)
        if lid in wanted and lid not in out:
            meta, body = approval.learning_parts(path) or ({}, "")
            title = str(meta.get("title") or ids.title_of_file(path))
            out[lid] = [title] + [str(x) for x in (body, meta.get("tags"), meta.get("cues")) if x]
    return out


@click.command("usage")
@project_option()
@click.option("--all-projects", is_flag=True, help="Every project's usage together.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object: the entries and the totals.")
@click.option("--reset", "reset_id", metavar="ID", help="Start this entry's counts over (shown, used, recurred).")
def usage(project: str | None, all_projects: bool, as_json: bool, reset_id: str | None) -> None:
    """Per entry shown to sessions: in how many it was shown, used, recurred; when last; the totals."""
    from lazy_harness.memory import ids, usage_log

    if reset_id is not None and not reset_id.strip():
        raise click.BadParameter("an empty value names no entry (lh memory usage lists them)", param_hint="--reset")
    mdirs, name, ldir, names = _mdirs(project, all_projects)
    if reset_id is not None:
        if all_projects:
            raise click.UsageError("--reset takes one project: use --project or run it in the project")
        # why as_typed: the id as forget, close and approve take it ([h-...] from handoff.md, upper case)
        eid = ids.as_typed(reset_id).strip()
        _refuse_unknown(mdirs[0], ldir, eid)
        usage_log.reset(os.environ, mdirs[0], eid, time.time())
        click.echo(f"usage of {eid} counts anew from now")
        return
    # a merged entry's sessions count for the one it was merged into, as the ranks do: each folder's
    # merges and resets for its own lines (two projects' entries can share an id)
    t = usage_log.tally_folders(mdirs)
    if as_json:
        click.echo(json.dumps(t.report(names), ensure_ascii=False))
    else:
        # why a count for --all-projects: one project's folder beside "every project" read as all there is
        where = mdirs[0] if names is None else f"{len(mdirs)} memory folder{'' if len(mdirs) == 1 else 's'}"
        _print(t, name, where, ldir, names)
    _say_skipped(mdirs)


def _say_skipped(mdirs: list[str]) -> None:
    """One line on stderr per usage.jsonl whose lines the counts above left out (not JSON, no usage
    record), naming the file and each line: a hand edit that lost a quote dropped a showing from every
    figure without a word. Only a file the read noted is scanned (``lines.NOTED``)."""
    from lazy_harness.memory import damage, lines, usage_log

    for mdir in mdirs:
        path = usage_log.path_of(mdir)
        if path in lines.NOTED and (found := damage.check_file(path)).skipped:
            click.echo(terminal_safe(f"lh: {found.summary()}: not counted above; lh memory check names every "
                                     "damaged line"), err=True)


def _refuse_unknown(mdir: str, ldir: str, eid: str) -> None:
    """Refuse to reset an id the project has no entry of, as ``lh memory forget`` refuses it: not in
    its decisions, failures or handoff items, no learning file, and never counted in its usage log
    (an entry rewritten by hand since it was shown keeps its counts there). An id that is not one is
    left to ``usage_log.reset``, which says so."""
    from lazy_harness.errors import LhError
    from lazy_harness.memory import hand_runs, handoff, ids, usage_log

    kind = ids.kind_of(eid)
    if kind is None:
        return
    if kind == "learning":
        found, where = bool(hand_runs.learning_paths(ldir, eid)), f"no learning {eid} in {ldir}"
    elif kind == "handoff":
        found, where = eid in handoff.load(mdir)[0], f"no handoff {eid} in {mdir}"
    else:
        found, where = hand_runs.entry_exists(mdir, eid, kind), f"no {kind} {eid} in {mdir}"
    # why memory first: the usage log is read whole (a year of heavy use is 33 MB) and the reset reads it
    # again under its lock; an entry memory holds needs no look at it
    if found or any(rec.get("id") == eid for rec in usage_log.read(mdir) if rec["op"] != "reset"):
        return
    raise LhError(where, hint="lh memory usage lists the entries shown to sessions")


def week_line(mdir: str, now: float) -> str:
    """``lh status``'s line: the last seven days' shown, used and characters injected."""
    from lazy_harness.memory import damage, lines, usage_log

    w = usage_log.this_week(mdir, now)
    path = usage_log.path_of(mdir)
    # why: a damaged line drops out of the figures without a word; said, the person knows they count less
    skipped = len(damage.check_file(path).skipped) if path in lines.NOTED else 0
    more = f"; {skipped} damaged line(s) of {path} not counted: lh memory check" if skipped else ""
    # why not "this week": the totals are of the last seven days, not of the week since Monday
    return (f"usage in the last 7 days: {w['shown']} shown, {w['used']} used, {w['injected_chars']} characters "
            f"injected in {w['sessions']} session(s) (lh memory usage{more})")
