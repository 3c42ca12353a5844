"""``lh backfill``: queue past interactive sessions that were never distilled (docs/how/cost.md).

A session counts as distilled when the queue holds a done record for its id (``state/<id>.done``);
one already waiting in the queue is left alone. It prints how many and what they would cost before
queueing anything, then queues them oldest first while their estimate fits under the cap, so a
backfill never pauses the memory of today's sessions for long.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass

import click

from lazy_harness import paths, queue
from lazy_harness.cli.cost import load_config, parse_since
from lazy_harness.project_identity import project_name, project_root

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from lazy_harness.config.typed import Config
    from lazy_harness.cost import budget


@dataclass
class Candidate:
    path: str
    session_id: str
    cwd: str
    mtime: float
    estimate: float


def candidates(since: float, project: str | None, cfg: Config,
               env: Mapping[str, str] | None = None) -> tuple[list[Candidate], int]:
    """Never-distilled interactive sessions changed since ``since``, oldest first, and how many
    transcripts were looked at."""
    from lazy_harness.cost import budget
    from lazy_harness.worker import transcript

    loop = cfg["compound_loop"]
    q = paths.queue_dir(env)
    root = project_root(project) if project else None
    found: list[Candidate] = []
    seen = 0
    try:
        folders = sorted(os.scandir(paths.projects_dir(env)), key=lambda e: e.name)
    except OSError:
        return [], 0
    for folder in folders:
        if not folder.is_dir(follow_symlinks=False):
            continue
        try:
            files = [e for e in os.scandir(folder.path)
                     if e.name.endswith(".jsonl") and e.is_file(follow_symlinks=False)]
        except OSError:
            continue
        for entry in files:
            try:
                mtime = entry.stat().st_mtime
            except OSError:
                continue
            if mtime < since:
                continue
            seen += 1
            sid = entry.name[:-len(".jsonl")]
            if queue.last_done_mtime(q, sid) is not None or queue.pending_of(q, sid) is not None:
                continue
            try:
                view = transcript.read_view(entry.path, int(loop["transcript_budget_chars"]))
            except transcript.TranscriptError:
                continue
            if (view.kind != "interactive" or not view.cwd or view.user_chars < int(loop["min_user_chars"])
                    or view.messages < int(loop["min_messages"])):
                continue
            if root is not None and project_root(view.cwd) != root:
                continue
            chars = min(int(loop["prompt_max_chars"]), len(view.text) + 8000)  # + instructions and memory
            found.append(Candidate(entry.path, view.session_id or sid, view.cwd, mtime, budget.estimate(chars, env)))
    found.sort(key=lambda c: c.mtime)
    return found, seen


def _left_hint(left: int, verdict: budget.Verdict) -> str:
    """What to do about the sessions not queued, naming the cap that stopped them."""
    from lazy_harness.cost import budget

    for word, cap in (("monthly", verdict.monthly), ("daily", verdict.daily)):
        if cap <= 0:
            return (f"{left} session(s) not queued: [budget] {word}_usd = 0: model calls are switched off; "
                    f"raise [budget] {word}_usd to distil them")
    monthly = verdict.monthly - verdict.spent_month <= verdict.daily - verdict.spent_today
    word, when = ("monthly", "next month") if monthly else ("daily", "tomorrow")
    cap = verdict.monthly if monthly else verdict.daily
    return (f"{left} session(s) left for later: they do not fit under the {word} cap {budget.money(cap)}; "
            f"run lh backfill again {when} (or raise [budget] {word}_usd)")


@click.command()
@click.option("--since", "since", default="30d", show_default=True, help="How far back: 30d, 2w, 1m, or a date.")
@click.option("--project", "project", type=click.Path(file_okay=False), default=None,
              help="Only sessions of this project folder.")
@click.option("--dry-run", is_flag=True, help="Count and estimate; queue nothing.")
def backfill(since: str, project: str | None, dry_run: bool) -> None:
    """Queue past interactive sessions that were never distilled, oldest first, within the cap."""
    from lazy_harness.cost import budget

    now = time.time()
    start = parse_since(since, now)
    cfg = load_config()
    found, seen = candidates(start, os.path.abspath(project) if project else None, cfg)
    total = sum(c.estimate for c in found)
    verdict = budget.check(cfg, None, now)
    day = time.strftime("%Y-%m-%d", time.localtime(start))
    click.echo(f"{len(found)} session(s) since {day} never distilled (of {seen} looked at); "
               f"estimated cost {budget.money(total)}; left under the cap today {budget.money(verdict.remaining)}")
    if dry_run or not found:
        for c in found:
            click.echo(f"  {time.strftime('%Y-%m-%d %H:%M', time.localtime(c.mtime))}  {c.session_id}  "
                       f"{project_name(c.cwd)}  ~{budget.money(c.estimate)}")
        return
    q = paths.queue_dir()
    room = verdict.remaining
    queued = 0
    for i, c in enumerate(found, 1):
        if c.estimate > room:
            break
        fields = queue.task_fields({"cwd": c.cwd, "transcript_path": c.path, "session_id": c.session_id},
                                   "Backfill", False)
        name = queue.enqueue(q, fields)
        room -= c.estimate
        queued += 1
        click.echo(f"[{i}/{len(found)}] queued {queue.task_id(name)}: {project_name(c.cwd)} "
                   f"{time.strftime('%Y-%m-%d', time.localtime(c.mtime))} ~{budget.money(c.estimate)}")
    left = len(found) - queued
    if left:
        click.echo(_left_hint(left, verdict))
    if queued:
        from lazy_harness.queue.submit import spawn_worker

        try:
            click.echo(f"worker pid {spawn_worker()} distills them in the background; follow with lh queue and lh cost")
        except OSError as exc:
            click.echo(f"worker not started ({exc}); run lh worker run --once")
