"""``lh cost``: what the worker's model calls cost, from the ledger (docs/how/cost.md)."""

from __future__ import annotations

import json
import re
import time

import click

from lazy_harness import config, notice, paths
from lazy_harness.cli.options import warn_config
from lazy_harness.errors import LhError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from lazy_harness.config.typed import Config
    from lazy_harness.cost.budget import Spend, Verdict
    from lazy_harness.cost.ledger import Totals

_SPAN = re.compile(r"^\s*(\d+)\s*([hdwm]?)\s*$")
_UNIT = {"h": 3600, "d": 86400, "w": 7 * 86400, "m": 30 * 86400, "": 86400}


def parse_since(text: str, now: float) -> float:
    """``7d``, ``12h``, ``2w``, ``1m`` (30 days), a bare number of days, or a date ``YYYY-MM-DD``,
    from 1970 on (the ledger holds nothing older; a start before it cannot be shown on every platform)."""
    hint = "use 7d, 12h, 2w, 1m or a date like 2026-01-31"
    m = _SPAN.match(text or "")
    try:
        if m:
            start = now - int(m.group(1)) * _UNIT[m.group(2)]
        else:
            start = time.mktime(time.strptime(text.strip(), "%Y-%m-%d"))
        too_old = time.localtime(start).tm_year < 1970
    except (OverflowError, OSError):
        too_old = True  # why: a span beyond what a float or the platform's time_t holds
    except ValueError:
        raise LhError(f"--since: cannot read {text!r}", hint=hint) from None
    if too_old:
        raise LhError(f"--since: {text!r} reaches back before 1970", hint=hint)
    return start


def load_config() -> Config:
    """The config, or its defaults with a warning: spend must be readable with a broken config.toml.
    why ``warn``: a wrong value elsewhere (``[sync] pull_budget_ms = "fast"``) keeps its default and
    is named, as lh status and lh doctor read it; the whole file's defaults showed the default caps
    beside their figures of the person's own. A syntax error or a wrong folder key: every default."""
    try:
        return config.load(warn=warn_config)
    except LhError as exc:
        click.echo(f"lh: warning: {exc}; using the default caps", err=True)
        return config.defaults()


def spend_lines(cfg: Config, now: float | None = None,
                seen: Spend | None = None) -> list[tuple[str, str, str, str | None]]:
    """``lh doctor``'s spend checks: (status, check, detail, hint) rows; ``seen``: the spend the caller
    read already (``budget.spend``). why: each read goes through the month's ledger lines (seconds with
    250,000 of them), and lh status read it twice."""
    from lazy_harness.cost import budget, paused

    now = time.time() if now is None else now
    verdict = paused.pause(cfg, now, seen)
    detail = (f"today {budget.money(verdict.spent_today)} of {budget.money(verdict.daily)}, "
              f"this month {budget.money(verdict.spent_month)} of {budget.money(verdict.monthly)}")
    rows: list[tuple[str, str, str, str | None]] = []
    if verdict.allowed:
        rows.append(("ok", "spend", detail, None))
    else:
        rows.append(("warn", "spend", f"{detail}; distillation paused: {verdict.reason}",
                     "lh cost, or raise the cap in config.toml"))
    lost = key_lost_line(now)
    if lost:
        rows.append(("warn", "spend key", lost, None))
    unusable = key_unusable()
    if unusable:
        rows.append(("warn", "spend key", unusable[0], unusable[1]))
    told = notice.read(None, now)
    # why not a paused notice: paused.pause said whether it still holds (above)
    if told and verdict.allowed and (notice.read_raw() or ("",))[0] != notice.PAUSED:
        # why: the notice is written for SessionStart, which points at lh doctor; here it is lh doctor
        shown = told.removeprefix("lazy-harness: ").removesuffix(f" ({notice.SEE_DOCTOR})")
        rows.append(("warn", "distillation", shown, notice_hint(shown, cfg)))
    return rows


