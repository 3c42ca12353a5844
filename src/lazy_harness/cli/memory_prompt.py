"""``lh memory show --prompt``: what one prompt would get, and why each candidate passed the bar or not
(``recall/prompt/explain.py`` works it out; this prints it, as the hook would give it)."""

from __future__ import annotations

import os
import time

import click

from lazy_harness import CLAUDE, CODEX, paths
from lazy_harness.cli.memory_reading import AGENTS, digest_for, echo
from lazy_harness.logfile import one_line
from lazy_harness.recall.readback import prepared

TYPE_CHECKING = False
if TYPE_CHECKING:
    from lazy_harness.config.typed import Config


def show_prompt(prompt: str, cwd: str, cfg: Config, session: str | None, agent: str | None) -> None:
    """``session``: a whole session id or a unique prefix of one this machine knows (its recall state,
    or its transcript); else one line on stderr and exit 2. ``agent``: whose session (``--agent``);
    a session's transcript says whose it is, and an ``agent`` that says otherwise is refused (exit 2)."""
    from lazy_harness.atomic import held
    from lazy_harness.cli import sessions
    from lazy_harness.recall.index import writer
    from lazy_harness.recall.prompt import explain
    from lazy_harness.recall.prompt import recall as recall_prompt

    transcript = capped = ""
    if session is not None:
        session, wrong = sessions.resolve(session, os.environ)
        if wrong:
            echo(f"lh: --session: {wrong}", err=True)
            click.get_current_context().exit(2)
        transcript = next(iter(sessions.match_sessions(session, os.environ)), "")
    if transcript:
        theirs = CODEX if sessions.is_rollout(transcript) else CLAUDE
        if agent not in (None, theirs):
            echo(f"lh: --agent {agent}: session {session} is a {AGENTS[theirs]} session", err=True)
            click.get_current_context().exit(2)
        agent = theirs
    agent = agent or CLAUDE
    if agent == CODEX:  # why: the prompt hook cuts a Codex session's budget
        cfg, capped = recall_prompt.codex_budget(cfg)
    path = paths.recall_index_file()
    if held(writer.lock_file(path)):  # why: a prompt never waits for the index; neither does this
        echo(f"(the search index is being written by another process, {writer.indexed_so_far(path)} entries so "
             "far: what it holds now is searched)")
    started: frozenset[str] = frozenset()
    if session is None and cfg["context"]["enabled"]:
        # why: SessionStart runs first and records as shown what its digest printed: each section's ids
        # as far as the budget took them (hooks/session_start.py remember_shown)
        text, stats, _ = digest_for(agent, cwd, cfg, time.time(), "startup")
        started = prepared.started_ids(text, stats)
    said = explain.report(prompt, cwd, cfg, os.environ, session=session or "", transcript=transcript,
                          started=started)
    echo(said["for"].replace("(what ", f"({AGENTS[agent]}: what ", 1))
    if capped:
        echo(capped.strip())
    if said.get("indexed"):  # why: the hook only reads the index; this brought it up to date first
        echo(f"(the index was behind the files: {said['indexed']} entries indexed now; prompts before this one "
             "were answered from the old index)")
    if "nothing" in said:
        echo(said["nothing"])
        return
    echo(said["text"] if said["text"] else f"This prompt receives nothing: {said['none']}.", keep="\n\t")
    click.echo()
    echo(said["why"])
    for c in said["ranked"]:
        mark = verdict(c).ljust(VERDICT_WIDTH)
        sim = f"{c['similarity']:4.2f}" if c.get("similarity") is not None else "   -"
        echo(f"{mark}  {c['strength']:5.1f}  {c['coverage'] * 100:3.0f}%  {sim}  {c['kind']:<8}  {c['id']}  "
             f"{one_line(_title(c), 70)}  [{', '.join(c['matched'])}]")
        if c.get("why"):
            echo(f"      {'in' if c['passes'] and not c.get('left') else 'out'}: {one_line(c['why'], 300)}")


def _title(c: dict) -> str:
    """A candidate's title as a listing prints it: redacted when the hold check finds a secret in the
    entry (ADR 0062), whether it passed the bar or not; the index's verdict, else the check's own."""
    from lazy_harness.memory import held_shown, trust

    why = c.get("held") or c.get("hold")
    if why is None:
        why = trust.secret(f"{c.get('title') or ''} {c.get('detail') or ''}")
    return held_shown.text(c.get("title") or "", why)


VERDICT_WIDTH = len("damaged")  # the widest word of :func:`verdict`: the columns after it line up


def verdict(c: dict) -> str:
    """The first column of a "why" line: pass (in the text), shown (passes the bar, shown to the session
    already), no room (passes the bar, past recall.max_items or recall.max_chars), held (the hold check),
    wait (another project's learning waiting for approval), damaged (a learning file whose frontmatter a
    hand edit took away: ``state.DAMAGED``, shown to no session), other (another project's learning of a
    title this project's has: ``admit.own_title_first``), or blank (missed the bar)."""
    if c["passes"]:
        return str(c.get("left") or "pass")
    return ("held" if c.get("held") else "wait" if c.get("waiting") else "damaged" if c.get("damaged")
            else "other" if c.get("own_title") else "")
