"""Journals: every change consolidation or the person makes to memory can be undone, byte for byte.

    <memory dir>/journal/<run>.json
    {"run", "kind", "project", "started", "changes": [one line each], "undone": null | ts,
     "files": [{"path", "before": base64 | null (absent), "before_size", "after_sha", "appended": [lines],
                "before_sha": sha256 of the file's bytes, only when ``before`` is a redacted copy (below),
                "mixed": true (another process appended between or after the run's lines),
                "intent": true (each change recorded before it was written: a line may be missing),
                "removed": [lines the run took out of an append-only file],
                "fields": null | {"before": {...}, "after": {...}}, "restored": null | ts}]}

A file's ``path`` is relative to the memory folder (journals are synced: the other machine resolves it
to its own copy); an absolute one, from an older version, is used only where it lies in this machine's
memory folders: a run none of whose files lie in them is not undone here. Readers (:func:`runs`,
:func:`undo`) see every path resolved; the same run undone on two machines merges (:func:`merged`).

``before`` is the file's bytes with what the redactor's built-in rules take for a secret replaced by
its marker (:func:`_copy`): journals are synced, and base64 hid a secret typed into a file by hand
from sync's scan (ADR 0015). Undo of such a file writes the marker where the secret was; every other
file gets its bytes back exactly.

A change is made through a :class:`Journal`: ``track(path)`` before a file is changed records its
bytes; then either ``intend_lines`` / ``intend_fields`` / ``intend_removal`` say, saved, what the
change is about to write, and ``record(path)`` after it checks the file is what the run meant (saved
with the next change or the run's end), or ``record(path, appended=...)`` after an unannounced change
says what it did. A run killed between a change and its record is undone from what the journal says
it was about to write (``memory.journal_putback``).

Undo puts back each file of the run (``memory.journal_putback``): a file as the run left it gets its
old bytes back, one changed since loses only the run's own lines or status fields, and any other is
left alone and reported. A run is marked undone only when every file is back: one left alone can be
put right and the undo run again, which does not touch the files already restored.
"""

from __future__ import annotations

import base64
import json
import os
import time

from lazy_harness.atomic import atomic_write, ensure_dir, read_bytes
from lazy_harness.errors import LhError
from lazy_harness.memory import journal_format, journal_putback, lines, runs_here
from lazy_harness.memory.journal_format import FOLDER, sha
from lazy_harness.logfile import stamp


