"""This project's learnings of a title older than the SessionStart candidates: another project's learning
of that title is left out at the start too (memory/own_title.py, ADR 0071). Why not every file at every
start: listing 16,800 names cost 15 ms; a title's files are named after it, so the older month folders'
names that start as its do are kept in ``<cache dir>/learning-older-titles.json`` while each folder's
``stat`` is unchanged. Hot path: only ``os`` and our hot-path modules at import time."""

from __future__ import annotations

import os

from lazy_harness import jsonload, paths
from lazy_harness.memory import lines, own_title
from lazy_harness.memory.files import is_learning_name, month_folders

# why: not ``typing.TYPE_CHECKING``: ``typing`` is not imported on the hot path (house style section 3)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from lazy_harness.memory.shapes import Env

VERSION = 1
STEMS = 64  # titles' stems kept; the first ones asked go first
FALLBACK = "learning"  # the names of titles with no ASCII word: ``learning-<hash of the title as spelt>``


def stem_of(title: str) -> str:
    """What a title's file names start with, dashes aside: the first 10 letters and digits of its slug."""
    if not title.isascii():
        import unicodedata  # why here: only a title outside ASCII pays for it

        title = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode("ascii")
    return "".join(c for c in title.lower() if c.isalnum())[:10] or FALLBACK


class Older:
    """The files of titles in the months up to the oldest candidate's, less the ``candidates`` (the
    start's, newest first, at least one), found through the kept names (:meth:`files`)."""

    def __init__(self, candidates: list[str], env: Env | None) -> None:
        folder = os.path.dirname(candidates[-1])
        self.ldir, self.seen, boundary = os.path.dirname(folder), set(candidates), os.path.basename(folder)
        self.months = [m for m in month_folders(self.ldir) if m <= boundary]
        self.cache_file = os.path.join(os.path.dirname(paths.learning_heads_file(env)), "learning-older-titles.json")
        self.stems = self._load()
        self.changed = False

    def _load(self) -> dict:
        try:  # why read_regular: a FIFO in the cache's place would hold the session start
            data = jsonload.loads(lines.read_regular(self.cache_file))
        except (OSError, ValueError):
            return {}
        ok = isinstance(data, dict) and data.get("version") == VERSION and isinstance(data.get("stems"), dict)
        return data["stems"] if ok else {}

    def files(self, stem: str) -> list[str]:
        """The paths, not among the candidates, whose name past its date starts with ``stem`` (dashes aside)."""
        kept = self.stems.get(stem)
        kept = kept if isinstance(kept, dict) else {}
        now: dict[str, list] = {}
        out: list[str] = []
        for month in self.months:
            folder = os.path.join(self.ldir, month)
            try:
                st = os.stat(folder)
            except OSError:
                continue
            was = kept.get(month)
            if isinstance(was, list) and len(was) == 3 and was[:2] == [st.st_mtime_ns, st.st_size] \
                    and isinstance(was[2], list):
                names = [n for n in was[2] if isinstance(n, str)]
            else:
                names = _names(folder, stem)
                self.changed = True
            now[month] = [st.st_mtime_ns, st.st_size, names]
            out += [p for n in names if (p := os.path.join(folder, n)) not in self.seen]
        if now != kept:
            self.changed = True
        self.stems.pop(stem, None)
        self.stems[stem] = now  # why last: the titles asked lately stay when STEMS are kept
        return out

    def save(self) -> str | None:
        """Keep the names found, only when changed; why it could not be written, or None."""
        if not self.changed:
            return None
        from lazy_harness.atomic import atomic_write

        stems = dict(list(self.stems.items())[-STEMS:])
        try:  # why not durable: a cache; lost, the next start lists the folders again
            atomic_write(self.cache_file, jsonload.dumps({"version": VERSION, "stems": stems}), durable=False)
        except OSError as exc:
            return f"older learning names not kept: {exc}"
        return None


def _names(folder: str, stem: str) -> list[str]:
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    # why the first letter first: a slug starts with its stem's first letter; the rest cost 1 us a name
    first = stem[0]
    return sorted(n for n in names if n[11:12] == first and n[11:].replace("-", "").startswith(stem)
                  and is_learning_name(n))


def title_key(h: dict) -> str:
    """A head's title as the rule matches it (memory/own_title.py)."""
    return own_title.title_of(h.get("title"), h["path"])


def raw_title(h: dict) -> str:
    """A head's title as written, else its file name's."""
    from lazy_harness.memory import ids

    return str(h.get("title") or ids.title_of_file(h["path"]))
