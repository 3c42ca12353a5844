"""The cost ledger: one JSON line per model call, appended to ``$XDG_DATA_HOME/lazy-harness/ledger.jsonl``.

A line: ``time`` (local ISO stamp), ``ts`` (epoch seconds), ``project``, ``session``, ``task``, ``kind``
(``distill``), ``model``, ``input_tokens``, ``output_tokens``, ``cache_creation_tokens``,
``cache_read_tokens``, ``total_cost_usd`` (as claude reported it; ``cost_reported`` false when it
reported nothing), ``duration_s``, ``outcome`` (``ok`` or the failure's cause), ``prompt_chars``,
``call`` (the id of the call's open marker, cost/budget.py). A call whose process was killed
mid-call has one line written for it by the next check (:func:`record_killed`): ``outcome``
``killed``, at its estimate (at most the budget it was given).

Appends go through :func:`atomic.append_line` (one write under a lock), so the worker and
``lh distill`` can write at once. Readers skip lines they cannot parse (a hand edit, a torn line)
and lines whose ``ts`` is not a time from 1970 to 3000 or whose ``total_cost_usd`` is not an amount
from 0 to MAX_COST_USD: a damaged ledger never stops the worker, nor pauses it; :func:`damaged`
names them for ``lh cost`` and ``lh doctor``. Lines need not be in time order (a sync merges the
other machine's older lines after today's; a clock steps back), so totals read the whole file
backwards and stop only after ``OLD_RUN_BYTES`` of lines in a row older than the period.
"""

from __future__ import annotations

import json
import os
import re
import time
from dataclasses import dataclass, field

from lazy_harness import logfile, paths
from lazy_harness.atomic import append_line

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator, Mapping
    from typing import Any, Protocol

    class Usage(Protocol):
        """What :func:`record` reads of a call's usage (``worker.llm.Usage``, which this room may not import)."""

        model: str
        input_tokens: int
        output_tokens: int
        cache_creation_tokens: int
        cache_read_tokens: int
        cost_usd: float
        reported: bool
        duration_s: float

_BLOCK = 64 * 1024
SLACK = 3600.0  # why: two writers (worker, lh distill) or a clock step may append slightly out of order
TOKEN_FIELDS = ("input_tokens", "output_tokens", "cache_creation_tokens", "cache_read_tokens")
# A line outside these is a hand edit or damage, skipped by every reader (docs/how/cost.md).
# why: 3000-01-01 UTC is the latest time localtime() takes on every platform (Windows stops there)
MIN_TS, MAX_TS = 0.0, 32503680000.0
MAX_COST_USD = 1_000_000.0  # why: one call never costs this; a sum of lines under it stays finite
MAX_PROMPT_CHARS = 1_000_000_000  # the estimate learns only from lines within it (config's largest value)


KILLED = "killed"  # the outcome of a call whose process was killed mid-call


@dataclass
class _Unreported:
    """The usage of a call that reported nothing, counted at ``cost_usd``."""

    cost_usd: float
    model: str = ""
    input_tokens: int = 0
    output_tokens: int = 0
    cache_creation_tokens: int = 0
    cache_read_tokens: int = 0
    reported: bool = False
    duration_s: float = 0.0


def record(usage: Usage, meta: Mapping[str, object], outcome: str, prompt_chars: int,
           env: Mapping[str, str] | None = None, now: float | None = None, kind: str = "distill",
           call: str = "") -> dict:
    """Append one call to the ledger; returns the line written. ``usage`` is an llm.Usage; ``call``
    the id of its open marker."""
    now = time.time() if now is None else now
    line = {
        "time": logfile.stamp(now),
        "ts": round(now, 3),
        "project": str(meta.get("project") or ""),
        "session": str(meta.get("session_id") or ""),
        "task": str(meta.get("task_id") or ""),
        "kind": kind,
        "model": usage.model,
        **{name: int(getattr(usage, name)) for name in TOKEN_FIELDS},
        "total_cost_usd": float(usage.cost_usd),
        "cost_reported": bool(usage.reported),
        "duration_s": float(usage.duration_s),
        "outcome": outcome,
        "prompt_chars": int(prompt_chars),
    }
    if call:
        line["call"] = call
    append_line(paths.ledger_file(env), json.dumps(line, separators=(",", ":")), heal=True)
    return line


