"""Damaged lines of the memory files, named by file and line: what ``lh memory check`` and ``lh doctor``
print, and the one log line a hook or the worker writes when a read salvaged or skipped one.

A read that meets a damaged line (``memory.lines``) only notes the file. The hook or worker that ran
the read then calls :func:`report`: for each noted file whose state (inode, size, time) it has not
looked at before, it scans the whole file and, when the set of damaged lines differs from the one
last logged, writes one line naming them (``<path>: 2 line(s) skipped (7: not UTF-8, 19: NUL bytes)``).
So a damaged file is logged once, not at every read, and again only when its damage changes. What
was logged is kept in ``<state dir>/damaged-lines.json``.

The learning files' damage is memory/learning_damage.py's.

Not on the hot path unless a damaged line was met.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field

from lazy_harness import paths
from lazy_harness.atomic import atomic_write, ensure_dir, lock
from lazy_harness.errors import LhError
from lazy_harness.memory import aliases, files, lines, usage_log

# why: not ``from typing import TYPE_CHECKING``: memory never imports ``typing`` at run time (the hooks
# load its read side: house style section 3)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from lazy_harness.memory.lines import Repair
    from lazy_harness.memory.shapes import Env

STATE = lines.REPORTED
KINDS = {files.DECISIONS: "decision", files.FAILURES: "failure", files.HANDOFF_STATE: "handoff",
         "marks.jsonl": "mark", usage_log.USAGE: "usage", aliases.FILE: "alias"}
SHOWN = 5  # damaged lines named in one log line; lh memory check names them all
# the lines git writes around each side of a conflict it leaves to a merge by hand (diff3's base too)
CONFLICT_MARKERS = ("<<<<<<<", "|||||||", "=======", ">>>>>>>")
RESOLVE = "resolve the conflict: keep one side's lines, delete the marker lines"
CONFLICT = f"a git conflict marker (a merge by hand left both sides in the file; {RESOLVE})"


def conflict_marker(line: str) -> bool:
    """Whether ``line`` is a git conflict marker: one of :data:`CONFLICT_MARKERS` alone or before a
    space (``<<<<<<< HEAD``, ``>>>>>>> origin/main``)."""
    return line[:7] in CONFLICT_MARKERS and line[7:8] in ("", " ", "\t", "\r")


@dataclass
class FileCheck:
    """The damaged lines of one file: ``(line number, "salvaged: why" | "skipped: why")``."""

    path: str
    found: list[tuple[int, str]] = field(default_factory=list)
    unreadable: str = ""  # why the whole file cannot be read (a folder where the file should be), else ""

    @property
    def skipped(self) -> list[tuple[int, str]]:
        return [(n, how) for n, how in self.found if how.startswith("skipped")]

    @property
    def salvaged(self) -> list[tuple[int, str]]:
        return [(n, how) for n, how in self.found if how.startswith("salvaged")]

    def summary(self, shown: int = SHOWN) -> str:
        """``<path>: 2 line(s) skipped (7: not UTF-8, 19: NUL bytes), 1 salvaged (3: NUL bytes)``, or
        ``<path>: cannot be read: <why>``."""
        if self.unreadable:
            return f"{self.path}: cannot be read: {self.unreadable}"
        parts = []
        for word, group in (("skipped", self.skipped), ("salvaged", self.salvaged)):
            if group:
                named = ", ".join(f"{n}: {how.split(': ', 1)[1]}" for n, how in group[:shown])
                more = f", and {len(group) - shown} more" if len(group) > shown else ""
                parts.append(f"{len(group)} line(s) {word} ({named}{more})")
        return f"{self.path}: " + ", ".join(parts) if parts else f"{self.path}: no damaged line"


def _fields_for(path: str) -> Repair | None:
    kind = KINDS.get(os.path.basename(path))
    if kind in ("decision", "failure"):
        return lines.entry_fields
    if kind == "handoff":
        from lazy_harness.memory import handoff_log

        return handoff_log.salvage
    if kind == "alias":
        return aliases.salvage
    return None


def check_file(path: str) -> FileCheck:
    """Every damaged line of ``path`` (line numbers from 1). A last line without its newline that is
    not a whole object is a write in flight or cut short: named as ``skipped: torn last line``. A
    decision or failure line that is JSON but no entry (``lines.not_an_entry``), or a usage line that is
    no usage record (``usage_log.not_a_record``), is skipped too: every reader leaves it out (a usage record of an
    op a newer version writes is left out too, but is no damage). A file
    that is there and cannot be read has ``unreadable`` set."""
    out = FileCheck(path)
    why = unreadable(path)
    if why is not None:
        out.unreadable = why
        return out
    try:  # why read_regular: something else may be put in the file's place since unreadable() looked
        data = lines.read_regular(path)
    except FileNotFoundError:
        return out  # removed since: nothing to read
    except OSError as exc:
        out.unreadable = exc.strerror or str(exc)
        return out
    if data.startswith(files.BOM):
        data = data[len(files.BOM):]
    rows = data.split(b"\n")
    fields = _fields_for(path)
    kind = KINDS.get(os.path.basename(path), "")
    # the rule the file's readers keep for a line that is JSON (what they leave out)
    rule = {"decision": lines.not_an_entry, "failure": lines.not_an_entry, "usage": usage_log.not_a_record}.get(kind)
    for number, raw in enumerate(rows, 1):
        # what follows the last newline
        if number == len(rows) and raw.strip() and not files.whole_object(raw):
            out.found.append((number, "skipped: torn last line (a write cut short, or still going)"))
            continue
        recs, how = lines.records_of(raw, fields)
        if not how and rule is not None:
            how = next((f"skipped: {no}" for no in map(rule, recs) if no and no != usage_log.NEWER), "")
            if not how and kind in ("decision", "failure"):
                how = next(filter(None, (_foreign(rec, kind) for rec in recs)), "")
        elif how == f"skipped: {lines.NOT_JSON}" and conflict_marker(raw.decode("utf-8", "replace")):
            how = f"skipped: {CONFLICT}"  # why: "not JSON" did not say that both sides' lines are read
        if how:
            out.found.append((number, how))
    return out


def _foreign(rec: dict, kind: str) -> str:
    """``salvaged: ...`` for an entry line of a ``kind`` file whose ``id`` is another kind's (a line
    moved by hand between decisions.jsonl and failures.jsonl): read under the id its summary gives."""
    from lazy_harness.memory import ids

    other = ids.foreign(rec, kind)
    if other is None or not lines.is_entry(rec):
        return ""
    return (f"salvaged: carries the id of a {ids.kind_of(other)} ({other}), read as {kind} {ids.of_record(rec, kind)} "
            f"(a line moved by hand from the other file; commands reach it by the id shown)")


def skipped_carrier(path: str, eid: str) -> tuple[int, str] | None:
    """(line number, why) of the first line of ``path`` that every reader skips and that carries
    ``eid`` (a hand edit that broke the line of an entry); None when none does."""
    check = check_file(path)
    if not check.skipped:
        return None
    try:  # why read_regular: a FIFO in the file's place since check_file read it
        rows = lines.read_regular(path).removeprefix(files.BOM).split(b"\n")
    except OSError:
        return None
    needle = eid.encode("ascii", "replace")
    for number, how in check.skipped:
        if number <= len(rows) and needle in rows[number - 1]:
            return number, how.removeprefix("skipped: ")
    return None


def no_entry(memory_dir: str, eid: str, kind: str) -> LhError:
    """The refusal of a forget (or another change) of decision or failure ``eid`` that no reader
    finds: naming the skipped line that carries it, when one does (``decisions.jsonl:4``: the line
    is there, damaged), with ``lh memory check``'s reason; naming the file when it cannot be read at all."""
    path = os.path.join(memory_dir, files.DECISIONS if kind == "decision" else files.FAILURES)
    # why named: "no decision" said of a file no reader could open sent the person looking for the entry
    for where, why_not in ((memory_dir, folder_unreadable(memory_dir)), (path, unreadable(path))):
        if why_not is not None:
            return LhError(f"no {kind} {eid} read: {where} cannot be read: {why_not}", hint="lh memory check")
    found = skipped_carrier(path, eid)
    if found is None:
        return LhError(f"no {kind} {eid} in {memory_dir}", hint="lh memory show")
    return LhError(f"no {kind} {eid} in {memory_dir}: {path}:{found[0]} carries it, but every reader skips "
                   f"that line ({found[1]})", hint=f"fix line {found[0]} of {path} by hand, then lh memory check")


