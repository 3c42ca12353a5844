"""What a merge brings in from the remote, recorded on this machine before the merged files are
written (``paths.synced_in_file``: one key a line, 0600, beside the queue, never synced): the ids of
the decision and failure lines the merge adds to a project's ``decisions.jsonl``/``failures.jsonl``
(a line whose bytes the file did not hold), and the ids and the place (``YYYY-MM/name.md``) of each
learning file it adds or changes.

why: an entry's ``machine`` field is text anyone with the remote can write, this machine's host name
included (every entry it pushed carries it); memory/provenance.py ``describe`` labels what this
record names as synced whatever the entry says (ADR 0032, "how a line arrived"). why before the
files: a reader (SessionStart, the index writer, which keeps the label it built) that reads a new
line must find it named here already; a record that cannot be written stops the merge.

Written only by a sync round, under its lock; read by ``provenance.arrived``."""

from __future__ import annotations

import os

from lazy_harness import paths
from lazy_harness.atomic import atomic_write, ensure_dir
from lazy_harness.sync.conflicts import line_records

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping


def line_keys(added: Iterable[bytes]) -> set[str]:
    """The ids a reader may give the entries of ``added`` (JSONL lines): each record's own ``id`` and
    the id it derives as a decision and as a failure, a damaged line read as the readers salvage it."""
    from lazy_harness.memory import ids

    out: set[str] = set()
    for line in added:
        for rec in line_records(line):
            own = rec.get("id")
            if isinstance(own, str) and own.strip():
                out.add(own.strip())
            for kind in ("decision", "failure"):
                try:
                    out.add(ids.of_record(rec, kind))
                except (TypeError, ValueError):  # pragma: no cover - a summary no reader takes
                    pass
    return out


def learning_keys(text: bytes, path: str) -> set[str]:
    """The place of the learning file at ``path`` (``provenance.learning_place``) and the ids a reader
    may give it (with and without its file's name, which a title-less one takes its title from);
    ``path`` ``""``: its place not known yet, the ids its frontmatter gives."""
    from lazy_harness.memory import frontmatter, ids, provenance

    parsed = frontmatter.parse_frontmatter(text.decode("utf-8", "replace"))
    meta = parsed[0] if parsed else {}
    out = {ids.of_learning(meta)}
    if path:
        out |= {provenance.learning_place(path), ids.of_learning(meta, path=path)}
    return out


def _lines(data: bytes | None) -> set[bytes]:
    return {ln.strip() for ln in (data or b"").split(b"\n") if ln.strip()}


def _read(path: str) -> bytes | None:
    try:
        with open(path, "rb") as fh:
            return fh.read()
    except OSError:
        return None


def _held_here(text: bytes, folder: str) -> bool:
    """Whether a learning file in ``folder`` holds ``text`` already. why: a learning of this machine's
    the other one kept under a second name (two added under one name) comes back at that name; the
    same bytes here say what this machine's own file says, nothing more."""
    try:
        names = os.listdir(folder)
    except OSError:
        return False
    for name in names:
        full = os.path.join(folder, name)
        try:
            if name.endswith(".md") and os.path.getsize(full) == len(text) and _read(full) == text:
                return True
        except OSError:
            continue
    return False


def merged_keys(data: str, stage: str, changes: list[tuple[str, str, str]], projects: str,
                learnings: str) -> set[str]:
    """The keys of what the merge's version of each changed file (checked out in ``stage``) brings that
    the file here (in ``data``) lacks. ``projects``, ``learnings``: where memory and learnings are,
    relative to ``data`` (``/``-separated)."""
    from lazy_harness.memory import files

    def below(path: str, folder: str) -> bool:
        return folder in ("", ".") or path.startswith(folder + "/")

    out: set[str] = set()
    for path, _, new in changes:
        name = path.rsplit("/", 1)[-1]
        if not new or not (name.endswith(".md") or name in (files.DECISIONS, files.FAILURES)):
            continue
        merged, here = _read(os.path.join(stage, path)), _read(os.path.join(data, path))
        if merged is None or merged == here:
            continue
        if name.endswith(".md") and below(path, learnings):
            if not _held_here(merged, os.path.dirname(os.path.join(data, path))):
                out |= learning_keys(merged, os.path.join(data, path))
        elif not name.endswith(".md") and below(path, projects):
            out |= line_keys(_lines(merged) - _lines(here))
    return out


def record(keys: Iterable[str], env: Mapping[str, str] | None = None) -> None:
    """Add ``keys`` to the record (whole file replaced, 0600); raises OSError when it cannot be written."""
    keys = {k for k in keys if k and not any(c.isspace() for c in k)}
    if not keys:
        return
    path = paths.synced_in_file(env)
    had = _read(path) or b""
    new = sorted(keys - set(had.decode("utf-8", "replace").split()))
    if not new:
        return
    ensure_dir(os.path.dirname(path))
    head = had + (b"\n" if had and not had.endswith(b"\n") else b"")
    atomic_write(path, head + "".join(k + "\n" for k in new).encode("utf-8"))


def record_learning(text: bytes, path: str, env: Mapping[str, str] | None = None) -> None:
    """Record the learning ``text`` written at ``path`` (``""``: about to be, its name not chosen yet):
    the other machine's learning a round keeps under a name of its own (``conflicts.keep``)."""
    record(learning_keys(text, path), env)