def key_lost_line(now: float) -> str:
    """What the caps count since this machine's spend key was made again after one was lost ("" when
    it was not, or when the lines it adopted are out of every period the caps count)."""
    from lazy_harness.cost import own

    if own.key_gone():
        return (f"{own.key_file()} is gone (lost since it was made): the next model call makes a new one, and "
                f"the caps count every machine's ledger lines of the last {own.ADOPT_DAYS} days")
    at = own.lost_at()
    if at is None or now - at > own.ADOPT_DAYS * 86400:
        return ""
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(at))
    return (f"{own.key_file()} was made again on {when} after the one before was lost: the caps count "
            f"every machine's ledger lines of the {own.ADOPT_DAYS} days before it (keep the key file)")


def key_unusable() -> tuple[str, str] | None:
    """Why this machine's spend key may not be used, with what the caps count meanwhile, and the fix."""
    from lazy_harness.cost import own

    found = own.key_problem()
    if found is None:
        return None
    return f"{found[0]}; the caps count every machine's ledger lines until it is fixed", found[1]


NOTICE_HINT = "lh logs; lh queue"
# why here: the notice keeps a failure's message, not its hint; these say what llm.call's and
# codex_distill's hints for a refused login say, each for its distiller
LOGIN_HINTS = {"claude": "claude /login (or set ANTHROPIC_API_KEY)",
               "codex": "codex login (or check the provider's API key)"}


def notice_hint(shown: str, cfg: Config) -> str:
    """The hint of the failing notice's row: how to log in to the distiller in use when the login was
    refused, else where to look. The cause is the one the notice quotes first (``authentication was
    refused``: ``llm.SAID``, the words of the ledger's outcome ``auth``), read back by ``llm.cause_said``."""
    from lazy_harness.worker import codex_distill, llm

    if llm.cause_said(shown.removeprefix("distillation failing, ")) != "auth":
        return NOTICE_HINT
    return LOGIN_HINTS[codex_distill.chosen(cfg)]


SHOWN_DAMAGED = 5  # damaged ledger lines named one by one; the rest are counted (lh cost --json names each)


def skipped_lines(found: list[tuple[int, str]]) -> list[str]:
    """The first :data:`SHOWN_DAMAGED` ledger lines every reader skips, ``<ledger>:<n>: skipped (<why>)``,
    then how many more. why a few: the ledger is synced, and a remote of 100,000 damaged lines printed
    100,000 lines in lh cost and lh doctor."""
    where = paths.ledger_file()
    lines = [f"{where}:{n}: skipped ({why})" for n, why in found[:SHOWN_DAMAGED]]
    if len(found) > SHOWN_DAMAGED:
        lines.append(f"... and {len(found) - SHOWN_DAMAGED:,} more damaged line(s) (lh cost --json lists every one)")
    return lines


CLAIMED = "carries this machine's id but not its MAC: not counted"
# why both: the id ("by") is a claim, not proof; a remote can copy it onto lines of its own, so a
# command that called them the person's lines changed since written blamed the person for a remote's
CLAIMED_WHY = ("each was changed here since it was written, by hand or by a tool, or written by another "
               "machine that copied this id from a synced line")


def claimed_lines(found: list[int]) -> list[str]:
    """The first :data:`SHOWN_DAMAGED` lines that carry this machine's key id but not its MAC (the caps
    count nothing of them), ``<ledger>:<n>: ...``, then how many more."""
    where = paths.ledger_file()
    lines = [f"{where}:{n}: {CLAIMED}" for n in found[:SHOWN_DAMAGED]]
    if len(found) > SHOWN_DAMAGED:
        lines.append(f"... and {len(found) - SHOWN_DAMAGED:,} more line(s) with this machine's id but not its MAC "
                     "(lh cost --json lists every one)")
    return lines


def _today_line(verdict: Verdict) -> str:
    from lazy_harness.cost import budget

    held = f"; {budget.money(verdict.held)} held by running calls" if verdict.held else ""
    return (f"today {budget.money(verdict.spent_today)} of {budget.money(verdict.daily)} a day; "
            f"this month {budget.money(verdict.spent_month)} of {budget.money(verdict.monthly)}{held}")


