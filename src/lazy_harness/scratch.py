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
"""

from __future__ import annotations

import os
import tempfile

from lazy_harness import paths, private
from lazy_harness.errors import LhError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping


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
    block using it ends."""
    return tempfile.TemporaryDirectory(prefix=prefix, dir=place(env), ignore_cleanup_errors=True)