def record_killed(marker: Mapping[str, Any], cost: float, env: Mapping[str, str] | None = None) -> dict:
    """The line of a call killed mid-call (its open marker's fields), counted at ``cost``; dated when
    it started."""
    usage = _Unreported(float(cost))
    meta = {"project": marker.get("project"), "session_id": marker.get("session"), "task_id": marker.get("task")}
    return record(usage, meta, KILLED, int(marker.get("prompt_chars") or 0), env, float(marker["started"]),
                  str(marker.get("kind") or "distill"), str(marker["call"]))


def _number_in(value: object, low: float, high: float) -> bool:
    """A JSON number from ``low`` to ``high``: false for NaN, infinities and booleans, and compared
    without float(), which fails on an integer too large for a float."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and low <= value <= high


def _why(entry: object) -> str:
    """Why every reader skips a parsed line ("" for a line they count): ``ts`` a sane time and the
    amounts sane. The same test for ``lh cost``, the cap and the estimate, so a bad line is skipped
    by all of them (and named by :func:`damaged`)."""
    if not isinstance(entry, dict):
        return "not a JSON object"
    if not _number_in(entry.get("ts"), MIN_TS, MAX_TS):
        return "ts is not a time from 1970 to 3000"
    if not _number_in(entry.get("total_cost_usd"), 0, MAX_COST_USD):
        return f"total_cost_usd is not a number from 0 to {MAX_COST_USD:.0f}"
    return ""


def valid(entry: object) -> bool:
    """Whether every reader counts ``entry`` (a sane ``ts`` and ``total_cost_usd``)."""
    return not _why(entry)


def _problem(raw: bytes) -> tuple[Any, str]:
    """A ledger line's parsed JSON (``Any``), or None and why it is skipped."""
    try:
        entry = json.loads(raw)
    except RecursionError:  # why: the ledger is synced; a line nested past the stack is no line
        return None, "not JSON: nested too deep"
    except ValueError:
        return None, "not JSON: a torn or hand-edited line"
    why = _why(entry)
    return (None, why) if why else (entry, "")


def _parse(raw: bytes) -> Any:
    """A ledger line's parsed JSON (``Any``) when it is a line every reader counts, else None."""
    return _problem(raw)[0]


def damaged(env: Mapping[str, str] | None = None) -> list[tuple[int, str]]:
    """(line number, why) of every line the readers skip, in file order; blank lines are not damage."""
    try:
        with open(paths.ledger_file(env), "rb") as fh:
            return [(n, why) for n, raw in enumerate(fh, 1) if raw.strip() and (why := _problem(raw)[1])]
    except OSError:
        return []


# why: past this many bytes of lines in a row older than the period the backward read stops, so a
# check stays bounded with many years of history (whole files up to it: ~80,000 calls); an older run
# than that (another machine's history merged after today's lines) could still hide spend
OLD_RUN_BYTES = 32 * 1024 * 1024
# what record() writes first: a line in this shape with one "ts" and no escape is dated without parsing
_HEAD = re.compile(rb'\{"time":"[^"\\]*","ts":(\d+(?:\.\d+)?),')


def _quick_ts(raw: bytes) -> float | None:
    m = _HEAD.match(raw)
    return float(m.group(1)) if m and raw.count(b'"ts"') == 1 and b"\\" not in raw else None


def _backwards(fh: Any) -> Iterator[bytes]:
    """The file's lines from the last to the first, read in blocks."""
    pos = fh.seek(0, os.SEEK_END)
    rest = b""
    while pos > 0:
        step = min(_BLOCK, pos)
        pos -= step
        fh.seek(pos)
        lines = (fh.read(step) + rest).split(b"\n")
        rest = lines[0] if pos > 0 else b""  # the first piece may be a partial line
        yield from reversed(lines[1:] if pos > 0 else lines)


