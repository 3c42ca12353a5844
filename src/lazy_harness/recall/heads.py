"""Learning heads for the SessionStart digest: each file's frontmatter and the start of its text,
read once and kept while the file is unchanged.

The digest ranks the newest ``CANDIDATES`` learning files (recall/digest.py) by their heads. Reading
and parsing 200 heads costs 10 to 20 ms at every start, though learnings change only when the
worker, sync or a person writes one. So the heads are kept:

    <cache dir>/learning-heads.json   {"version": 1, "heads": {<path>: [size, mtime_ns, inode, head]}}

A head is taken from there only while its file's size, mtime and inode are the ones it was read at
(one ``stat`` per file; an atomic replace, an edit in place or a sync changes at least one), and is
read from the file otherwise. The file is rewritten, holding the heads of this start's candidates
only, when a head was read from its file. A missing or damaged cache is read as empty.

Hot path: only ``os`` and our hot-path modules at import time.
"""

import os

from lazy_harness import jsonload
from lazy_harness.memory import files

HEAD_BYTES = 4096
MAX_HEAD_BYTES = 65536
CAP_EXCERPT = 240
VERSION = 1  # why: bump when read_head's result changes for the same bytes, so kept heads are read again


def excerpt(body: str) -> str:
    """The start of the ``## Learning`` section (or of the body), on one line."""
    at = body.find("## Learning")
    if at >= 0:
        nl = body.find("\n", at)
        chunk = body[nl + 1:] if nl >= 0 else ""
    else:
        chunk = body.lstrip()
        while chunk.startswith("#"):
            nl = chunk.find("\n")
            chunk = chunk[nl + 1:].lstrip() if nl >= 0 else ""
    chunk = chunk[:4 * CAP_EXCERPT]
    cut = chunk.find("\n#")
    return " ".join((chunk[:cut] if cut >= 0 else chunk).split())


def read_head(path: str) -> dict | None:
    """Frontmatter and the start of a learning file, reading only its first few kilobytes."""
    try:
        with open(path, "rb") as fh:
            data = fh.read(HEAD_BYTES)
            parsed = files.parse_frontmatter(data.decode("utf-8", "replace"))
            if parsed is None and len(data) == HEAD_BYTES:
                data += fh.read(MAX_HEAD_BYTES - HEAD_BYTES)
                parsed = files.parse_frontmatter(data.decode("utf-8", "replace"))
    except OSError:
        return None
    meta, body = parsed if parsed is not None else ({}, data.decode("utf-8", "replace"))
    meta["learning"] = excerpt(body)
    meta["path"] = path
    return meta


def _stamp(path: str) -> list[int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return [st.st_size, st.st_mtime_ns, st.st_ino]


def _load(cache_file: str) -> dict:
    try:
        with open(cache_file, "rb") as fh:
            data = jsonload.loads(fh.read())
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("version") != VERSION or not isinstance(data.get("heads"), dict):
        return {}
    return data["heads"]


def read_heads(paths_: list[str], cache_file: str | None) -> tuple[list[dict], str | None]:
    """(``read_head`` of every path that can be read, in order; why the cache could not be written
    or None). Heads come from ``cache_file`` where the file is unchanged since it was kept (None: no
    cache)."""
    kept = _load(cache_file) if cache_file else {}
    heads, keep, read = [], {}, 0
    for path in paths_:
        stamp = _stamp(path)
        old = kept.get(path)
        if stamp is not None and isinstance(old, list) and len(old) == 4 and old[:3] == stamp and isinstance(old[3], dict):
            head = old[3]
            head["path"] = path
        else:
            head = read_head(path)
            read += 1
            if head is None:
                continue
        heads.append(head)
        if stamp is not None:
            keep[path] = [*stamp, {k: v for k, v in head.items() if k != "path"}]
    if cache_file and (read or len(keep) != len(kept)):
        from lazy_harness.atomic import atomic_write

        try:
            atomic_write(cache_file, jsonload.dumps({"version": VERSION, "heads": keep}))
        except OSError as exc:  # why: a cache; the next start reads the files again
            return heads, f"learning heads not kept: {exc}"
    return heads, None
