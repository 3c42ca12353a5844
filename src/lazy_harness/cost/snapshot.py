"""One read of the spend ledger for a command that asks it several things: ``lh cost`` asks for every
line of its period, this machine's lines of it, the month's spend the caps see (``budget.spend``) and
the lines no cap counts (``ledger.unread``). Each was a read of its own, four in all, and each parsed
or checked the MAC of every line of the month again (31 s for 250,000 lines on a loaded machine:
benchmarks/bench_ledger_doctor.py).

The file is read once, forwards, and what each read asks of a line is worked out then, once: its date
(``ledger.dated``), what this machine knows it by (``own.Ring.marked``), whether this key signed it.
The answers are ``ledger``'s own: the lines go through ``ledger.unread_of`` as they are read, and each
backward read is ``ledger.period`` over the lines kept, so the rules live there alone. A line's full
parse is kept for the next read of the period that asks for it.
"""

from __future__ import annotations

from lazy_harness import paths
from lazy_harness.cost import ledger, own
from lazy_harness.regular_file import open_regular

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Mapping
    from typing import IO, Any


class Snapshot:
    """The ledger as one read saw it, for the periods starting at ``sinces`` (the earliest decides which
    lines are kept whole: older ones keep only their date, size and mark). Read on first use."""

    def __init__(self, sinces: Iterable[float], env: Mapping[str, str] | None = None) -> None:
        self.env, self.lowest = env, min(sinces) - ledger.SLACK
        self._read = False
        self.keys: own.Ring | None = None
        # a line's bytes without its newline; b"" for one kept short (older than every period: no read asks its entry)
        self.raws: list[bytes] = []
        self.dates: list[float | dict | None] = []  # its ledger.dated
        self.sizes: list[int] = []
        self.saids: list[str | None] = []  # what Ring.marked knows it by (None: not this machine's)
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
        return ledger.period(range(len(self.dates) - 1, -1, -1), since,
                             self.saids.__getitem__ if mine and self.keys is not None else None,
                             self.dates.__getitem__, self.sizes.__getitem__,
                             self._light if light else self._parse)

    def _light(self, i: int) -> Any:
        return ledger._light(self.raws[i])

    def _parse(self, i: int) -> Any:
        if i not in self.parsed:
            self.parsed[i] = ledger._parse(self.raws[i])
        return self.parsed[i]

    def _load(self) -> None:
        if self._read:
            return
        self._read = True
        self.keys = own.ring(self.env, lambda since: [], make=False)  # why make=False: a read makes no key
        try:  # why open_regular: a FIFO in the ledger's place held lh cost in open() for good
            with open(open_regular(paths.ledger_file(self.env))[0], "rb") as fh:
                self.damaged, self.claimed = ledger.unread_of(self._kept(fh), self.keys)
        except OSError:  # why all of it dropped: as each read it replaces, an unreadable ledger reads as empty
            self.raws, self.dates, self.sizes, self.saids, self.parsed = [], [], [], [], {}
            self.damaged, self.claimed = [], []

    def _kept(self, fh: IO[bytes]) -> Iterator[tuple[int, bytes, bool | None]]:
        """The file's lines for ``ledger.unread_of``, each with whether this key signed it, keeping as
        it goes what the backward reads ask of each."""
        keys = self.keys
        for n, line in enumerate(fh, 1):
            raw = line[:-1] if line.endswith(b"\n") else line
            said, signed = keys.marked(raw) if keys is not None else (None, False)
            when = ledger.dated(raw)
            ts = when["ts"] if isinstance(when, dict) else when
            self.raws.append(raw if ts is not None and ts >= self.lowest else b"")
            self.dates.append(when)
            self.sizes.append(len(raw))
            self.saids.append(said)
            yield n, raw, signed
