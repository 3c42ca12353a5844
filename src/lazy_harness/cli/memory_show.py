"""``lh memory show``: a project's memory as the next session sees it (the very text the
SessionStart hook would give: same config, same builder), then everything in it, section by section
(handoff, decisions, failures, learnings), or with ``--prompt`` what one typed prompt gets, and why.
Every entry is printed with its id (``d-``, ``f-``, ``l-``, ``h-``); a line written before ids existed
shows the id derived from its content.

Not the hot path: this reads every record and every learning.

Memory files are edited by hand and merged in by ``lh sync``: whatever they hold is printed
terminal-safe (cli/memory_reading.py ``echo``); the files themselves are left as they are.
"""

from __future__ import annotations

import copy
import functools
import os
import time

import click

from lazy_harness import CLAUDE, CODEX, paths
from lazy_harness.cli.memory_reading import AGENTS, digest_for, echo, setting
from lazy_harness.cli.options import project_option
from lazy_harness.logfile import one_line
from lazy_harness.memory import files, frontmatter, handoff, held_shown, ids, provenance, trust
from lazy_harness.memory.fence import date_of, local_time
from lazy_harness.project_identity import project_name
from lazy_harness.recall import search as search_core
from lazy_harness.recall.index import sources
from lazy_harness.recall.readback import codex_fit as fitting
from lazy_harness.recall.readback import digest as recall
from lazy_harness.regular_file import open_regular

TYPE_CHECKING = False
if TYPE_CHECKING:
    from lazy_harness.config.typed import Config
    from lazy_harness.memory.aliases import Owned
    from lazy_harness.memory.held_review import States

FULL = 2000  # characters of one field in the full lists


def _entries(path: str) -> list[dict]:
    """The decisions or failures of a JSONL file as every view reads them (``files.read_entries``: a
    damaged line salvaged as SessionStart salvages it, under the id it shows there); a file that is
    there and cannot be read is said on stderr (:func:`_say_unreadable`)."""
    try:
        if not _say_unreadable(path):
            os.close(open_regular(path)[0])  # why: a file there that cannot be read is said, not read as empty
            return files.read_entries(path)
    except FileNotFoundError:
        pass
    except OSError as exc:
        _say_unreadable(path, exc)
    return []


def _say_unreadable(path: str, exc: OSError | None = None) -> bool:
    """One line on stderr when ``path`` is there and cannot be read, worded as lh memory check, search and
    doctor word it (``damage.unreadable``: a folder in its place, with the hint to move it aside), else
    with the error ``exc``; False when nothing was said (a regular file, or none, at ``path``)."""
    from lazy_harness.memory import damage

    why = damage.unreadable(path)
    said = (f"{why}; listed the rest of memory (hint: move it aside; lh memory check)" if why
            else f"{exc.strerror or exc}; listed the rest of memory" if exc is not None else "")
    if said:
        echo(f"lh: {path}: cannot be read: {said}", err=True)
    return bool(said)


def _learnings(ldir: str, origin: str, owned: Owned, damaged: list[str] | None = None) -> list[dict]:
    """The project's learnings (newest first) with their frontmatter and body: ``origin``'s and those
    ``owned`` (``aliases.owned``: written under an earlier key of the project, or adopted). ``damaged``
    receives ``<file>:<line>: <why>`` of each learning whose quote left open swallowed its keys
    (``frontmatter.open_quote``): whose it is cannot be read, so it is listed in no project."""
    from lazy_harness.recall.readback import learnings

    out = []
    for path in files.recent_learning_files(ldir, 10**9):
        try:  # why open_regular: a FIFO named as a learning held show in open() for good
            with open(open_regular(path)[0], encoding="utf-8", errors="replace") as fh:
                text = fh.read()
        except FileNotFoundError:
            continue
        except OSError as exc:
            _say_unreadable(path, exc)
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
        meta.update(path=path, body=body)
        meta["day"] = learnings.day_of(meta) or "undated"  # why its rule: the day SessionStart shows
        out.append(meta)

    return learnings.once_each(out)  # why its rule, not a copy: show lists what SessionStart shows


EDITED = "edited by hand since it was written"  # a learning's tag, as a decision's provenance says it
SECTIONS = ("context", "handoff", "decisions", "failures", "learnings")  # in the order show prints them
LIMIT = 50  # entries per section show prints unless --limit or --all says otherwise


@click.command()
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
@click.option("--agent", type=click.Choice(list(AGENTS)),
              help="Whose session: claude (Claude Code, the default) or codex (Codex CLI, whose hooks fit the "
              "digest within 6,000 bytes of UTF-8 and a prompt's recall within 2,000 characters); with --session, "
              "that session's agent.")