def unreadable(path: str) -> str | None:
    """Why a memory file that is there cannot be read as one (a folder, a link to nothing, not a regular
    file, no permission to read it), None when it is a file or not there at all. Only a regular file is
    opened (a pipe would block)."""
    if not os.path.lexists(path):
        return None
    if os.path.isdir(path):
        return "a folder, not a file"
    if not os.path.exists(path):
        return f"a link to {os.readlink(path)}, which does not exist"
    if not os.path.isfile(path):
        return "not a regular file"
    if not os.access(path, os.R_OK):
        return "not readable by this user (its permissions)"
    return None


def folder_unreadable(folder: str) -> str | None:
    """Why a memory or learnings folder that is there cannot be listed (its mode, a folder ``sudo lh``
    made), None when it can be or is not there. Every reader takes such a folder for an empty one."""
    if os.path.isdir(folder) and not os.access(folder, os.R_OK | os.X_OK):
        return "a folder this user cannot read (its permissions): no reader sees what it holds"
    return None


def memory_files(memory_dir: str) -> list[str]:
    """The JSONL files of a project's memory folder that are there (files, or anything else in their place)."""
    return [os.path.join(memory_dir, name) for name in KINDS if os.path.lexists(os.path.join(memory_dir, name))]


def check_folders(memory_dirs: list[str]) -> list[FileCheck]:
    """The checks of every memory file of ``memory_dirs`` (files without damage included), then of each
    folder's handoff.md and the damaged copies of it kept aside (:func:`handoff_checks`). A folder that
    cannot be read is one check of its own (:func:`folder_unreadable`)."""
    closed = [FileCheck(mdir, unreadable=why) for mdir in memory_dirs if (why := folder_unreadable(mdir))]
    return closed + [check_file(path) for mdir in memory_dirs for path in memory_files(mdir)] + [
        check for mdir in memory_dirs for check in handoff_checks(mdir)]