def call_lines(entries: list[dict], spend: Spend) -> list[str]:
    """The calls killed mid-call (settled into the ledger or not yet) and the calls running now."""
    from lazy_harness.cost import budget, ledger

    def when(ts: float) -> str:
        return time.strftime("%Y-%m-%d %H:%M", time.localtime(ts))

    settled = [e for e in entries if e.get("outcome") == ledger.KILLED]
    # why the newest few: the ledger is synced, and a remote's 100,000 killed lines printed 100,000 lines
    lines = [f"{when(e['ts'])} {_clipped(str(e.get('kind') or 'distill'))} call of "
             f"{_clipped(str(e.get('project') or '?'))} killed mid-call, counted at its estimate "
             f"{budget.money(e['total_cost_usd'])}" for e in settled[-SHOWN_DAMAGED:]]
    if len(settled) > SHOWN_DAMAGED:
        lines.append(f"... and {len(settled) - SHOWN_DAMAGED:,} more call(s) killed mid-call in the period "
                     "(ledger lines with outcome killed)")
    lines += [f"{when(c.started)} {c.kind} call of {c.project or '?'} (pid {c.pid}, {c.who}) killed mid-call, "
              f"counted at its estimate {budget.money(c.counted)} (given up to {budget.money(c.budget)})"
              for c in spend.killed]
    lines += [f"running: pid {c.pid} ({c.who}), a {c.kind} call of {c.project or '?'} since {when(c.started)}, "
              f"given up to {budget.money(c.budget)}" for c in spend.running]
    return lines


def summary_lines(whole: Totals) -> list[str]:
    """What the table's total holds besides costs the CLI reported: failed calls, calls priced from
    their token counts (Codex), calls counted as $0 or at their estimate."""
    from lazy_harness.worker.codex_distill import DEFAULT_PRICES

    its = "its cost is" if whole.failed == 1 else "their cost is"
    lines = [f"{whole.failed} of the {whole.calls} calls failed ({its} counted)"] if whole.failed else []
    if whole.priced > whole.priced_default:
        lines.append(f"{whole.priced - whole.priced_default} call(s) priced from their token counts at the "
                     "configured Codex prices ([worker] codex_input_usd_per_mtok / codex_output_usd_per_mtok)")
    if whole.priced_default:
        lines.append(f"{whole.priced_default} call(s) priced from their token counts at the default Codex "
                     f"prices (${DEFAULT_PRICES[0]:.2f} in, ${DEFAULT_PRICES[1]:.2f} out per million tokens; "
                     "set [worker] codex_input_usd_per_mtok / codex_output_usd_per_mtok)")
    if whole.unreported > whole.estimated:
        lines.append(f"{whole.unreported - whole.estimated} call(s) reported no cost (counted as $0)")
    if whole.estimated:
        lines.append(f"{whole.estimated} call(s) reported no cost and are counted at their estimate "
                     "(stopped at a timeout, interrupted or killed mid-call)")
    return lines


def _open_json(spend: Spend) -> list[dict]:
    return [{"pid": c.pid, "by": c.who, "kind": c.kind, "project": c.project, "task": c.task,
             "started": time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(c.started)), "budget_usd": c.budget,
             "counted_usd": c.counted if state == "killed" else None, "state": state}
            for state, calls in (("running", spend.running), ("killed", spend.killed)) for c in calls]


GROUP_CHARS = 40  # a project's or model's name in a row of the table (--json keeps it whole)


def _clipped(name: str) -> str:
    """``name`` as a row of the table shows it. why: the ledger is synced, so a remote chooses a line's
    project and model; one of 100,000 characters padded every row of the table to its width."""
    return name if len(name) <= GROUP_CHARS else name[:GROUP_CHARS - 1] + "\u2026"


