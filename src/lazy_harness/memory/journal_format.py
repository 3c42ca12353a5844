"""A journal as its file holds it (the fields: ``memory.journal``): the name of the folder beside the
memory files, the digest it keeps of a file's bytes, the text it is saved as, each file's path as
stored (relative to the memory folder) and as read (this machine's), whether a parsed journal is one
every reader can use, and the journals of a folder read, newest first.

Below ``memory.journal`` (the record of a run, the history, the undo) and ``memory.journal_putback``
(one file put back), which both read journals through it.
"""

from __future__ import annotations

import hashlib
import json
import os

from lazy_harness.memory import lines

FOLDER = "journal"


def sha(data: bytes | None) -> str | None:
    return None if data is None else hashlib.sha256(data).hexdigest()


def text(data: dict) -> str:
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def stored(data: dict, memory_dir: str) -> dict:
    """``data`` as it is saved: each file's path relative to the memory folder (``marks.jsonl``, a
    learning ``../../knowledge/learnings/<month>/<file>.md``). why: the journal is synced, and the
    other machine keeps the data folder elsewhere (another home): there the same relative path names
    its own copy of the file, so its undo of this run works."""
    base = os.path.abspath(memory_dir)
    files = [{**f, "path": os.path.relpath(os.path.abspath(f["path"]), base)} for f in data["files"]]
    return {**data, "files": files}


def resolved(data: dict, memory_dir: str) -> dict:
    """``data`` as read: each relative path joined to this machine's memory folder; an absolute one
    (written by an older version) as it is: it names this machine's file, or one that is not here."""
    base = os.path.abspath(memory_dir)
    files = [{**f, "path": os.path.normpath(os.path.join(base, f["path"]))} for f in data["files"]]
    return {**data, "files": files}


def read_folder(journals: str) -> list[dict]:
    """The journals in the folder ``journals`` as their files hold them, newest first; unreadable
    ones are skipped, and so is one whose ``run`` is not its own file's name (:func:`well_formed`)."""
    try:
        names = sorted((n for n in os.listdir(journals) if n.endswith(".json")), reverse=True)
    except OSError:
        return []
    out = []
    for name in names:
        try:  # why lines.open_regular: a FIFO named as a journal held history, undo and the page in open()
            with open(lines.open_regular(os.path.join(journals, name))[0], encoding="utf-8") as fh:
                data = json.load(fh)
        except (OSError, ValueError, RecursionError):  # why the last: one nested past the parser's depth
            continue
        if well_formed(data, name[:-len(".json")]):
            out.append(data)
    out.sort(key=run_order, reverse=True)
    return out


def run_order(data: dict) -> tuple[float, str]:
    """The key that sorts journals by when they ran: when each started (``started``, with its offset),
    then its run. why not the run alone: a run's name is its local time, which a clock set back, a
    daylight saving fall-back or a flight to another time zone turn back, and a plain undo then undid
    an older run than the newest."""
    from lazy_harness.memory.files import iso_epoch

    started = iso_epoch(data.get("started"))
    return (started if started is not None else 0.0, str(data.get("run", "")))


def well_formed(data: object, run: str) -> bool:
    """Whether ``data`` is a journal of ``run`` every reader can use: its run its file's name, its
    files each with a path, its changes and its kind text (one that came with synced memory, with
    ``"changes": 5`` or a file without a path, broke the page, history and undo)."""
    if not isinstance(data, dict) or data.get("run") != run or not isinstance(data.get("files"), list):
        return False
    changes = data.get("changes", [])
    return (all(_file_well_formed(f) for f in data["files"])
            and isinstance(changes, list) and all(isinstance(c, str) for c in changes)
            and all(isinstance(data.get(k), (str, type(None))) for k in ("kind", "project", "started", "undone")))


def _file_well_formed(f: object) -> bool:
    """Whether ``f``, one file of a journal, has a path and the fields undo reads of their types: the
    copy of its bytes base64, its lines lists of text, its size a count, its digests and stamp text.
    why: a journal comes with synced memory (or is edited): ``"before": "%%"`` or ``"appended": 5``
    stopped undo with a traceback, and ``"restored": 5`` had it mark the run undone, putting nothing back."""
    if not isinstance(f, dict) or not isinstance(f.get("path"), str):
        return False
    if any(f.get(k) is not None and not isinstance(f[k], str) for k in ("before_sha", "after_sha", "restored")):
        return False
    if any(f.get(k) is not None and not (isinstance(f[k], list) and all(isinstance(line, str) for line in f[k]))
           for k in ("appended", "removed")):
        return False
    size = f.get("before_size")
    if size is not None and (isinstance(size, bool) or not isinstance(size, int) or size < 0):
        return False
    if f.get("fields") is not None and not isinstance(f["fields"], dict):
        return False
    return f.get("before") is None or _base64(f["before"])


def _base64(value: object) -> bool:
    import binascii
    from base64 import b64decode

    if not isinstance(value, str):
        return False
    try:
        b64decode(value, validate=True)
    except (binascii.Error, ValueError):
        return False
    return True
