"""One claimed task from claim to finish (the worker's loop, worker/loop.py, drains the queue with
it): run through the pipeline, or skipped when the same unchanged transcript already failed; put back
to wait (a spend cap, the API, no room to write); moved to done/ or failed/ with the session's check
mark, which the Stop gates and SessionStart read.
"""

from __future__ import annotations

import os
import time
import traceback
from typing import TYPE_CHECKING

from lazy_harness import logfile, paths, queue
from lazy_harness.atomic import atomic_write

if TYPE_CHECKING:
    from collections.abc import Callable

    from lazy_harness.config.typed import Config
    from lazy_harness.memory.shapes import Env
    from lazy_harness.worker.pipeline import Outcome

# The part a model failure read, kept in its failed/ record: "<offset> <check>" (worker/cursor.py part_check)
FAILED_PART = "failed_part"
_CHECK = {"processed": queue.DISTILLED, "skipped": queue.SKIPPED, "failed": queue.ERROR}


def _log(env: Env | None, message: str) -> None:
    logfile.write(logfile.WORKER, message, env)


def _result_fields(outcome: Outcome) -> dict[str, str]:
    """A short record of what a processed task wrote, kept in its done/ file."""
    report = outcome.report
    if report is None:
        return {}
    summary = getattr(report, "summary", None)
    out = {"written": summary() if callable(summary) else str(report)}
    if outcome.problems:
        out["answer_problems"] = str(len(outcome.problems))
    return out


def process_one(q: str, name: str, cfg: Config, env: Env | None, sleep: Callable[[float], object] = time.sleep,
                projects: dict[str, str] | None = None) -> str | None:
    """Claim and process one pending task. Returns its outcome status, or None if it was gone."""
    path = queue.claim(q, name)
    if path is None:
        return None
    started = time.monotonic()
    try:
        fields = queue.read_task(path)
    except OSError as exc:  # why: raised, it stopped the worker, and the claim stayed in processing/ for good
        return _unreadable(q, name, exc, env)
    fields["task_id"] = queue.task_id(name)
    try:
        outcome, repeated = _run_task(q, fields, cfg, env, sleep)
    except SystemExit as exc:
        if exc.code == STOPPED_CODE:
            _stopped(q, path, fields, env)
        raise
    outcome = _timed_out_too_often(fields, outcome, cfg)
    fields.update(_result_fields(outcome))
    if outcome.attempts:
        fields["attempts"] = str(outcome.attempts)
    if outcome.status == "failed" and outcome.read_to:
        _keep_failed_part(fields, outcome.read_to)
    if outcome.status == "waiting":  # spend, the API, no room: back to the queue, not failed (ADR 0013, 0021)
        return _requeue(q, name, fields, outcome, cfg, env)
    mark = _check_mark(q, fields, outcome, repeated)
    if not _finish(q, name, fields, outcome, mark, env):
        return "storage"
    if outcome.status == "processed" and projects is not None and fields.get("memory_dir"):
        projects[fields["memory_dir"]] = fields.get("cwd", "")
    from lazy_harness.queue import retain

    retain.release(q, fields.get("session_id", ""))
    took = time.monotonic() - started
    detail = "".join(f" | {part}" for part in (fields.get("written", ""), outcome.read) if part)
    _log(env, f"task {fields['task_id']}: {outcome.status}: {outcome.reason}{detail} ({took:.2f} s)")
    _report_damaged_lines(env)
    return outcome.status


STOPPED_CODE = 128 + 15  # the SystemExit of the worker's SIGTERM handler (worker/loop.py)