@click.command()
@click.option("--since", "since", default="7d", show_default=True, help="How far back: 7d, 12h, 2w, 1m, or a date.")
@click.option("--by", "by", type=click.Choice(["day", "project", "model"]), default="day", show_default=True,
              help="Group the totals.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
def cost(since: str, by: str, as_json: bool) -> None:
    """Totals of the worker's model calls: cost, tokens and calls."""
    from lazy_harness.cost import budget, ledger, paused, snapshot

    now = time.time()
    start = parse_since(since, now)
    # why one read: the period's lines, this machine's, the caps' spend and the lines nothing counts were
    # four reads of the ledger, each parsing or checking every line of the month again
    read = snapshot.Snapshot((start, budget.day_start(now), budget.month_start(now)))
    spend = budget.spend(None, now, read.since)  # why first: its open-call markers are read before the ledger
    entries = read.since(start)
    groups = ledger.group(entries, by)
    whole = ledger.Totals()
    for entry in entries:
        whole.add(entry)
    own = ledger.Totals()
    for entry in read.since(start, mine=True):
        own.add(entry)
    cfg = load_config()
    verdict = paused.pause(cfg, now, spend)
    damaged, claimed = read.unread()
    if as_json:
        click.echo(json.dumps({
            "since": time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(start)), "by": by,
            "groups": {k: v.as_dict() for k, v in groups.items()}, "total": whole.as_dict(),
            "this_machine": own.as_dict(),
            "today_usd": round(verdict.spent_today, 6), "month_usd": round(verdict.spent_month, 6),
            "daily_cap_usd": verdict.daily, "monthly_cap_usd": verdict.monthly,
            "paused": None if verdict.allowed else verdict.reason,
            "held_usd": round(verdict.held, 6), "open_calls": _open_json(spend),
            "ledger": paths.ledger_file(), "skipped_lines": [{"line": n, "why": why} for n, why in damaged],
            "changed_lines": claimed},
            indent=2))
        return
    if not entries:
        click.echo(f"no model calls since {time.strftime('%Y-%m-%d %H:%M', time.localtime(start))} "
                   f"(ledger: {paths.ledger_file()})")
    else:
        # why: the table's first day holds only the calls after the start; its total is of this period
        click.echo(f"model calls since {time.strftime('%Y-%m-%d %H:%M', time.localtime(start))} (--since {since})")
        shown = [(_clipped(k), t) for k, t in groups.items()]  # why a list: two names may clip alike
        width = max(len(by), *(len(k) for k, _ in shown))
        click.echo(f"{by:<{width}}  {'calls':>5}  {'cost':>10}  {'input':>10}  {'output':>8}  {'cache':>10}")
        for key, t in [*shown, ("total", whole)]:
            cache = t.tokens["cache_creation_tokens"] + t.tokens["cache_read_tokens"]
            click.echo(f"{key:<{width}}  {t.calls:>5}  {'$' + format(t.cost_usd, '.4f'):>10}  "
                       f"{t.tokens['input_tokens']:>10}  {t.tokens['output_tokens']:>8}  {cache:>10}")
        if own.calls != whole.calls:  # why: the table is every machine's, the caps count this one's
            click.echo(f"this machine: {own.calls} of the {whole.calls} calls, ${own.cost_usd:.4f} of "
                       f"${whole.cost_usd:.4f} (what its caps count: its own lines; the rest are other "
                       "machines' or from before its spend key)")
        for line in summary_lines(whole):
            click.echo(line)
    for line in call_lines(entries, spend):
        click.echo(line)
    _say_caps_and_lines(verdict, now, damaged, claimed)


def _say_caps_and_lines(verdict: Verdict, now: float, damaged: list[tuple[int, str]], claimed: list[int]) -> None:
    """What ``lh cost`` prints under its table: this machine's spend against the caps, its key, and the
    ledger lines nothing counts (damaged, or carrying this machine's id but not its MAC)."""
    click.echo(_today_line(verdict))
    if lost := key_lost_line(now):
        click.echo(lost)
    if unusable := key_unusable():
        click.echo(f"{unusable[0]} (hint: {unusable[1]})")
    if not verdict.allowed:
        click.echo(f"paused: {verdict.reason}")
    for line in skipped_lines(damaged):
        click.echo(line)
    if damaged:
        click.echo(f"{len(damaged):,} damaged ledger line(s) skipped: their spend is not counted")
    for line in claimed_lines(claimed):
        click.echo(line)
    if claimed:
        click.echo(f"{len(claimed):,} ledger line(s) with this machine's id but not its MAC: not counted; "
                   f"{CLAIMED_WHY}")
