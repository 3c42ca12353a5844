"""Scratch folders for files lh hands to another program a moment later (the schema ``codex exec``
reads, the ``CODEX_HOME`` of the app-server that hashes our hooks): private, random names, removed
after use (ADR 0079).

A new folder is made in the system's temporary folder (``TMPDIR``, else /tmp) only when no other user
can rename in it or in a folder above it (:func:`lazy_harness.private.problem`: the rule of every
folder of ours, ADR 0031). In a ``TMPDIR`` another user owns, or one open to writing without the
sticky bit, that user could swap the new folder for one of theirs between its making and its use: a
``schema.json`` there that is a link to the person's ``~/.bashrc`` was written through, a
``config.toml`` there was loaded by Codex as the person's. Such a ``TMPDIR`` is passed over for
``<cache>/tmp``, private as the cache is.

A call killed mid-way (SIGKILL, the OOM killer) leaves its folder behind. Each new folder first sweeps
its place of ours older than a day (:func:`sweep`).
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import tempfile
import time

from lazy_harness import paths, private
from lazy_harness.errors import LhError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping


PREFIXES = ("lh-codex-",)  # every prefix :func:`folder` is given; a new one is added here
STALE_SECONDS = 24 * 3600
# why the exact shape: tempfile's names are the prefix and 8 of these characters; a name of another
# tool's that starts the same way is not ours to remove
_OURS = re.compile("(?:" + "|".join(re.escape(p) for p in PREFIXES) + ")[a-z0-9_]{8}")


class Refused(LhError):
    """Neither the temporary folder nor the cache folder may hold a scratch folder: why, one line."""


def place(env: Mapping[str, str] | None = None) -> str:
    """The folder a scratch folder is made in: the temporary folder when no other user can rename in
    it, else ``<cache>/tmp`` (made private). Raises :class:`Refused` when that cannot be used either."""
    base = tempfile.gettempdir()
    # why a name in it: a folder that does not exist is judged by the folders above it, ``base`` first
    why = private.problem(os.path.join(base, "lh-scratch"))
    if why is None:
        return base
    fallback = os.path.join(paths.cache_dir(env), "tmp")
    try:
        return private.make(fallback)
    except private.UnsafeFolder as exc:
        raise Refused(f"no private place for a scratch folder: the temporary folder: {why}; {fallback}: {exc}",
                      "point TMPDIR at a folder of yours closed to others (mkdir -m 700 ~/tmp), then see lh doctor"
                      ) from None


def folder(prefix: str, env: Mapping[str, str] | None = None) -> tempfile.TemporaryDirectory[str]:
    """A new private folder (0700, a name nobody can guess) in :func:`place`, removed when the ``with``
    block using it ends. Folders of ours left in the same place for more than a day go first."""
    if prefix not in PREFIXES:
        raise ValueError(f"scratch.folder: prefix {prefix!r} is not in scratch.PREFIXES")
    base = place(env)
    sweep(base, time.time(), os.geteuid())
    return tempfile.TemporaryDirectory(prefix=prefix, dir=base, ignore_cleanup_errors=True)


def sweep(base: str, now: float, uid: int) -> None:
    """Remove the folders of ours in ``base`` last changed more than :data:`STALE_SECONDS` before
    ``now``: a name :func:`folder` makes, owned by ``uid``, a folder and not a link. A link inside is
    removed, not followed (``shutil.rmtree`` works on descriptors here). A call is bounded by its
    timeout (minutes), so a day-old folder is no running call's. Never raises: a folder that cannot be
    read or removed stays for the next sweep."""
    try:
        entries = list(os.scandir(base))
    except OSError:
        return
    for entry in entries:
        if not _OURS.fullmatch(entry.name):
            continue
        try:
            st = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if stat.S_ISDIR(st.st_mode) and st.st_uid == uid and now - st.st_mtime > STALE_SECONDS:
            shutil.rmtree(entry.path, ignore_errors=True)
