"""Journals: every change consolidation or the person makes to memory can be undone, byte for byte.

    <memory dir>/journal/<run>.json
    {"run", "kind", "project", "started", "changes": [one line each], "undone": null | ts,
     "files": [{"path", "before": base64 | null (absent), "before_size", "after_sha", "appended": [lines],
                "mixed": true (another process appended between or after the run's lines),
                "fields": null | {"before": {...}, "after": {...}}, "restored": null | ts}]}

A change is made through a :class:`Journal`: ``track(path)`` before a file is changed records its
bytes, ``record(path)`` after the change its digest (and, for an append-only file, the lines added).
The journal is written before the first change and again when the run ends, so a run killed half-way
can still be undone.

Undo, file by file: a file still exactly as the run left it gets its old bytes back (a JSONL file
the run made is emptied rather than removed, so that sync merges it with the other machine's
lines); an append-only file that grew since (the worker appended entries after the run), or that
another process appended to while the run did, loses only the run's own lines, so those entries
survive; a learning whose status fields the run set, edited since, gets its old fields back and
keeps the edit; any other file changed since is left alone and reported. A run is marked undone
only when every file is back: one left alone can be put right and the undo run again, which
does not touch the files already restored.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import time

from lazy_harness.atomic import atomic_write, ensure_dir, read_bytes, rewrite
from lazy_harness.errors import LhError
from lazy_harness.logfile import stamp

FOLDER = "journal"


def _sha(data: bytes | None) -> str | None:
    return None if data is None else hashlib.sha256(data).hexdigest()


def folder(memory_dir: str) -> str:
    return os.path.join(memory_dir, FOLDER)


class Journal:
    """The record of one run's changes; see the module docstring."""

    def __init__(self, memory_dir: str, kind: str, project: str, now: float | None = None) -> None:
        now = time.time() if now is None else now
        self.memory_dir = memory_dir
        # why: names sort by time to the microsecond, so "newest" is right for two runs in one second
        self.run = (time.strftime("%Y%m%d-%H%M%S", time.localtime(now)) + f"{int(now * 1e6) % 1000000:06d}"
                    + "-" + os.urandom(2).hex())
        self.data: dict = {"run": self.run, "kind": kind, "project": project, "started": stamp(now),
                     "changes": [], "undone": None, "files": []}
        self._files: dict[str, dict] = {}

    @property
    def path(self) -> str:
        return os.path.join(folder(self.memory_dir), f"{self.run}.json")

    def track(self, path: str) -> None:
        """Remember ``path`` as it is now, before this run changes it (once per file)."""
        if path in self._files:
            return
        before = read_bytes(path)
        entry: dict = {"path": path, "before": None if before is None else base64.b64encode(before).decode("ascii"),
                 "before_size": None if before is None else len(before), "after_sha": _sha(before), "appended": []}
        self._files[path] = entry
        self.data["files"].append(entry)
        self.save()

    def track_as(self, path: str, before: bytes) -> None:
        """Remember ``before`` as what ``path`` was before this run, and the file as it is now as what
        the run left: undo then writes ``before`` (sync keeps the other machine's version this way)."""
        entry: dict = {"path": path, "before": base64.b64encode(before).decode("ascii"), "before_size": len(before),
                       "after_sha": _sha(read_bytes(path)), "appended": []}
        self._files[path] = entry
        self.data["files"].append(entry)

    def record(self, path: str, appended: str | None = None, fields: dict | None = None) -> None:
        """Note the state of ``path`` after a change; ``appended``: the whole line the change added;
        ``fields``: the frontmatter fields a learning had before the change and has after it."""
        entry = self._files[path]
        now = read_bytes(path)
        if appended is not None:
            entry["appended"].append(appended)
            if not entry.get("mixed") and not _only_ours(now, appended, entry["after_sha"]):
                # why: another process appended too (the person's forget between two of consolidation's
                # marks): the file as this run left it holds that line, and undo by the digest would
                # write the bytes of before it over it; undo takes out only this run's lines then
                entry["mixed"] = True
        entry["after_sha"] = _sha(now)
        if fields is not None:
            entry["fields"] = fields
        # why: on disk at once: a run stopped after this change (a kill, an error in its next change)
        # is undone from what the file says, and a change it did not say could not be undone
        self.save()

    def note(self, change: str) -> None:
        self.data["changes"].append(change)

    def save(self) -> None:
        ensure_dir(folder(self.memory_dir))
        atomic_write(self.path, json.dumps(self.data, indent=1, ensure_ascii=False) + "\n")


