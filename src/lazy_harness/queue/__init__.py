"""The spool between hooks and worker, Maildir-style. Hot path: only ``os``, ``time``, ``fcntl``.

    queue/<unix_ns>-<short_id>.task   pending (the rename into this folder is the enqueue)
    queue/tmp/                        tasks being written
    queue/processing/                 claimed by the worker
    queue/done/  queue/failed/        finished (failed/ also holds <name>.error)
    queue/state/<session>.pending     newest pending task of a session, when it was queued, and the
                                      tasks it replaces not yet removed (queue/produce.py)
    queue/state/<session>.done        transcript mtime when the session was last checked, and how
                                      that check ended: distilled, skipped (too short, empty...) or error
    queue/state/<session>.lock        serialises enqueues of one session
    queue/state/<session>.distilling  serialises distillations of one session (worker/cursor.py)
    queue/state/<session>.lineage     the sessions a fork was forked from (memory/lineage.py)
    queue/state/open/<session>        a session the sweep still watches: its transcript and cwd
    queue/state/.sweep                the sweep's throttle stamp (mtime) and rotation cursor
    queue/.worker.lock                the worker's single-instance lock (never deleted)

Gates read only the small state files of one session, so they cost the same with any history.
The sweep (``queue.sweep``) finds sessions that grew, went idle and were never checked since: a
session killed without SessionEnd, or whose last Stops were gated. See docs/adr/0010.

The package, by what each part does (the names in ``__all__`` are read from here, ``queue.X``;
``submit`` and ``sweep`` are imported as modules, only where they are used):

    task.py      the folders, task names and the key=value task format
    state.py     per-session state files and the Stop hook's gates
    turn.py      the digest of the turn a task waits for
    produce.py   the producer side: a session's task, enqueued atomically
    submit.py    the producers' whole step: enqueue, then start a worker detached (hooks, handoff-now)
    consume.py   the consumer side: the worker lock, claim, finish, recover
    probe.py     what hooks ask of it: whether tasks wait for a worker, whether distillation is failing
    sweep.py     sessions still watched, queued once they went idle unchecked
"""

# WORKER_MARKER: the worker sets it in the environment of its own ``claude -p`` call, and the hooks
# that call fires see it and do nothing (defined in the package root: a hook reads it without the queue)
from lazy_harness import WORKER_MARKER
from lazy_harness.queue.task import (
    AGAIN, DONE, FAILED, LOCK_NAME, OPEN, PENDING, PROCESSING, STATE, SUFFIX, TMP, ensure_layout, folder, format_task,
    iso_now, parse_task, queued_at, read_task, task_id)


TYPE_CHECKING = False
if TYPE_CHECKING:  # what __getattr__ below hands out, for mypy
    from lazy_harness.queue.consume import (
        MAX_INTERRUPTIONS, STOPPED, acquire_worker_lock, claim, finish, pending, recover, release_worker_lock)
    from lazy_harness.queue.probe import distill_trouble, needs_worker
    from lazy_harness.queue.produce import REQUIRED, enqueue, task_fields
    from lazy_harness.queue.state import (
        DISTILLED, ERROR, SKIPPED, gate, has_task, last_check, last_done_mtime, mark_done, pending_of, read_state,
        state_file)
    from lazy_harness.queue.turn import (
        TURN, TURN_CHARS, TURN_DIGEST, is_turn_digest, turn_digest, turn_fingerprint, turn_start)

# why read on first use: each side needs its own part (the producer and the turn digest for the Stop
# and SessionEnd hooks, the state files for the gates and the worker, the consumer for the worker);
# the prompt hook and SessionStart only name a folder or a task, and each module imported costs a
# hook's start about 0.1 to 0.2 ms (benchmarks/bench_session_start.py, bench_user_prompt.py)
_LAZY = {
    **dict.fromkeys(("MAX_INTERRUPTIONS", "STOPPED", "acquire_worker_lock", "claim", "finish", "pending", "recover",
                     "release_worker_lock"), "consume"),
    **dict.fromkeys(("distill_trouble", "needs_worker"), "probe"),
    **dict.fromkeys(("REQUIRED", "enqueue", "task_fields"), "produce"),
    **dict.fromkeys(("DISTILLED", "ERROR", "SKIPPED", "gate", "has_task", "last_check", "last_done_mtime",
                     "mark_done", "pending_of", "read_state", "state_file"), "state"),
    **dict.fromkeys(("TURN", "TURN_CHARS", "TURN_DIGEST", "is_turn_digest", "turn_digest", "turn_fingerprint",
                     "turn_start"), "turn"),
}


def __getattr__(name: str) -> object:
    part = _LAZY.get(name)
    if part is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import sys

    __import__(f"{__name__}.{part}")
    return getattr(sys.modules[f"{__name__}.{part}"], name)

__all__ = [
    "AGAIN", "DISTILLED", "DONE", "ERROR", "FAILED", "LOCK_NAME", "MAX_INTERRUPTIONS", "OPEN", "PENDING", "PROCESSING",
    "REQUIRED", "SKIPPED", "STATE", "STOPPED", "SUFFIX", "TMP", "TURN", "TURN_CHARS", "TURN_DIGEST", "WORKER_MARKER",
    "acquire_worker_lock", "claim", "distill_trouble", "enqueue", "ensure_layout", "finish", "folder", "format_task",
    "gate", "has_task", "is_turn_digest", "iso_now", "last_check", "last_done_mtime", "mark_done", "needs_worker",
    "parse_task", "pending", "pending_of", "read_state", "read_task", "recover", "release_worker_lock", "state_file",
    "queued_at", "task_fields", "task_id", "turn_digest", "turn_fingerprint", "turn_start",
]