def _stopped(q: str, path: str, fields: dict, env: Env | None) -> None:
    """The worker was stopped by SIGTERM (``kill <pid>``, a shutdown) while this task ran: its claim says
    so, and the next worker returns it to the queue without counting an interruption (queue.recover),
    which is for a worker that died. Memory half written is rolled back by that worker (memory.intent)."""
    from lazy_harness.queue import task

    try:
        claim = queue.read_task(path)
        claim[queue.STOPPED] = "SIGTERM"
        tmp = task.tmp_path_for(q, os.path.basename(path))
        atomic_write(tmp, queue.format_task(claim))
        os.replace(tmp, path)
        said = "it goes back to the queue at the next worker's start"
    except OSError as exc:
        said = f"its claim not marked ({exc}): the next worker counts it as interrupted"
    _log(env, f"task {fields['task_id']}: worker {os.getpid()} stopped by SIGTERM while it ran; {said}")


def _unreadable(q: str, name: str, exc: OSError, env: Env | None) -> str:
    """A claimed task whose file cannot be read goes to failed/ with the read's error."""
    why = f"task file unreadable: {exc.strerror or exc}"
    try:
        queue.finish(q, name, {"task_id": queue.task_id(name)}, "failed", why, why)
    except OSError as again:
        _log(env, f"task {queue.task_id(name)}: {why}; its failed record not written either: {again}")
        return "failed"
    _log(env, f"task {queue.task_id(name)}: failed: {why}")
    return "failed"


def _run_task(q: str, fields: dict, cfg: Config, env: Env | None,
              sleep: Callable[[float], object]) -> tuple[Outcome, Outcome | None]:
    """The task through the pipeline (or the skip of a repeated failure): (outcome, the skip or None).
    An exception becomes a failed outcome, or a waiting one when writing failed for lack of room."""
    from lazy_harness.worker import pipeline

    repeated = None
    try:
        repeated = _failed_before(q, fields)
        return repeated or pipeline.distill(fields, cfg, env, time.time(), sleep=sleep), repeated
    except Exception as exc:  # why: one bad task must not stop the queue; keep the evidence
        from lazy_harness.errors import LhError
        from lazy_harness.worker import storage

        why = storage.cause(exc)
        expected = isinstance(exc, LhError)
        reason = str(exc) if expected else f"internal error: {type(exc).__name__}: {exc}"
        if why:  # why: not the task's fault; the persist rolled itself back (memory.intent)
            return pipeline.Outcome("waiting", f"memory not written, {why}; nothing of it was kept, it runs "
                                               "again once writing works", None, storage=True), repeated
        return pipeline.Outcome("failed", reason, _mtime(fields.get("session_jsonl", "")),
                                error_text=reason if expected else traceback.format_exc()), repeated


def _requeue(q: str, name: str, fields: dict, outcome: Outcome, cfg: Config, env: Env | None) -> str:
    """A task that waits goes back to the queue with its next time; returns storage, paused or waiting."""
    from lazy_harness.worker import llm, storage, waiting

    first = float(cfg["compound_loop"].get("wait_seconds", waiting.FIRST_WAIT))
    now = time.time()
    # why: an account's limit refuses every call until its reset, hours away: no call before it
    until = waiting.limit_reset(outcome.reason, now) if llm.cause_said(outcome.reason) == "limit" else None
    what = waiting.requeue(q, name, fields, outcome.reason, now, outcome.paused or outcome.storage, first, until)
    _log(env, f"task {fields['task_id']}: {what}: {outcome.reason}")
    _report_damaged_lines(env)
    if outcome.storage:
        storage.stop(env, outcome.reason.split("; ", 1)[0].removeprefix("memory not written, "))
        return "storage"
    return "paused" if outcome.paused else "waiting"


