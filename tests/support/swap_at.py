"""Another local user's swap made deterministic: patched calls count themselves, and the one
numbered ``step`` first runs the swap (what their ``renameat2`` would do between two calls of ours).
A test runs the code under test once for every step in turn (tests/test_hotload_race.py,
tests/test_config_race.py)."""

import builtins
import os
from collections.abc import Callable

import pytest


class SwapAt:
    """Patches ``os.<name>`` for each of ``calls`` (and ``open`` with ``builtin_open``); the call
    numbered ``step`` runs ``swap`` first, once. ``swapped`` says whether it came."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, step: int, swap: Callable[[], object],
                 calls: tuple[str, ...], builtin_open: bool = False) -> None:
        self.count, self.step, self.swap, self.swapped = 0, step, swap, False
        for name in calls:
            monkeypatch.setattr(os, name, self._wrap(getattr(os, name)))
        if builtin_open:
            monkeypatch.setattr(builtins, "open", self._wrap(builtins.open))

    def _wrap(self, real: Callable) -> Callable:
        def call(*args: object, **kwargs: object) -> object:
            if self.count == self.step and not self.swapped:
                self.swapped = True
                self.swap()
            self.count += 1
            return real(*args, **kwargs)
        return call
