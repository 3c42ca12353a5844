"""``lh backfill``: queue past interactive sessions that were never distilled (docs/how/cost.md).

A session is a candidate unless its last check (``state/<id>.done``) distilled it and its transcript
has not changed since, or the cursor (worker/cursor.py) already reaches the end of its transcript; a
check that skipped it ("not yet", still running) or failed does not count, nor does growth after the
check (the cursor keeps what was distilled from being read again). One with a task waiting or being
processed is left alone. It prints how many and what they would cost before queueing anything, then
queues them oldest first while their estimate (the distill call, and the model check's when
``[trust] model_check`` is on) fits under what is left of the caps less a share kept for today's own
sessions (``cost.budget.KEPT_SHARE`` of the daily cap, or one session's estimate when that is
more). Each task carries what priced it (``backfill_chars``, ``backfill_check_usd``): the worker
takes Backfill tasks after every other task, and only while spend plus the task's estimate leaves
that share, so a backfill never pauses the memory of today's sessions, even when its estimate was
too low. With no call in the ledger yet, the estimate is a guess at the configured model's price,
and the first line says so.
"""

from __future__ import annotations

import os
import signal
import time
from contextlib import contextmanager
from dataclasses import dataclass

import click

from lazy_harness import paths, queue
from lazy_harness.cli.cost import load_config, parse_since
from lazy_harness.cli.options import project_option
from lazy_harness.logfile import terminal_safe
from lazy_harness.project_identity import project_name, project_root

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping
    from lazy_harness.config.typed import Config
    from lazy_harness.cost import budget

CHECK_DAYS = 30  # the model check's calls of this many days price the next one


@dataclass
class Candidate:
    path: str
    session_id: str
    cwd: str
    mtime: float
    estimate: float
    chars: int = 0  # the distill prompt's likely length
    check: float = 0.0  # the model check's share of ``estimate``


def candidates(since: float, project: str | None, cfg: Config,
               env: Mapping[str, str] | None = None) -> tuple[list[Candidate], int]:
    """Never-distilled interactive sessions changed since ``since``, oldest first, and how many
    transcripts were looked at."""
    from lazy_harness.cost import budget
    from lazy_harness.worker import calls, transcript

    loop = cfg["compound_loop"]
    q = paths.queue_dir(env)
    root = project_root(project) if project else None
    check = _check_estimate(cfg, env)
    priced = calls.guessed_at(cfg, env)
    found: list[Candidate] = []
    seen = 0
    for path, sid, mtime in _transcripts(env, since):
        seen += 1
        if not _undistilled(q, sid, path, mtime, env):
            continue
        try:
            view = transcript.read_view(path, int(loop["transcript_budget_chars"]))
        except transcript.TranscriptError:
            continue
        if (view.kind != "interactive" or not view.cwd or view.user_chars < int(loop["min_user_chars"])
                or view.messages < int(loop["min_messages"])):
            continue
        if root is not None and project_root(view.cwd) != root:
            continue
        chars = min(int(loop["prompt_max_chars"]), len(view.text) + 8000)  # + instructions and memory
        cost = budget.estimate(chars, env, None, *priced) + check
        found.append(Candidate(path, view.session_id or sid, view.cwd, mtime, cost, chars, check))
    found.sort(key=lambda c: c.mtime)
    return found, seen


def _transcripts(env: Mapping[str, str] | None, since: float) -> Iterator[tuple[str, str, float]]:
    """(path, session id, mtime) of each transcript under the projects folder changed since ``since``."""
    try:
        folders = sorted(os.scandir(paths.projects_dir(env)), key=lambda e: e.name)
    except OSError:
        return
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
            if mtime >= since:
                yield entry.path, entry.name[:-len(".jsonl")], mtime


def _undistilled(q: str, sid: str, path: str, mtime: float, env: Mapping[str, str] | None) -> bool:
    """Whether memory may lack some of the session: no task of it waits or runs, and its last check did
    not distil it as it is now, and the cursor stops short of the transcript's end."""
    from lazy_harness.worker import cursor

    if queue.has_task(q, sid):  # pending or being processed (worker/one_task.py)
        return False
    last = queue.last_check(q, sid)
    if last is not None and last[1] == queue.DISTILLED and mtime <= last[0]:
        return False
    try:
        size = os.path.getsize(path)
    except OSError:
        return False
    return cursor.start(env, sid, path) < size


def _check_estimate(cfg: Config, env: Mapping[str, str] | None) -> float:
    """What the model check's call after a distillation likely costs: 0 when ``[trust] model_check`` is
    off, else the mean of this machine's recent calls in the ledger made at its model's price (``budget.alike``:
    ``[trust] model_check_model``, else ``compound_loop.model``) whose cost is known (reported or priced;
    a killed call counts its bound, one that reported nothing $0), or its bound (the estimate the cap
    checks)."""
    from lazy_harness.cost import budget, ledger
    from lazy_harness.worker import model_check

    trust = cfg.get("trust", {})
    if not trust.get("model_check", True):
        return 0.0
    alike = budget.alike(str(trust.get("model_check_model") or cfg["compound_loop"].get("model") or "") or None)
    # why mine: this machine's calls only (ADR 0065); a remote's $0 check lines priced them at nothing
    recent = [e for e in ledger.read_since(time.time() - CHECK_DAYS * 86400, env, mine=True)
              if e.get("kind") == model_check.KIND and alike(e.get("model"))
              and ledger.source(e) in (ledger.REPORTED, ledger.PRICED)]  # why: what a check really cost
    if not recent:
        return model_check.MAX_USD
    return sum(float(e["total_cost_usd"]) for e in recent) / len(recent)


