"""The spend cap: ``[budget] daily_usd`` and ``monthly_usd`` against the ledger (ADR 0013).

Before each model call the worker asks :func:`open_call` with an estimate of the call. The call runs
only when the estimate fits in what is left of both caps; it then gets ``--max-budget-usd`` with
what is left, so claude itself stops a call that runs over. Days and months are the person's local
calendar.

Open calls: the check and a marker of the call (``cost.markers``: pid, start, the budget it was
given) are one step under the spend lock, and every check counts the open calls at their budget. The
spend folder (``paths.spend_dir``) is the ledger's, not a Claude Code profile's: every spender of one
ledger shares it. So a second spender (the worker and ``lh distill``, two ``lh distill``, the workers
of two profiles) never gets what the first was given: while a call holds what is left, the second
one waits for it (:attr:`Verdict.busy`), it does not pause. A killed call's marker is settled by the
next :func:`open_call` into one ledger line at its estimate, at most its budget, once; until then
every reader counts it so too. Spend can pass a cap by at most what claude spends beyond the budget
it was given, plus what a killed call's claude spent beyond its estimate.

When a cap is reached the queue pauses: tasks stay pending (not failed, not dropped) and the
worker stops draining until the next day or month, or until the cap is raised in config.toml
(the next worker started by a hook checks again).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field

from lazy_harness import paths, private
from lazy_harness.atomic import lock
from lazy_harness.cost import ledger, markers, own

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from lazy_harness.config.typed import Config

# Without history a call is priced by the configured model: its prompt characters as input with the
# cache write (1.25 times the input price, ~3.5 characters a token), plus a fixed share for the CLI's
# own system prompt (~8,000 tokens, also written to the cache) and a 2,000-token answer. The ledger's
# own average over calls made at the same price (:func:`alike`) replaces the guess at once.
# Dollars per million tokens (input, output) by the model's name: the first entry the name holds wins.
PRICES = (("opus-4-5", 5.0, 25.0), ("opus", 15.0, 75.0), ("sonnet", 3.0, 15.0), ("haiku", 1.0, 5.0))
# why the dearest: a model not in the table is priced high, so a cap stops early rather than late
UNKNOWN_PRICE = (15.0, 75.0)
DEFAULT_MODEL = "claude-haiku-4-5"  # compound_loop.model's default
CHARS_PER_TOKEN = 3.5
CACHE_WRITE = 1.25
SYSTEM_TOKENS = 8000
ANSWER_TOKENS = 2000
# the guess for claude-haiku-4-5
FALLBACK_PER_CHAR = 1.25e-6 / 3.5
FALLBACK_FIXED = 0.02
# A backfill leaves this share of [budget] daily_usd (or one session's estimate, when that is more) for
# the day's own sessions: lh backfill queues only what fits under the rest, and the worker takes a
# Backfill task only while its estimate fits under it (docs/how/cost.md, Backfill)
KEPT_SHARE = 0.25
BUSY = "another model call"  # how a busy verdict's reason starts (lh distill waits on it)


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
    held: float = 0.0  # what calls running now were given (not in ``spent_*``, not in ``remaining``)
    busy: bool = False  # not allowed only because running calls hold what is left: wait for them


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


@dataclass
class Spend:
    """Today's and this month's spend: the ledger plus killed calls not yet settled (at their
    budget), and what the calls running now were given."""

    today: float
    month: float
    held: float
    running: list[markers.OpenCall] = field(default_factory=list)
    killed: list[markers.OpenCall] = field(default_factory=list)  # not yet settled into the ledger


def spend(env: Mapping[str, str] | None, now: float, read: Callable[..., list[dict]] | None = None) -> Spend:
    """The spend the caps see. A line dated after today (a clock that was ahead, a hand edit) is not
    today's spend: it would pause distillation until its date. A running call counts now (its line
    will be dated when it ends); a killed one where it started. ``read``: what reads the ledger's lines
    since a time, as ``ledger.read_since`` (a ``snapshot.Snapshot``'s ``since``: a command's one read)."""
    # why the markers first: a call that ends between the two reads is then in the ledger
    calls = markers.open_calls(env)
    since = min(day_start(now), month_start(now))
    # why mine: the ledger is synced; another machine's lines, or a remote's, never pause this one (ADR 0065)
    entries = (ledger.read_since(since, env, mine=True, light=True) if read is None
               else read(since, mine=True, light=True))
    settled = {ledger.call_of(e) for e in entries} - {None}
    calls = [c for c in calls if c.call not in settled]
    killed = [c for c in calls if not c.live]
    lines = entries + [{"ts": c.started, "total_cost_usd": c.counted} for c in killed]
    running = [c for c in calls if c.live]
    today = ledger.total(lines, day_start(now), next_day(now))
    return Spend(today, ledger.total(lines, month_start(now), next_month(now)),
                 sum(c.budget for c in running), running, killed)


def spent(env: Mapping[str, str] | None, now: float) -> tuple[float, float]:
    """(today, this month) in dollars, killed calls not yet settled included."""
    s = spend(env, now)
    return s.today, s.month


def _row(model: object) -> str:
    """The part of the :data:`PRICES` row that prices ``model`` (the default model's when None or
    ""), or the name itself when no row does."""
    name = str(model or DEFAULT_MODEL).lower()
    return next((part for part, _, _ in PRICES if part in name), name)


def price(model: str | None) -> tuple[float, float]:
    """Dollars per million tokens (input, output) of ``model`` (:data:`PRICES`)."""
    return {part: (per_in, per_out) for part, per_in, per_out in PRICES}.get(_row(model), UNKNOWN_PRICE)


def alike(model: str | None = None, prices: tuple[float, float] | None = None) -> Callable[[object], bool]:
    """Whether a ledger line's ``model`` was priced as a call of ``model`` is. With ``prices`` (a codex
    call: priced by config, not by name) the lines naming the same model (of which
    ``ledger.cost_per_char`` keeps the lines priced at ``prices``); else a claude model's row of
    :data:`PRICES` (an alias and the dated name claude reports share one), or, for a name the table
    does not hold, the same name."""
    if prices is not None:
        return lambda name: isinstance(name, str) and name == model
    row = _row(model)
    return lambda name: isinstance(name, str) and _row(name) == row


def guess(prompt_chars: int, model: str | None = None, prices: tuple[float, float] | None = None) -> float:
    """A call's likely cost with no history in the ledger, at ``prices`` (dollars per million tokens,
    input and output) when given, else at ``model``'s price."""
    per_in, per_out = prices or price(model)
    per_char = per_in * CACHE_WRITE / 1e6 / CHARS_PER_TOKEN
    return (SYSTEM_TOKENS * per_in * CACHE_WRITE + ANSWER_TOKENS * per_out) / 1e6 + prompt_chars * per_char


