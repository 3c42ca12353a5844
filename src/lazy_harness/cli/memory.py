"""``lh memory show`` and ``lh memory search``: a project's memory as the next session sees it, and
a word search over decisions, failures and learnings. Every entry is printed with its id (``d-``,
``f-``, ``l-``, ``h-``); a line written before ids existed shows the id derived from its content.

Not the hot path: these read every record and every learning. ``show`` starts with the very text
the SessionStart hook would give (same config, same builder) so what you see is what the model gets.

Memory files are edited by hand and merged in by ``lh sync``: whatever they hold is printed through
``logfile.terminal_safe`` (an escape sequence is shown as ``\\u001b...``, not run by the terminal);
the files themselves are left as they are.
"""

from __future__ import annotations

import os
import re
import time

import click

from lazy_harness import config, paths
from lazy_harness.cli.options import project_option, warn_config
from lazy_harness.logfile import one_line, terminal_safe
from lazy_harness.memory import files, frontmatter, handoff, ids
from lazy_harness.memory.fence import date_of, local_time
from lazy_harness.project_identity import project_name, project_root
from lazy_harness.recall.readback import digest as recall
from lazy_harness.recall import search as search_core

TYPE_CHECKING = False
if TYPE_CHECKING:
    from lazy_harness.config.typed import Config
    from lazy_harness.memory.aliases import Owned
    from lazy_harness.memory.held import States

FULL = 2000  # characters of one field in the full lists


def _echo(text: str, keep: str = "\t", err: bool = False) -> None:
    """``click.echo`` of text that may come from a memory file: terminal-safe (a newline only when in ``keep``)."""
    click.echo(terminal_safe(text, keep), err=err)


def _entries(path: str) -> list[dict]:
    """The decisions or failures of a JSONL file as every view reads them (``files.read_entries``: a
    damaged line salvaged as SessionStart salvages it, under the id it shows there); a file that is
    there and cannot be read is said on stderr."""
    try:
        with open(path, "rb"):
            pass
    except FileNotFoundError:
        return []
    except OSError as exc:
        _echo(f"lh: cannot read {path}: {exc.strerror or exc}", err=True)
        return []
    return files.read_entries(path)


_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def _learnings(ldir: str, origin: str, owned: Owned, damaged: list[str] | None = None) -> list[dict]:
    """The project's learnings (newest first) with their frontmatter and body: ``origin``'s and those
    ``owned`` (``aliases.owned``: written under an earlier key of the project, or adopted). ``damaged``
    receives ``<file>:<line>: <why>`` of each learning whose quote left open swallowed its keys
    (``frontmatter.open_quote``): whose it is cannot be read, so it is listed in no project."""
    from lazy_harness.memory import by_hand

    out = []
    # why by_hand.learning_text: a file copied by hand is one learning (its id, title and body), by the
    # rule forget, approve, lh memory held, the page and consolidation use
    seen: set[tuple[str, object]] = set()
    for path in files.recent_learning_files(ldir, 10**9):
        try:
            with open(path, encoding="utf-8", errors="replace") as fh:
                text = fh.read()
        except OSError:
            continue
        damage: list[tuple[int, str]] = []
        meta, body = frontmatter.parse_frontmatter(text, damage) or ({}, text)
        if damage:
            if damaged is not None:
                damaged.append(f"{path}:{damage[0][0]}: {damage[0][1]}: {frontmatter.QUOTE_LEFT_OPEN}")
            continue
        meta["id"] = ids.of_learning(meta, path=path)
        if not owned.lists(meta, origin):
            continue
        same = (meta["id"], by_hand.learning_text(path))
        if same in seen:
            continue
        seen.add(same)
        day = os.path.basename(path)[:10]
        meta.update(path=path, body=body, day=day if _DAY.fullmatch(day) else "undated")
        out.append(meta)
    return out


def _setting(project: str | None) -> tuple[str, Config, str, str]:
    """(folder, config, memory folder, learnings folder); old files in Claude Code's folder are moved first."""
    return search_core.place(project, os.environ, _echo)


def _waiting_note(root: str, mdir: str) -> str | None:
    """A line naming the old files of the project that still wait to be moved into ``mdir``, or None."""
    from lazy_harness.memory import migrate

    waiting = migrate.pending(paths.project_key(root), root, None, mdir)
    if not waiting:
        return None
    return (f"lh: {len(waiting)} old file(s) of this project wait in {os.path.dirname(waiting[0])}; the next "
            "session start, the worker or lh memory show moves them")


