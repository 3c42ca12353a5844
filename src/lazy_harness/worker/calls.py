"""The guarded model call: cap check, ``--max-budget-usd``, ledger, fail fast (ADR 0013).

For each attempt: check the spend so far plus an estimate against the caps and mark the call open,
in one step under the spend lock (cost/budget.py); call with what is left as ``--max-budget-usd``;
append the call to the ledger, whatever its outcome, then remove its marker.
The call goes to ``claude -p`` (worker/llm.py) or ``codex exec`` (worker/codex_distill.py) as
``[worker] distiller`` chooses (ADR 0044); both fail with the same causes and actions.
What a failure leads to (llm.classify):
- claude not found or cannot start: the task fails at once, with the install hint;
- API unreachable, authentication refused, the account's usage limit or balance spent, Codex unable
  to load its config.toml, no answer in time: one attempt, then :class:`Wait` (the task goes back to
  the queue and is retried minutes later, or at the limit's reset; other tasks go on; a task whose
  call timed out ``compound_loop.max_attempts`` times fails instead: worker/one_task.py);
- a cap reached, or the budget guard stopped the call: :class:`Wait` with ``paused`` (the queue
  stops draining until the cap resets or is raised);
- another call running now holds what is left under a cap: :class:`Wait` (the task is tried
  again minutes later, once that call has ended; nothing pauses);
- overloaded, a claude killed by a signal, exit codes without a known cause, an unreadable answer:
  retried now with a short doubling backoff, up to ``compound_loop.max_attempts``; then the task
  fails, except when the last attempt was overloaded or rate-limited (429, 529): that refusal is
  billed nothing and an incident passes, so the task waits as an unreachable API's does.
A failed call is charged what it reported; a timeout, or a process killed by a signal, that reported
nothing is charged its estimate (it read the prompt), and so is a call that answered without a cost.
The person sees a paused or failing state through :mod:`lazy_harness.notice`: paused by any call that
meets a cap, failing only by a failed distillation (:data:`DISTILL`).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from lazy_harness import notice, paths
from lazy_harness.atomic import ensure_dir
from lazy_harness.errors import LhError

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any

    from lazy_harness.config.typed import Config
    from lazy_harness.memory.shapes import Env
    from lazy_harness.cost.markers import OpenCall
    from lazy_harness.worker.llm import Call, CallError, Usage


class Wait(LhError):
    """The task must wait in the queue: ``paused`` for a spend cap, else retried minutes later."""

    def __init__(self, message: str, paused: bool) -> None:
        super().__init__(message)
        self.paused = paused


# why only this kind: a failing notice says "distillation failing" and sends the person to the queue's
# failed tasks. The model check's failure fails no task (it holds nothing: one worker.log line), and
# consolidation's fails none either (it is tried at a later drain; worker.log and lh memory consolidate
# say it); a notice from them would point at tasks that are fine and stay until a later call clears it.
DISTILL = "distill"


def cap_reached(cfg: Config, env: Env | None, now: float) -> str | None:
    """Why the queue is paused (a cap already reached), or None. Keeps the person's notice current."""
    from lazy_harness.cost import budget

    verdict = budget.check(cfg, env, now)
    if verdict.allowed:
        notice.clear(env, notice.PAUSED)
        return None
    notice.write(notice.PAUSED, notice.PAUSED_SAID + verdict.reason + notice.PAUSED_HINT, verdict.until, env)
    return verdict.reason