RUNS_NAMED = 10  # runs a prefix of several names, newest first, for the person to pick one


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
        runs_here.note(self.run)
        self._files: dict[str, dict] = {}
        self._pending: set[str] = set()  # files with an intended change not yet recorded as made

    @property
    def path(self) -> str:
        return os.path.join(folder(self.memory_dir), f"{self.run}.json")

    def track(self, path: str) -> None:
        """Remember ``path`` as it is now, before this run changes it (once per file)."""
        if path in self._files:
            return
        before = read_bytes(path)
        entry: dict = {"path": path, **_copy(before), "before_size": None if before is None else len(before),
                       "after_sha": sha(before), "appended": []}
        self._files[path] = entry
        self.data["files"].append(entry)
        self.save()

    def track_as(self, path: str, before: bytes) -> None:
        """Remember ``before`` as what ``path`` was before this run, and the file as it is now as what
        the run left: undo then writes ``before`` (sync keeps the other machine's version this way)."""
        entry: dict = {"path": path, **_copy(before), "before_size": len(before),
                       "after_sha": sha(read_bytes(path)), "appended": []}
        self._files[path] = entry
        self.data["files"].append(entry)

    def record(self, path: str, appended: str | None = None, fields: dict | None = None) -> None:
        """Note the state of ``path`` after a change; ``appended``: the whole line the change added;
        ``fields``: the frontmatter fields a learning had before the change and has after it."""
        if appended is None and fields is None and path in self._pending:
            self._settle(path)  # why not saved: fsync once per change, the intent's save
            return
        entry = self._files[path]
        now = read_bytes(path)
        if appended is not None:
            entry["appended"].append(appended)
            if not entry.get("mixed") and not _only_ours(now, appended, entry["after_sha"]):
                # why: another process appended too (the person's forget between two of consolidation's
                # marks): the file as this run left it holds that line, and undo by the digest would
                # write the bytes of before it over it; undo takes out only this run's lines then
                entry["mixed"] = True
        entry["after_sha"] = sha(now)
        if fields is not None:
            entry["fields"] = fields
        # why: on disk at once: a run stopped after this change (a kill, an error in its next change)
        # is undone from what the file says, and a change it did not say could not be undone
        self.save()

    def intend_lines(self, path: str, lines: list[str]) -> None:
        """Before ``lines`` are appended to ``path``: record them and the file they will make (saved)."""
        entry = self._files[path]
        raw, was = read_bytes(path), entry["after_sha"]
        if sha(raw) != was and not (raw and raw.endswith(b"\n") and sha(raw[:-1]) == was):
            entry["mixed"] = True  # why: another process wrote between this run's changes (see record)
        now = raw or b""
        if now and not now.endswith(b"\n"):
            now += b"\n"  # why: the appender heals a last line saved without its newline first
        entry["appended"].extend(lines)
        entry["intent"] = True
        entry["after_sha"] = sha(now + b"".join(line.encode("utf-8") + b"\n" for line in lines))
        self._pending.add(path)
        self.save()

    def intend_fields(self, path: str, fields: dict, new: bytes) -> None:
        """Before a learning's status fields are rewritten to ``new``: the fields before and after (saved)."""
        entry = self._files[path]
        entry["fields"], entry["intent"], entry["after_sha"] = fields, True, sha(new)
        self._pending.add(path)
        self.save()

    def intend_removal(self, path: str, old: bytes, removed: list[str], new: bytes) -> None:
        """Inside the rewrite of an append-only file, before ``new`` replaces ``old``: the whole lines
        taken out (undo appends them again, keeping lines added since), saved."""
        entry = self._files[path]
        if sha(old) != entry["after_sha"]:
            entry["mixed"] = True  # why: a line appended since track() is in ``new``: the bytes of before lack it
        entry.setdefault("removed", []).extend(removed)
        entry["intent"], entry["after_sha"] = True, sha(new)
        self._pending.add(path)
        self.save()

    def _settle(self, path: str) -> None:
        """After an intended change: a file that is not what the run meant to make holds another
        process's change too (a hand edit of handoff.md appended with the closes, a line after ours):
        undo then takes out only the run's lines. Saved with the next change or the run's end."""
        self._pending.discard(path)
        entry = self._files[path]
        if sha(read_bytes(path)) != entry["after_sha"] and (entry.get("appended") or entry.get("removed")):
            entry["mixed"] = True

    def note(self, change: str) -> None:
        self.data["changes"].append(change)

    def save(self) -> None:
        ensure_dir(folder(self.memory_dir))
        atomic_write(self.path, journal_format.text(journal_format.stored(self.data, self.memory_dir)))


def _copy(before: bytes | None) -> dict:
    """The ``before`` of a file whose bytes were ``before`` (None: there was no file), base64, what the
    redactor's built-in rules match replaced by its marker, and then ``before_sha``, the bytes' own
    digest. why: the journal is synced; a secret typed into a learning by hand and refused by sync's
    scan stayed in the copy, which the scan saw as one opaque string (ADR 0015). Redacted here, not
    left to the scan, so that the person keeps the run's undo: its copy is the file as the refusal asks
    them to leave it (the marker in place of the secret)."""
    if before is None:
        return {"before": None}
    from lazy_harness.redact import redact

    # why surrogateescape: any bytes go through the text and come back as they were, but what matched
    text, found = redact(before.decode("utf-8", "surrogateescape"))
    if not found:
        return {"before": base64.b64encode(before).decode("ascii")}
    kept = text.encode("utf-8", "surrogateescape")
    return {"before": base64.b64encode(kept).decode("ascii"), "before_sha": sha(before)}


