"""A sync pull at SessionStart (``session_start.pull``, once its interval has passed): the stamp
touched, the pull started detached, waited for within ``sync.pull_budget_ms``, and a sync repository
refused for its folders told to the person.

Imported only when a pull starts: at most every ``sync.interval_minutes``, with a sync remote.
"""

from __future__ import annotations

import os

from lazy_harness.regular_file import append_regular

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Protocol

    from lazy_harness.config.typed import Config

    class Told(Protocol):
        """What of the SessionStart run (``session_start.Start``) the pull reads and writes."""

        env: Mapping[str, str]
        now: float
        cfg: Config
        person: list[str]


# the words of ``sync.repo.RUNS_NO_GIT``: the data folder's repository, or a remote on this machine,
# that another user could write (ADR 0031)
SYNC_REFUSED = "lh sync runs no git there"


def pull(s: Told, stamp: str) -> str:
    """Touch ``stamp``, start a pull and wait for it at most ``pull_budget_ms``, then go on. Its words
    for hooks.log."""
    from lazy_harness.atomic import ensure_dir
    from lazy_harness.detach import spawn_pull

    ensure_dir(os.path.dirname(stamp))
    try:  # why append_regular: a plain open for writing waited there for a FIFO's reader, the session with it
        os.close(append_regular(stamp))
    except OSError as exc:
        return f" (pull not started: {stamp}: {exc.strerror or exc}; hint: move it aside)"
    os.utime(stamp, (s.now, s.now))
    try:
        pid, fd = spawn_pull(s.env)
    except OSError as exc:
        return f" (pull not started: {exc})"
    import select

    budget = max(0, int(s.cfg["sync"]["pull_budget_ms"])) / 1000
    try:
        ready = select.select([fd], [], [], budget)[0]
        # why 2 kB: a refusal of a remote names two paths before SYNC_REFUSED; 512 bytes could cut it off
        said = os.read(fd, 2048).decode("utf-8", "replace").strip() if ready else ""
    finally:
        os.close(fd)
    if not ready:
        return f" (pull pid {pid} still running after {budget:g} s: remote slow or offline; going on without it)"
    if SYNC_REFUSED in said:  # why the person: sync stays stopped until they fix it; hooks.log alone hides it
        s.person.append(f"lazy-harness: {said.removeprefix('pull failed: ')} (lh doctor says what to run)")
    return f" ({said or 'pull ended without a word'})"
