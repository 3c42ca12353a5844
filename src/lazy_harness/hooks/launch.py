"""What the hook command runs: the bundle of the hooks' modules put first on the import path
(:mod:`lazy_harness.hotload`), then ``hooks.entry.run``. The ``lh-hook`` script and
``python -m lazy_harness.hooks`` run it too."""

from __future__ import annotations

from lazy_harness import hotload


def run() -> None:
    hotload.install()
    from lazy_harness.hooks.entry import run as run_entry

    run_entry()