def _timed_out_too_often(fields: dict, outcome: Outcome, cfg: Config) -> Outcome:
    """``outcome``, or a failure when it is the ``compound_loop.max_attempts``-th wait of the task for a
    call that gave no answer in time. Counted in the task's ``timeouts``. Each such call read the
    prompt and is charged its estimate (worker/calls.py): waiting for ever spent the daily cap, every
    day, on a task that cannot succeed at this timeout. The causes that cost nothing (unreachable,
    auth, limit, config) wait without a bound."""
    from lazy_harness.worker import llm, pipeline

    if outcome.status != "waiting" or outcome.paused or outcome.storage or llm.cause_said(outcome.reason) != "timeout":
        return outcome
    done = fields.get("timeouts", "")
    timeouts = int(done) + 1 if done.isdigit() else 1
    fields["timeouts"] = str(timeouts)
    if timeouts < max(1, int(cfg["compound_loop"]["max_attempts"])):
        return outcome
    said = outcome.reason
    if said.endswith(")") and " (hint: " in said:
        said = said[:said.rfind(" (hint: ")]
    reason = (f"model call failed {timeouts} time(s): {said} (hint: raise compound_loop.timeout_seconds, "
              f"then lh queue retry {fields['task_id']})")
    return pipeline.Outcome("failed", reason, _mtime(fields.get("session_jsonl", "")), prompt=outcome.prompt,
                            error_text=reason, attempts=timeouts, read=outcome.read)


def _check_mark(q: str, fields: dict, outcome: Outcome, repeated: Outcome | None) -> tuple[float, str] | None:
    """The session's check mark the finished task leaves (transcript mtime, check), also kept in its
    record; None when the task read no transcript."""
    check = _check_of(outcome, repeated)
    if outcome.transcript_mtime is None:
        return None
    # why: the record carries the mark, so recover() can restore it after a kill in between
    fields["transcript_mtime"] = repr(outcome.transcript_mtime)
    fields["check"] = check
    return _settled(q, fields.get("session_id", ""), (outcome.transcript_mtime, check))


def check_mark(q: str, session_id: str, outcome: Outcome) -> tuple[float, str] | None:
    """The check mark a run outside the queue (``lh distill``) leaves for the session, by the rule a
    task's follows; None when it read no transcript or is still to run (waiting)."""
    if outcome.status not in _CHECK or outcome.transcript_mtime is None or not session_id:
        return None
    return _settled(q, session_id, (outcome.transcript_mtime, _check_of(outcome, None)))


def _check_of(outcome: Outcome, repeated: Outcome | None) -> str:
    from lazy_harness.worker import pipeline

    if outcome is repeated:
        return queue.ERROR  # why: still not in memory; the next change of the session tries again
    if outcome.status == "skipped" and outcome.reason in pipeline.ALL_HELD:
        # why: memory holds all of it (another run of the session took it, worker/cursor.py); a skip
        # mark would read as never distilled to lh backfill and to the gates
        return queue.DISTILLED
    return _CHECK.get(outcome.status, queue.ERROR)


def _settled(q: str, session_id: str, mark: tuple[float, str]) -> tuple[float, str]:
    """``mark``, or the session's newer distilled mark when ``mark`` is an error of a redo."""
    if mark[1] == queue.ERROR:
        last = queue.last_check(q, session_id) if session_id else None
        if last is not None and last[1] == queue.DISTILLED and last[0] >= mark[0]:
            # why: a redo (lh knowledge handoff-now, a retry) of what memory already holds failed: nothing
            # is missing, and the session must not look undistilled to the gates or to SessionStart
            return last
    return mark


def _finish(q: str, name: str, fields: dict, outcome: Outcome, mark: tuple[float, str] | None,
            env: Env | None) -> bool:
    """Move the task to done/ or failed/ with its mark; False when its record could not be written for
    lack of room (the task is back in the queue and the drain stops)."""
    try:
        queue.finish(q, name, fields, outcome.status, outcome.reason, outcome.error_text, mark)
    except OSError as exc:
        from lazy_harness.worker import storage

        why = storage.cause(exc)
        if not why:
            raise
        # why: memory holds the session, its record does not: back to the queue, where a run once there is
        # room again writes nothing twice (the store's de-duplication) and records it
        try:
            os.replace(os.path.join(q, queue.PROCESSING, name), os.path.join(q, name))
        except OSError:
            pass
        _log(env, f"task {fields['task_id']}: waiting: its record not written, {why}")
        storage.stop(env, why)
        return False
    return True


