"""One session through the loop: trust, read, gate, prompt, model, validate, redact, persist.

Shared by the worker (a queued task) and ``lh distill`` (a transcript named on the command line).
Nothing is written until everything is computed; what is written is idempotent (see memory.store).
The trust check is worker/task_trust.py's; the persist, its checks and its promise are
worker/persist.py's and worker/hold_checks.py's; the caches filled after it, worker/caches.py's.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from lazy_harness import logfile, part_check, paths, queue
from lazy_harness.errors import ModelError
from lazy_harness.project_identity import project_name, project_root
from lazy_harness.worker import caches, persist
from lazy_harness.worker.task_trust import agent_of, call_env, check_trust

if TYPE_CHECKING:
    from collections.abc import Callable

    from lazy_harness.config.typed import CompoundLoopConfig, Config
    from lazy_harness.memory.shapes import Env
    from lazy_harness.worker.transcript_records import View

    Log = Callable[[str], object]  # one line for worker.log
    Sleep = Callable[[float], object]


WHOLE_SESSION_EVENT = "handoff-now"  # a task that re-reads its session whole, cursor or not
NOTHING_NEW = "nothing new since the last distillation"  # a skip that leaves the session distilled
FORK_COVERED = "nothing new since the conversation it was forked from"
# NOTHING_NEW of a session never distilled itself, all it holds distilled with another (worker/cursor.py
# ``held_by``): "since the last distillation" told the person of one that never was
FORK_HELD = ("nothing new since it was forked: memory holds the conversation it copied, distilled with the "
             "session it was forked from (it was never distilled itself)")
FORKS_HELD = ("nothing new since a session forked from it was distilled with its conversation (it was never "
              "distilled itself)")
ALL_HELD = (NOTHING_NEW, FORK_HELD, FORKS_HELD)  # a skip that leaves the session distilled: memory holds it all
# NOTHING_NEW past a cursor this task's own earlier run moved (worker/cursor.py ``moved_by``): that run persisted
# and was cut short (its worker killed, stopped, out of room) before it finished the task, so this run finishes
# it as that distillation's success (processed), not as a skip that left "last successful distillation: never"
EARLIER_RUN = "distilled by an earlier run of this task"
TAKEN_OVER_RUN = "distilled by the run of task"  # EARLIER_RUN of a task whose place this one took (queue/task.py)


def nothing_new(env: Env | None, session_id: str, path: str) -> str:
    """The one of :data:`ALL_HELD` that says why memory holds all of the session (its cursor, or another's)."""
    from lazy_harness.worker import cursor

    return {"parents": FORK_HELD, "forks": FORKS_HELD}.get(cursor.held_by(env, session_id, path), NOTHING_NEW)


def account_held(fields: dict, path: str, learnings_dir: str, env: Env | None, now: float, log: Log) -> None:
    """Count the usage of a session skipped because memory holds all of it: it still had its own
    showings (a fork shown memory at its start, its turns distilled elsewhere), and only a distillation
    or this skip counts them (a line already written counts once; ADR 0036). Logs, never raises."""
    if fields.get("memory_dir"):
        persist.account_usage({"session_id": fields.get("session_id", ""), "path": path, "failures": [],
                               "at": now}, str(fields["memory_dir"]), learnings_dir, env, log)


@dataclass
class Outcome:
    status: str  # processed | skipped | failed | waiting (back to the queue, ADR 0013)
    reason: str
    transcript_mtime: float | None = None
    prompt: str | None = None
    plan: object | None = None
    report: object | None = None
    problems: list[str] = field(default_factory=list)
    error_text: str | None = None
    attempts: int = 0
    paused: bool = False  # status "waiting" for a spend cap (worker/waiting.py)
    storage: bool = False  # status "waiting" for room to write (worker/storage.py)
    read: str = ""  # what was read of the transcript (View.describe), for worker.log
    waited: float | None = None  # seconds it waited for another distillation of the session (worker/cursor.py)
    read_to: int = 0  # status "failed" by the model: where the part it read ends (worker/one_task.py, ADR 0075)


def _migrate(fields: dict, memory_dir: str, memory_root: str, env: Env | None, now: float, log: Log) -> None:
    """Bring the project's files over from Claude Code's auto-memory folder before reading or writing."""
    from lazy_harness.memory import last_key, migrate

    if os.path.dirname(os.path.realpath(memory_dir)) != os.path.realpath(memory_root):
        return  # an untrusted task run with trust=False (lh distill): nothing to bring over
    cwd = fields.get("cwd") or ""
    root = project_root(cwd) if cwd else None
    key = paths.project_key(root) if root else os.path.basename(memory_dir)
    for line in migrate.migrate(memory_dir, key, root, env, now):
        log(line)
    if root:
        last_key.remember_key(root, memory_dir, env)


def _with_over_cap(distilled: dict) -> list:
    """The answer's items past a section's cap (worker/answer.py) moved into their sections, to be
    written and then held: kept and findable (``lh memory held``), out of sessions until approved."""
    from lazy_harness.worker.answer import OVER_CAP

    over = distilled.pop(OVER_CAP, None) or []
    for section, item in over:
        distilled.setdefault(section, []).append(item)
    return over




def _log(env: Env | None, message: str) -> None:
    logfile.write(logfile.WORKER, message, env)


def _wait_for_turn(path: str, turn_text: str, log: Log, queued: object = None) -> None:
    """Hold the read until the transcript holds the Stop's turn, for a bounded time; ``queued``: the
    task's ``timestamp``."""
    from lazy_harness.memory.files import iso_epoch
    from lazy_harness.worker import turn

    waited = turn.wait(path, turn_text, queued_at=iso_epoch(queued))
    if waited is None:
        log(f"the turn was not in the transcript after {turn.WAIT_SECONDS:g} s; reading what is there")
    elif waited:
        log(f"waited {waited:.2f} s for the turn to reach the transcript")


def call_with_retries(prompt: str, cfg: Config, env: Env | None, sleep: Sleep = time.sleep, log: Log | None = None,
                      meta: dict | None = None) -> tuple[dict, int]:
    """The guarded model call (cap, ledger, fail fast: worker/calls.py). Returns (answer, attempts)."""
    from lazy_harness.worker import calls

    return calls.run_model(prompt, cfg, env, meta or {}, sleep, log)


def distill(fields: dict, cfg: Config, env: Env | None, now: float | None = None, dry_run: bool = False,
            sleep: Sleep = time.sleep, trust: bool = True) -> Outcome:
    """Run the whole pipeline for one task's fields. Never raises for expected failures. One run of a
    session at a time, from reading its cursor to advancing it (worker/cursor.py, ``hold``): a second
    run (the worker and ``lh distill``) waits, then reads only what the first left."""
    from lazy_harness.worker import cursor

    now = time.time() if now is None else now
    memory_root = paths.memory_root(cfg["memory"]["path"] or None, env)
    if trust:
        check_trust(fields, env, memory_root)
    started = time.monotonic()
    # why not for a dry run: it writes nothing and moves no cursor, and must not wait for a model call
    fd, waited = (None, False) if dry_run else cursor.hold(env, fields.get("session_id", ""))
    try:
        if waited:
            now = time.time()  # why: the run starts now, not when it began to wait
            _log(env, f"task {fields.get('task_id', '-')}: waited {time.monotonic() - started:.1f} s for another "
                      "distillation of this session to finish")
        outcome = _distill(fields, cfg, env, now, dry_run, sleep, memory_root)
    finally:
        cursor.release(fd)
    if waited:
        outcome.waited = time.monotonic() - started
    return outcome


def _distill(fields: dict, cfg: Config, env: Env | None, now: float, dry_run: bool, sleep: Sleep,
             memory_root: str) -> Outcome:
    """The pipeline under the session's distillation lock (``distill``)."""
    loop = cfg["compound_loop"]
    tid = fields.get("task_id", "-")

    def log(msg: str) -> None:
        _log(env, f"task {tid}: {msg}")

    read = _read_transcript(fields, loop, env, log)
    if isinstance(read, Outcome):
        return read
    path, mtime, offset, view = read
    seen = view.describe()
    skip = _not_worth_distilling(fields, loop, view, offset, mtime, seen)
    learnings_dir = paths.learnings_dir(cfg["knowledge"]["path"] or None, env)
    if skip is not None:
        if skip.reason == NOTHING_NEW:
            skip.reason = nothing_new(env, fields.get("session_id", ""), path)
        if skip.reason in (*ALL_HELD, FORK_COVERED) and not dry_run:
            account_held(fields, path, learnings_dir, env, now, log)
            earlier = _earlier_run(fields, env, path, skip)
            if earlier is not None:  # why the caches: the cut-short run may not have filled them
                _fill_caches(env, fields["memory_dir"], learnings_dir, fields.get("cwd") or view.cwd or "", cfg,
                             now, log)
                return earlier
        return skip

    extra = tuple(loop.get("redact_patterns") or ())
    memory_dir = fields["memory_dir"]
    cwd = fields.get("cwd") or view.cwd or ""
    project = project_name(cwd) if cwd else "unknown"
    if not dry_run:  # why: a dry run writes nothing; its prompt lacks what is still to be moved
        _migrate(fields, memory_dir, memory_root, env, now, log)
    text = _prompt(view, memory_dir, learnings_dir, project, int(loop["prompt_max_chars"]), extra, log)
    meta = _meta(fields, cfg, (project, memory_dir, cwd), (path, mtime, offset, view.bytes_read))
    if dry_run:
        return Outcome("processed", "dry run", mtime, prompt=text, read=seen)
    answered = _ask(text, cfg, _asking_env(fields, cfg, env, log), sleep, log, meta, mtime, seen)
    if isinstance(answered, Outcome):
        return answered
    raw, attempts = answered
    distilled, problems = _checked_answer(raw, extra, log)
    over = _with_over_cap(distilled)
    plan, report = persist.persist_and_check(distilled, over, path, view.bytes_read, (memory_dir, learnings_dir),
                                             meta, (now, memory_root), cfg, env, sleep, log)
    for line in report.recovered:  # why: a killed writer's persist taken out is memory gone; said
        log(f"{memory_dir}: {line}")
    for target, why in report.skipped:  # why: "2 skipped" in the summary line does not say which or why
        log(f"not written to {os.path.basename(target)}: {why}")
    _fill_caches(env, memory_dir, learnings_dir, cwd, cfg, now, log)
    return Outcome("processed", "distilled", mtime, prompt=text, plan=plan, report=report,
                   problems=problems + plan.problems, attempts=attempts, read=seen)


def _fill_caches(env: Env | None, memory_dir: str, learnings_dir: str, cwd: str, cfg: Config, now: float,
                 log: Log) -> None:
    """What a persist's memory is read through, brought up to date (worker/caches.py)."""
    caches.update_index(env, memory_dir, learnings_dir, log)
    if cwd:
        caches.prepare_next_start(cwd, cfg, env, now, log)
    caches.prepare_listing(memory_dir, learnings_dir, log, env)


def _earlier_run(fields: dict, env: Env | None, path: str, skip: Outcome) -> Outcome | None:
    """The success of this task's earlier run, for a skip with nothing new since the session's own cursor
    (``NOTHING_NEW``) when that cursor was moved by this task (or a task whose place it took): the run that
    persisted was cut short before it finished the task (worker/one_task.py), and the task, run again (or the
    one that took its place), finds its distillation. None otherwise: another task's distillation, finished,
    is a skip with nothing new."""
    if skip.reason != NOTHING_NEW:
        return None
    task, at = _moved_by_this_task(fields, env, path)
    if not task:
        return None
    run = EARLIER_RUN if task == fields.get("task_id") else f"{TAKEN_OVER_RUN} {task} (whose place this task took)"
    when = "" if at is None else f" at {logfile.stamp(at)}"
    return Outcome("processed", f"{run}{when}, cut short before it finished the task; nothing new since",
                   skip.transcript_mtime, read=skip.read)


def _moved_by_this_task(fields: dict, env: Env | None, path: str) -> tuple[str, float | None]:
    """(the task whose distillation moved the session's own cursor, when it is this task or a task whose
    cut-short run it took the place of (``queue.task.TOOK_OVER``), else ''; when that run began)."""
    from lazy_harness.queue.task import took_over
    from lazy_harness.worker import cursor

    own = fields.get("task_id", "")
    task, at = cursor.moved_by(env, fields.get("session_id", ""), path)
    return (task if task and task in ({own} - {"", "-"} | set(took_over(fields))) else ""), at


def _meta(fields: dict, cfg: Config, where: tuple[str, str, str], read: tuple[str, float, int, int]) -> dict:
    """What the persist writes beside the answer: ``where`` is (project, memory folder, cwd), ``read``
    (the transcript, its mtime, where the part read begins and ends)."""
    project, memory_dir, cwd = where
    path, mtime, offset, end = read
    # why: handoff records carry the session's time, not the processing time, so a session processed late
    # (re-processed, or handoff-now on an older session) can never reopen what a newer session closed
    return {"project": project, "project_folder": os.path.basename(os.path.normpath(memory_dir)),
            "session_id": fields.get("session_id", ""), "task_id": fields.get("task_id", "-"), "cwd": cwd,
            "session_time": mtime, "stale_days": cfg.get("handoff", {}).get("stale_days", 14),
            "agent": agent_of(fields),
            # why: the part of the transcript this answer is about; a later part's new text of the session's
            # own learning is a correction, the same part read again is not (memory/learnings.py ``restates``)
            "read_from": offset, "read_to": end,
            # why: a rewritten transcript's offsets name other bytes; the check tells (memory/plan.py)
            "read_check": part_check.check(path, end) or "", "transcript": path}


def _read_transcript(fields: dict, loop: CompoundLoopConfig, env: Env | None,
                     log: Log) -> Outcome | tuple[str, float, int, View]:
    """The part of the session's transcript not distilled yet (the whole of it for handoff-now), once
    the Stop's turn is in it: (path, mtime, offset read from, view), or a skip when there is none."""
    from lazy_harness.queue import retain
    from lazy_harness.worker import transcript

    sid = fields.get("session_id", "")
    path = retain.source(paths.queue_dir(env), sid, fields["session_jsonl"])  # deleted: the kept link
    if fields.get(queue.TURN):  # a Stop task: its turn may not be in the transcript yet (worker/turn.py)
        _wait_for_turn(path, fields[queue.TURN], log, fields.get("timestamp"))
    try:
        mtime = os.stat(path).st_mtime
    except OSError:
        return Outcome("skipped", "no transcript: the session ended before anything was typed (Claude Code writes "
                                  "none until the first prompt), or its file was deleted since")
    try:
        offset, view = _part_to_read(fields, path, int(loop["transcript_budget_chars"]), env)
    except transcript.TranscriptError as exc:
        return Outcome("skipped", f"unreadable transcript: {exc.message}", mtime)
    if view.copied_from and sid:  # a fork: the hooks leave its parents' entries out (memory/lineage.py)
        from lazy_harness.memory import lineage

        try:
            lineage.record(env, sid, view.copied_from)
        except OSError as exc:
            log(f"fork's parents not recorded: {exc}")
    return path, mtime, offset, view


def _part_to_read(fields: dict, path: str, budget: int, env: Env | None) -> tuple[int, View]:
    """(offset, view): only the conversation after what was distilled. ``lh knowledge handoff-now`` asks
    for the whole session, once something was said since it was last distilled, or always with
    ``--again`` (``queue.AGAIN``): a second one with nothing new makes no model call (ADR 0075). A task
    whose earlier run read the whole session and was cut short after its persist (the cursor names the
    task) reads on from the cursor: the whole read is in memory, a second would be a second call."""
    from lazy_harness.worker import cursor

    agent = agent_of(fields)
    offset = cursor.start(env, fields.get("session_id", ""), path)
    view = cursor.read_view(path, budget, offset, agent)
    if (fields.get("event") == WHOLE_SESSION_EVENT and offset and (view.entries or fields.get(queue.AGAIN) == "1")
            and not _moved_by_this_task(fields, env, path)[0]):  # why: its cut-short run read it whole already
        offset, view = 0, cursor.read_view(path, budget, 0, agent)
    return offset, view


def _not_worth_distilling(fields: dict, loop: CompoundLoopConfig, view: View, offset: int, mtime: float,
                          seen: str) -> Outcome | None:
    """A skip for a session that is not interactive, too short (or not yet long enough, while it runs),
    or has nothing new since the last distillation; None to go on."""
    if view.kind != "interactive":
        return Outcome("skipped", f"not an interactive session ({view.kind})", mtime, read=seen)
    # why: Stop queues after every turn, so a session's first turns are short; that is no verdict on
    # a session still running (its next turns and its end check it again)
    running = fields.get("event") == "Stop"
    if view.user_chars < int(loop["min_user_chars"]):
        if running:
            return Outcome("skipped", f"not yet: typed {view.user_chars} of the {loop['min_user_chars']} characters "
                           "needed so far; the session is still running and is checked again", mtime, read=seen)
        return Outcome("skipped", f"too short: user typed {view.user_chars} < {loop['min_user_chars']} chars", mtime,
                       read=seen)
    if view.messages < int(loop["min_messages"]):
        if running:
            return Outcome("skipped", f"not yet: {view.messages} of the {loop['min_messages']} messages needed so far; "
                           "the session is still running and is checked again", mtime, read=seen)
        return Outcome("skipped", f"too short: {view.messages} < {loop['min_messages']} messages", mtime, read=seen)
    if offset and not view.entries:
        return Outcome("skipped", NOTHING_NEW, mtime, read=seen)
    if view.copied_from and not view.entries:
        return Outcome("skipped", FORK_COVERED, mtime, read=seen)
    return None


def _prompt(view: View, memory_dir: str, learnings_dir: str, project: str, max_chars: int, extra: tuple[str, ...],
            log: Log) -> str:
    """The distill prompt: the transcript's new part beside the memory already held, secrets redacted."""
    from lazy_harness.memory import store
    from lazy_harness.worker import prompt as prompting

    existing = store.existing_memory(memory_dir, learnings_dir)
    built = prompting.render(view, existing, project, max_chars, extra)
    if built.redacted:
        log(f"redacted {built.redacted} secret(s) from the prompt")
    return built.text


def _asking_env(fields: dict, cfg: Config, env: Env | None, log: Log) -> Env | None:
    """The model call's environment: a Codex session's own ``CODEX_HOME`` when ``codex exec`` distils it
    (``task_trust.call_env``, why a home is not used logged); ``claude -p`` is no concern of it."""
    from lazy_harness.worker import codex_distill

    if codex_distill.chosen(cfg, env) != "codex":
        return env
    asking_env, unused = call_env(fields, env)
    if unused:
        log(unused)
    return asking_env


def _ask(text: str, cfg: Config, env: Env | None, sleep: Sleep, log: Log, meta: dict, mtime: float,
         seen: str) -> Outcome | tuple[dict, int]:
    """The model's raw answer and the attempts it took, or the outcome when there is none: waiting (a
    cap, the API unreachable) or failed."""
    from lazy_harness.worker.calls import Wait

    try:
        return call_with_retries(text, cfg, env, sleep, log, meta)
    except Wait as exc:
        return Outcome("waiting", exc.message, None, prompt=text, paused=exc.paused, read=seen)
    except ModelError as exc:
        n = getattr(exc, "attempts", 1)
        return Outcome("failed", f"model call failed {n} time(s): {exc}", mtime,
                       prompt=text, error_text=str(exc), attempts=n, read=seen, read_to=int(meta.get("read_to") or 0))


def _checked_answer(raw: object, extra: tuple[str, ...], log: Log) -> tuple[dict, list[str]]:
    """The answer validated against its schema and redacted (before and after), with its problems."""
    from lazy_harness import redact
    from lazy_harness.worker import answer

    # why: redact before validating too: validation lower-cases tags and scope (which hides an
    # upper-case key from its pattern) and quotes raw values and key names in its problem lines
    raw, hidden_raw = redact.redact_obj(raw, extra, keys=True)
    distilled, problems = answer.validate(raw)
    for problem in problems:
        log(f"answer: {problem}")
    distilled, hidden = redact.redact_obj(distilled, extra)
    hidden += hidden_raw
    if hidden:
        log(f"redacted {hidden} secret(s) from the answer")
    return distilled, problems

