"""One session through the loop: trust, read, gate, prompt, model, validate, redact, persist.

Shared by the worker (a queued task) and ``lh distill`` (a transcript named on the command line).
Nothing is written until everything is computed; what is written is idempotent (see memory.store).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field

from lazy_harness import logfile, paths
from lazy_harness.atomic import sweep_stale_temps
from lazy_harness.errors import ModelError, TaskError


WHOLE_SESSION_EVENT = "handoff-now"  # a task that re-reads its session whole, cursor or not


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


def check_trust(fields: dict, env) -> None:
    """A task is trusted only when its paths lie inside the Claude dir's projects folder."""
    projects = paths.projects_dir(env)
    transcript = fields.get("session_jsonl", "")
    memory = fields.get("memory_dir", "")
    if not transcript or not paths.is_within(transcript, projects):
        raise TaskError(f"untrusted task: session_jsonl {transcript!r} is outside {projects}")
    if not memory or not paths.is_within(memory, projects) or os.path.basename(memory.rstrip(os.sep)) != "memory":
        raise TaskError(f"untrusted task: memory_dir {memory!r} is not a memory folder under {projects}")
    if os.path.dirname(os.path.dirname(os.path.realpath(memory))) != os.path.realpath(projects):
        raise TaskError(f"untrusted task: memory_dir {memory!r} is not <projects>/<key>/memory")


def _log(env, message: str) -> None:
    logfile.write(logfile.WORKER, message, env)


def call_with_retries(prompt: str, cfg: dict, env, sleep=time.sleep, log=None,
                      meta: dict | None = None) -> tuple[dict, int]:
    """The guarded model call (cap, ledger, fail fast: worker/calls.py). Returns (answer, attempts)."""
    from lazy_harness.worker import calls

    return calls.run_model(prompt, cfg, env, meta or {}, sleep, log)


def distill(fields: dict, cfg: dict, env, now: float | None = None, dry_run: bool = False,
            sleep=time.sleep, trust: bool = True) -> Outcome:
    """Run the whole pipeline for one task's fields. Never raises for expected failures."""
    from lazy_harness import redact
    from lazy_harness.memory import store
    from lazy_harness.worker import answer, prompt as prompting, transcript

    now = time.time() if now is None else now
    loop = cfg["compound_loop"]
    tid = fields.get("task_id", "-")

    def log(msg: str) -> None:
        _log(env, f"task {tid}: {msg}")

    if trust:
        check_trust(fields, env)
    from lazy_harness import retain
    from lazy_harness.worker import cursor

    sid = fields.get("session_id", "")
    path = retain.source(paths.queue_dir(env), sid, fields["session_jsonl"])  # deleted: the kept link
    try:
        mtime = os.stat(path).st_mtime
    except OSError:
        return Outcome("skipped", "transcript missing")
    # only the conversation after what was distilled; `lh knowledge handoff-now` asks for the whole
    offset = 0 if fields.get("event") == WHOLE_SESSION_EVENT else cursor.start(env, sid, path)
    try:
        view = cursor.read_view(path, int(loop["transcript_budget_chars"]), offset)
    except transcript.TranscriptError as exc:
        return Outcome("skipped", f"unreadable transcript: {exc.message}", mtime)
    if view.kind != "interactive":
        return Outcome("skipped", f"not an interactive session ({view.kind})", mtime)
    if view.user_chars < int(loop["min_user_chars"]):
        return Outcome("skipped", f"too short: user typed {view.user_chars} < {loop['min_user_chars']} chars", mtime)
    if view.messages < int(loop["min_messages"]):
        return Outcome("skipped", f"too short: {view.messages} < {loop['min_messages']} messages", mtime)
    if offset and not view.entries:
        return Outcome("skipped", "nothing new since the last distillation", mtime)

    extra = tuple(loop.get("redact_patterns") or ())
    memory_dir = fields["memory_dir"]
    learnings_dir = paths.learnings_dir(cfg["knowledge"]["path"] or None, env)
    cwd = fields.get("cwd") or view.cwd or ""
    project = paths.project_name(cwd) if cwd else "unknown"
    existing = store.existing_memory(memory_dir, learnings_dir)
    built = prompting.render(view, existing, project, int(loop["prompt_max_chars"]), extra)
    text = built.text
    if built.redacted:
        log(f"redacted {built.redacted} secret(s) from the prompt")
    meta = {"project": project, "session_id": fields.get("session_id", ""), "task_id": tid, "cwd": cwd}
    if dry_run:
        return Outcome("processed", "dry run", mtime, prompt=text)

    from lazy_harness.worker.calls import Wait

    try:
        raw, attempts = call_with_retries(text, cfg, env, sleep, log, meta)
    except Wait as exc:
        return Outcome("waiting", exc.message, None, prompt=text, paused=exc.paused)
    except ModelError as exc:
        n = getattr(exc, "attempts", 1)
        return Outcome("failed", f"model call failed {n} time(s): {exc}", mtime,
                       prompt=text, error_text=str(exc), attempts=n)
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
    sweep_stale_temps(memory_dir)  # what a killed worker may have left half-written
    plan = store.plan(distilled, memory_dir, learnings_dir, meta, now, env=env)
    report = store.apply(plan)
    cursor.advance(env, sid, path, view.bytes_read, now)  # after the persist, never before
    for target, why in report.skipped:  # why: "2 skipped" in the summary line does not say which or why
        log(f"not written to {os.path.basename(target)}: {why}")
    return Outcome("processed", "distilled", mtime, prompt=text, plan=plan, report=report,
                   problems=problems, attempts=attempts)
