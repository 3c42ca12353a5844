"""Whether a spend cap pauses distillation now, as the person is told: ``lh cost``, ``lh queue``,
``lh status``, ``lh doctor`` and the page of ``lh ui`` all ask :func:`pause` (docs/how/cost.md).

The caps alone cannot say it: a cap *nearly* reached pauses the worker before a call that would pass
it, and only the worker knows that call's prompt. Its paused notice (``lazy_harness.notice``) names the
call's estimate; while the notice is current and that call still does not fit, the pause holds."""

from __future__ import annotations

import time

from lazy_harness import notice
from lazy_harness.cost import budget

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from lazy_harness.config.typed import Config


def pause(cfg: Config, now: float, seen: budget.Spend | None = None,
          env: Mapping[str, str] | None = None) -> budget.Verdict:
    """What pauses distillation now (not ``allowed``): a cap the spend has reached, else a cap the
    worker's next call would pass, as its paused notice says while that notice is current and the call
    it names still does not fit (a cap raised since lifts it). Calls running now are no pause."""
    spend = budget.spend(env, now) if seen is None else seen
    verdict = budget.check(cfg, env, now, seen=spend)
    raw = notice.read_raw(env)
    if not verdict.allowed or raw is None or raw[0] != notice.PAUSED or not raw[1] or now >= raw[1]:
        return verdict
    # why the notice's estimate: only the worker knows the next call's prompt; a check of cost 0 said "no pause"
    nearly = budget.check(cfg, env, now, budget.named_estimate(raw[2]), spend)
    return verdict if nearly.allowed or nearly.busy else nearly


def pause_hold(cfg: Config, now: float, seen: budget.Spend | None = None,
               env: Mapping[str, str] | None = None) -> tuple[str, str]:
    """:func:`pause` as why a spend cap holds the queue now and until when, as (reason, "YYYY-MM-DD
    HH:MM"); ("", "") when none does, no time for a cap of 0 (raising it lifts it, not a reset)."""
    verdict = pause(cfg, now, seen, env)
    if verdict.allowed:
        return "", ""
    resets = verdict.daily > 0 and verdict.monthly > 0
    return verdict.reason, time.strftime("%Y-%m-%d %H:%M", time.localtime(verdict.until)) if resets else ""