def kept_for_today(found: list[Candidate], verdict: budget.Verdict) -> float:
    """The share of the caps a backfill leaves for today's own sessions: ``budget.KEPT_SHARE`` of the
    daily cap, or one session's estimate when that is more."""
    from lazy_harness.cost import budget

    return budget.kept_for_today(verdict.daily, max((c.estimate for c in found), default=0.0))


def _tighter(verdict: budget.Verdict) -> tuple[str, str]:
    """(the cap, when it resets) of the cap with less left: the monthly one or the daily one."""
    if verdict.monthly - verdict.spent_month <= verdict.daily - verdict.spent_today:
        return "monthly", "next month"
    return "daily", "tomorrow"


def _left_hint(left: int, verdict: budget.Verdict, kept: float) -> str:
    """What to do about the sessions not queued, naming the cap that stopped them."""
    from lazy_harness.cost import budget

    for word, cap in (("monthly", verdict.monthly), ("daily", verdict.daily)):
        if cap <= 0:
            return (f"{left} session(s) not queued: [budget] {word}_usd = 0: model calls are switched off; "
                    f"raise [budget] {word}_usd to distil them")
    word, when = _tighter(verdict)
    cap = verdict.monthly if word == "monthly" else verdict.daily
    return (f"{left} session(s) left for later: they do not fit under the {word} cap {budget.money(cap)} "
            f"less the {budget.money(kept)} kept for today's sessions; run lh backfill again {when} "
            f"(or raise [budget] {word}_usd)")


def _summary(found: list[Candidate], seen: int, start: float, verdict: budget.Verdict, kept: float,
             cfg: Config) -> str:
    from lazy_harness.cost import budget
    from lazy_harness.worker import calls

    total = sum(c.estimate for c in found)
    day = time.strftime("%Y-%m-%d", time.localtime(start))
    where = "under the monthly cap" if _tighter(verdict)[0] == "monthly" else "under the cap today"
    priced = calls.guessed_at(cfg, None)
    guess = " (no cost history: a guess)" if found and budget.guessed(None, None, *priced) else ""
    return (f"{len(found)} session(s) since {day} never distilled (of {seen} looked at); "
            f"estimated cost {budget.money(total)}{guess}; left {where} {budget.money(verdict.remaining)}, "
            f"of which {budget.money(min(kept, verdict.remaining))} is kept for today's sessions")


@contextmanager
def _ctrl_c_held() -> Iterator[None]:
    """Hold a Ctrl-C (SIGINT) back until the block ends, then stop: a task linked into the queue is also
    counted and printed, so what was printed is what was queued."""
    caught: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: caught.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler if previous is None else previous)
    if caught:
        raise KeyboardInterrupt


@click.command()
@click.option("--since", "since", default="30d", show_default=True, help="How far back: 30d, 2w, 1m, or a date.")
@project_option("Only sessions of this project folder.")
@click.option("--dry-run", is_flag=True, help="Count and estimate; queue nothing.")
def backfill(since: str, project: str | None, dry_run: bool) -> None:
    """Queue past interactive sessions that were never distilled, oldest first, within the cap.

    Each session is priced at its distill call plus, with [trust] model_check on, the model check's
    call. 25% of [budget] daily_usd (or one session's estimate, when that is more) is kept for
    today's own sessions: the backfill queues only what fits under the rest of what is left today
    and this month.
    """
    from lazy_harness.cost import budget

    now = time.time()
    start = parse_since(since, now)
    cfg = load_config()
    found, seen = candidates(start, os.path.abspath(project) if project else None, cfg)
    verdict = budget.check(cfg, None, now)
    kept = kept_for_today(found, verdict)
    click.echo(_summary(found, seen, start, verdict, kept, cfg))
    if dry_run or not found:
        for c in found:
            click.echo(f"  {time.strftime('%Y-%m-%d %H:%M', time.localtime(c.mtime))}  {terminal_safe(c.session_id)}  "
                       f"{terminal_safe(project_name(c.cwd))}  ~{budget.money(c.estimate)}")
        return
    queued = _queue(found, verdict.remaining - kept)
    left = len(found) - queued
    if left:
        click.echo(_left_hint(left, verdict, kept))
    if queued:
        from lazy_harness.queue.submit import spawn_worker

        try:
            click.echo(f"worker pid {spawn_worker()} distills them in the background; follow with lh queue and lh cost")
        except OSError as exc:
            click.echo(f"worker not started ({exc}); run lh worker run --once")


def _queue(found: list[Candidate], room: float) -> int:
    """Queue the candidates, oldest first, while their estimates fit in ``room``; returns how many."""
    from lazy_harness.cost import budget

    q = paths.queue_dir()
    queued = 0
    for i, c in enumerate(found, 1):
        if c.estimate > room:
            break
        fields = queue.task_fields({"cwd": c.cwd, "transcript_path": c.path, "session_id": c.session_id},
                                   "Backfill", False)
        # why: the worker prices the task again before it runs (worker/loop.py), by the ledger as it is then
        fields.update(backfill_chars=str(c.chars), backfill_check_usd=repr(round(c.check, 6)))
        with _ctrl_c_held():
            name = queue.enqueue(q, fields)
            room -= c.estimate
            queued += 1
            click.echo(f"[{i}/{len(found)}] queued {queue.task_id(name)}: {terminal_safe(project_name(c.cwd))} "
                       f"{time.strftime('%Y-%m-%d', time.localtime(c.mtime))} ~{budget.money(c.estimate)}")
    return queued