def handoff_copies(memory_dir: str) -> list[str]:
    """The damaged handoff.md files of ``memory_dir`` a writer kept aside before rendering it again
    (memory/handoff_markdown.py ``copies_dir``), oldest first."""
    from lazy_harness.memory import handoff_markdown

    folder = handoff_markdown.copies_dir(memory_dir)
    try:
        names = sorted(n for n in os.listdir(folder) if n.startswith(handoff_markdown.DAMAGED_COPY))
    except OSError:
        return []
    return [os.path.join(folder, n) for n in names]


def handoff_checks(memory_dir: str) -> list[FileCheck]:
    """handoff.md (when it exists), named as skipped when it is damaged: NUL bytes, not UTF-8, or text
    with neither our header nor a list line. No reader takes it for a hand edit, and the next writer
    keeps it aside and renders it again from handoff.jsonl. Then each copy kept aside, named until a
    person deletes it: its text was never read."""
    from lazy_harness.memory import handoff_markdown

    out = []
    md = os.path.join(memory_dir, files.HANDOFF)
    why_not = unreadable(md)
    if why_not is not None:
        out.append(FileCheck(md, unreadable=why_not))
    elif os.path.isfile(md):
        why = handoff_markdown.damage_of(memory_dir)
        found = [(1, f"skipped: damaged ({why}), not read as a hand edit; the next writer keeps a copy in "
                     f"{handoff_markdown.copies_dir(memory_dir)} and renders it again from "
                     f"{files.HANDOFF_STATE}")] if why else []
        out.append(FileCheck(md, found))
    for copy in handoff_copies(memory_dir):
        try:  # why read_regular: a FIFO named as a copy held lh memory check in open() for good
            why = handoff_markdown.damaged(lines.read_regular(copy, handoff_markdown.MAX_MARKDOWN_BYTES))
        except OSError:
            why = None
        out.append(FileCheck(copy, [(1, f"skipped: a damaged handoff.md ({why or 'damaged'}) kept aside, its "
                                        "text never imported; delete it once read")]))
    return out


def _load(state_path: str) -> dict:
    try:  # why read_regular: a FIFO in the record's place held the hook in open() for good
        value = json.loads(lines.read_regular(state_path).decode("utf-8"))
        return value if isinstance(value, dict) else {}
    except (OSError, ValueError):
        return {}


def report(log: str, env: Env | None = None, now: float | None = None, prefix: str = "") -> list[str]:
    """Log one line per noted file whose damage is new (see the module docstring); returns the lines.
    Clears the noted files. Never raises for a file or state it cannot read or write."""
    noted = sorted(lines.NOTED)
    cut = set(lines.CUT)
    lines.NOTED.clear()
    lines.CUT.clear()
    if not noted:
        return []
    state_path = os.path.join(paths.state_dir(env), STATE)
    # why: a hook and the worker it woke read the same files at once; without the lock both found the
    # damage new in the state file and both logged it
    try:
        ensure_dir(os.path.dirname(state_path))
        fd: int | None = lock(state_path + ".lock")
    except OSError:
        fd = None
    try:
        return _report(noted, cut, state_path, log, env, now, prefix)
    finally:
        if fd is not None:
            os.close(fd)


def _report(noted: list[str], cut: set[str], state_path: str, log: str, env: Env | None, now: float | None,
            prefix: str) -> list[str]:
    from lazy_harness import logfile

    state = _load(state_path)
    written: list[str] = []
    changed = False
    for path in noted:
        stamp = lines.file_stamp(path)
        seen = state.get(path)
        seen = seen if isinstance(seen, dict) else {}
        if stamp is None or seen.get("stamp") == stamp:
            continue
        check = check_file(path)
        check.found = [(n, how) for n, how in check.found if not how.startswith("skipped: torn last line")]
        found = [[n, how] for n, how in check.found]
        state[path] = {"stamp": stamp, "found": found}
        changed = True
        if path in cut:  # why: said once per file state, like the damage, not at every start
            mib = (lines.MAX_LINE + files.LONG_SCAN) >> 20
            message = (f"{prefix}memory: {path}: a line longer than {mib} MiB near the end; SessionStart stops "
                       "reading there, so no entry before it is shown until the line is removed (lh memory check "
                       "names it)")
            logfile.write(log, message, env, now)
            written.append(message)
        elif found and found != seen.get("found"):
            message = f"{prefix}memory: {check.summary()}; lh memory check names them"
            logfile.write(log, message, env, now)
            written.append(message)
    if changed:
        try:
            ensure_dir(os.path.dirname(state_path))
            atomic_write(state_path, json.dumps(state, indent=1) + "\n")
        except OSError:
            pass
    return written
