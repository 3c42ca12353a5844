"""One read of the spend ledger for a command that asks it several things: ``lh cost`` asks for every
line of its period, this machine's lines of it, the month's spend the caps see (``budget.spend``) and
the lines no cap counts (``ledger.unread``). Each was a read of its own, four in all, and each parsed
or checked the MAC of every line of the month again (31 s for 250,000 lines on a loaded machine:
benchmarks/bench_ledger_doctor.py).

The answers are those of ``ledger.read_since`` and ``ledger.unread``, line for line: the file is read
once, forwards, and the backward reads are played over what that read kept, with their stop after
``OLD_RUN_BYTES`` of old lines in a row and their count of a repeated line of this machine's once
(its last copy). Each line is parsed, and its MAC checked, at most once.
"""

from __future__ import annotations

from lazy_harness import paths
from lazy_harness.cost import ledger, own
from lazy_harness.regular_file import open_regular

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping
    from typing import Any

_UNPARSED = object()  # a line whose entry is not read yet (:meth:`Snapshot._entry`)


class Snapshot:
    """The ledger as one read saw it, for the periods starting at ``sinces`` (the earliest decides which
    lines are kept whole: older ones keep only their length, date and mark). Read on first use."""

    def __init__(self, sinces: Iterable[float], env: Mapping[str, str] | None = None) -> None:
        self.env, self.lowest = env, min(sinces) - ledger.SLACK
        self._read = False
        self.keys: own.Ring | None = None
        self.mark = b""  # this key's id as a line carries it
        self.raws: list[bytes | None] = []  # a line's bytes without its newline, None for one kept short
        self.dates: list[float | None] = []  # its ts as read_since reads it (None: no line every reader counts)
        self.sizes: list[int] = []
        self.saids: list[str | None] = []  # what Ring.mine knows it by (None: not this machine's)
        self.dated: dict[int, Any] = {}  # line index -> the parse that dated it (no quick date read)
        self.parsed: dict[int, Any] = {}  # line index -> ledger._parse of it, once a read asked for it
        self.damaged: list[tuple[int, str]] = []
        self.claimed: list[int] = []

    def unread(self) -> tuple[list[tuple[int, str]], list[int]]:
        """What :func:`lazy_harness.cost.ledger.unread` says of the ledger."""
        self._load()
        return self.damaged, self.claimed

    def since(self, since: float, mine: bool = False, light: bool = False) -> list[dict]:
        """What :func:`lazy_harness.cost.ledger.read_since` gives for these arguments (``since`` not
        before the earliest of ``sinces``)."""
        self._load()
        out: list[dict] = []
        old, seen, by_key = 0, set(), mine and self.keys is not None
        for i in range(len(self.dates) - 1, -1, -1):
            if by_key:
                said = self.saids[i]
                if said is None or said in seen:
                    continue
                seen.add(said)
            ts = self.dates[i]
            if ts is None:
                continue
            if ts < since - ledger.SLACK:
                old += self.sizes[i] + 1
                if old >= ledger.OLD_RUN_BYTES:
                    break
                continue
            old = 0
            if ts >= since:
                entry = self._entry(i, light)
                if entry is not None:
                    out.append(entry)
        out.reverse()
        return out

    def _entry(self, i: int, light: bool) -> Any:
        """The entry of line ``i`` as read_since makes it: the parse that dated it, else ``_light`` or
        ``_parse`` (the last kept: the next read of the period shares it)."""
        if i in self.dated:
            return self.dated[i]
        raw = self.raws[i]
        assert raw is not None  # why: a line at or after the earliest period is kept whole
        if light:
            return ledger._light(raw)
        got = self.parsed.get(i, _UNPARSED)
        if got is _UNPARSED:
            got = self.parsed[i] = ledger._parse(raw)
        return got

    def _load(self) -> None:
        if self._read:
            return
        self._read = True
        self.keys = own.ring(self.env, lambda since: [], make=False)  # why make=False: a read makes no key
        self.mark = self.keys.id.encode("ascii") if self.keys is not None and self.keys.id else b""
        try:  # why open_regular: a FIFO in the ledger's place held lh cost in open() for good
            with open(open_regular(paths.ledger_file(self.env))[0], "rb") as fh:
                for n, line in enumerate(fh, 1):
                    self._line(n, line[:-1] if line.endswith(b"\n") else line)
        except OSError:  # why all of it dropped: as each read it replaces, an unreadable ledger reads as empty
            self.raws, self.dates, self.sizes, self.saids, self.dated, self.parsed = [], [], [], [], {}, {}
            self.damaged, self.claimed = [], []

    def _line(self, n: int, raw: bytes) -> None:
        """Line ``n`` (``raw``, without its newline): what each read asks of it, worked out once."""
        keys = self.keys
        said, signed = keys.marked(raw) if keys is not None else (None, False)
        blank = not raw.strip()
        if not blank:
            # why _plain first: no parse of a line as record() writes it (ledger.unread)
            entry, why = ledger._plain(raw) or ledger._judged(raw)
            if why:
                self.damaged.append((n, why))
            elif keys is not None and self.mark and self.mark in raw and not signed and entry.get("by") == keys.id:
                self.claimed.append(n)  # why: Ring.claims, its MAC check already made
        ts = ledger._quick_ts(raw)
        if ts is None:
            parsed = ledger._parse(raw) if not blank else None
            ts = parsed["ts"] if parsed is not None else None
            if parsed is not None:
                self.dated[len(self.dates)] = parsed
        self.raws.append(raw if ts is not None and ts >= self.lowest else None)
        self.dates.append(ts)
        self.sizes.append(len(raw))
        self.saids.append(said)