def _only_ours(now: bytes | None, line: str, before_sha: str | None) -> bool:
    """Whether ``now`` is the file as the run's last change left it (``before_sha``) plus ``line`` (and
    the newline a healed last line got), with nothing of another process's in between or after."""
    tail = line.encode("utf-8") + b"\n"
    if now is None or not now.endswith(tail):
        return False
    head = now[:-len(tail)]
    return sha(head) == before_sha or (head.endswith(b"\n") and sha(head[:-1]) == before_sha)


def runs(memory_dir: str) -> list[dict]:
    """Every journal of the project, newest first, each file's path as this machine has it (see
    ``journal_format.resolved``); unreadable ones are skipped, and so is one whose ``run`` is not its own
    file's name (a journal comes with synced memory: undo writes the journal back by its run, which
    must name no other file, ``../../settings`` say)."""
    return [journal_format.resolved(data, memory_dir) for data in _read_runs(memory_dir)]


def _read_runs(memory_dir: str) -> list[dict]:
    """:func:`runs` as the files hold them."""
    return journal_format.read_folder(folder(memory_dir))


def unreadable_runs(memory_dir: str) -> list[tuple[str, str]]:
    """``(path, why)`` of each journal of the project that :func:`runs` leaves out: not JSON (a write
    cut short, a hand edit), not a journal every reader can use, or a ``run`` that is not its file's
    name. Its run is in no history and no undo, so the views name it rather than say nothing."""
    try:
        names = sorted(n for n in os.listdir(folder(memory_dir)) if n.endswith(".json"))
    except OSError:
        return []
    out = []
    for name in names:
        path = os.path.join(folder(memory_dir), name)
        try:  # why lines.open_regular: a FIFO named as a journal is named here, not waited on in open()
            with open(lines.open_regular(path)[0], encoding="utf-8") as fh:
                data = json.load(fh)
        except OSError as exc:
            out.append((path, exc.strerror or str(exc)))
            continue
        except (ValueError, RecursionError):
            out.append((path, "not JSON (a write cut short, or an edit)"))
            continue
        if not journal_format.well_formed(data, name[:-len(".json")]):
            out.append((path, "not a journal of its run (its run, changes, files or a file's fields are missing "
                              "or of another shape)"))
    return out


def copy_run(run: str, from_dir: str, memory_dir: str) -> bool:
    """Copy the journal of ``run`` (a name its reader checked: its own file's) from the memory folder
    ``from_dir`` into ``memory_dir``'s journals, byte for byte, never over one there (an undo of it
    may have written it). False when it is gone from ``from_dir`` or one is there already."""
    raw = read_bytes(os.path.join(folder(from_dir), f"{run}.json"))
    if raw is None:
        return False
    return bool(atomic_write(os.path.join(folder(memory_dir), f"{run}.json"), raw, exclusive=True))


def _not_here(data: dict, memory_dir: str, roots: tuple[str, ...]) -> str | None:
    """A file of ``data`` (as stored) still to be put back, when every such file lies outside this
    machine's memory folders (``roots``): the run cannot be undone here. None when one lies inside
    (a file outside is then left alone and reported, see :func:`undo`). A journal an older version
    wrote names its files by absolute path: another machine's, when it came with synced memory."""
    from lazy_harness.paths import is_within

    left = [f["path"] for f in journal_format.resolved(data, memory_dir)["files"] if not f.get("restored")]
    if not left or any(is_within(path, root) for path in left for root in roots):
        return None
    return left[0]


