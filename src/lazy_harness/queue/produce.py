"""The producer side: a task for a session (:func:`task_fields`), written into tmp/ and linked into
the queue as the session's only pending task (:func:`enqueue`). Hot path: only ``os``, ``time``, ``fcntl``.
"""

from __future__ import annotations

import os
import time

from lazy_harness import paths
from lazy_harness.queue import retain
from lazy_harness.atomic import atomic_write, fsync_dir, lock, named, write_all
from lazy_harness.queue.state import read_state, state_file
from lazy_harness.queue.task import (AGENT, ASKED_EVENTS, CODEX, SUFFIX, TRANSCRIPTS, agent_of, ensure_layout,
                                     format_task, hand_over_ask, hand_over_run, iso_now, read_task, task_id,
                                     tmp_path_for, transcripts_folder)
from lazy_harness.queue.turn import TURN, turn_digest, turn_fingerprint
from lazy_harness.regular_file import NotRegularFile, read_regular

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

REQUIRED = ("session_id", "session_jsonl")  # what a task must name for the worker to process it


def enqueue(queue: str, fields: dict, now: float | None = None) -> str:
    """Write a task atomically and make it the session's only pending task. Returns its name.

    ``fields``: what :func:`task_fields` makes (``timestamp`` is filled in here). Raises TaskError
    when it names no session or no transcript: the worker could never process such a task.

    The session's pending state names the new task before it is linked into the queue, and the tasks
    it replaces until they are gone: an enqueue cut short anywhere (Ctrl-C, a kill) leaves no task
    that :func:`has_task` misses or that the next enqueue of the session does not replace.
    """
    missing = [key for key in REQUIRED if not fields.get(key)]
    if missing:
        from lazy_harness.errors import TaskError

        raise TaskError(f"not a task: no {' and no '.join(missing)}")
    now = time.time() if now is None else now
    sid = paths.safe_session_id(fields["session_id"])
    ensure_layout(queue)
    lock_fd = lock(state_file(queue, sid, "lock"))
    try:
        earlier = _still_pending(queue, sid)
        data = _merged(queue, dict(fields), earlier, now)
        data.setdefault("timestamp", iso_now(now))
        ns = int(now * 1e9)
        marker = state_file(queue, sid, "pending")
        try:  # why read_regular: a FIFO in the marker's place held Stop and SessionEnd in open() for good
            before: bytes | None = read_regular(marker)
        except (FileNotFoundError, NotRegularFile):
            before = None  # why a FIFO too: the marker written below takes its place, as it takes a missing one's
        while True:
            name = f"{ns}-{sid[:8]}{SUFFIX}"
            tmp = tmp_path_for(queue, name)
            _written(tmp, format_task(data).encode("utf-8"))
            try:
                # why before the link, not durable: a power cut that loses it costs one task more for
                # the session (the next one does not replace this one), and on a slow disk each fsync
                # held Stop and SessionEnd for seconds
                atomic_write(marker, f"{name}\n{now!r}\n{' '.join(earlier)}\n", durable=False)
                _link(tmp, os.path.join(queue, name), marker, before)
                break
            except FileExistsError:
                ns += 1
            finally:
                os.unlink(tmp)
        fsync_dir(queue)  # the link is the enqueue: make it survive a power cut
        retain.hold(queue, sid, data.get("session_jsonl", ""))  # outlive cleanupPeriodDays (ADR 0013)
        for old in earlier:
            try:
                os.unlink(os.path.join(queue, old))
            except FileNotFoundError:
                pass  # the worker claimed it meanwhile; the new task covers what came after
        return name
    finally:
        os.close(lock_fd)


def _still_pending(queue: str, sid: str) -> list[str]:
    """The session's tasks still in the queue that its pending state names, newest first: the newest
    task, and those an enqueue cut short before their removal had not removed yet."""
    parts = read_state(queue, sid, "pending")
    names = parts[:1] + (parts[2].split() if len(parts) > 2 else [])
    return [n for n in dict.fromkeys(names) if n.endswith(SUFFIX) and "/" not in n
            and os.path.exists(os.path.join(queue, n))]