def estimate(prompt_chars: int, env: Mapping[str, str] | None = None, now: float | None = None,
             model: str | None = None, prices: tuple[float, float] | None = None) -> float:
    """A call's likely cost: the recent dollars per prompt character of the ledger's calls made at its
    price (:func:`alike`), else :func:`guess` at ``prices``, else at ``model``'s price
    (claude-haiku-4-5's when None). ``model`` is the name the call's ledger line will carry
    (worker/calls.py ``guessed_at``)."""
    per_char = ledger.cost_per_char(env, now=now, alike=alike(model, prices), prices=prices)
    if per_char is None:
        return guess(prompt_chars, model, prices)
    return prompt_chars * per_char


def guessed(env: Mapping[str, str] | None = None, now: float | None = None, model: str | None = None,
            prices: tuple[float, float] | None = None) -> bool:
    """Whether :func:`estimate` guesses now: no call in the ledger at that price to price it by."""
    return ledger.cost_per_char(env, now=now, alike=alike(model, prices), prices=prices) is None


def kept_for_today(daily: float, session_estimate: float) -> float:
    """What a backfill leaves for today's own sessions: :data:`KEPT_SHARE` of the daily cap, or one
    session's estimate when that is more."""
    return max(KEPT_SHARE * daily, session_estimate)


def backfill_waits(cfg: Config, env: Mapping[str, str] | None, now: float, cost: float) -> str:
    """Why a backfilled session estimated at ``cost`` waits ("" when it may run): what is left under
    the caps, less the share kept for today's sessions, must hold it."""
    v = check(cfg, env, now)
    kept = kept_for_today(v.daily, cost)
    if cost <= v.remaining - kept:
        return ""
    word = "monthly" if v.monthly - v.spent_month <= v.daily - v.spent_today else "daily"
    when = "next month" if word == "monthly" else "tomorrow"
    cap = v.monthly if word == "monthly" else v.daily
    return (f"backfill waits: what is left of the {word} cap {money(cap)} is kept for today's sessions "
            f"(at least {money(kept)}); resumes {when} or when [budget] {word}_usd is raised")


def money(value: float) -> str:
    """Dollars for people: cents, or four places for amounts under a cent."""
    if value == 0 or abs(value) >= 0.01:
        return f"${value:.2f}"
    return f"${value:.4f}".rstrip("0")


