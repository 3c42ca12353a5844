"""The lines ``lh doctor`` prints: one per check, ``ok|info|warn|fail``, the check's name, what was
found, and a hint; any fail line makes the exit status 1."""

from __future__ import annotations

import click

from lazy_harness.logfile import terminal_safe


class Report:
    def __init__(self) -> None:
        self.failed = False

    def line(self, status: str, check: str, detail: str, hint: str | None = None) -> None:
        self.failed = self.failed or status == "fail"
        # why terminal_safe: a detail names files a sync remote wrote, folders a cloned repository named
        click.echo(terminal_safe(f"{status:<4}  {check}: {detail}" + (f"  (hint: {hint})" if hint else "")))

    def warn_each(self, check: str, found: str, hint: str, lines: list[str]) -> None:
        """A warning of what was found, then each of ``lines`` (a damaged file or line) on its own."""
        self.line("warn", check, found, hint)
        for each in lines:
            self.line("warn", check, each)
