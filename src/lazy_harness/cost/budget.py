"""The spend cap: ``[budget] daily_usd`` and ``monthly_usd`` against the ledger (ADR 0013).

Before each model call the worker asks :func:`check` with an estimate of the call. The call runs
only when the estimate fits in what is left of both caps; it then gets ``--max-budget-usd`` with
what is left, so claude itself stops a call that runs over. Spend can pass a cap by at most the
overshoot of that one call; two processes calling at once (the worker and ``lh distill``) each get
what is left, so by up to the rest of the cap per process running at once. Days and months are the
person's local calendar.

When a cap is reached the queue pauses: tasks stay pending (not failed, not dropped) and the
worker stops draining until the next day or month, or until the cap is raised in config.toml
(the next worker started by a hook checks again).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from lazy_harness.cost import ledger

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from lazy_harness.config.typed import Config

# why: without history, price a prompt character like claude-haiku-4-5 input with its cache write
# ($1.25 per million tokens, ~3.5 characters a token) plus a fixed share for the CLI's own system
# prompt and a 2,000-token answer ($5 per million); the ledger's own average replaces it at once
FALLBACK_PER_CHAR = 1.25e-6 / 3.5
FALLBACK_FIXED = 0.02


@dataclass
class Verdict:
    allowed: bool
    remaining: float  # dollars left under the tighter cap (never negative)
    spent_today: float
    spent_month: float
    daily: float
    monthly: float
    estimate: float = 0.0
    reason: str = ""  # why the call waits
    until: float = 0.0  # when the cap that stops it resets


def caps(cfg: Config) -> tuple[float, float]:
    section = cfg["budget"]
    return float(section["daily_usd"]), float(section["monthly_usd"])


def _midnight(now: float, day: int, month_offset: int = 0) -> float:
    """Local midnight of ``day`` of the month ``month_offset`` months from ``now``'s. Where midnight
    happens twice (a DST end at 01:00 -> 00:00), mktime's guess (isdst -1) hung on its earlier calls:
    take the earlier of both readings, which is the day's first moment."""
    lt = time.localtime(now)
    fields = (lt.tm_year, lt.tm_mon + month_offset, day, 0, 0, 0, 0, 0)
    both = [time.mktime((*fields, dst)) for dst in (0, 1)]
    same = [t for t in both if time.localtime(t)[:3] == time.localtime(time.mktime((*fields, -1)))[:3]]
    return min(same) if same else time.mktime((*fields, -1))


def day_start(now: float) -> float:
    return _midnight(now, time.localtime(now).tm_mday)


def next_day(now: float) -> float:
    return _midnight(now, time.localtime(now).tm_mday + 1)


def month_start(now: float) -> float:
    return _midnight(now, 1)


def next_month(now: float) -> float:
    return _midnight(now, 1, 1)


def spent(env: Mapping[str, str] | None, now: float) -> tuple[float, float]:
    """(today, this month) in dollars, from the ledger. A line dated after today (a clock that was
    ahead, a hand edit) is not today's spend: it would pause distillation until its date."""
    entries = ledger.read_since(min(day_start(now), month_start(now)), env)
    return (ledger.total(entries, day_start(now), next_day(now)),
            ledger.total(entries, month_start(now), next_month(now)))


def estimate(prompt_chars: int, env: Mapping[str, str] | None = None, now: float | None = None) -> float:
    """A call's likely cost: the ledger's recent dollars per prompt character, else a fallback price."""
    per_char = ledger.cost_per_char(env, now=now)
    if per_char is None:
        return FALLBACK_FIXED + prompt_chars * FALLBACK_PER_CHAR
    return prompt_chars * per_char


def money(value: float) -> str:
    """Dollars for people: cents, or four places for amounts under a cent."""
    if value == 0 or abs(value) >= 0.01:
        return f"${value:.2f}"
    return f"${value:.4f}".rstrip("0")


def check(cfg: Config, env: Mapping[str, str] | None, now: float, cost: float = 0.0) -> Verdict:
    """May a call estimated at ``cost`` run now? ``cost`` 0 asks whether any cap is already reached."""
    daily, monthly = caps(cfg)
    today, month = spent(env, now)
    left_day, left_month = daily - today, monthly - month
    v = Verdict(True, max(0.0, min(left_day, left_month)), today, month, daily, monthly, cost)
    for left, cap, spent_now, word in ((left_month, monthly, month, "monthly"), (left_day, daily, today, "daily")):
        if left <= 0 or cost > left:
            v.allowed = False
            v.until = next_month(now) if word == "monthly" else next_day(now)
            v.reason = _why_not(word, cap, spent_now, cost, left)
            break  # why: the monthly cap outlasts the daily one, so it is the one to name
    return v


def _why_not(word: str, cap: float, spent_now: float, cost: float, left: float) -> str:
    """Why the ``word`` cap stops a call estimated at ``cost``, and what would let it run."""
    if cap <= 0:
        return (f"{word} cap is 0 ([budget] {word}_usd = 0): model calls are switched off; "
                f"raise [budget] {word}_usd to distil")
    if cost > cap:
        # why: waiting for the cap to reset cannot help a call that never fits in it
        return (f"one call's estimate ~{money(cost)} is more than the whole {word} cap {money(cap)}: "
                f"it never fits; raise [budget] {word}_usd or lower compound_loop.prompt_max_chars")
    reached = "reached" if left <= 0 else f"nearly reached (next call ~{money(cost)})"
    return (f"{word} cap {money(cap)} {reached}: spent {money(spent_now)}; "
            f"resumes {'tomorrow' if word == 'daily' else 'next month'} or when [budget] {word}_usd is raised")
