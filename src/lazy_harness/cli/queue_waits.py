"""Why a pending task waits, as ``lh queue`` and ``lh status`` say it: its own time and reason (a wait
the worker put it back with), the spend cap that holds the queue, and, for a task no worker took
yet, what the config and the queue's files tell of the worker (:func:`not_taken`)."""

from __future__ import annotations

import time


TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable


def not_before(fields: dict) -> float:
    """When a waiting task may run again (0: whenever a worker takes it; a spend cap's pause has none)."""
    try:
        return float(fields.get("not_before") or 0)
    except ValueError:
        return 0.0


def waiting_reason(fields: dict) -> str:
    """Why a pending task that was taken once went back to wait, and until when ("" otherwise)."""
    why = fields.get("wait_reason", "")
    if not why:
        return ""
    until = not_before(fields)
    # why seconds: a minute cut off said 02:58 for a task that runs at 02:58:59
    when = f", not before {time.strftime('%H:%M:%S', time.localtime(until))}" if until > time.time() else ""
    return f"waiting{when}: {why}"


REASON_CHARS = 200  # why: every spend cap's reason (budget._why_not) fits whole, with its hint


def clipped(text: str, tid: str, limit: int = REASON_CHARS) -> str:
    """``text`` whole when it fits in ``limit`` characters; else cut after a whole word, with an
    ellipsis and the command that shows it whole."""
    if len(text) <= limit:
        return text
    head = text[:limit + 1]
    cut = head.rsplit(" ", 1)[0] if " " in head.strip() else text[:limit]
    return cut.rstrip(" ;,:") + f"… (lh queue show {tid})"


def _cap_now() -> tuple[str, str]:
    """``cost.paused.pause_hold`` now, with the config as ``lh cost`` reads it (its defaults when it is broken):
    why a spend cap holds the queue and until when, the worker's pause notice checked again against the
    cap now (a raised cap or a new day lifts it); ("", "") when none does."""
    from lazy_harness.cli.cost import load_config
    from lazy_harness.cost.paused import pause_hold

    return pause_hold(load_config(), time.time())


CAP_LIFTED = "waiting: the spend cap that paused it no longer holds; the next worker takes it"


def pending_reason(fields: dict, cap: Callable[[], tuple[str, str]]) -> str:
    """Why a pending task waits: its own time while still to come (:func:`waiting_reason`), else the
    spend cap that holds the queue now (``cap``: :func:`_cap_now`, asked only here; the task's own
    reason when a cap paused it), else its own reason unless that names a cap which no longer holds
    (it paused the task, then was raised or reset)."""
    from lazy_harness.cost import budget

    own = fields.get("wait_reason", "")
    if not_before(fields) <= time.time():
        reason, until = cap()
        if reason:
            reason = own if budget.cap_reason(own) else reason  # as lh status says it (cli/status.py)
            return f"waiting until {until}: {reason}" if until else f"waiting: {reason}"
        # why not the budget guard's stop: it says what ended one call (its own reason, shown as it
        # was), not a cap the person raised or that reset since
        if budget.cap_reason(own) and not own.startswith("the budget guard stopped"):
            return CAP_LIFTED
    return waiting_reason(fields)


class PendingWhy:
    """Why a pending task waits (:func:`pending_reason`), else why no worker took it yet
    (:func:`not_taken`); what the queue as a whole says is read once, at the first task that asks."""

    def __init__(self, q: str) -> None:
        self.q = q
        self._cap: tuple[str, str] | None = None
        self._untaken: str | None = None

    def cap(self) -> tuple[str, str]:  # why once: it reads the config, the ledger and the notice
        if self._cap is None:
            self._cap = _cap_now()
        return self._cap

    def __call__(self, fields: dict) -> str:
        own = pending_reason(fields, self.cap)
        if own:
            return own
        if self._untaken is None:
            self._untaken = not_taken(self.q)
        return self._untaken


NEXT_WORKER = "a session's start or end starts one, or lh worker run --once"
PAUSED_CONFIG = "paused: config.toml is invalid, nothing is distilled until it is fixed (lh config validate)"
PAUSED_STORAGE = ("waiting: memory writing is paused (no space left, or an I/O error, where lazy-harness keeps its "
                  "data); the tasks run by themselves once a write works")


def not_taken(q: str) -> str:
    """Why no worker took a pending task yet, as the config and the queue's files say it now: the
    distillation paused (an invalid config.toml, memory writing paused for room), a worker holding the
    queue (it takes the tasks in turn), the last worker dead while it held the queue, or no worker at
    all (``queue.consume.holder``, which ``lh hooks status`` reads too)."""
    from lazy_harness import config, notice
    from lazy_harness.queue.consume import holder

    if config.invalid(config.load_fast()):
        return PAUSED_CONFIG
    if notice.storage_waiting():
        return PAUSED_STORAGE
    running, pid, _ = holder(q)
    if running:
        who = f"the worker (pid {pid})" if pid else "a worker"
        return f"queued: {who} holds the queue and takes its tasks in turn"
    if pid:
        return f"no worker is running: the last one (pid {pid}) died holding the queue; {NEXT_WORKER}"
    return f"no worker is running: {NEXT_WORKER}"