def show(project: str | None, prompt: str | None, session: str | None, history: bool, sections: tuple[str, ...],
         limit: int | None, show_all: bool, agent: str | None) -> None:
    """What the next session receives, then what is in memory, at most 50 entries per section unless
    --limit or --all says otherwise (or, with --prompt, what a prompt gets). The first line says
    whose session: Claude Code's, or Codex CLI's with --agent codex."""
    listing = [opt for opt, given in (("--section", sections), ("--limit", limit is not None), ("--all", show_all))
               if given]
    if prompt is not None and listing:
        raise click.UsageError(f"--prompt goes without {listing[0]} (it prints one prompt's candidates)")
    if show_all and limit is not None:
        raise click.UsageError("--all goes without --limit (--all is --limit 0)")
    cwd, cfg, mdir, ldir = setting(project)
    if prompt is not None:
        from lazy_harness.cli.memory_prompt import show_prompt

        show_prompt(prompt, cwd, cfg, session, agent)
        return
    if session is not None:
        raise click.UsageError("--session goes with --prompt")
    picked = set(sections or SECTIONS)
    cut = 0 if show_all else LIMIT if limit is None else limit
    name = project_name(cwd)
    now = time.time()
    if "context" in picked:
        _show_context(cwd, cfg, mdir, name, now, agent or CLAUDE)
        if picked == {"context"}:
            return
        click.echo()
        echo(f"==== everything in the memory of {name} ====")
    if "handoff" in picked:
        _show_handoff(mdir, ldir, cfg, now, history, cut)
    _show_entries(mdir, ldir, name, cfg, picked, cut)
    if "learnings" in picked:
        from lazy_harness.cli.memory_reading import say_waiting_here

        say_waiting_here(mdir, ldir, cwd)


def _codex_installed() -> bool:
    from lazy_harness.cli import hooks_codex

    return bool(hooks_codex.inspect(ask=False).ours)


def _show_context(cwd: str, cfg: Config, mdir: str, name: str, now: float, agent: str) -> None:
    """The very text the SessionStart hook of ``agent`` would give (same config, same builder, the same
    fitting under Codex CLI), after a line saying whose it is: on stdout for Codex CLI; for Claude
    Code on stderr, whose stdout starts with exactly the hook's text (scripts compare it), and only
    where Codex CLI's hooks are installed too."""
    text, _, fitted = digest_for(agent, cwd, cfg, now, "show") if cfg["context"]["enabled"] else (None, {}, "")
    whose = (f"Codex CLI session receives at its start, within {fitting.CODEX_CONTEXT_BYTES} bytes of UTF-8 as its "
             "hook fits it" if agent == CODEX else "Claude Code session receives at its start; lh memory show --agent "
             "codex: what a Codex CLI session does")
    if agent == CODEX or _codex_installed():  # why: a person using Claude Code alone needs no word on it
        echo(f"(what the next {whose}){fitted}", err=agent != CODEX)
    if not cfg["context"]["enabled"]:
        echo(f"The next session receives nothing: context.enabled is false ({paths.config_file()}).")
        return
    echo(text if text else f"The next session receives nothing: no memory for project {name} yet ({mdir}).",
         keep="\n\t")
    if not text:
        from lazy_harness.memory.owners import moved_from
        from lazy_harness.project_identity import project_root

        # why stderr: stdout starts with exactly the hook's text; why here too: the start tells it once
        for key, was in moved_from(project_root(cwd), mdir, os.environ):
            echo(f"lh: {key} is the memory of this project when it was at {was}, which is gone: if it moved here, "
                 f"lh memory adopt -- {key} takes it over (lh memory path --old lists it)", err=True)


def _newest(items: list, cut: int, oldest_first: bool) -> list:
    """The newest ``cut`` of ``items``, in the order they are listed in (``cut`` 0: all of them)."""
    if not cut or len(items) <= cut:
        return items
    return items[-cut:] if oldest_first else items[:cut]


def _more(section: str, total: int, shown: int) -> None:
    """The last line of a section cut short: how many entries it did not print and how to see them."""
    if total > shown:
        echo(f"  ... and {total - shown} more (lh memory show --all, or --section {section} --limit {total})")


