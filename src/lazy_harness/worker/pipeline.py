"""One session through the loop: trust, read, gate, prompt, model, validate, redact, persist.

Shared by the worker (a queued task) and ``lh distill`` (a transcript named on the command line).
Nothing is written until everything is computed; what is written is idempotent (see memory.store).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from lazy_harness import logfile, paths, queue
from lazy_harness.atomic import sweep_stale_temps
from lazy_harness.queue.task import TRANSCRIPTS
from lazy_harness.errors import ModelError, TaskError
from lazy_harness.project_identity import project_name, project_root

if TYPE_CHECKING:
    from collections.abc import Callable

    from lazy_harness.config.typed import CompoundLoopConfig, Config
    from lazy_harness.memory.apply import Report
    from lazy_harness.memory.intent import Intent
    from lazy_harness.memory.plan import Plan
    from lazy_harness.memory.shapes import Env
    from lazy_harness.worker.owed import Owing
    from lazy_harness.worker.transcript_records import View

    Log = Callable[[str], object]  # one line for worker.log
    Sleep = Callable[[float], object]


WHOLE_SESSION_EVENT = "handoff-now"  # a task that re-reads its session whole, cursor or not
NOTHING_NEW = "nothing new since the last distillation"  # a skip that leaves the session distilled
AGENTS = ("claude", "codex")  # a task's ``agent`` (no field: claude); it picks the transcript reader


def agent_of(fields: dict) -> str:
    """The agent whose session the task names: ``claude`` when the task has no ``agent`` field."""
    agent = fields.get("agent") or "claude"
    if agent not in AGENTS:
        raise TaskError(f"unknown agent {agent!r} in the task (known: {', '.join(AGENTS)})")
    return agent


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


def check_trust(fields: dict, env: Env | None, memory_root: str | None = None) -> None:
    """A task is trusted only when its transcript lies inside the Claude dir's projects folder (a Codex
    task's: inside ``$CODEX_HOME/sessions``) and its memory folder is ``<memory root>/<key>``
    (``memory_root``: ``paths.memory_root`` of the config)."""
    if agent_of(fields) == "codex":
        from lazy_harness.worker import rollout

        projects = rollout.sessions_dir(env)
    else:
        projects = paths.projects_dir(env)
    root = memory_root or paths.memory_root(None, env)
    transcript = fields.get("session_jsonl", "")
    memory = fields.get("memory_dir", "")
    allowed = [projects]
    recorded = str(fields.get(TRANSCRIPTS) or "")
    if recorded and recorded != projects and _users_own(recorded, "sessions" if agent_of(fields) == "codex"
                                                         else "projects"):
        allowed.append(recorded)  # the hook's agent ran with another CLAUDE_CONFIG_DIR or CODEX_HOME
    if not transcript or not any(paths.is_within(transcript, folder) for folder in allowed):
        raise TaskError(f"untrusted task: session_jsonl {transcript!r} is outside {' and '.join(allowed)}")
    real = os.path.realpath(memory) if memory else ""
    if not memory or os.path.dirname(real) != os.path.realpath(root) or os.path.basename(real) in ("", ".", ".."):
        raise TaskError(f"untrusted task: memory_dir {memory!r} is not <memory root>/<key> under {root}")


def _users_own(folder: str, name: str) -> bool:
    """Whether ``folder`` is an agent's transcripts folder (named ``name``) that is the user's own and
    closed to others' writes, as the folder a task names must be to be trusted."""
    import stat

    real = os.path.realpath(folder)
    if os.path.basename(real) != name or not os.path.isabs(folder):
        return False
    try:
        st = os.stat(real)
    except OSError:
        return False
    return stat.S_ISDIR(st.st_mode) and st.st_uid == os.geteuid() and not st.st_mode & 0o022


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


def owed_checks(plan: Plan, report: Report, over: list, dirs: tuple[str, str], meta: dict) -> dict:
    """What the checks after a persist read (worker/owed.py): the entries it wrote, their texts, and
    those of them past the answer's cap; plain data, so a worker killed before the checks ran leaves
    them to the next one."""
    from lazy_harness.memory import held_written

    return {"memory_dir": dirs[0], "learnings_dir": dirs[1], "meta": meta,
            "written": [list(w) for w in held_written.written_records(plan, report)],
            "texts": [list(t) for t in held_written.written_texts(plan, report)],
            "over": [list(f) for f in held_written.scan_over_cap(plan, report, over)] if over else []}


