"""The file ``lh ui`` gives the browser in place of the page's URL.

A browser is started with what it should open on its command line, and every user of the machine can
read a process's command line (``ps``, ``/proc/<pid>/cmdline``). The URL holds the page's secret path
and its token, so the browser gets ``file://<a file of ours>`` instead: a small page (0600) in a
folder made for it alone (0700) in our cache folder, which sends the browser on to the URL (a meta
refresh, and a link for a browser that does not follow one). The server removes it once the token
signs in (the browser followed it), else when it stops; a copy left behind signs nobody in: the
token signs in once (ui/server.py).
"""

from __future__ import annotations

import html
import os
import shutil
import tempfile

from lazy_harness import paths, private
from lazy_harness.atomic import FILE_MODE, write_all
from lazy_harness.errors import LhError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

NAME = "open.html"


def write(url: str, env: Mapping[str, str] | None) -> str:
    """The path of a new private file that sends a browser on to ``url``."""
    cache = paths.cache_dir(env)
    try:
        private.make(cache)
    except private.UnsafeFolder as exc:
        raise LhError(str(exc), hint=private.fix(cache, str(exc))) from None
    # why: a folder of its own (mkdtemp makes it 0700 with a name nobody can guess): two `lh ui` at
    # once do not share a file, and removing it takes nothing else with it
    folder = tempfile.mkdtemp(prefix="ui-", dir=cache)
    path = os.path.join(folder, NAME)
    link = html.escape(url, quote=True)
    text = (f'<!doctype html><html lang="en"><head><meta charset="utf-8">'
            f'<meta http-equiv="refresh" content="0; url={link}"><title>lh ui</title></head>'
            f'<body><p><a href="{link}">Open the page of lh ui</a></p></body></html>\n')
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), FILE_MODE)
    try:
        write_all(fd, text.encode("utf-8"))
    finally:
        os.close(fd)
    return path


def file_url(path: str) -> str:
    """What the browser is given for the file ``path``: its file:// URL, without the secrets."""
    from pathlib import Path

    return Path(path).as_uri()


def remove(path: str) -> None:
    """Remove the file and its folder; nothing to do when they are gone already."""
    folder = os.path.dirname(path)
    if os.path.basename(folder).startswith("ui-"):
        shutil.rmtree(folder, ignore_errors=True)
