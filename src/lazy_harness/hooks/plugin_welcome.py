"""The plugin's first SessionStart on a machine (``session_start.welcome`` found no marker): the
compound loop switched on, as ``lh hooks install`` does, and the person's words for it: what happens
next, a loop their config.toml keeps off, or one that could not be switched on and what to write.

Imported only at that start, and at each start while the loop could not be switched on (no marker).
"""

from __future__ import annotations

import os

from lazy_harness import config, notice, paths

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Protocol

    class Told(Protocol):
        """What of the SessionStart run (``session_start.Start``) the welcome reads and writes."""

        env: Mapping[str, str]
        person: list[str]
        unmarked: bool

        def headless(self) -> bool: ...


def first_start(s: Told, marker: str) -> str:
    """Switch the loop on, tell the person once and write ``marker`` (not on a headless run: the next
    start tells a person). Its words for hooks.log."""
    from lazy_harness.atomic import ensure_dir
    from lazy_harness.errors import LhError

    try:
        what = config.enable_loop(paths.config_file(s.env), unless_off=True)
    except LhError as exc:  # why: a config.toml that does not parse stays as it is; the notice says so
        s.person.append(not_switched_on(exc.message, exc.hint))
        return f" (plugin first start: loop not switched on: {exc.message}; told the person, not marked told)"
    if s.headless():  # why no marker: the next start asks again (loop "already enabled") and tells a person
        s.unmarked = True
        s.person.append(first_words(what, s.env))
        return f" (plugin first start: loop {what})"
    try:
        ensure_dir(os.path.dirname(marker))
        os.close(os.open(marker, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        return f" (plugin first start: loop {what}; told by another session)"
    except OSError as exc:
        what += f"; marker not written: {exc}"
    s.person.append(first_words(what, s.env))
    return f" (plugin first start: loop {what}; told the person what happens next)"


LEFT_OFF = "left off"  # config.enable_loop's word for a config.toml that says enabled = false itself


def first_words(what: str, env: Mapping[str, str]) -> str:
    """The plugin's first words to the person once ``config.enable_loop`` said ``what``: what happens
    next, or, for a loop the person's config.toml keeps off, that nothing is distilled."""
    if what.startswith(LEFT_OFF):
        return ("lazy-harness: the compound loop stays off: config.toml sets compound_loop.enabled to false, so "
                "sessions are not distilled into memory (what memory holds is still read back). To have them "
                "distilled, set compound_loop.enabled to true.")
    return "\n".join(notice.next_steps(config.load_fast(env)))


def not_switched_on(why: str, hint: str | None) -> str:
    """The person's line for a loop the plugin could not switch on (``why``, ``hint``: the ConfigError
    of ``config.enable_loop``): sessions are not distilled, and what to write."""
    todo = hint if hint and "enabled" in hint else (
        f"fix what {hint} reports, then set compound_loop.enabled to true" if hint
        else "set compound_loop.enabled to true in config.toml")
    return (f"lazy-harness: the compound loop is not switched on, so sessions are not distilled into memory: {why}. "
            f"To switch it on, {todo}; this is said at each start until it is on.")