def check(cfg: Config, env: Mapping[str, str] | None, now: float, cost: float = 0.0,
          seen: Spend | None = None) -> Verdict:
    """May a call estimated at ``cost`` run now? ``cost`` 0 asks whether any cap is already reached
    (calls running now are no pause). A call that fits under the caps but not beside the running
    calls is ``busy``: it waits for them."""
    daily, monthly = caps(cfg)
    s = spend(env, now) if seen is None else seen
    left_day, left_month = daily - s.today, monthly - s.month
    v = Verdict(True, max(0.0, min(left_day, left_month) - s.held), s.today, s.month, daily, monthly, cost,
                held=s.held)
    for left, cap, spent_now, word in ((left_month, monthly, s.month, "monthly"), (left_day, daily, s.today, "daily")):
        if left <= 0 or cost > left:
            v.allowed = False
            v.until = next_month(now) if word == "monthly" else next_day(now)
            v.reason = _why_not(word, cap, spent_now, cost, left)
            break  # why: the monthly cap outlasts the daily one, so it is the one to name
    else:
        if s.running and cost > v.remaining:
            _busy(v, s.running, "today's" if left_day <= left_month else "this month's")
    return v


def _busy(v: Verdict, running: list[markers.OpenCall], which: str) -> None:
    holder = max(running, key=lambda c: c.budget)
    v.allowed, v.busy = False, True
    v.reason = f"{BUSY} (pid {holder.pid}, {holder.who}) holds what is left of {which} budget"


# How a task's wait reason starts when a spend cap paused it: :func:`_why_not`'s reasons, and the budget
# guard's stop of a call (worker/calls.py)
CAP_REASONS = ("daily cap ", "monthly cap ", "one call's estimate ", "the budget guard stopped the call")


def cap_reason(reason: str) -> bool:
    """Whether a task's ``wait_reason`` says a spend cap paused it."""
    return reason.startswith(CAP_REASONS)


def busy_pid(reason: str) -> int | None:
    """The pid of the running call a busy reason (:func:`_busy`) names, None when it is not one."""
    head = f"{BUSY} (pid "
    if not reason.startswith(head):
        return None
    digits = reason[len(head):].split(",", 1)[0]
    return int(digits) if digits.isdigit() else None


def named_estimate(reason: str) -> float:
    """The most the next call's estimate a reason of :func:`_why_not` names (``~$0.41``, as
    :func:`money` rounds it) can have been; 0 when it names none (a cap reached, a cap of 0)."""
    at = reason.find("~$")
    if at < 0:
        return 0.0
    digits = ""
    for c in reason[at + 2:]:
        if not (c.isdigit() or c == "."):
            break
        digits += c
    try:
        shown = float(digits.rstrip("."))
    except ValueError:
        return 0.0
    # why the most: the worker paused on the unrounded estimate, which the rounded one may be under; just
    # under half a unit more, so that money() shows it as the reason did
    return shown + (0.00499 if shown >= 0.01 else 0.0000499)


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


def open_call(cfg: Config, env: Mapping[str, str] | None, now: float, cost: float, meta: Mapping[str, object],
              prompt_chars: int, kind: str = "distill",
              max_usd: float | None = None) -> tuple[Verdict, markers.OpenCall | None]:
    """The check and the call's marker in one step under the spend lock: the verdict and, when the
    call may run, its marker (``budget``: its ``--max-budget-usd``; ``close()`` it after its line)."""
    private.make(paths.spend_dir(env))
    folder = private.make(markers.open_calls_dir(env))
    fd = lock(markers.lock_file(env))
    old = markers.legacy_lock(env)  # why after ours: an older version never takes ours, so no two wait on each other
    try:
        # why here: the key is made (adopting the unsigned lines) by the first spender, under the spend lock
        own.ring(env, lambda since: ledger.raw_since(since, env))
        markers.settle(env)
        s = spend(env, now)
        v = check(cfg, env, now, cost, s)
        if v.allowed and v.remaining <= 0:  # why: a call of budget 0 would only fail
            _busy(v, s.running, "today's" if v.daily - v.spent_today <= v.monthly - v.spent_month else "this month's")
        if not v.allowed:
            return v, None
        call = markers.OpenCall(f"{time.time_ns()}-{os.getpid()}-{os.urandom(3).hex()}", os.getpid(), markers.who(),
                        round(now, 3), v.remaining if max_usd is None else min(v.remaining, max_usd), kind,
                        str(meta.get("project") or ""), str(meta.get("session_id") or ""),
                        str(meta.get("task_id") or ""), int(prompt_chars), round(cost, 6))
        return v, markers.mark(folder, call)
    finally:
        if old is not None:
            os.close(old)
        os.close(fd)