def _merged(queue: str, data: dict, earlier: list[str], now: float) -> dict:
    """The new task's fields with what the newest task it replaces carries over: forced, the event
    the person asked for, the turn Stop saw, its wait (:func:`carry_wait`), and which task it replaces."""
    asked = data.get("event") in ASKED_EVENTS  # before an asked event is carried over below
    for name in earlier:
        try:
            old = read_task(os.path.join(queue, name))
        except OSError:
            continue  # the worker claimed it meanwhile
        if not asked:
            carry_wait(old, data, now)
        if old.get("forced") == "1":
            data["forced"] = "1"
        hand_over_ask(old, data)  # why: what the person asked for outlives a later turn
        hand_over_run(old, data)  # why: so does the id of a run cut short (queue/task.py TOOK_OVER)
        if not data.get(TURN) and old.get(TURN):  # SessionEnd after a pending Stop: the
            data[TURN] = old[TURN]  # turn Stop saw may still be on its way to the transcript
        data["replaces"] = task_id(name)
        break
    return data


def carry_wait(old: dict, data: dict, now: float) -> None:
    """The wait of the task ``old`` that ``data`` replaces (worker/waiting.py wrote it), or takes over
    from as a newer task of its session (worker/waiting.py, when a claimed task has to wait): its counts of
    timed-out calls and of waits, and its ``not_before`` with its ``wait_reason`` while still to come.
    why: dropped, each Stop (past debounce_seconds) or the session's end made a task that ran at once:
    a call before a usage limit's reset, and a prompt that always times out paid a call every turn and
    never reached max_attempts. The caller skips it for what the person asks for (``lh knowledge
    handoff-now``, ``lh queue retry``): that starts afresh."""
    for key in ("timeouts", "waits"):
        if old.get(key, "").isdigit():
            data[key] = old[key]
    try:
        until = float(old.get("not_before") or 0)
    except ValueError:
        return
    if until > now:
        data["not_before"] = old["not_before"]
        if old.get("wait_reason"):
            data["wait_reason"] = old["wait_reason"]


def _link(tmp: str, dest: str, marker: str, before: bytes | None) -> None:
    """Link the written task ``tmp`` into the queue as ``dest``. A link that fails (a full disk or quota,
    a read-only or denied queue folder) puts the session's pending ``marker`` back as it was (``before``;
    None: removed). why: it names ``dest`` already, so it named a task that never was, and
    :func:`has_task` and ``pending_of`` then missed the session's earlier task still waiting (the sweep
    queued another, the worker dropped its kept transcript); the hook logs the error, the next Stop,
    SessionEnd or the sweep queues the session again. A name taken (FileExistsError) is retried."""
    try:
        os.link(tmp, dest)
    except FileExistsError:
        raise
    except OSError:
        try:
            if before is None:
                os.unlink(marker)
            else:
                atomic_write(marker, before, durable=False)
        except OSError:
            pass  # why: the marker still lists the earlier tasks, which the next enqueue replaces
        raise


def _written(path: str, data: bytes) -> None:
    """``data`` in the new file ``path`` (a name no other writer uses, tmp_path_for), on disk before the
    task is linked into the queue. why not atomic_write: the file is linked, then its tmp/ name goes;
    the fsync of tmp/ that atomic_write makes kept nothing a power cut could lose (5 fsyncs a Stop, 2 now)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0), 0o600)
    try:
        try:
            write_all(fd, data)
            os.fsync(fd)
        except OSError as exc:  # why: os.write and os.fsync name no file; a full disk's line in hooks.log does
            raise named(exc, path) from None
    except BaseException:
        os.close(fd)
        try:
            os.unlink(path)
        except OSError:
            pass
        raise
    os.close(fd)


def task_fields(payload: dict, event: str, forced: bool, env: Mapping[str, str] | None = None,
                memory_path: str | None = None) -> dict:
    """A task for the session in ``payload``. ``memory_path``: ``[memory] path`` of the config; None
    reads it from the compiled snapshot (``config.load_fast``)."""
    cwd = str(payload.get("cwd") or os.getcwd())
    if memory_path is None:
        from lazy_harness import config

        memory_path = config.load_fast(env)["memory"]["path"]
    fields = {
        "cwd": cwd,
        "session_jsonl": str(payload.get("transcript_path") or ""),
        "session_id": str(payload.get("session_id") or ""),
        "memory_dir": paths.memory_dir(cwd, env, memory_path or None),
        "event": event,
        "forced": "1" if forced else "0",
    }
    if agent_of(payload) == CODEX:
        fields[AGENT] = CODEX  # why: absent means Claude Code, so every older task reads as it did
    # why: the worker that takes the task may have been started with another CLAUDE_CONFIG_DIR or
    # CODEX_HOME (by a session of the other agent, or of another profile); it trusts this folder too
    # when it is the user's own (worker/task_trust.py, check_trust)
    fields[TRANSCRIPTS] = transcripts_folder(payload, env)
    turn = turn_fingerprint(payload)
    if turn:
        fields[TURN] = turn_digest(turn)  # why: the model's words (a key it quoted) stay out of the task file
    return fields