def _show_handoff(mdir: str, ldir: str, cfg: Config, now: float, history: bool, cut: int) -> None:
    """Open handoff items (oldest first), each tagged with its state as a decision is (a held one:
    ``[held: ...]``), forgotten ones and with ``history`` closed ones (newest first)."""
    state = _handoff_state(mdir)
    stale_days = cfg["handoff"]["stale_days"]
    opened = handoff.open_items(state)
    echo(f"Open handoff items ({len(opened)}, {os.path.join(mdir, files.HANDOFF)}):")
    shown = _newest(opened, cut, oldest_first=True)
    tags = _item_tags(mdir, ldir, shown)
    for item in shown:
        tag = tags[item["id"]]
        secret = held_shown.names_secret(tag)
        if secret:  # why: an item held for a secret is printed redacted, with the file to edit it out of (ADR 0062)
            item = copy.copy(item)  # a handoff Item: its class kept
            item["text"] = held_shown.text(item["text"], tag)
        echo("  " + recall.handoff_line(item, now, stale_days, FULL)
             + (f"  ({os.path.join(mdir, files.HANDOFF)})" if secret else "") + (f"  [{tag}]" if tag else ""))
    _more("handoff", len(opened), len(shown))
    forgotten = handoff.forgotten_items(state)
    ended = _Ended(mdir, ldir)
    if forgotten:  # why: tagged as a forgotten decision is, so the person finds what lh memory undo brings back
        echo(f"Forgotten handoff items ({len(forgotten)}, {os.path.join(mdir, handoff.STATE)}, newest first):")
        shown = _newest(forgotten, cut, oldest_first=False)
        for item in shown:
            said = one_line(ended.text(item["text"]), FULL)
            echo(f"  {item['id']}  {_date(item.get('opened'))}  {said}  [forgotten]")
        _more("handoff", len(forgotten), len(shown))
    if history:
        closed = handoff.closed_items(state)
        echo(f"Closed handoff items ({len(closed)}, {os.path.join(mdir, handoff.STATE)}, newest first):")
        shown = _newest(closed, cut, oldest_first=False)
        for item in shown:
            echo(f"  - [{item['id']}] {one_line(ended.text(item['text']), FULL)} (closed "
                 f"{_minute(item['closed'], '')} {handoff.by_whom(item['closed_by'])}"
                 f"{handoff.why_closed(item.get('reason'))}; opened {_minute(item['opened'], '?')} "
                 f"{provenance.item_described(item, handoff.by_whom(item['opened_by'], item.get('opened_agent')))})")
        _more("handoff", len(closed), len(shown))
    ended.save()


class _Ended:
    """The texts of closed and forgotten open items as show prints them: redacted when they hold a
    secret (ADR 0062), the redactor's finding kept per text (``held_review.States.ended_secret``)."""

    def __init__(self, mdir: str, ldir: str) -> None:
        self.mdir, self.ldir = mdir, ldir
        self.states: States | None = None

    def text(self, text: str) -> str:
        if self.states is None:
            from lazy_harness.memory import held_review

            self.states = held_review.States(self.mdir, self.ldir)
        return held_shown.text(text, self.states.ended_secret(text))

    def save(self) -> None:
        if self.states is not None:
            self.states.save()


def _item_tags(mdir: str, ldir: str, items: list) -> dict[str, str]:
    """``{id: tag}`` of open items, '' when shown as they are: their state as ``_show_entries`` works
    out a decision's (held_review.States: the same in lh memory held, search and the page)."""
    from lazy_harness.memory import held_review, state

    if not items:
        return {}
    states = held_review.States(mdir, ldir)
    tags = {i["id"]: state.label(states.record("handoff", i["id"], {"text": str(i.get("text") or "")}))
            for i in items}
    states.save()
    return tags


def _handoff_state(mdir: str) -> dict:
    """The handoff items as every reader sees them (``handoff.load``); a file of it that is there and
    cannot be read (handoff.jsonl a folder) is said on stderr in one line (:func:`_say_unreadable`),
    and no item is listed."""
    try:
        state, _ = handoff.load(mdir)
    except OSError as exc:
        _say_unreadable(str(exc.filename or os.path.join(mdir, handoff.STATE)), exc)
        return {}
    return state


def _say_skipped(path: str) -> None:
    """One line on stderr when lines of ``path`` are in no view (not JSON, no summary): a hand edit
    that lost a quote made an entry vanish from the listing without a word."""
    from lazy_harness.memory import damage

    found = damage.check_file(path)
    if found.skipped:
        echo(f"lh: {found.summary()}: not listed above; lh memory check names every damaged line", err=True)


