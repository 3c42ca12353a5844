"""The same entry edited by hand on two machines, seen from the machine whose version lost.

The round that meets the conflict keeps its own version and journals the other one as a
``sync-conflict`` run (``sync.conflicts``), which it commits and pushes with the merge. The other
machine's next round then brings in both: the winning version in place of its own, and that run. It
says so once, here: a merge that adds a ``sync-conflict`` run whose kept-aside text is what this
machine held before the merge, and which the merge took out of the file. ``lh memory undo <run>``
puts that text back. The run is new only in the merge that brings it, so no later round says it
again; a machine that never held the lost text (a third one) is not told."""

from __future__ import annotations

import base64
import json
import os
import posixpath

from lazy_harness import jsonload, logfile
from lazy_harness.memory.journal_format import FOLDER, well_formed
from lazy_harness.sync.repo import file_at

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping


def said(data: str, before: str, after: str, changed: list[str], env: Mapping[str, str] | None = None) -> list[str]:
    """One ``conflict:`` line per ``sync-conflict`` run the merge from ``before`` to ``after`` added
    (``changed``: the paths it changed) that kept aside the version this machine held; logged to
    worker.log too. Never raises: the merge is done either way."""
    try:
        lines = [line for rel in changed if _is_run(rel) for line in _of_run(data, before, after, rel, env)]
    except Exception as exc:  # why: a line not said must not fail a round whose merge is made
        logfile.write(logfile.WORKER, f"sync: the check of edits replaced by another machine's failed: "
                                      f"{type(exc).__name__}: {exc}", env)
        return []
    for line in lines:
        logfile.write(logfile.WORKER, f"sync: {line}", env)
    return lines


def _is_run(rel: str) -> bool:
    return rel.endswith(".json") and posixpath.basename(posixpath.dirname(rel)) == FOLDER


def _of_run(data: str, before: str, after: str, rel: str, env: Mapping[str, str] | None) -> list[str]:
    raw = file_at(data, after, rel, env)
    try:
        run = json.loads(raw or "")
    except (ValueError, RecursionError):
        return []
    name = posixpath.basename(rel)[:-len(".json")]
    if not well_formed(run, name) or run.get("kind") != "sync-conflict" or file_at(data, before, rel, env) is not None:
        return []
    folder = posixpath.dirname(posixpath.dirname(rel))  # the project's memory folder: paths are relative to it
    out = []
    for f in run["files"]:
        target = posixpath.normpath(posixpath.join(folder, f["path"]))
        if f.get("before") is None or target.split("/")[0] == ".." or posixpath.isabs(target):
            continue
        kept = base64.b64decode(f["before"]).decode("utf-8", "replace")  # base64 already (well_formed)
        lost = _lines(kept) - _lines(file_at(data, after, target, env) or "")
        # why all of it: undo writes the run's whole copy; only text this machine held itself (or the
        # file holds now) may be put in place by it, whatever a journal from the remote says
        if lost and lost <= _lines(file_at(data, before, target, env) or ""):
            out.append(f"{os.path.join(data, target)}: {_what(target, lost)} was edited on two machines and the "
                       f"other machine's version was kept; it replaced the one this machine held, which is kept in "
                       f"the journal {os.path.join(data, rel)}: lh memory undo {name} (in that project) puts it back")
    return out


def _what(target: str, lost: set[str]) -> str:
    """The entry: a learning's file name, else the id of the decision or failure line that was lost."""
    if target.endswith(".md"):
        return "learning " + posixpath.basename(target)
    from lazy_harness.memory import ids

    found = sorted({ids.of_record(rec) for line in lost if (rec := jsonload.line_object(line)) is not None})
    return ", ".join(found) or "an entry"


def _lines(text: str) -> set[str]:
    return {line.strip() for line in text.split("\n") if line.strip()}