def run_checks(owed: dict, cfg: Config, env: Env | None, now: float, sleep: Sleep, log: Log) -> int:
    """The hold check, the cap's holds and the model check over what a persist wrote (``owed_checks``);
    returns how many entries they held."""
    held_ids = _hold(owed, now, log, bool(cfg.get("trust", {}).get("learned_check", True)))
    return len(held_ids or ()) + _model_check(owed, held_ids, cfg, env, now, sleep, log)


def _hold(owed: dict, now: float, log: Log, learned: bool = True) -> set[str] | None:
    """Hold what the session wrote that reads as an instruction to the agent (memory/held.py, ADR 0024),
    by the rules and, when ``learned``, by the learned check (worker/learned_check.py, ADR 0046), and
    what it wrote past the per-session cap; returns the ids held (None if the check failed).
    why: after the persist, not inside it: the read-time check leaves such an entry out meanwhile."""
    from lazy_harness.memory import held, trust

    written = [tuple(w) for w in owed["written"]]
    try:
        verdicts = trust.check_session([(w[3], w[4]) for w in written])  # one session's entries together
        found = [(w[0], w[1], w[2], why) for w, why in zip(written, verdicts, strict=True) if why]
        if learned:
            found += _learned(written, {f[1] for f in found}, log)
        seen = {eid for _, eid, _, _ in found}
        found += [tuple(f) for f in owed["over"] if f[1] not in seen]
        run = held.hold(owed["memory_dir"], owed["learnings_dir"], found, owed["meta"]["project"], now,
                        "written by the worker")
    except Exception as exc:  # why: the entries are written; SessionStart's check holds them if this failed
        log(f"hold check failed: {type(exc).__name__}: {exc}")
        return None
    for kind, eid, _, why in found:
        log(f"held {kind} {eid}: {why}" + (f" (run {run})" if run else ""))
    return {eid for _, eid, _, _ in found}


def _learned(written: list[tuple], skip: set[str], log: Log) -> list[tuple[str, str, str, str]]:
    """What the learned check holds of what the persist wrote and the rules let through; a failure of
    its own (a damaged weights file) is logged and holds nothing, the rules' holds stand."""
    from lazy_harness.worker import learned_check

    try:
        return learned_check.scan(written, skip)
    except Exception as exc:
        log(f"learned check failed: {type(exc).__name__}: {exc}")
        return []


def _model_check(owed: dict, held_ids: set[str] | None, cfg: Config, env: Env | None, now: float, sleep: Sleep,
                 log: Log) -> int:
    """The second look (worker/model_check.py, ADR 0039): a separate model call judges what the session
    wrote that the rules did not hold; what it judges hostile is held too; returns how many. why: after
    the persist and the rule hold, and never failing the task: the entries are written whatever the call does."""
    from lazy_harness.memory import held
    from lazy_harness.worker import model_check

    if held_ids is None or not cfg.get("trust", {}).get("model_check", True):
        return 0
    memory_dir, meta = owed["memory_dir"], owed["meta"]
    try:
        entries = model_check.to_judge([tuple(t) for t in owed["texts"]], memory_dir, held_ids, env)
        found = model_check.run(entries, cfg, env, meta, log, now, sleep)
        run = held.hold(memory_dir, owed["learnings_dir"], found, meta["project"], now, "judged by the model check")
    except Exception as exc:
        log(f"model check failed: {type(exc).__name__}: {exc}")
        return 0
    for kind, eid, _, why in found:
        log(f"held {kind} {eid}: {why}" + (f" (run {run})" if run else ""))
    return len(found)