def _only_ours(now: bytes | None, line: str, before_sha: str | None) -> bool:
    """Whether ``now`` is the file as the run's last change left it (``before_sha``) plus ``line`` (and
    the newline a healed last line got), with nothing of another process's in between or after."""
    tail = line.encode("utf-8") + b"\n"
    if now is None or not now.endswith(tail):
        return False
    head = now[:-len(tail)]
    return _sha(head) == before_sha or (head.endswith(b"\n") and _sha(head[:-1]) == before_sha)


def runs(memory_dir: str) -> list[dict]:
    """Every journal of the project, newest first; unreadable ones are skipped, and so is one whose
    ``run`` is not its own file's name (a journal comes with synced memory: undo writes the journal
    back by its run, which must name no other file, ``../../settings`` say)."""
    try:
        names = sorted((n for n in os.listdir(folder(memory_dir)) if n.endswith(".json")), reverse=True)
    except OSError:
        return []
    out = []
    for name in names:
        try:
            with open(os.path.join(folder(memory_dir), name), encoding="utf-8") as fh:
                data = json.load(fh)
        except (OSError, ValueError):
            continue
        if _well_formed(data, name[:-len(".json")]):
            out.append(data)
    return out


def _well_formed(data: object, run: str) -> bool:
    """Whether ``data`` is a journal of ``run`` every reader can use: its run its file's name, its
    files each with a path, its changes and its kind text (one that came with synced memory, with
    ``"changes": 5`` or a file without a path, broke the page, history and undo)."""
    if not isinstance(data, dict) or data.get("run") != run or not isinstance(data.get("files"), list):
        return False
    changes = data.get("changes", [])
    return (all(isinstance(f, dict) and isinstance(f.get("path"), str) for f in data["files"])
            and isinstance(changes, list) and all(isinstance(c, str) for c in changes)
            and all(isinstance(data.get(k), (str, type(None))) for k in ("kind", "project", "started", "undone")))


def _without_lines(current: bytes, lines: list[str], start: int) -> bytes | None:
    """``current`` with each of ``lines`` removed once (looking past ``start``); None if one is missing."""
    head, tail = current[:start], current[start:].splitlines(keepends=True)
    for line in lines:
        needle = line.encode("utf-8") + b"\n"
        if needle not in tail:
            return None
        tail.remove(needle)
    return head + b"".join(tail)


def _fields_back(path: str, current: bytes, fields: dict) -> bytes | bool:
    """A learning edited since the run, with the frontmatter fields the run changed put back; False
    when they are no longer what the run wrote (changed again since) or cannot be read."""
    from lazy_harness.memory import status_fields

    try:
        text = current.decode("utf-8")
        after = {k: fields["after"].get(k) for k in status_fields.STATUS_FIELDS}
        if status_fields.fields_of(text, path) != after:
            return False
        return status_fields.with_fields(text, path, fields["before"]).encode("utf-8")
    except (LhError, UnicodeDecodeError, KeyError, TypeError, AttributeError):
        return False


def _write_back(path: str, entry: dict, before: bytes | None, target: bytes) -> bool:
    """Write ``target``. An append-only file's is computed again under the lock its appenders take,
    so a line another process appends meanwhile (the worker, a mark) is kept; False when the run's
    lines are no longer all there."""
    if not entry.get("appended"):
        atomic_write(path, target)
        return True
    done = {}
    start = entry.get("before_size") or 0  # a file the run made: its lines from the first byte

    def change(current: bytes) -> bytes | None:
        again = (before if _sha(current) == entry.get("after_sha") and not entry.get("mixed")
                 else _without_lines(current, entry["appended"], start))
        done["ok"] = again is not None
        return again

    rewrite(path, change)
    return done.get("ok", False)