@click.group()
def memory() -> None:
    """Show or search a project's memory."""


SECTIONS = ("context", "handoff", "decisions", "failures", "learnings")  # in the order show prints them
LIMIT = 50  # entries per section show prints unless --limit or --all says otherwise


@memory.command()
@project_option()
@click.option("--prompt", "prompt", help="Show what this typed prompt would get, and why: as a new session's "
              "first prompt, or with --session as that session's next one.")
@click.option("--session", "session", metavar="ID", help="With --prompt: the running session whose next prompt "
              "it is (what it was shown, its own entries left out), as the prompt hook reads it; its whole id "
              "or a unique prefix, such as the 8 characters memory labels print.")
@click.option("--history", is_flag=True, help="Also list closed handoff items: when, by which session, why.")
@click.option("--section", "sections", type=click.Choice(SECTIONS), multiple=True,
              help="Only this section (repeatable): context (what the next session receives), handoff, "
              "decisions, failures, learnings.")
@click.option("--limit", type=click.IntRange(min=0), metavar="N",
              help=f"At most N entries per section, the newest (default {LIMIT}; 0: all).")
@click.option("--all", "show_all", is_flag=True, help="Every entry of every section (--limit 0).")
def show(project: str | None, prompt: str | None, session: str | None, history: bool, sections: tuple[str, ...],
         limit: int | None, show_all: bool) -> None:
    """What the next session receives, then what is in memory, at most 50 entries per section unless
    --limit or --all says otherwise (or, with --prompt, what a prompt gets)."""
    listing = [opt for opt, given in (("--section", sections), ("--limit", limit is not None), ("--all", show_all))
               if given]
    if prompt is not None and listing:
        raise click.UsageError(f"--prompt goes without {listing[0]} (it prints one prompt's candidates)")
    if show_all and limit is not None:
        raise click.UsageError("--all goes without --limit (--all is --limit 0)")
    cwd, cfg, mdir, ldir = _setting(project)
    if prompt is not None:
        _show_prompt(prompt, cwd, cfg, session)
        return
    if session is not None:
        raise click.UsageError("--session goes with --prompt")
    picked = set(sections or SECTIONS)
    cut = 0 if show_all else LIMIT if limit is None else limit
    name = project_name(cwd)
    now = time.time()
    if "context" in picked:
        _show_context(cwd, cfg, mdir, name, now)
        if picked == {"context"}:
            return
        click.echo()
        _echo(f"==== everything in the memory of {name} ====")
    if "handoff" in picked:
        _show_handoff(mdir, ldir, cfg, now, history, cut)
    _show_entries(mdir, ldir, name, cfg, picked, cut)


def _show_context(cwd: str, cfg: Config, mdir: str, name: str, now: float) -> None:
    """The very text the SessionStart hook would give (same config, same builder)."""
    if not cfg["context"]["enabled"]:
        _echo(f"The next session receives nothing: context.enabled is false ({paths.config_file()}).")
        return
    text, _ = recall.digest(cwd, cfg, os.environ, now, "show", trouble=_trouble)
    _echo(text if text else f"The next session receives nothing: no memory for project {name} yet ({mdir}).",
          keep="\n\t")


def _trouble() -> tuple[int, str | None]:
    """What the read-back asks of the queue, as SessionStart asks it (``queue.distill_trouble``)."""
    from lazy_harness import queue

    return queue.distill_trouble(paths.queue_dir(), paths.worker_state_file(), files.iso_epoch)


def _newest(items: list, cut: int, oldest_first: bool) -> list:
    """The newest ``cut`` of ``items``, in the order they are listed in (``cut`` 0: all of them)."""
    if not cut or len(items) <= cut:
        return items
    return items[-cut:] if oldest_first else items[:cut]


def _more(section: str, total: int, shown: int) -> None:
    """The last line of a section cut short: how many entries it did not print and how to see them."""
    if total > shown:
        _echo(f"  ... and {total - shown} more (lh memory show --all, or --section {section} --limit {total})")