def _persist_and_check(distilled: dict, over: list, path: str, read_to: int, dirs: tuple[str, str], meta: dict,
                       at: tuple[float, str], cfg: Config, env: Env | None, sleep: Sleep,
                       log: Log) -> tuple[Plan, Report]:
    """Persist the answer, its commit carrying the promise of its checks, of the cursor's move to
    ``read_to`` and of the session's usage accounting (worker/owed.py); then keep the promise: move
    the cursor, run the checks, count the usage, forget it."""
    from lazy_harness.worker import cursor, owed

    now, memory_root = at
    sid = str(meta.get("session_id") or "")
    # why the answer's failures only: all the accounting reads of the answer (worker/usage.py ``recurred``)
    accounting = {"session_id": sid, "path": path, "failures": distilled.get("failures") or [], "at": now}
    promised: list[tuple[dict, Owing | None]] = []
    promise = _promise(env, over, dirs, meta, cursor.position(sid, path, read_to, now), accounting, promised)
    try:
        plan, report = _persist(distilled, dirs[0], dirs[1], meta, now, env, memory_root, log, promise)
    except BaseException:
        for _, owing in promised:  # why: rolled back with the persist, or committed and left to the next worker
            owed.done(owing, remove=False)
        raise
    # nothing written: no promise to keep, and the checks find nothing to judge
    checks, owing = promised[0] if promised else (dict(owed_checks(plan, report, over, dirs, meta),
                                                        usage=accounting), None)
    with owed.holding(owing):  # why: locked until the checks ran, so a worker starting meanwhile leaves them
        cursor.advance(env, sid, path, read_to, now)  # after the persist, never before
        report.held = run_checks(checks, cfg, env, now, sleep, log)
        _account_usage(checks, env, log)
    return plan, report


def _promise(env: Env | None, over: list, dirs: tuple[str, str], meta: dict, move: dict | None,
             accounting: dict, promised: list) -> Callable[[Plan, Report, Intent], None]:
    """The persist's last step before its commit (memory/apply.py ``before_commit``): the record of the
    checks it owes, of the cursor's move and of the usage accounting, named in its undo record first so
    that a rollback removes it, then saved locked; appended to ``promised`` as (record, Owing). What it
    raises (a full disk) rolls the persist back: its entries never stand without their checks."""
    from lazy_harness.worker import owed

    task_id = str(meta.get("task_id") or "")

    def before_commit(plan: Plan, report: Report, intent: Intent) -> None:
        checks = dict(owed_checks(plan, report, over, dirs, meta), cursor=move, intent=intent.path,
                      usage=accounting)
        intent.promising(owed.path_for(env, task_id))
        promised.append((checks, owed.save(env, task_id, checks)))

    return before_commit


def settle_owed(cfg: Config, env: Env | None, log: Log, sleep: Sleep = time.sleep) -> None:
    """Keep the promises a killed process's persist left (worker/owed.py): move the session's cursor,
    run the checks, then forget them. A record whose lock a live process holds (``lh distill`` in its
    checks) is left to it: the checks run once. This process holds each record it settles, so a
    second settler leaves it too. A record its persist's undo record still names is left to that
    persist's rollback (``intent.recover_all``, run first), which removes it."""
    from lazy_harness.memory import intent
    from lazy_harness.worker import owed

    for path in owed.left_over(env):
        owing = owed.claim(path)
        if owing is None:
            continue  # why no log line: a live process is running these checks now, or just ran them
        record = owed.read(owing)
        if record is not None and isinstance(record.get("intent"), str) and intent.pending(record["intent"], path):
            owed.done(owing, remove=False)
            log(f"checks owed left for now: {path}: the persist that owes them is not rolled back yet")
            continue
        with owed.holding(owing):
            if record is None:
                log(f"checks owed by an earlier persist not readable: {path}; removed (SessionStart's check "
                    "still reads its entries)")
                continue
            log(f"task {os.path.basename(path)[:-len('.json')]}: running the checks a killed worker owed its entries")
            _keep_promise(record, cfg, env, sleep, log)


def _keep_promise(record: dict, cfg: Config, env: Env | None, sleep: Sleep, log: Log) -> None:
    """What a killed process's committed persist still owed: the cursor moved past what it distilled
    (so its task, run again, makes no second model call), its checks, the session's usage (a line
    already written counts once), its entries in the index."""
    from lazy_harness.worker import cursor

    moved = record.get("cursor")
    if isinstance(moved, dict):
        fd, _ = cursor.hold(env, str(moved.get("session_id") or ""))
        try:
            if cursor.catch_up(env, moved):
                log(f"session {moved['session_id']}: cursor moved past what the killed worker distilled")
        except (OSError, KeyError, TypeError, ValueError) as exc:  # why: a damaged record: the task distills again
            log(f"cursor not moved: {type(exc).__name__}: {exc}")
        finally:
            cursor.release(fd)
    try:
        run_checks(record, cfg, env, time.time(), sleep, log)
    except Exception as exc:  # why: a record of ours but damaged (a key missing): never the queue's end
        log(f"checks owed not run: {type(exc).__name__}: {exc}")
        return
    _account_usage(record, env, log)
    update_index(env, str(record["memory_dir"]), str(record["learnings_dir"]), log)


