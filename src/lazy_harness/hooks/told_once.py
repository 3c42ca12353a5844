"""What SessionStart tells the person once, when there is something to tell: memory entries held and
learnings waiting for approval (``session_start.hold_and_tell``), failures that happened again after
memory showed them (``session_start.tell_recurred``). Each is marked told, unless nobody sees this
start's systemMessage (a headless run): then the next start tells it.

Imported only when there is something to tell: not on a start's usual run.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Protocol

    class Told(Protocol):
        """What of the SessionStart run (``session_start.Start``) the telling reads and writes."""

        env: Mapping[str, str]
        person: list[str]
        told: str
        unmarked: bool

        def headless(self) -> bool: ...


def held(seen: Told | None, project: str, told_file: str, new: list[str], new_waiting: list[str], in_all: int
         ) -> tuple[str, str]:
    """The person's lines for the entries of ``project`` held (``new``) and the learnings waiting for
    approval (``new_waiting``, of ``in_all`` waiting) since they were last told, marked told in
    ``told_file`` unless ``seen`` (the run) is headless: (log words, message)."""
    if seen is not None and seen.headless():
        seen.unmarked = True
    else:
        from lazy_harness.atomic import append_line, ensure_dir

        ensure_dir(os.path.dirname(told_file))
        append_line(told_file, " ".join(new + new_waiting))
    said = ""
    lines = []
    if new:
        n = len(new)
        said += " (told the person: held)"
        # why no reason named: entries are held for instructions to the agent, a secret (ADR 0056), the
        # model or learned check, or past the per-session cap; lh memory held gives each one's
        lines.append(f"lazy-harness held {n} memory entr{'y' if n == 1 else 'ies'} of {project} for review "
                     f"({', '.join(new[:5])}{', ...' if n > 5 else ''}); they are not shown to sessions. Why each "
                     "was held: lh memory held; release one: lh memory approve ID.")
    if new_waiting:
        n = in_all
        said += f" (told the person: {n} waiting for approval)"
        lines.append(f"lazy-harness: {n} learning{'s wait' if n != 1 else ' waits'} for your approval to be used "
                     f"in other projects: lh memory held")
    return said, "\n".join(lines)


def recurred(s: Told, project: str, key: str, again: list[str]) -> None:
    """Tell the person of the failures of ``project`` (memory folder ``key``) that happened again
    (``again``, their ids), and mark them told unless the run is headless."""
    from lazy_harness.memory import usage

    if s.headless():  # why: told once; nobody sees a headless run's message, the next start tells it
        s.unmarked = True
    else:
        usage.told_recurred(s.env, key, again)
    n = len(again)
    s.person.append(f"lazy-harness: {n} failure{'s' if n != 1 else ''} of {project} happened again after "
                    f"memory showed {'them' if n != 1 else 'it'} to the session ({', '.join(again[:5])}"
                    f"{', ...' if n > 5 else ''}). See: lh memory usage; lh memory show.")
    s.told += f" (told the person: recurred {','.join(again)})"