def read_since(since: float, env: Mapping[str, str] | None = None, path: str | None = None) -> list[dict]:
    """Ledger entries with ``ts >= since``, in file order. Reads from
    the end and stops only after ``OLD_RUN_BYTES`` of lines in a row older than ``since`` by more than
    SLACK: lines out of order (a sync, a clock step) never hide the period's spend from the caps."""
    path = path or paths.ledger_file(env)
    try:
        fh = open(path, "rb")  # noqa: SIM115 - why: opened apart from `with` so only a missing file returns []
    except OSError:
        return []
    out: list[dict] = []
    old = 0
    with fh:
        for raw in _backwards(fh):
            ts = _quick_ts(raw)
            entry = None
            if ts is None:
                entry = _parse(raw) if raw.strip() else None
                if entry is None:
                    continue
                ts = entry["ts"]
            if ts < since - SLACK:
                old += len(raw) + 1
                if old >= OLD_RUN_BYTES:
                    break
                continue
            old = 0
            if ts >= since:
                entry = entry if entry is not None else _parse(raw)
                if entry is not None:
                    out.append(entry)
    out.reverse()
    return out


@dataclass
class Totals:
    calls: int = 0
    cost_usd: float = 0.0
    tokens: dict = field(default_factory=lambda: {name: 0 for name in TOKEN_FIELDS})
    failed: int = 0
    unreported: int = 0
    estimated: int = 0  # of the unreported: counted at their estimate (a timeout, interrupted, killed)

    def add(self, entry: dict) -> None:
        self.calls += 1
        self.cost_usd += float(entry["total_cost_usd"])
        for name in TOKEN_FIELDS:
            value = entry.get(name)
            if isinstance(value, int) and not isinstance(value, bool):
                self.tokens[name] += value
        if entry.get("outcome") != "ok":
            self.failed += 1
        if entry.get("cost_reported") is False:
            self.unreported += 1
            self.estimated += float(entry["total_cost_usd"]) > 0

    def as_dict(self) -> dict:
        return {"calls": self.calls, "cost_usd": round(self.cost_usd, 6), **self.tokens,
                "failed_calls": self.failed, "calls_without_cost": self.unreported,
                "calls_at_estimate": self.estimated}


def total(entries: Iterable[dict], since: float = 0.0, until: float = MAX_TS) -> float:
    """Dollars of the entries with ``since <= ts < until``."""
    return sum(float(e["total_cost_usd"]) for e in entries if since <= e["ts"] < until)


def group(entries: Iterable[dict], by: str) -> dict[str, Totals]:
    """Totals per day (local date), project or model, in first-seen order."""
    out: dict[str, Totals] = {}
    for entry in entries:
        if by == "day":
            key = time.strftime("%Y-%m-%d", time.localtime(entry["ts"]))
        else:
            key = str(entry.get(by) or "?")
        out.setdefault(key, Totals()).add(entry)
    return out


def cost_per_char(env: Mapping[str, str] | None = None, now: float | None = None, last: int = 20,
                  alike: Callable[[object], bool] | None = None) -> float | None:
    """Average dollars per prompt character over the last ``last`` successful calls of the past
    30 days whose ``model`` passes ``alike`` (any model when None); None without such history."""
    now = time.time() if now is None else now
    # why: not the model check's calls: their prompt is a few entries, so nearly all their cost is the
    # CLI's own system prompt, and their dollars per character would price a distillation far too high
    samples = [e for e in read_since(now - 30 * 86400, env)
               if e.get("outcome") == "ok" and e.get("cost_reported") is not False and e.get("kind") != "model-check"
               and _number_in(e.get("prompt_chars"), 1, MAX_PROMPT_CHARS)
               and (alike is None or alike(e.get("model")))][-last:]
    if not samples:
        return None
    return sum(e["total_cost_usd"] for e in samples) / sum(e["prompt_chars"] for e in samples)