def _account_usage(owed: dict, env: Env | None, log: Log) -> None:
    """What the session was shown and used (worker/usage.py, ADR 0036), as the persist's record
    ``owed`` carries it (``usage``: none in a record from before it, nothing to count). why: after the
    persist, and never failing the task: usage is a record about memory, not memory."""
    from lazy_harness.worker import usage

    acc = owed.get("usage")
    if not isinstance(acc, dict):
        return
    try:
        words = usage.account(str(acc["session_id"]), str(acc["path"]), {"failures": list(acc["failures"])},
                              str(owed["memory_dir"]), str(owed["learnings_dir"]), env, float(acc["at"]))
    except Exception as exc:
        log(f"usage not counted: {type(exc).__name__}: {exc}")
        return
    if words:
        log(words)


def _log(env: Env | None, message: str) -> None:
    logfile.write(logfile.WORKER, message, env)


def _wait_for_turn(path: str, turn_text: str, log: Log) -> None:
    """Hold the read until the transcript holds the Stop's turn, for a bounded time."""
    from lazy_harness.worker import turn

    waited = turn.wait(path, turn_text)
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
    if skip is not None:
        return skip

    extra = tuple(loop.get("redact_patterns") or ())
    memory_dir = fields["memory_dir"]
    learnings_dir = paths.learnings_dir(cfg["knowledge"]["path"] or None, env)
    cwd = fields.get("cwd") or view.cwd or ""
    project = project_name(cwd) if cwd else "unknown"
    if not dry_run:  # why: a dry run writes nothing; its prompt lacks what is still to be moved
        _migrate(fields, memory_dir, memory_root, env, now, log)
    text = _prompt(view, memory_dir, learnings_dir, project, int(loop["prompt_max_chars"]), extra, log)
    # why: handoff records carry the session's time, not the processing time, so a session processed late
    # (re-processed, or handoff-now on an older session) can never reopen what a newer session closed
    meta = {"project": project, "project_folder": os.path.basename(os.path.normpath(memory_dir)),
            "session_id": fields.get("session_id", ""), "task_id": tid, "cwd": cwd,
            "session_time": mtime, "stale_days": cfg.get("handoff", {}).get("stale_days", 14),
            "agent": agent_of(fields)}
    if dry_run:
        return Outcome("processed", "dry run", mtime, prompt=text, read=seen)
    answered = _ask(text, cfg, env, sleep, log, meta, mtime, seen)
    if isinstance(answered, Outcome):
        return answered
    raw, attempts = answered
    distilled, problems = _checked_answer(raw, extra, log)
    over = _with_over_cap(distilled)
    plan, report = _persist_and_check(distilled, over, path, view.bytes_read, (memory_dir, learnings_dir), meta,
                                      (now, memory_root), cfg, env, sleep, log)
    for target, why in report.skipped:  # why: "2 skipped" in the summary line does not say which or why
        log(f"not written to {os.path.basename(target)}: {why}")
    update_index(env, memory_dir, learnings_dir, log)
    if cwd:
        prepare_next_start(cwd, cfg, env, now, log)
    prepare_listing(memory_dir, learnings_dir, log)
    return Outcome("processed", "distilled", mtime, prompt=text, plan=plan, report=report,
                   problems=problems + plan.problems, attempts=attempts, read=seen)