def _report_damaged_lines(env: Env | None) -> None:
    """One worker.log line per memory file in which the task salvaged or skipped a line."""
    from lazy_harness.memory import damage

    try:
        damage.report(logfile.WORKER, env)
    except Exception as exc:  # why: a report must not fail the queue
        _log(env, f"memory: damaged lines not reported: {type(exc).__name__}: {exc}")


def _failed_before(q: str, fields: dict) -> Outcome | None:
    """A skip for a task whose transcript already failed to distill and has not changed since (a
    SessionEnd queued while the Stop task of the same turn was failing): the same prompt would fail
    the same way, at the same cost. Not when it failed for a cause outside the transcript (the API
    overloaded or rate-limited, a timeout, a killed claude: ``llm.TEMPORARY``), which the next try
    may not meet. A retry, ``lh knowledge handoff-now`` or ``lh backfill`` is asked for: it runs. A
    poison task (its worker killed again and again on this transcript) is skipped the same way."""
    from lazy_harness.worker import llm, pipeline

    if fields.get("event") in ("retry", pipeline.WHOLE_SESSION_EVENT, "Backfill"):
        return None
    sid, transcript = fields.get("session_id", ""), fields.get("session_jsonl", "")
    last = queue.last_check(q, sid) if sid else None
    if last is None or last[1] != queue.ERROR:
        return None
    # why: only the model's failure is worth skipping (it costs calls and would repeat); a refused
    # task (untrusted, a planted link) is refused again, with its own record
    failed = queue.folder(q, queue.FAILED)
    try:
        named = sorted(n for n in os.listdir(failed) if n.endswith(f"-{paths.safe_session_id(sid)[:8]}{queue.SUFFIX}"))
    except OSError:
        return None
    # why the newest of this session's own, not the newest name: a name holds 8 characters of the id,
    # which Codex's ids (UUID v7, a clock first) share with every session started in the same minute
    previous: dict = {}
    for name in reversed(named):
        try:
            task = queue.read_task(os.path.join(failed, name))
        except OSError:
            continue
        if task.get("session_id") == sid:
            previous = task
            break
    reason = previous.get("reason", "")
    # why poison too: its worker died five times on this transcript (queue.consume.recover); a SessionEnd
    # queued after it would die five times more
    model_failed = reason.startswith("model call failed") and llm.cause_said(reason) not in llm.TEMPORARY
    if (previous.get("session_id") != sid or previous.get("session_jsonl") != transcript
            or not (model_failed or reason == "poison") or not _nothing_said_since(previous, last, fields)):
        return None
    # why the transcript's mtime now: the idle sweep must not queue it again for records that say nothing
    return pipeline.Outcome("skipped", "this transcript already failed to distill and nothing was said since "
                            "(lh queue retry --failed tries again)", _mtime(transcript) or last[0])


def _nothing_said_since(previous: dict, last: tuple[float, str], fields: dict) -> bool:
    """Whether the session said nothing since the failed task ``previous`` read it: the transcript is as it
    was then, or all it gained past the part read are records that are no conversation (what Claude Code
    writes after a turn: the Stop hooks' summary, the turn's duration, its cost; ADR 0075)."""
    from lazy_harness.worker import cursor
    from lazy_harness.worker.task_trust import agent_of

    transcript = fields.get("session_jsonl", "")
    if previous.get("transcript_mtime") == repr(last[0]) and _mtime(transcript) == last[0]:
        return True
    offset, _, check = previous.get(FAILED_PART, "").partition(" ")
    return offset.isdigit() and not cursor.said_since(transcript, int(offset), check, agent_of(fields))


def _keep_failed_part(fields: dict, read_to: int) -> None:
    """Note in the failed task's record where the part it read ends, and that part's check."""
    from lazy_harness.worker import cursor

    check = cursor.part_check(fields.get("session_jsonl", ""), read_to)
    if check:
        fields[FAILED_PART] = f"{read_to} {check}"


def _mtime(path: str) -> float | None:
    try:
        return os.stat(path).st_mtime if path else None
    except OSError:
        return None