def _elsewhere(data: dict, path: str) -> str:
    return (f"run {data['run']} ({data.get('kind', '?')}) was recorded on another machine (or its journal "
            f"edited): {path!r} is not in this machine's memory folders")


def several(run: str, matches: list[dict]) -> LhError:
    """The refusal of a prefix ``run`` that names several journals (``matches``, newest first): the first
    :data:`RUNS_NAMED` named, with their kinds, so the person can pick one; how many more."""
    named = ", ".join(f"{m['run']} ({m.get('kind', '?')})" for m in matches[:RUNS_NAMED])
    more = f", and {len(matches) - RUNS_NAMED} more" if len(matches) > RUNS_NAMED else ""
    return LhError(f"{run!r} names {len(matches)} journals: {named}{more}",
                   hint="lh memory undo RUN with one of them (lh memory history lists every run)")


def _run_to_undo(memory_dir: str, roots: tuple[str, ...], run: str | None,
                 never: tuple[str, ...] = ()) -> tuple[dict, list[str]]:
    """The journal of ``run`` as stored (a prefix will do), else the newest not undone yet that can be
    undone here; and a line for each newer one passed over because its files are not on this machine
    (:func:`_not_here`: it is undone where it was made). LhError when none. Runs of a kind in
    ``never`` are not undone: named, they are refused; without a name, passed over."""
    if run:
        matches = [r for r in _read_runs(memory_dir) if r["run"] == run or r["run"].startswith(run)]
        if not matches:
            raise LhError(f"no journal {run!r} in {folder(memory_dir)}", hint="lh memory history")
        if len(matches) > 1:
            raise several(run, matches)
        if matches[0].get("undone"):
            raise LhError(f"run {matches[0]['run']} was already undone at {matches[0]['undone']}",
                          hint="lh memory history")
        if matches[0].get("kind") in never:
            raise LhError(f"run {matches[0]['run']} is a {matches[0]['kind']}, which undo leaves as it is: the "
                          "check would hold the same entries again at the next read",
                          hint="lh memory held, then lh memory approve ID or lh memory forget ID")
        path = _not_here(matches[0], memory_dir, roots)
        if path is not None:
            raise LhError(_elsewhere(matches[0], path) + ": undo it on the machine that made it",
                          hint="lh memory history")
        return matches[0], []
    passed: list[str] = []
    mine = runs_here.made_here()
    for data in _read_runs(memory_dir):
        if data.get("undone") or data.get("kind") in never:
            continue
        if not mine(data):  # why: "undo" undoes what the person did here, never a journal that came by sync
            passed.append(f"run {data['run']} ({data.get('kind', '?')}) was not made here by this version; "
                          f"passed over: lh memory undo {data['run']} undoes it")
            continue
        path = _not_here(data, memory_dir, roots)
        if path is None:
            return data, passed
        passed.append(_elsewhere(data, path) + "; passed over: undo it on the machine that made it")
    raise LhError(f"nothing to undo in {folder(memory_dir)}"
                  + (f" (passed over {len(passed)} run(s); the newest: {passed[0]})" if passed else ""),
                  hint="lh memory history")


