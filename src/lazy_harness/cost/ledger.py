"""The cost ledger: one JSON line per model call, appended to ``$XDG_DATA_HOME/lazy-harness/ledger.jsonl``.

A line: ``time`` (local ISO stamp), ``ts`` (epoch seconds), ``project``, ``session``, ``task``, ``kind``
(``distill``), ``model``, ``input_tokens``, ``output_tokens``, ``cache_creation_tokens``,
``cache_read_tokens``, ``total_cost_usd`` (as claude reported it; ``cost_reported`` false when it
reported nothing), ``duration_s``, ``outcome`` (``ok`` or the failure's cause), ``prompt_chars``.

Appends go through :func:`atomic.append_line` (one write under a lock), so the worker and
``lh distill`` can write at once. Readers skip lines they cannot parse (a hand edit, a torn line)
and lines whose ``ts`` is not a time from 1970 to 3000 or whose ``total_cost_usd`` is not an amount
from 0 to MAX_COST_USD: a damaged ledger never stops the worker, nor pauses it. Totals for the cap
read the file backwards and stop at the first line older than the period asked for, so a check
costs the same with years of history.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field

from lazy_harness import logfile, paths
from lazy_harness.atomic import append_line

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping
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


def record(usage: Usage, meta: dict, outcome: str, prompt_chars: int, env: Mapping[str, str] | None = None,
           now: float | None = None, kind: str = "distill") -> dict:
    """Append one call to the ledger; returns the line written. ``usage`` is an llm.Usage."""
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
    append_line(paths.ledger_file(env), json.dumps(line, separators=(",", ":")), heal=True)
    return line


def _number_in(value: object, low: float, high: float) -> bool:
    """A JSON number from ``low`` to ``high``: false for NaN, infinities and booleans, and compared
    without float(), which fails on an integer too large for a float."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and low <= value <= high


def _valid(entry: object) -> bool:
    """A line every reader counts: ``ts`` a sane time and ``total_cost_usd`` a sane amount. The
    same test for ``lh cost``, the cap and the estimate, so a bad line is skipped by all of them."""
    return (isinstance(entry, dict) and _number_in(entry.get("ts"), MIN_TS, MAX_TS)
            and _number_in(entry.get("total_cost_usd"), 0, MAX_COST_USD))


def _parse(raw: bytes) -> Any:
    """A ledger line's parsed JSON (``Any``) when it is a line every reader counts, else None."""
    try:
        entry = json.loads(raw)
    except (ValueError, RecursionError):  # why: the ledger is synced; a line nested past the stack is no line
        return None
    return entry if _valid(entry) else None


OLD_RUN = 8  # lines in a row older than the period that end the backward read


def read_since(since: float, env: Mapping[str, str] | None = None, path: str | None = None) -> list[dict]:
    """Ledger entries with ``ts >= since``, in file order. Reads from the end and stops once
    ``OLD_RUN`` whole lines in a row are older than ``since`` by more than SLACK (lines are appended
    in time order; one line out of order, a ``ts`` mistyped by hand, is passed over: stopping at it
    hid the period's spend from the caps)."""
    path = path or paths.ledger_file(env)
    try:
        fh = open(path, "rb")  # noqa: SIM115 - why: opened apart from `with` so only a missing file returns []
    except OSError:
        return []
    out: list[dict] = []
    old = 0
    with fh:
        pos = fh.seek(0, os.SEEK_END)
        rest = b""
        while pos > 0:
            step = min(_BLOCK, pos)
            pos -= step
            fh.seek(pos)
            chunk = fh.read(step) + rest
            lines = chunk.split(b"\n")
            rest = lines[0] if pos > 0 else b""  # the first piece may be a partial line
            whole = lines[1:] if pos > 0 else lines
            for raw in reversed(whole):
                entry = _parse(raw) if raw.strip() else None
                if entry is None:
                    continue
                if entry["ts"] < since - SLACK:
                    old += 1
                    if old >= OLD_RUN:
                        out.reverse()
                        return out
                    continue
                old = 0
                if entry["ts"] >= since:
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

    def as_dict(self) -> dict:
        return {"calls": self.calls, "cost_usd": round(self.cost_usd, 6), **self.tokens,
                "failed_calls": self.failed, "calls_without_cost": self.unreported}


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


def cost_per_char(env: Mapping[str, str] | None = None, now: float | None = None, last: int = 20) -> float | None:
    """Average dollars per prompt character over the last ``last`` successful calls of the past
    30 days; None without history."""
    now = time.time() if now is None else now
    # why: not the model check's calls: their prompt is a few entries, so nearly all their cost is the
    # CLI's own system prompt, and their dollars per character would price a distillation far too high
    samples = [e for e in read_since(now - 30 * 86400, env)
               if e.get("outcome") == "ok" and e.get("cost_reported") is not False and e.get("kind") != "model-check"
               and _number_in(e.get("prompt_chars"), 1, MAX_PROMPT_CHARS)][-last:]
    if not samples:
        return None
    return sum(e["total_cost_usd"] for e in samples) / sum(e["prompt_chars"] for e in samples)
