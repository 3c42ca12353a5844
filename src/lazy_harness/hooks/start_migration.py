"""A migration at SessionStart (``session_start.migration`` found something to move): this project's
files moved out of Claude Code's auto-memory folder (``memory.migrate``), memory left behind by
another repository told to the person once, memory another clone here still uses told to them, and
the memory of a folder this project was moved from named to them at its first start here.

Imported only at a start that migrates or a project's first start here: not on a start's usual run.
"""

from __future__ import annotations

from lazy_harness.memory import migrate

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Protocol

    class Told(Protocol):
        """What of the SessionStart run (``session_start.Start``) the migration reads and writes."""

        env: Mapping[str, str]
        now: float
        person: list[str]
        unmarked: bool

        def headless(self) -> bool: ...


def migrate_now(s: Told, mdir: str, key: str, root: str) -> str:
    """Move the files of the project at ``root`` (``key``) into ``mdir``. Its words for hooks.log."""
    try:
        lines = migrate.migrate(mdir, key, root, s.env, s.now, settle=lambda: not s.headless())
    except Exception as exc:  # why: a failed move leaves the files in place; the session still starts
        return f" (migration failed: {type(exc).__name__}: {exc})"
    # why the person: memory left behind is theirs to adopt (a rewritten history proves nothing either
    # way), said once: the key is the new repository's from then on, unless nobody saw this start
    told = [f"lazy-harness: {line.removeprefix('migrate: ')}" for line in lines if migrate.OTHER_REPOSITORY in line]
    if told:
        s.person += told
        s.unmarked = s.unmarked or s.headless()
    # why the person too: a clone whose origin changed while another clone here keeps the old one starts
    # empty, and nothing else says where its memory is (``lh memory path --old`` offers no live project's);
    # said at each start until the project is written under its new key or the person adopts the old one
    s.person += [f"lazy-harness: {line.removeprefix('migrate: ')}" for line in lines if migrate.STILL_OWNED in line]
    return "".join(f" ({line})" for line in lines)


def tell_moved(s: Told, root: str, mdir: str) -> str:
    """At a project's first start here (no record of its key yet): the memory folders of the same
    repository whose folder is gone (``owners.moved_from``: moved or renamed, so its path key
    changed), named to the person with the command that takes one over. Nothing is merged: two folders
    are one project only by the person's word (ADR 0035). Told once (the record written next ends the
    first start); a headless start's message is sent all the same. Its words for hooks.log."""
    from lazy_harness.memory import owners

    found = owners.moved_from(root, mdir, s.env)
    for key, was in found[:3]:
        s.person.append(f"lazy-harness: {key} is the memory of this project when it was at "
                        f"{was}, which is gone: if it moved here, lh memory adopt -- {key} takes it over "
                        "(lh memory path --old lists it)")
    return "".join(f" (moved: told the person of {key}, was {was})" for key, was in found[:3])