def undo(memory_dir: str, roots: tuple[str, ...], run: str | None = None, now: float | None = None,
         derived: tuple[str, ...] = (), never: tuple[str, ...] = ()) -> tuple[dict, list[str], list[str]]:
    """Undo ``run`` (default: the newest not yet undone that can be undone here). Returns (journal,
    restored paths, problems): the journal with its paths as this machine has them, and under
    ``passed_over`` a line for each newer run passed over (recorded on another machine, its files not
    here); it is written back with its paths as they were stored.

    Only files inside ``roots`` (the memory folder, the learnings folder) are ever written: a run none
    of whose files left to put back lie there is not undone here. A file of ``derived`` (rendered
    from another one, which the caller renders again) is never a problem.
    """
    from lazy_harness.paths import is_within

    stored, passed = _run_to_undo(memory_dir, roots, run, never)
    data, when = journal_format.resolved(stored, memory_dir), stamp(now)
    roots = roots + adopted_folders(stored, memory_dir)
    restored, problems = [], []
    for entry, kept in zip(reversed(data["files"]), reversed(stored["files"]), strict=True):
        if entry.get("restored"):  # by an earlier undo of this run that left another file alone
            continue
        problem = (journal_putback.undo_file(entry, data["run"])
                   if any(is_within(entry["path"], root) for root in roots)
                   else f"{entry['path']!r}: outside the memory folders; left alone")
        if problem is not None:
            if problem and entry["path"] not in derived:
                problems.append(problem)
            continue
        entry["restored"] = kept["restored"] = when
        restored.append(entry["path"])
    if not problems:
        data["undone"] = stored["undone"] = when
    atomic_write(os.path.join(folder(memory_dir), f"{stored['run']}.json"), journal_format.text(stored))
    return {**data, "passed_over": passed}, restored, problems


def adopted_folders(data: dict, memory_dir: str) -> tuple[str, ...]:
    """The earlier memory folders an ``adopt`` run took over (its ``folders``: names of folders beside
    ``memory_dir``), whose files its undo puts back; none for a run of any other kind. why names only: the
    journal is synced, and a name with a separator, ``.`` or ``..`` could point anywhere."""
    if data.get("kind") != "adopt" or not isinstance(data.get("folders"), list):
        return ()
    parent = os.path.dirname(os.path.abspath(memory_dir).rstrip(os.sep))
    return tuple(os.path.join(parent, name) for name in data["folders"]
                 if isinstance(name, str) and name not in ("", ".", "..") and os.sep not in name
                 and not (os.altsep and os.altsep in name))


def merged(base: bytes, ours: bytes, theirs: bytes, run: str | None = None) -> bytes:
    """The merge of one journal both machines changed since ``base`` (sync's ``lh-journal`` driver;
    ``run``: the name of its file). A run changes after it ends only by its undo, so the merge is the
    record of either side (the one with more files: a run still going when it was synced, else
    ours) with each file restored and the run undone at the earliest time either side says: the run
    undone on both machines reads undone on both, whichever merges. A side that is no journal of
    ``run`` (damaged by hand, not JSON) gives way to one that is; when neither is, ours stays. Never
    raises: a merge that fails stops every later sync round of the machine."""
    if ours == theirs or theirs == base:
        return ours
    if ours == base:
        return theirs
    mine, other = _journal_of(ours, run), _journal_of(theirs, run)
    if mine is None or other is None:
        return theirs if mine is None and other is not None else ours
    if len(other["files"]) > len(mine["files"]):
        mine, other = other, mine
    out = {**mine, "undone": _earliest(mine.get("undone"), other.get("undone"))}
    out["files"] = [dict(f) for f in mine["files"]]
    for f, g in zip(out["files"], other["files"], strict=False):
        if f["path"] == g["path"]:
            f["restored"] = _earliest(f.get("restored"), g.get("restored"))
    return journal_format.text(out).encode("utf-8")


def _journal_of(raw: bytes, run: str | None) -> dict | None:
    """``raw`` read as a journal of ``run`` (any run when None), or None."""
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or not journal_format.well_formed(data, run or str(data.get("run"))):
        return None
    return data


def _earliest(one: object, two: object) -> object:
    """The earlier of two times ``stamp`` wrote (their offsets taken into account), either when the
    other is unset; a value that is not such a time loses to one that is."""
    from datetime import datetime

    def when(value: object) -> datetime | None:
        try:
            at = datetime.fromisoformat(value) if isinstance(value, str) else None
        except ValueError:
            return None
        return at if at is not None and at.tzinfo is not None else None

    if not one or not two:
        return one or two
    a, b = when(one), when(two)
    if a is None or b is None:
        return one if a is not None or b is None else two
    return one if a <= b else two