def _run_to_undo(memory_dir: str, run: str | None, never: tuple[str, ...] = ()) -> dict:
    """The journal of ``run`` (a prefix will do), else the newest not undone yet; LhError when none.
    Runs of a kind in ``never`` are not undone: named, they are refused; without a name, passed over."""
    if run:
        matches = [r for r in runs(memory_dir) if r["run"] == run or r["run"].startswith(run)]
        if not matches:
            raise LhError(f"no journal {run!r} in {folder(memory_dir)}", hint="lh memory history")
        if len(matches) > 1:
            raise LhError(f"{run!r} names {len(matches)} journals", hint="lh memory history")
        if matches[0].get("undone"):
            raise LhError(f"run {matches[0]['run']} was already undone at {matches[0]['undone']}",
                          hint="lh memory history")
        if matches[0].get("kind") in never:
            raise LhError(f"run {matches[0]['run']} is a {matches[0]['kind']}, which undo leaves as it is: the "
                          "check would hold the same entries again at the next read",
                          hint="lh memory held, then lh memory approve ID or lh memory forget ID")
        return matches[0]
    candidates = [r for r in runs(memory_dir) if not r.get("undone") and r.get("kind") not in never]
    if not candidates:
        raise LhError(f"nothing to undo in {folder(memory_dir)}", hint="lh memory history")
    return candidates[0]


def undo(memory_dir: str, roots: tuple[str, ...], run: str | None = None, now: float | None = None,
         derived: tuple[str, ...] = (), never: tuple[str, ...] = ()) -> tuple[dict, list[str], list[str]]:
    """Undo ``run`` (default: the newest not yet undone). Returns (journal, restored paths, problems).

    Only files inside ``roots`` (the memory folder, the learnings folder) are ever written. A file of
    ``derived`` (rendered from another one, which the caller renders again) is never a problem.
    """
    from lazy_harness.paths import is_within

    data = _run_to_undo(memory_dir, run, never)
    restored, problems = [], []
    for entry in reversed(data["files"]):
        path = entry["path"]
        if entry.get("restored"):  # by an earlier undo of this run that left another file alone
            continue
        if not isinstance(path, str) or not any(is_within(path, root) for root in roots):
            problems.append(f"{path!r}: outside the memory folders; left alone")
            continue
        current = read_bytes(path)
        before = None if entry.get("before") is None else base64.b64decode(entry["before"])
        target: bytes | bool | None  # False: the file changed since the run and stays as it is
        if _sha(current) == entry.get("after_sha") and not entry.get("mixed"):
            target = before
        elif entry.get("appended") and current is not None:
            target = _without_lines(current, entry["appended"], entry.get("before_size") or 0)
        elif isinstance(entry.get("fields"), dict) and current is not None:
            target = _fields_back(path, current, entry["fields"])
        else:
            target = False
        if isinstance(target, bool) or (target is None and before is not None):
            if path not in derived:
                problems.append(f"{path}: changed since run {data['run']}; left as it is")
            continue
        if target is None and path.endswith(".jsonl") and current is not None:
            # why emptied, not removed: an append-only file the run made may be synced, and the other
            # machine may have appended to it since; git cannot merge a removal with an append (every
            # later sync of that machine failed), while an emptied file merges line by line
            if current and not _write_back(path, entry, b"", b""):
                problems.append(f"{path}: changed while it was being undone; left as it is")
                continue
        elif target is None:
            try:
                os.unlink(path)
            except FileNotFoundError:
                pass
        elif target != current and not _write_back(path, entry, before, target):
            problems.append(f"{path}: changed while it was being undone; left as it is")
            continue
        entry["restored"] = stamp(now)
        restored.append(path)
    if not problems:
        data["undone"] = stamp(now)
    atomic_write(os.path.join(folder(memory_dir), f"{data['run']}.json"),
                 json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    return data, restored, problems