def _show_handoff(mdir: str, ldir: str, cfg: Config, now: float, history: bool, cut: int) -> None:
    """Open handoff items (oldest first), each tagged with its state as a decision is (a held one:
    ``[held: ...]``), forgotten ones and with ``history`` closed ones (newest first)."""
    state = _handoff_state(mdir)
    stale_days = cfg["handoff"]["stale_days"]
    opened = handoff.open_items(state)
    _echo(f"Open handoff items ({len(opened)}, {os.path.join(mdir, files.HANDOFF)}):")
    shown = _newest(opened, cut, oldest_first=True)
    tags = _item_tags(mdir, ldir, shown)
    for item in shown:
        tag = tags[item["id"]]
        _echo("  " + recall.handoff_line(item, now, stale_days, FULL) + (f"  [{tag}]" if tag else ""))
    _more("handoff", len(opened), len(shown))
    forgotten = handoff.forgotten_items(state)
    if forgotten:  # why: tagged as a forgotten decision is, so the person finds what lh memory undo brings back
        _echo(f"Forgotten handoff items ({len(forgotten)}, {os.path.join(mdir, handoff.STATE)}, newest first):")
        shown = _newest(forgotten, cut, oldest_first=False)
        for item in shown:
            _echo(f"  {item['id']}  {_date(item.get('opened'))}  {one_line(item['text'], FULL)}  [forgotten]")
        _more("handoff", len(forgotten), len(shown))
    if history:
        closed = handoff.closed_items(state)
        _echo(f"Closed handoff items ({len(closed)}, {os.path.join(mdir, handoff.STATE)}, newest first):")
        shown = _newest(closed, cut, oldest_first=False)
        for item in shown:
            _echo(f"  - [{item['id']}] {one_line(item['text'], FULL)} (closed "
                  f"{_minute(item['closed'], '')} {handoff.by_whom(item['closed_by'])}"
                  f"{handoff.why_closed(item.get('reason'))}; opened {_minute(item['opened'], '?')} "
                  f"{handoff.by_whom(item['opened_by'])})")
        _more("handoff", len(closed), len(shown))


def _item_tags(mdir: str, ldir: str, items: list) -> dict[str, str]:
    """``{id: tag}`` of open items, '' when shown as they are: their state as ``_show_entries`` works
    out a decision's (held.States: the same in lh memory held, search and the page)."""
    from lazy_harness.memory import held, state

    if not items:
        return {}
    states = held.States(mdir, ldir)
    tags = {i["id"]: state.label(states.record("handoff", i["id"], {"text": str(i.get("text") or "")}))
            for i in items}
    states.save()
    return tags


def _handoff_state(mdir: str) -> dict:
    """The handoff items as every reader sees them (``handoff.load``); a file of it that is there and
    cannot be read (handoff.jsonl a folder) is said on stderr in one line, and no item is listed."""
    try:
        state, _ = handoff.load(mdir)
    except OSError as exc:
        _echo(f"lh: cannot read {exc.filename or os.path.join(mdir, handoff.STATE)}: {exc.strerror or exc}",
              err=True)
        return {}
    return state


def _say_skipped(path: str) -> None:
    """One line on stderr when lines of ``path`` are in no view (not JSON, no summary): a hand edit
    that lost a quote made an entry vanish from the listing without a word."""
    from lazy_harness.memory import damage

    found = damage.check_file(path)
    if found.skipped:
        _echo(f"lh: {found.summary()}: not listed above; lh memory check names every damaged line", err=True)


def _show_entries(mdir: str, ldir: str, name: str, cfg: Config, picked: set[str], cut: int) -> None:
    """Decisions, failures and this project's learnings (those ``picked``, the newest ``cut`` of each),
    each tagged with its state (memory/state.py, with the hold check at read time: held.States, the
    same in lh memory held, search and the page)."""
    from lazy_harness.memory import held, state

    if not picked & {"decisions", "failures", "learnings"}:
        return
    states = held.States(mdir, ldir)
    for title, fname, detail in (("Decisions", files.DECISIONS, "rationale"),
                                 ("Failures", files.FAILURES, "prevention")):
        if title.lower() not in picked:
            continue
        path = os.path.join(mdir, fname)
        records = files.without_copies([rec for rec in _entries(path) if recall.is_entry(rec)])
        _echo(f"{title} ({len(records)}, {path}):")
        shown = _newest(records, cut, oldest_first=True)
        for rec in shown:
            extra = one_line(rec.get(detail), FULL)
            eid = ids.of_record(rec, "failure" if fname == files.FAILURES else "decision")
            tag = state.label(states.record("failure" if fname == files.FAILURES else "decision", eid, rec))
            _echo(f"  {eid}  {_date(rec.get('ts'))}  {one_line(rec.get('summary'), FULL)}"
                  + (f"  {detail.capitalize()}: {extra}" if extra else "") + (f"  [{tag}]" if tag else ""))
        _more(title.lower(), len(records), len(shown))
        _say_skipped(path)
    if "learnings" in picked:
        _show_learnings(ldir, name, mdir, cfg, states, cut)
    states.save()