def _read_transcript(fields: dict, loop: CompoundLoopConfig, env: Env | None,
                     log: Log) -> Outcome | tuple[str, float, int, View]:
    """The part of the session's transcript not distilled yet (the whole of it for handoff-now), once
    the Stop's turn is in it: (path, mtime, offset read from, view), or a skip when there is none."""
    from lazy_harness.queue import retain
    from lazy_harness.worker import cursor, transcript

    sid = fields.get("session_id", "")
    path = retain.source(paths.queue_dir(env), sid, fields["session_jsonl"])  # deleted: the kept link
    agent = agent_of(fields)
    if fields.get(queue.TURN):  # a Stop task: its turn may not be in the transcript yet (worker/turn.py)
        _wait_for_turn(path, fields[queue.TURN], log)
    try:
        mtime = os.stat(path).st_mtime
    except OSError:
        return Outcome("skipped", "no transcript: the session ended before anything was typed (Claude Code writes "
                                  "none until the first prompt), or its file was deleted since")
    # only the conversation after what was distilled; `lh knowledge handoff-now` asks for the whole
    offset = 0 if fields.get("event") == WHOLE_SESSION_EVENT else cursor.start(env, sid, path)
    try:
        view = cursor.read_view(path, int(loop["transcript_budget_chars"]), offset, agent)
    except transcript.TranscriptError as exc:
        return Outcome("skipped", f"unreadable transcript: {exc.message}", mtime)
    if view.copied_from and sid:  # a fork: the hooks leave its parents' entries out (memory/lineage.py)
        from lazy_harness.memory import lineage

        try:
            lineage.record(env, sid, view.copied_from)
        except OSError as exc:
            log(f"fork's parents not recorded: {exc}")
    return path, mtime, offset, view


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
        return Outcome("skipped", "nothing new since the conversation it was forked from", mtime, read=seen)
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
                       prompt=text, error_text=str(exc), attempts=n, read=seen)


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


def _persist(distilled: dict, memory_dir: str, learnings_dir: str, meta: dict, now: float, env: Env | None,
             memory_root: str, log: Log,
             before_commit: Callable[[Plan, Report, Intent], object] | None = None) -> tuple[Plan, Report]:
    """Plan the answer's changes against the memory and apply them, all or nothing: (plan, report);
    ``before_commit`` as memory/apply.py's."""
    from lazy_harness.memory import store

    sweep_stale_temps(memory_dir)  # what a killed worker may have left half-written
    plan = store.plan(distilled, memory_dir, learnings_dir, meta, now, env=env, root=memory_root)
    for problem in plan.problems:  # what only the memory can tell: an unknown item closed
        log(f"answer: {problem}")
    return plan, store.apply(plan, before_commit)


def prepare_next_start(cwd: str, cfg: Config, env: Env | None, now: float, log: Log) -> None:
    """Read the memory once as the project's next SessionStart will (recall/readback/digest.py), for
    the caches that start reads: the hold check's verdicts on the texts it screens and the learnings'
    heads. Without this the first start after every distillation worked out the verdicts of the new
    entries itself, and compiling the check's rules cost it some 40 ms (about 5x a bare start instead
    of 2x at 18,000 entries: benchmarks/bench_session_start.py). Nothing is held or written to memory
    here; the start still holds what its check leaves out."""
    try:  # why: caches only, and a failure here must never fail the task
        from lazy_harness.recall.readback import digest

        digest.build_context(cwd, cfg, os.environ if env is None else env, now, "worker")
    except Exception as exc:
        log(f"session start not prepared: {type(exc).__name__}: {exc}")


def prepare_listing(memory_dir: str, learnings_dir: str, log: Log) -> None:
    """Work out the hold check's verdicts that the views of every entry keep (``lh memory held``, ``lh
    status``, ``show``, the page: memory/held_review.py ``States``), so none of them checks every entry
    itself: after an upgrade that changed the rules, about 1 ms an entry (11 s at 9,000 entries)."""
    try:  # why: a cache only, and a failure here must never fail the task
        from lazy_harness.memory import held_review

        held_review.listing(memory_dir, learnings_dir)
    except Exception as exc:
        log(f"held listing not prepared: {type(exc).__name__}: {exc}")


def update_index(env: Env | None, memory_dir: str, learnings_dir: str, log: Log) -> None:
    """Index (and embed) the new entries now, so the next prompt judges them by meaning: the worker
    is the index's writer (recall/index/writer.py); the hooks only read it."""
    try:  # why: the index is a cache, and a failure here must never fail the task
        from lazy_harness.recall.index import writer

        # why: waits for another writer (a command, lh memory reindex) rather than leave the index behind
        writer.update(paths.recall_index_file(env), [memory_dir], learnings_dir,
                      waiting=lambda entries: None)
    except Exception as exc:
        log(f"search index not updated: {type(exc).__name__}: {exc}")