def run_model(prompt: str, cfg: Config, env: Env | None, meta: dict, sleep: Callable[[float], object] = time.sleep,
              log: Callable[[str], object] | None = None, clock: Callable[[], float] = time.time,
              schema: Mapping[str, Any] | None = None, kind: str = DISTILL,
              max_usd: float | None = None) -> tuple[dict, int]:
    """The answer of one guarded model call and the attempts it took (``kind`` and ``schema``: the
    job, e.g. consolidation, whose answer has its own shape; its cost lands in the ledger as ``kind``;
    ``max_usd``: a smaller ``--max-budget-usd`` than what is left under the cap). Only a failed
    distillation (``kind`` ``distill``) writes the person's failing notice; a spend cap's paused notice
    is written whatever the kind (the cap pauses distillation too).

    Raises :class:`Wait` (the task waits) or ModelError (the task fails) with the real cause.
    """
    from lazy_harness.cost import budget
    from lazy_harness.worker import codex_distill, llm

    loop = cfg["compound_loop"]
    ask = codex_distill.call if codex_distill.chosen(cfg, env) == "codex" else llm.call
    priced_as, prices = guessed_at(cfg, env)
    attempts = max(1, int(loop["max_attempts"]))
    delay = float(loop.get("retry_backoff_seconds", 2))
    workdir = ensure_dir(paths.neutral_dir(env))
    last: llm.CallError | None = None
    for attempt in range(1, attempts + 1):
        now = clock()
        estimate = budget.estimate(len(prompt), env, now, priced_as, prices)
        verdict, opened = budget.open_call(cfg, env, now, estimate, meta, len(prompt), kind, max_usd)
        if opened is None:
            if verdict.busy:  # why: another call holds what is left; it ends within its timeout
                raise Wait(verdict.reason, paused=False)
            notice.write(notice.PAUSED, notice.PAUSED_SAID + verdict.reason + notice.PAUSED_HINT,
                         verdict.until, env)
            raise Wait(verdict.reason, paused=True)
        try:
            result = _attempt(lambda limit: ask(prompt, cfg, env, workdir, max_budget_usd=limit, schema=schema),
                              opened, min(estimate, opened.budget), meta, env, clock)
        except llm.CallError as exc:
            _failed(exc, _numbered(exc, attempt, meta, env, kind), attempts, opened.budget, env, log, kind)
            last = exc
            if attempt < attempts:
                sleep(delay)
                delay *= 2
            continue
        notice.clear(env)
        return result.answer, attempt
    assert last is not None
    if last.cause == "overloaded":  # why: refused before any work, billed nothing; an incident passes
        if kind == DISTILL:
            notice.write(notice.FAILING, f"lazy-harness: distillation failing, {_first_clause(last.message)}"
                         f" ({notice.SEE_DOCTOR})", 0.0, env)
        raise Wait(str(last), paused=False) from None
    if kind == DISTILL:
        notice.write(notice.FAILING, f"lazy-harness: distillation failing, {_first_clause(last.message)} "
                     f"(lh queue; lh queue retry --failed)", 0.0, env)
    last.attempts = attempts  # type: ignore[attr-defined]
    raise last


def _attempt(ask: Callable[[float], Call], opened: OpenCall, estimate: float, meta: dict, env: Env | None,
             clock: Callable[[], float]) -> Call:
    """One call under its open marker: its ledger line whatever the outcome, then the marker goes.
    A line that could not be written leaves the marker, settled later like a killed call's."""
    from lazy_harness.cost import ledger
    from lazy_harness.worker import llm

    chars, kind, written = opened.prompt_chars, opened.kind, False
    try:
        try:
            result = ask(opened.budget)
        except llm.CallError as exc:
            _named(exc)
            if exc.cause not in ("not_found", "cannot_start"):
                ledger.record(_charged(exc, estimate), meta, exc.cause, chars, env, clock(), kind, opened.call)
            written = True
            raise
        except BaseException:
            # why: SIGTERM (loop.py) or Ctrl-C: proc.run has killed claude's group; it read the prompt
            ledger.record(_interrupted(estimate), meta, "interrupted", chars, env, clock(), kind, opened.call)
            written = True
            raise
        ledger.record(_answered(result.usage, estimate), meta, "ok", chars, env, clock(), kind, opened.call)
        written = True
        return result
    finally:
        opened.close(remove=written)


def guessed_at(cfg: Config, env: Mapping[str, str] | None) -> tuple[str | None, tuple[float, float] | None]:
    """``budget.estimate``'s model and prices for a call of the distiller ``cfg`` chooses: the model
    its ledger line will name (the ledger's calls at its price are what it is estimated by), and with
    no such history it is guessed at the price it will be charged, the claude model's, or the prices
    a codex call's ledger line uses."""
    from lazy_harness.worker import codex_distill

    if codex_distill.chosen(cfg, env) == "codex":
        # why usage_of: the model name a codex call's line carries is decided there, once
        return codex_distill.usage_of([], cfg).model, codex_distill.prices(cfg)[0]
    return str(cfg["compound_loop"].get("model") or "") or None, None