def _show_learnings(ldir: str, name: str, mdir: str, cfg: Config, states: States, cut: int) -> None:
    """This project's learnings, newest first (the newest ``cut``), each tagged with its state."""
    from lazy_harness.memory import aliases, held, state

    damaged: list[str] = []
    own = _learnings(ldir, name, aliases.owned(mdir), damaged)
    _echo(f"Learnings from {name} ({len(own)}, {ldir}):")
    cross = state.policy(cfg)
    shown = _newest(own, cut, oldest_first=False)
    for learning in shown:
        now = states.learning(learning, held.check_text(learning, learning["body"]), cross)
        # why: a learning of this project waiting for approval elsewhere is used here; the tag says so
        tag = "used here; waits for approval for other projects" if now[0] == state.WAITING else state.label(now)
        _echo(f"  {learning['id']}  {learning['day']}  {one_line(learning.get('title'), FULL)}  "
              f"({os.path.relpath(learning['path'], os.path.dirname(ldir))})" + (f"  [{tag}]" if tag else ""))
    _more("learnings", len(own), len(shown))
    for where in damaged:  # why: as a damaged decision line is named (_say_skipped), not left out without a word
        _echo(f"lh: {where}: not listed above (whose it is cannot be read); lh memory check names every damaged "
              "learning", err=True)


def _show_prompt(prompt: str, cwd: str, cfg: Config, session: str | None) -> None:
    """``session``: a whole session id or a unique prefix of one this machine knows (its recall state,
    or its transcript); else one line on stderr and exit 2."""
    from lazy_harness.atomic import held
    from lazy_harness.cli import sessions
    from lazy_harness.recall.index import writer
    from lazy_harness.recall.prompt import explain
    from lazy_harness.recall.prompt import recall as recall_prompt

    transcript = capped = ""
    if session is not None:
        session, wrong = sessions.resolve(session, os.environ)
        if wrong:
            _echo(f"lh: --session: {wrong}", err=True)
            click.get_current_context().exit(2)
        transcript = next(iter(sessions.match_sessions(session, os.environ)), "")
    if transcript and sessions.is_rollout(transcript):  # why: the prompt hook cuts a Codex session's budget
        cfg, capped = recall_prompt.codex_budget(cfg)
    path = paths.recall_index_file()
    if held(writer.lock_file(path)):  # why: a prompt never waits for the index; neither does this
        _echo(f"(the search index is being written by another process, {writer.indexed_so_far(path)} entries so "
              "far: what it holds now is searched)")
    started: frozenset[str] = frozenset()
    if session is None and cfg["context"]["enabled"]:
        # why: SessionStart runs first and records as shown what its digest printed: each section's ids
        # as far as the budget took them (hooks/session_start.py remember_shown)
        text, stats = recall.digest(cwd, cfg, os.environ, time.time(), "startup", trouble=_trouble)
        if text:
            started = frozenset(i for ids in recall.printed_ids(stats).values() for i in ids)
    said = explain.report(prompt, cwd, cfg, os.environ, session=session or "", transcript=transcript,
                          started=started)
    _echo(said["for"])
    if capped:
        _echo(capped.strip())
    if said.get("indexed"):  # why: the hook only reads the index; this brought it up to date first
        _echo(f"(the index was behind the files: {said['indexed']} entries indexed now; prompts before this one "
              "were answered from the old index)")
    if "nothing" in said:
        _echo(said["nothing"])
        return
    _echo(said["text"] if said["text"] else f"This prompt receives nothing: {said['none']}.", keep="\n\t")
    click.echo()
    _echo(said["why"])
    for c in said["ranked"]:
        mark = verdict(c)
        sim = f"{c['similarity']:4.2f}" if c.get("similarity") is not None else "   -"
        _echo(f"{mark}  {c['strength']:5.1f}  {c['coverage'] * 100:3.0f}%  {sim}  {c['kind']:<8}  {c['id']}  "
              f"{one_line(c['title'], 70)}  [{', '.join(c['matched'])}]")
        if c.get("why"):
            _echo(f"      {'in' if c['passes'] else 'out'}: {one_line(c['why'], 200)}")


