"""A decision or failure forgotten on one machine and edited by hand on the other.

The two changes are in two files (the forget mark in ``marks.jsonl``, the edit in ``decisions.jsonl``
or ``failures.jsonl``), so each merges cleanly on its own: the edited line and the mark both stay, and
the entry stays forgotten with the edit on every machine. ``lh memory undo <run>`` of the forget
brings it back edited (the undo takes out only the run's mark). The round that merges the two says so
once, as for a learning whose status moved on one machine and whose text was edited on the other
(``sync.conflicts``, ``MERGED``): nothing is lost, but the edit would otherwise vanish unseen."""

from __future__ import annotations

import os

from lazy_harness import jsonload, logfile
from lazy_harness.sync.repo import _git, file_at

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

MARKS = "marks.jsonl"
ENTRIES = ("decisions.jsonl", "failures.jsonl")


def said(data: str, ours: str, theirs: str, env: Mapping[str, str] | None = None) -> list[str]:
    """One ``conflict:`` line per entry that one side forgot since the common base of ``ours`` and
    ``theirs`` and whose line the other side changed since then; logged to worker.log too. Never
    raises: the merge is done either way."""
    try:
        lines = _found(data, ours, theirs, env)
    except Exception as exc:  # why: a line not said must not fail a round whose merge is made
        logfile.write(logfile.WORKER, f"sync: the check of forgets met by edits failed: {type(exc).__name__}: {exc}",
                      env)
        return []
    for line in lines:
        logfile.write(logfile.WORKER, f"sync: {line}", env)
    return lines


def _found(data: str, ours: str, theirs: str, env: Mapping[str, str] | None) -> list[str]:
    base = _git(data, "merge-base", ours, theirs, check=False, env=env).stdout.strip()
    if not base or base in (ours, theirs):
        return []
    changed = {side: _changed(data, base, side, env) for side in (ours, theirs)}
    out = []
    for forgot, edited in ((ours, theirs), (theirs, ours)):
        for folder in sorted({os.path.dirname(p) for p in changed[forgot] if os.path.basename(p) == MARKS}):
            files = [f"{folder}/{name}" if folder else name for name in ENTRIES]
            files = [f for f in files if f in changed[edited]]
            if not files:
                continue
            forgets = _forgets(_show(data, forgot, f"{folder}/{MARKS}" if folder else MARKS, env))
            for was in _forgets(_show(data, base, f"{folder}/{MARKS}" if folder else MARKS, env)):
                forgets.pop(was, None)
            for rel in files if forgets else ():
                kind = "failure" if os.path.basename(rel) == ENTRIES[1] else "decision"
                out += _said_of(data, rel, forgets, _lines(_show(data, base, rel, env), kind),
                                _lines(_show(data, edited, rel, env), kind))
    return out


def _said_of(data: str, rel: str, forgets: dict[str, str], base: dict[str, str], edited: dict[str, str]) -> list[str]:
    out = []
    for eid, run in forgets.items():
        if eid in base and eid in edited and edited[eid] != base[eid]:
            back = (f"lh memory undo {run} (in that project) brings it back edited" if run else
                    "removing its forget line from marks.jsonl brings it back edited")
            out.append(f"{os.path.join(data, rel)}: {eid} was forgotten on one machine and edited on the other; "
                       f"it stays forgotten, with the edit: {back}")
    return out


def _changed(data: str, base: str, side: str, env: Mapping[str, str] | None) -> set[str]:
    out = _git(data, "diff-tree", "-r", "-z", "--name-only", "--no-renames", base, side, "--",
               f"*/{MARKS}", MARKS, *(f"*/{name}" for name in ENTRIES), *ENTRIES, env=env).stdout
    return {p for p in out.split("\0") if p}


def _show(data: str, commit: str, rel: str, env: Mapping[str, str] | None) -> str:
    return file_at(data, commit, rel, env) or ""


def _forgets(text: str) -> dict[str, str]:
    """The id of every forget mark in a marks.jsonl text, with the run that wrote it (``""``: none)."""
    out: dict[str, str] = {}
    for line in text.split("\n"):
        rec = jsonload.line_object(line) if line.strip() else None
        if rec is not None and rec.get("op") == "forget" and isinstance(rec.get("id"), str):
            run = rec.get("run")
            out[rec["id"]] = run if isinstance(run, str) else ""
    return out


def _lines(text: str, kind: str) -> dict[str, str]:
    """The line of each id in a JSONL text of ``kind`` (decision or failure; its first). why the kind: a
    line typed by hand without ``id`` or ``type`` in failures.jsonl has a failure's id, not a decision's."""
    from lazy_harness.memory import ids

    out: dict[str, str] = {}
    for line in text.split("\n"):
        rec = jsonload.line_object(line) if line.strip() else None
        if rec is not None and "op" not in rec and isinstance(rec.get("summary"), str):
            out.setdefault(ids.of_record(rec, kind), line.strip())
    return out
