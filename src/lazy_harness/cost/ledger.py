"""The cost ledger: one JSON line per model call, appended to ``$XDG_DATA_HOME/lazy-harness/ledger.jsonl``.

A line: ``time`` (local ISO stamp), ``ts`` (epoch seconds), ``project``, ``session``, ``task``, ``kind``
(``distill``), ``model``, ``input_tokens``, ``output_tokens``, ``cache_creation_tokens``,
``cache_read_tokens``, ``total_cost_usd`` (as claude reported it; ``cost_reported`` false when it
reported nothing), ``cost_source`` (where the dollars come from, :data:`SOURCES`; ``usd_per_mtok``, the
prices, on a ``priced`` line), ``duration_s``, ``outcome`` (``ok`` or the failure's cause),
``prompt_chars``, ``call`` (the id of the call's open marker, cost/budget.py). A call whose process
was killed mid-call has one line written for it by the next check (:func:`record_killed`):
``outcome`` ``killed``, at its estimate (at most the budget it was given). A line written before
``cost_source`` existed is read by :func:`source` from ``cost_reported`` and its amount.

Appends go through :func:`atomic.append_line` (one write under a lock), so the worker and
``lh distill`` can write at once. Readers skip lines they cannot parse (a hand edit, a torn line)
and lines whose ``ts`` is not a time from 1970 to 3000 or whose ``total_cost_usd`` is not an amount
from 0 to MAX_COST_USD: a damaged ledger never stops the worker, nor pauses it; :func:`unread`
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
from itertools import count, repeat

from lazy_harness import logfile, paths
from lazy_harness.atomic import append_line
from lazy_harness.cost import own
from lazy_harness.regular_file import open_regular

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
# Where a line's dollars come from (``cost_source``): the CLI reported them (claude's total_cost_usd);
# priced from the tokens the call reported (a codex call: tokens at its prices); estimated (a call that
# answered without a cost, or was stopped, interrupted or killed before it reported); none (a failed
# call that reported nothing: counted as $0)
REPORTED, PRICED, ESTIMATED, NONE = "reported", "priced", "estimated", "none"
SOURCES = (REPORTED, PRICED, ESTIMATED, NONE)


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
        "cost_source": _source_of(usage),
        "duration_s": float(usage.duration_s),
        "outcome": outcome,
        "prompt_chars": int(prompt_chars),
    }
    if line["cost_source"] == PRICED:
        line["usd_per_mtok"] = [float(p) for p in getattr(usage, "usd_per_mtok", ())]
    if call:
        line["call"] = call
    text = json.dumps(line, separators=(",", ":"))
    keys = own.ring(env, lambda since: raw_since(since, env))
    if keys is not None:  # why: the caps count only the lines this machine signed (ADR 0065)
        text = keys.sign(text)
        signed = json.loads(text)
        line["by"], line["mac"] = signed["by"], signed["mac"]
    append_line(paths.ledger_file(env), text, heal=True)
    if keys is None:
        own.adopt_written(text, env)
    return line


def _source_of(usage: Usage) -> str:
    """Where ``usage``'s dollars come from. A codex call's usage (worker/codex_distill.py ``Priced``)
    carries ``priced_usd``, what its reported tokens come to at its prices: while ``cost_usd`` is that
    amount, the line is ``priced``; a call charged its estimate instead (stopped at its timeout) is
    not, and a codex call is never ``reported`` (Codex reports no cost)."""
    priced = getattr(usage, "priced_usd", None)
    if priced is not None and float(usage.cost_usd) == priced:
        return PRICED
    if usage.reported and not hasattr(usage, "priced_usd"):
        return REPORTED
    return ESTIMATED if usage.cost_usd > 0 else NONE


def source(entry: Mapping[str, Any]) -> str:
    """A valid line's ``cost_source``; for a line without one (written before it existed, or a hand
    edit), as it was read then: ``cost_reported`` false is an estimate when it counts dollars, else none."""
    said = entry.get("cost_source")
    if isinstance(said, str) and said in SOURCES:
        return said
    if entry.get("cost_reported") is not False:
        return REPORTED
    return ESTIMATED if float(entry["total_cost_usd"]) > 0 else NONE


def record_killed(marker: Mapping[str, Any], cost: float, env: Mapping[str, str] | None = None) -> dict:
    """The line of a call killed mid-call (its open marker's fields), counted at ``cost``; dated when
    it started."""
    usage = _Unreported(float(cost))
    meta = {"project": marker.get("project"), "session_id": marker.get("session"), "task_id": marker.get("task")}
    return record(usage, meta, KILLED, int(marker.get("prompt_chars") or 0), env, float(marker["started"]),
                  str(marker.get("kind") or "distill"), str(marker["call"]))


def call_of(entry: Mapping[str, Any]) -> str | None:
    """The id of the open marker a line settles (its ``call``), None when it names none. why a string
    only: a hand edit may put a list there, and the readers gather these ids in a set (a list in a set
    raised TypeError in every cap check, which stopped the worker at each start)."""
    said = entry.get("call")
    return said if isinstance(said, str) and said else None


def _number_in(value: object, low: float, high: float) -> bool:
    """A JSON number from ``low`` to ``high``: false for NaN, infinities and booleans, and compared
    without float(), which fails on an integer too large for a float."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and low <= value <= high


def _why(entry: object) -> str:
    """Why every reader skips a parsed line ("" for a line they count): ``ts`` a sane time and the
    amounts sane. The same test for ``lh cost``, the cap and the estimate, so a bad line is skipped
    by all of them (and named by :func:`unread`)."""
    if not isinstance(entry, dict):
        return "not a JSON object"
    if not _number_in(entry.get("ts"), MIN_TS, MAX_TS):
        return BAD_TS
    if not _number_in(entry.get("total_cost_usd"), 0, MAX_COST_USD):
        return BAD_COST
    return ""


BAD_TS = "ts is not a time from 1970 to 3000"
BAD_COST = f"total_cost_usd is not a number from 0 to {MAX_COST_USD:.0f}"


def valid(entry: object) -> bool:
    """Whether every reader counts ``entry`` (a sane ``ts`` and ``total_cost_usd``)."""
    return not _why(entry)


def _judged(raw: bytes) -> tuple[Any, str]:
    """A ledger line's parsed JSON as it is (not made fit for a terminal), and why every reader skips it
    ("" when they count it)."""
    try:
        entry = json.loads(raw)
    except RecursionError:  # why: the ledger is synced; a line nested past the stack is no line
        return None, "not JSON: nested too deep"
    except ValueError:
        return None, "not JSON: a torn or hand-edited line"
    return entry, _why(entry)


# The shape :func:`record` writes, each text plain printable ASCII without an escape: a line of it is a JSON
# object without parsing it (a hand edit or damage anywhere in it fails the match: then it is parsed). why:
# json.loads of each line was most of lh doctor's and the cap check's time on a long ledger (250,000 lines
# a month: benchmarks/bench_ledger_doctor.py)
_TEXT = rb'"[\x20\x21\x23-\x5b\x5d-\x7e]*"'
_NUM = rb"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?"
_INT = rb"-?(?:0|[1-9][0-9]*)"
_RECORD = re.compile(
    rb'\{"time":' + _TEXT + rb',"ts":(' + _NUM + rb'),"project":' + _TEXT + rb',"session":' + _TEXT
    + rb',"task":' + _TEXT + rb',"kind":' + _TEXT + rb',"model":' + _TEXT
    + b"".join(b',"' + name.encode() + b'":' + _INT for name in TOKEN_FIELDS)
    + rb',"total_cost_usd":(' + _NUM + rb'),"cost_reported":(?:true|false),"cost_source":' + _TEXT
    + rb',"duration_s":' + _NUM + rb',"outcome":' + _TEXT + rb',"prompt_chars":' + _INT
    + rb'(?:,"usd_per_mtok":\[(?:' + _NUM + rb'(?:,' + _NUM + rb')*)?\])?(?:,"call":"([\x20\x21\x23-\x5b\x5d-\x7e]*)")?'
    + rb'(?:,"by":"([0-9a-f]*)","mac":"[0-9a-f]*")?\}\r?\n?')


def _plain(raw: bytes) -> tuple[dict, str] | None:
    """For a line in :data:`_RECORD`'s shape: what the caps and the checks read of it (``ts``,
    ``total_cost_usd``, and ``call`` and ``by`` when it has them) and why every reader skips it, as
    :func:`_judged` says; None for any other line. The numbers are read as ``json`` reads them: the
    same verdict for each (an integer too large for a float is out of every range either way)."""
    m = _RECORD.fullmatch(raw)
    if m is None:
        return None
    ts, cost = float(m[1]), float(m[2])  # why no NaN check: the shape holds none
    entry: dict = {"ts": ts, "total_cost_usd": cost}
    if m[3] is not None:
        entry["call"] = m[3].decode("ascii")
    if m[4] is not None:
        entry["by"] = m[4].decode("ascii")
    # why not _why(entry): the same tests, without its checks of a type the shape already fixed
    if not MIN_TS <= ts <= MAX_TS:
        return entry, BAD_TS
    return entry, "" if 0 <= cost <= MAX_COST_USD else BAD_COST


def _light(raw: bytes) -> Any:
    """:func:`_parse`, with only what :func:`_plain` reads of a line in :func:`record`'s shape."""
    plain = _plain(raw)
    if plain is None:
        return _parse(raw)
    return None if plain[1] else plain[0]


def _shown(entry: dict) -> dict:
    """``entry`` with each text field as a terminal may show it (``logfile.terminal_safe``: ESC as
    ``\\u001b``). why: the ledger is synced, so a remote chooses a line's ``project``, ``kind`` and
    ``model``, which ``lh cost`` prints; no text lazy-harness writes holds a control character."""
    for key, value in entry.items():
        if isinstance(value, str) and not value.isprintable():
            entry[key] = logfile.terminal_safe(value, keep="")
    return entry


def _parse(raw: bytes) -> Any:
    """A ledger line's parsed JSON (``Any``) when it is a line every reader counts, else None."""
    entry, why = _judged(raw)
    return None if why else _shown(entry)


def unread(env: Mapping[str, str] | None = None) -> tuple[list[tuple[int, str]], list[int]]:
    """The lines no cap counts, in one read of the ledger (:func:`unread_of` its lines). why one read:
    lh cost and lh doctor read the whole ledger for each list, and parsed a claiming line three times
    (2.5 s on a remote's 41 MB of them)."""
    keys = own.ring(env, lambda since: [], make=False)
    try:
        with open(open_regular(paths.ledger_file(env))[0], "rb") as fh:
            return unread_of(zip(count(1), fh, repeat(None)), keys)
    except OSError:
        return [], []


def unread_of(lines: Iterable[tuple[int, bytes, bool | None]], keys: own.Ring | None
              ) -> tuple[list[tuple[int, str]], list[int]]:
    """Of ``lines`` (number, bytes, whether ``keys`` signed it when known already), each parsed once:
    (number, why) of every line the readers skip (a blank line is no damage), and the numbers of the
    lines that carry this key's id but not its MAC (``own.Ring.claims``), in file order. The second
    list is empty without a key yet or with one that may not be used."""
    mark = keys.id.encode("ascii") if keys is not None and keys.id else b""
    bad: list[tuple[int, str]] = []
    claimed: list[int] = []
    for n, raw, signed in lines:
        if not raw.strip():
            continue
        # why not _parse: nothing of the line is printed; _plain first: no parse of a line as written
        entry, why = _plain(raw) or _judged(raw)
        if why:
            bad.append((n, why))
        # why signed first: a line this key signed claims nothing (Ring.claims), and is most of them
        elif not signed and keys is not None and mark and mark in raw and keys.claims(raw, entry, signed):
            claimed.append(n)
    return bad, claimed


# why: past this many bytes of lines in a row older than the period the backward read stops, so a
# check stays bounded with many years of history (whole files up to it: ~80,000 calls); an older run
# than that (another machine's history merged after today's lines) could still hide spend
OLD_RUN_BYTES = 32 * 1024 * 1024
# what record() writes first: a line in this shape with one "ts" and no escape is dated without parsing
_HEAD = re.compile(rb'\{"time":"[^"\\]*","ts":(\d+(?:\.\d+)?),')


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


def raw_since(since: float, env: Mapping[str, str] | None = None) -> list[bytes]:
    """The bytes of every line every reader counts with ``ts >= since``, in file order (the whole file)."""
    try:
        with open(open_regular(paths.ledger_file(env))[0], "rb") as fh:
            return [raw.rstrip(b"\r\n") for raw in fh
                    if (entry := _parse(raw) if raw.strip() else None) is not None and entry["ts"] >= since]
    except OSError:
        return []


def read_since(since: float, env: Mapping[str, str] | None = None, path: str | None = None,
               mine: bool = False, light: bool = False) -> list[dict]:
    """Ledger entries with ``ts >= since``, in file order. Reads from
    the end and stops only after ``OLD_RUN_BYTES`` of lines in a row older than ``since`` by more than
    SLACK: lines out of order (a sync, a clock step) never hide the period's spend from the caps.
    ``mine``: only this machine's own lines (``own``, ADR 0065), each once; the others neither count
    nor make the run of old lines that stops the read (a remote's old lines merged after today's).
    ``light``: an entry of a line as :func:`record` writes it holds only ``ts``, ``total_cost_usd``,
    ``call`` and ``by`` (the same lines, the same amounts; for the caps, which read nothing else)."""
    path = path or paths.ledger_file(env)
    # why make=False: a read makes no key (lh doctor is read-only); the spenders make it (budget.open_call, record)
    keys = own.ring(env, lambda since: raw_since(since, env), make=False) if mine else None
    try:
        # why open_regular: a FIFO in the ledger's place held the budget check (the worker) and lh cost in open()
        fh = open(open_regular(path)[0], "rb")  # noqa: SIM115 - why: apart from `with` so only an unopened file returns []
    except OSError:
        return []
    with fh:
        return period(_backwards(fh), since, None if keys is None else lambda raw: keys.marked(raw)[0],
                      dated, len, _light if light else _parse)


def dated(raw: bytes) -> float | dict | None:
    """When a line was written, as :func:`read_since` dates it: its ``ts`` read from its head (:data:`_HEAD`)
    or, for a line dated only by a parse, that parse (a dict: its ``"ts"``, and the line's entry); None
    for a blank line or one no reader counts. why not a pair: ``lh cost`` keeps one of these per line,
    and a tuple each made its read of the ledger slower."""
    m = _HEAD.match(raw)
    if m and raw.count(b'"ts"') == 1 and b"\\" not in raw:
        return float(m[1])
    return _parse(raw) if raw.strip() else None


def period(lines: Iterable[Any], since: float, said: Callable[[Any], str | None] | None,
           date: Callable[[Any], float | dict | None], size: Callable[[Any], int],
           entry: Callable[[Any], Any]) -> list[dict]:
    """:func:`read_since`'s entries of ``lines``, given last first, in file order: ``said`` what
    ``own.Ring.marked`` knows a line by (its first copy counts, lines without one are skipped; None:
    every line), ``date`` its :func:`dated`, ``size`` its length without the newline, ``entry`` its
    entry when no parse dated it. The rules of every read of the period: ``lh cost``'s one read
    (cost/snapshot.py) gives them its lines as it kept them."""
    seen: set[str] = set()
    out: list[dict] = []
    old = 0
    for line in lines:
        if said is not None:
            mark = said(line)
            if mark is None or mark in seen:  # why seen: a remote repeating a line of this machine adds no spend
                continue
            seen.add(mark)
        when = date(line)
        if when is None:
            continue
        if isinstance(when, dict):
            ts, got = when["ts"], when
        else:
            ts, got = when, None
        if ts < since - SLACK:
            old += size(line) + 1
            if old >= OLD_RUN_BYTES:
                break
            continue
        old = 0
        if ts >= since:
            got = got if got is not None else entry(line)
            if got is not None:
                out.append(got)
    out.reverse()
    return out


@dataclass
class Totals:
    calls: int = 0
    cost_usd: float = 0.0
    tokens: dict = field(default_factory=lambda: {name: 0 for name in TOKEN_FIELDS})
    failed: int = 0
    unreported: int = 0  # no cost from the CLI nor from tokens: estimated or none (:func:`source`)
    estimated: int = 0  # of the unreported: counted at their estimate (a timeout, interrupted, killed)
    priced: int = 0  # priced from the tokens they reported (codex calls)
    priced_default: int = 0  # of the priced: at the default prices (``cost_reported`` false)

    def add(self, entry: dict) -> None:
        self.calls += 1
        self.cost_usd += float(entry["total_cost_usd"])
        counts = {name: value if isinstance(value := entry.get(name), int) and not isinstance(value, bool) else 0
                  for name in TOKEN_FIELDS}
        how = source(entry)
        if how == PRICED:
            # why: a codex call's input tokens hold its cached ones (OpenAI counts cached input as
            # input); claude's do not. Counted once, under cache, so input means the same for both
            counts["input_tokens"] -= max(0, min(counts["cache_read_tokens"], counts["input_tokens"]))
            self.priced += 1
            self.priced_default += entry.get("cost_reported") is False
        for name in TOKEN_FIELDS:
            self.tokens[name] += counts[name]
        if entry.get("outcome") != "ok":
            self.failed += 1
        if how in (ESTIMATED, NONE):
            self.unreported += 1
            self.estimated += how == ESTIMATED

    def as_dict(self) -> dict:
        return {"calls": self.calls, "cost_usd": round(self.cost_usd, 6), **self.tokens,
                "failed_calls": self.failed, "calls_without_cost": self.unreported,
                "calls_at_estimate": self.estimated, "calls_priced": self.priced}


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


def _known_cost(entry: Mapping[str, Any], prices: tuple[float, float] | None) -> bool:
    """Whether the line's dollars are what its call cost: reported by the CLI, or priced from its
    tokens (at ``prices``, when given: a line priced otherwise was not made at the call's price)."""
    how = source(entry)
    if how == PRICED:
        return prices is None or entry.get("usd_per_mtok") == [float(p) for p in prices]
    return how == REPORTED


def cost_per_char(env: Mapping[str, str] | None = None, now: float | None = None, last: int = 20,
                  alike: Callable[[object], bool] | None = None,
                  prices: tuple[float, float] | None = None) -> float | None:
    """Average dollars per prompt character over the last ``last`` successful calls of the past
    30 days whose ``model`` passes ``alike`` (any model when None) and whose cost is known
    (:func:`_known_cost`, at ``prices`` for a priced line); None without such history."""
    now = time.time() if now is None else now
    # why: not the model check's calls: their prompt is a few entries, so nearly all their cost is the
    # CLI's own system prompt, and their dollars per character would price a distillation far too high
    samples = [e for e in read_since(now - 30 * 86400, env, mine=True)
               if e.get("outcome") == "ok" and _known_cost(e, prices) and e.get("kind") != "model-check"
               and _number_in(e.get("prompt_chars"), 1, MAX_PROMPT_CHARS)
               and (alike is None or alike(e.get("model")))][-last:]
    if not samples:
        return None
    return sum(e["total_cost_usd"] for e in samples) / sum(e["prompt_chars"] for e in samples)