def verdict(c: dict) -> str:
    """The first column of a "why" line: pass, held (the hold check), wait (another project's learning
    waiting for approval), or blank (missed the bar)."""
    return "pass" if c["passes"] else "held" if c.get("held") else "wait" if c.get("waiting") else "    "


def _date(ts: object) -> str:
    """The day of a stored time in the reader's time zone (``fence.local_time``), else as written."""
    return date_of(ts, files.iso_epoch(ts)) or search_core.date_of(ts)


def _minute(ts: object, missing: str) -> str:
    """The minute of a stored time in the reader's time zone, else as written (``missing`` when none)."""
    return local_time(files.iso_epoch(ts), minutes=True) or str(ts or missing)[:16].replace("T", " ")


KINDS = search_core.KINDS


def _since(value: str | None) -> str | None:
    if not search_core.valid_since(value):
        raise click.BadParameter(f"expected a date such as 2025-01-31, got {value!r}", param_hint="--since")
    return value


@memory.command()
@click.argument("words", nargs=-1, required=True)
@project_option()
@click.option("--all-projects", is_flag=True, help="Search every project's memory and every learning.")
@click.option("--kind", "kinds", type=click.Choice(KINDS), multiple=True, help="Only this kind (repeatable).")
@click.option("--since", help="Only entries written on or after this date (YYYY-MM-DD).")
@click.option("-n", "limit", default=20, show_default=True, type=click.IntRange(min=1), help="How many results.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per result.")
@click.option("--all", "show_all", is_flag=True,
              help="Also superseded, merged and deprecated entries, each with its mark (held and forgotten "
                   "ones are always listed, labelled).")
def search(words: tuple[str, ...], project: str | None, all_projects: bool, kinds: tuple[str, ...],
           since: str | None, limit: int, as_json: bool, show_all: bool) -> None:
    """Find decisions, failures, learnings and open handoff items by words, best first.

    The ranking the prompt hook uses (docs/how/recall.md): entries matching more of the words'
    weight come first, then BM25 (summaries and titles weigh 3, tags 2, other fields 1), without the
    hook's bar, and without its related words: an entry is listed when it holds a word typed (or a
    word starting as it does). This project's memory, its own learnings and general learnings unless --all-projects.
    Held and forgotten entries are listed too, labelled [held: ...] and [forgotten], as lh memory show tags them.
    """
    since = _since(since)
    # the same function answers without click (lazy_harness/__main__.py): the same lines either way
    code = search_core.run(list(words), project, all_projects, list(kinds), since, limit, as_json, show_all,
                           os.environ, _echo)
    if code:
        click.get_current_context().exit(code)  # nothing matched: exit 1, as grep


@memory.command()
def reindex() -> None:
    """Rebuild the search index of every project's memory from the files (it is only a cache).

    When another process is writing the index (the worker), waits for it, saying how far it got,
    then brings the index up to date from the files without clearing what that process wrote.
    Vectors already computed for a text are kept and used again (they are looked up by the text's
    hash); only new or edited texts are embedded."""
    from lazy_harness.recall.index import writer

    cfg = config.load_checked(os.environ, warn_config)
    path = paths.recall_index_file()
    mdirs = paths.all_memory_dirs(None, cfg["memory"]["path"] or None)
    started = time.perf_counter()
    said: list[float] = []

    def waiting(entries: int) -> None:
        # why: another process is writing the index: wait for it rather than clear what it writes,
        # saying so at once and then every 10 s
        if not said or time.perf_counter() - said[-1] >= 10:
            said.append(time.perf_counter())
            _echo(f"waiting for the index build running now ({entries} entries indexed so far; "
                  f"{writer.lock_file(path)} is locked)")

    count, embedded = writer.update(path, mdirs, paths.learnings_dir(cfg["knowledge"]["path"] or None), fresh=True,
                                    waiting=waiting) or (0, 0)
    from lazy_harness.memory import damage

    for gone in (f"{f}: cannot be read: {why}" for m in mdirs for f in (os.path.join(m, files.DECISIONS),
                 os.path.join(m, files.FAILURES)) if (why := damage.unreadable(f))):
        _echo(f"lh: {gone}; indexed the rest of memory", err=True)
    how = "brought up to date after the build that was running" if said else "rebuilt"
    _echo(f"{how}: indexed {count} entries of {len(mdirs)} project(s) and the learnings, embedded {embedded} new "
          f"texts, in {time.perf_counter() - started:.1f} s; the index holds {writer.indexed_so_far(path)} "
          f"entries: {path}")