def _show_entries(mdir: str, ldir: str, name: str, cfg: Config, picked: set[str], cut: int) -> None:
    """Decisions, failures and this project's learnings (those ``picked``, the newest ``cut`` of each),
    each tagged with its state (memory/state.py, with the hold check at read time: held_review.States,
    the same in lh memory held, search and the page)."""
    from lazy_harness.memory import held_review, standing, state

    if not picked & {"decisions", "failures", "learnings"}:
        return
    states = held_review.States(mdir, ldir)
    for title, fname, detail, kind in (("Decisions", files.DECISIONS, "rationale", "decision"),
                                       ("Failures", files.FAILURES, "prevention", "failure")):
        if title.lower() not in picked:
            continue
        path = os.path.join(mdir, fname)
        # why one_each: of the lines carrying one id (a copy reworded by hand, a synced line claiming it),
        # the one sessions are shown, as SessionStart and search give it (ADR 0059)
        records = standing.one_each([rec for rec in _entries(path) if recall.is_entry(rec)], kind)
        echo(f"{title} ({len(records)}, {path}):")
        shown = _newest(records, cut, oldest_first=True)
        lines = _Lines(path, kind)
        for rec in shown:
            eid = ids.of_record(rec, kind)
            now = states.record(kind, eid, rec)
            tag = state.label(now)
            # why the index's provenance phrase through search's label: the words lh memory search gives
            came = search_core.came_from({"prov": provenance.describe(rec, kind)})
            # why: an entry held for a secret is printed redacted, with the line to edit it out of (ADR 0062)
            said = held_shown.record(rec, kind, states.redact_by(now, functools.partial(trust.text_of, rec, kind)))
            extra = one_line(said.get(detail), FULL)
            echo(f"  {eid}  {_date(rec.get('ts'))}  {one_line(said.get('summary'), FULL)}"
                 + (f"  {detail.capitalize()}: {extra}" if extra else "")
                 + (f"  ({lines.of(rec)})" if said is not rec else "") + (f"  [{tag}]" if tag else "")
                 + (f"  [{one_line(came, 80)}]" if came else ""))
        _more(title.lower(), len(records), len(shown))
        _say_skipped(path)
    if "learnings" in picked:
        _show_learnings(ldir, name, mdir, cfg, states, cut)
    states.save()


def _show_learnings(ldir: str, name: str, mdir: str, cfg: Config, states: States, cut: int) -> None:
    """This project's learnings, newest first (the newest ``cut``), each tagged with its state."""
    from lazy_harness.memory import aliases, held, state
    from lazy_harness.memory.learnings import edited_by_hand

    damaged: list[str] = []
    own = _learnings(ldir, name, aliases.owned(mdir), damaged)
    echo(f"Learnings from {name} ({len(own)}, {ldir}):")
    cross = state.policy(cfg)
    shown = _newest(own, cut, oldest_first=False)
    for learning in shown:
        text = held.check_text(learning, learning["body"])
        now = states.learning(learning, text, cross)
        # why: a learning of this project waiting for approval elsewhere is used here; the tag says so
        tag = "used here; waits for approval for other projects" if now[0] == state.WAITING else state.label(now)
        if edited_by_hand(learning, learning["body"]):  # why: a later text of its title stands beside it (ADR 0063)
            tag = "; ".join(t for t in (tag, EDITED) if t)
        # why: held for a secret, or ended holding one: redacted (ADR 0062)
        # why the index's rule: titled as lh memory search titles it (a YAML list's items, else the file's name)
        title = held_shown.text(sources.title_of(learning, learning["path"]),
                                states.redact_by(now, lambda: text))  # noqa: B023
        # why: another machine's learning says so, as its decisions and failures do and search labels it
        came = search_core.came_from({"prov": provenance.describe(learning, "learning", session_key="origin_session",
                                                                  project_field="origin")})
        echo(f"  {learning['id']}  {learning['day']}  {one_line(title, FULL)}  "
             f"({os.path.relpath(learning['path'], os.path.dirname(ldir))})" + (f"  [{tag}]" if tag else "")
             + (f"  [{one_line(came, 80)}]" if came else ""))
        if learning["also_in"]:
            also = [os.path.relpath(p, os.path.dirname(ldir)) for p in learning["also_in"]]
            echo(f"      {search_core.second(also)} (merge them into one, or delete all but one)")
    _more("learnings", len(own), len(shown))
    for where in damaged:  # why: as a damaged decision line is named (_say_skipped), not left out without a word
        echo(f"lh: {where}: not listed above (whose it is cannot be read); lh memory check names every damaged "
             "learning", err=True)


class _Lines:
    """Where each entry of a decisions or failures file stands (``path:line``), read only when a line
    is asked for: that of an entry held for a secret, which the person edits out there."""

    def __init__(self, path: str, kind: str) -> None:
        self.path, self.kind = path, kind
        self.where: dict[tuple[str, object], int] | None = None

    def of(self, rec: dict) -> str:
        if self.where is None:
            from lazy_harness.memory import held

            # why by id and summary: of the lines carrying one id (ADR 0059), the one listed
            self.where = {(ids.of_record(r, self.kind), r.get("summary")): n
                          for n, r in held.numbered_entries(self.path)}
        n = self.where.get((ids.of_record(rec, self.kind), rec.get("summary")))
        return f"{self.path}:{n}" if n else self.path


def _date(ts: object) -> str:
    """The day of a stored time in the reader's time zone (``fence.local_time``), else as written."""
    return date_of(ts, files.iso_epoch(ts)) or search_core.date_of(ts)


def _minute(ts: object, missing: str) -> str:
    """The minute of a stored time in the reader's time zone, else as written (``missing`` when none)."""
    return local_time(files.iso_epoch(ts), minutes=True) or str(ts or missing)[:16].replace("T", " ")