def _numbered(exc: CallError, attempt: int, meta: Mapping[str, object], env: Env | None, kind: str) -> int:
    """The number worker.log gives a failed call: its attempt in this run, but for a distillation's
    call that timed out, the task's count of timed-out calls with this one (its claim's ``timeouts``):
    such a call makes the task wait after one attempt, and the task fails at its
    ``compound_loop.max_attempts``-th timeout (worker/one_task.py)."""
    tid = str(meta.get("task_id") or "")
    if exc.cause != "timeout" or kind != DISTILL or not tid:
        return attempt
    import os

    from lazy_harness import queue

    claim = os.path.join(queue.folder(paths.queue_dir(env), queue.PROCESSING), tid + queue.SUFFIX)
    try:
        before = queue.read_task(claim).get("timeouts", "")
    except OSError:
        return attempt  # why: no claim of that task (lh distill); the run's own count
    return int(before) + 1 if before.isdigit() else attempt


def _failed(exc: CallError, attempt: int, attempts: int, limit: float, env: Env | None,
            log: Callable[[str], object] | None, kind: str = DISTILL) -> None:
    """What a failed attempt leads to: raises :class:`Wait` or the error, or returns to retry. Only a
    distillation's failure is told to the person (:data:`DISTILL`). ``attempt`` is the number logged
    (:func:`_numbered`)."""
    from lazy_harness.cost import budget
    from lazy_harness.worker import llm

    if log:
        log(f"model call {attempt}/{attempts} failed ({exc.cause}): {exc.message}")
    if exc.action == llm.CAP:
        raise Wait(f"the budget guard stopped the call at {budget.money(limit)}: "
                   f"{exc.message}", paused=True) from None
    if exc.action in (llm.FAIL, llm.WAIT) and kind == DISTILL:
        notice.write(notice.FAILING, f"lazy-harness: distillation failing, {_first_clause(exc.message)}"
                     f" ({notice.SEE_DOCTOR})", 0.0, env)
    if exc.action == llm.FAIL:
        exc.attempts = attempt  # type: ignore[attr-defined]
        raise exc
    if exc.action == llm.WAIT:
        raise Wait(str(exc), paused=False) from None


def _answered(usage: Usage, estimate: float) -> Usage:
    """What an answered call is counted at: what the CLI reported (or a codex call's tokens came to);
    when it said nothing of its cost, its estimate. why: it read the prompt and answered, so it cost
    money; at $0 the caps never moved, whatever the number of such calls."""
    from dataclasses import replace

    if usage.reported or getattr(usage, "priced_usd", None) is not None or usage.cost_usd > 0:
        return usage
    return replace(usage, cost_usd=estimate, reported=False)


def _interrupted(estimate: float) -> Usage:
    """A call stopped by a signal: counted at its estimate, like one stopped at its timeout."""
    from lazy_harness.worker.llm import Usage

    return Usage(cost_usd=estimate, reported=False)


def _named(exc: CallError) -> None:
    """A failure of a known cause whose message does not say it yet (``codex exec`` says "model call
    failed" for every cause) starts with the cause's words, as claude's do: worker.log, the task's
    reason and the notice name it, and the worker reads the cause back from the reason (llm.cause_said)."""
    from lazy_harness.worker import llm

    said = llm.SAID.get(exc.cause)
    if said and exc.message.startswith(llm.UNNAMED):
        exc.message = said + exc.message[len(llm.UNNAMED):]


def _charged(exc: CallError, estimate: float) -> Usage:
    """What a failed call is counted at: what the CLI reported; for a call stopped at its timeout or
    killed by a signal (the OOM killer, kill -9), which read the prompt and said nothing of its cost,
    its estimate (at $0 the caps never moved, and a task that always timed out spent without limit)."""
    from dataclasses import replace

    usage = exc.usage
    estimated = exc.cause in ("timeout", "killed") and not usage.reported
    return replace(usage, cost_usd=estimate) if estimated else usage


def _first_clause(message: str) -> str:
    """The cause without the command line and stderr that follow it: ``the API is unreachable (API
    Error: ...)`` of ``llm.call``'s ``<cause> (<what claude said>; stderr: ...; `claude -p ...` exited 1)``."""
    head = message.split(": `", 1)[0]
    cuts = [at for at in (head.find("; stderr: "), head.find("; `")) if at >= 0]
    if cuts and head.endswith(")"):
        head = head[:min(cuts)] + ")"
    return head if len(head) <= 160 else head[:157] + "..."