@memory.command("path")
@click.option("--project", type=click.Path(file_okay=False),
              help="A folder of the project (default: here); one that is gone too (its memory is named).")
@click.option("--learnings", is_flag=True, help="Print the learnings folder (shared by every project) instead.")
@click.option("--old", is_flag=True,
              help="List the memory folders whose project folder is gone (a moved project), with what they hold.")
def path_(project: str | None, learnings: bool, old: bool) -> None:
    """Print a project's memory folder. Changes nothing: old files waiting to be moved there are named
    on stderr (a session start, the worker or lh memory show moves them)."""
    # why: config.load, not load_fast: the fast path may write its snapshot, and this command writes nothing
    cfg = config.load(os.environ, warn_config)
    root = project_root(os.path.abspath(project or os.getcwd()))
    mdir = paths.project_memory_dir(root, None, cfg["memory"]["path"] or None)
    if old:
        from lazy_harness.cli.memory_owners import print_old

        print_old(mdir, paths.memory_root(cfg["memory"]["path"] or None),
                  paths.learnings_dir(cfg["knowledge"]["path"] or None))
        return
    shown = paths.learnings_dir(cfg["knowledge"]["path"] or None) if learnings else mdir
    click.echo(shown)  # why: as it is, for scripts (cd "$(lh memory path)"); a note goes to stderr
    note = _waiting_note(root, mdir)
    if note:
        _echo(note, err=True)


@memory.command()
@project_option()
@click.option("--all-projects", is_flag=True, help="Check every project's memory.")
def check(project: str | None, all_projects: bool) -> None:
    """Name every damaged line of the memory files (decisions, failures, handoff, marks, usage, aliases) by file and
    line: salvaged (read, some bytes lost) or skipped (not read, or a decision or failure without summary
    text, which no view shows), each memory file that cannot be read (a folder in its place), and each
    damaged learning (not text, frontmatter not closed or not a mapping, a title or date that cannot be
    read). Exit 1 when a line is skipped, a file cannot be read or a learning is damaged."""
    from lazy_harness.memory import damage

    if all_projects:
        cfg = config.load_checked(os.environ, warn_config)
        mdirs = paths.all_memory_dirs(None, cfg["memory"]["path"] or None)
        ldir = paths.learnings_dir(cfg["knowledge"]["path"] or None)
    else:
        _, _, mdir, ldir = _setting(project)
        mdirs = [mdir]
    checks = damage.check_folders(mdirs)
    for c in checks:
        if c.unreadable:
            _echo(c.summary())
        for number, how in c.found:
            _echo(f"{c.path}:{number}: {how}")
    learnings = damage.unclosed_learnings(ldir)
    for line in learnings:
        _echo(line)
    skipped = sum(len(c.skipped) for c in checks)
    salvaged = sum(len(c.salvaged) for c in checks)
    damaged = sum(1 for c in checks if c.found)
    unread = sum(1 for c in checks if c.unreadable)
    _echo(f"{len(checks)} file(s) checked in {len(mdirs)} project(s): {skipped} line(s) skipped, "
          f"{salvaged} salvaged, in {damaged} file(s)"
          + (f"; {unread} file(s) cannot be read" if unread else "")
          + (f"; {len(learnings)} damaged learning(s)" if learnings else ""))
    if skipped or unread or learnings:
        raise click.exceptions.Exit(1)


from lazy_harness.cli import memory_owners  # noqa: E402
from lazy_harness.cli.memory_changes import register  # noqa: E402

register(memory)
memory_owners.register(memory)
