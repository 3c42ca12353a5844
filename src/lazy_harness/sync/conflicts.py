"""The same entry edited by hand on two machines: what a round keeps of the other machine's version.

The merge drivers (``sync.drivers``) keep this machine's line or learning in place and note the other
version in a file the round names (``.git/lh-conflicts.jsonl``, never committed). After the merge the
round reads that note and, per conflict, writes a journalled run (kind ``sync-conflict``) in the
memory folder of the entry's project whose "before" is the file with the other version in place:
``lh memory undo <run>`` in that project puts it there (the next round pushes it), ``lh memory
history`` lists it. The round says so once: a line per conflict in its result (``lh sync`` prints
them), in worker.log, and in the sync state ``lh sync --status`` shows (the last ``KEPT`` of them).
The run goes out with the merge: the other machine's round says that its version was replaced
(``sync.replaced``).

Two different learnings added under one file name, one on each machine (``ADDED``): the other
machine's is written to the next free name beside this one's (``-2``, ``-3`` ...), which the round
commits and pushes with the merge; when that cannot be done it is journalled as above. A learning
whose status moved on one machine and whose body was edited on the other is merged whole by the
driver (``MERGED``): the round only says so.

The note is removed once every conflict in it is kept; a round killed before that keeps them at its
next run, skipping one kept already (the ``-2`` file with the same bytes is there; a run that names
the conflict's digest, ``DIGEST``, is saved), so nothing is written twice.

:func:`line_records` reads a JSONL line as the readers read it, damaged or not, for the drivers (which
line meets which) and the round (what came in).
"""

from __future__ import annotations

import hashlib
import json
import os
import re

from lazy_harness import jsonload, logfile, paths
from lazy_harness.atomic import atomic_write, read_bytes
from lazy_harness.memory import frontmatter, journal
from lazy_harness.memory.provenance import learning_place
from lazy_harness.regular_file import NotRegularFile, read_regular

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from lazy_harness.config.typed import Config

    Arriving = Callable[[bytes, str], None]

SIDE = "lh-conflicts.jsonl"
ENV = "LH_SYNC_CONFLICTS"  # set by the round for git's merge: where a merge driver notes a conflict
KEPT = 20
ADDED = "+added"  # a merge driver's conflict key: two learnings added under one name, one on each machine
MERGED = "+merged"  # another: a learning's status moved on one machine, its body edited on the other; both kept
THEIRS = "+theirs"  # another: the other machine's version kept (its status moved on), this machine's journalled
DIGEST = "sync_conflict"  # the key of a sync-conflict run that names the conflict it keeps (a digest of its note)
_SECOND_UP_TO = 20  # the writer names a second learning of one slug ``-2`` up to ``-20`` (learnings.MAX_SUFFIX)
SALVAGE_BRACES = 64  # a damaged line with more ``{`` than this is not salvaged (line_records)


def line_records(line: bytes) -> list[dict]:
    """The records every reader reads from one JSONL line: its JSON object, else what they salvage
    from a damaged one (a quote lost in a hand edit: ``lines.records_of`` with ``lines.entry_fields``),
    else none. why the cap on braces: salvage tries to decode at each ``{``, each failed attempt
    costing the length of the line (a line of 200,000 ``{`` took 14 s), and no memory line holds more
    than a few; past it the line is read as none, a line of its own to the merge."""
    rec = jsonload.line_object(line)
    if rec is not None:
        return [rec]
    if line.count(b"{") > SALVAGE_BRACES:
        return []
    from lazy_harness.memory import lines

    return lines.records_of(line.strip(), lines.entry_fields)[0]


def side_file(data: str) -> str:
    """Where the drivers of this round's merge note conflicts (inside .git: never committed)."""
    return os.path.join(data, ".git", SIDE)


def keep(data: str, cfg: Config, env: Mapping[str, str] | None, now: float,
         created: list[str] | None = None, arriving: Arriving | None = None) -> list[str]:
    """Journal the other version of every conflict the merge noted, or, for a learning the other
    machine added under the name of one added here, write it to the next free name (its path,
    relative to ``data``, is added to ``created``); returns one line per conflict. Never raises: the
    merge is done, and this machine's version is in place either way.

    The note is removed only once every conflict in it is kept. why: the merge commit holds this
    machine's version alone; a round killed before it kept them all finds the note again, and a
    conflict kept already (its ``-2`` file there with the same bytes, its run saved) is not kept twice.

    ``arriving(text, path)`` records what is kept of the other machine's version (the round's record
    of what came in: sync/arrivals.py ``record_learning``): its learning, with the name it is about
    to be written at, before it is written; its version of a line or a learning (``path`` the file
    holding this machine's), before the run that journals it is saved. why: ``lh memory undo`` puts
    that version in place, and it must read as synced there, not as this machine's own."""
    side = side_file(data)
    try:  # why read_regular: a FIFO in the note's place held the round, its lock taken, in open()
        lines = [ln for ln in read_regular(side).decode("utf-8", "replace").splitlines(True) if ln.strip()]
    except (NotRegularFile, IsADirectoryError) as exc:
        return [f"{side}: cannot be read: {exc.strerror}; no conflict of this round kept from it (hint: move it aside)"]
    except OSError:
        return []
    noted, said = _noted(lines)
    root = paths.memory_root(cfg["memory"]["path"] or None, env)
    for one in noted:
        try:
            said.append(_keep_one(data, root, one, now, created, env, arriving))
        except Exception as exc:  # why: one conflict that cannot be journalled must not hide the others
            said.append(f"{one.get('file')}: edited on both machines; this machine's version kept, the other "
                        f"could not be journalled ({type(exc).__name__}: {exc}); it is in the remote's history")
    try:
        os.unlink(side)
    except OSError:
        pass
    for line in said:
        logfile.write(logfile.WORKER, f"sync: {line}", env)
    return said


def _noted(lines: list[str]) -> tuple[list[dict], list[str]]:
    """The conflicts of the side file's lines, and a line for each that cannot be read. why: a driver
    killed mid-write leaves a torn line; the notes beside it are still kept, and the file is removed
    either way (left in place, it would fail every later round the same way)."""
    noted, said = [], []
    for line in dict.fromkeys(lines):  # why: a merge git stopped and the round ran again noted it twice
        one = jsonload.line_object(line)
        if one is not None and isinstance(one.get("file"), str) and "ours" in one and "theirs" in one:
            noted.append(one)
        else:
            said.append(f"a conflict note that cannot be read ({len(line.strip())} characters) was skipped")
    return noted, said


def _keep_one(data: str, root: str, one: dict, now: float, created: list[str] | None = None,
              env: Mapping[str, str] | None = None, arriving: Arriving | None = None) -> str:
    path = os.path.join(data, str(one["file"]))
    if one.get("merged"):
        status = str(one["merged"])
        return (f"{path}: learning {os.path.basename(path)} was {status} on one machine and edited on the other; "
                f"it stays {status}, with the edit (undoing the change of status brings it back edited)")
    theirs = str(one["theirs"]).encode("utf-8")
    if one.get("added") and not one.get("id"):
        try:
            second = _kept_as(path, theirs)
            if second is not None and arriving is not None:
                arriving(theirs, second)
            second = second or _second_name(path, theirs, arriving)
        except (OSError, ValueError) as exc:  # then journalled below, as a learning edited on both
            logfile.write(logfile.WORKER, f"sync: {path}: no second name for the other machine's learning: {exc}", env)
        else:
            if created is not None:
                created.append(os.path.relpath(second, data))
            return (f"{path}: two learnings were added under this name, one on each machine; this machine's "
                    f"stays, the other machine's is kept as {second}")
    return _journal_other(path, root, one, now, arriving)


def _journal_other(path: str, root: str, one: dict, now: float, arriving: Arriving | None = None) -> str:
    """A ``sync-conflict`` run whose "before" is ``path`` with the other machine's version in place;
    the run saved for this conflict already (a round killed before it removed the note), if any."""
    ours, theirs = str(one["ours"]).encode("utf-8"), str(one["theirs"]).encode("utf-8")
    if one.get("id"):  # a JSONL line
        mdir, what = os.path.dirname(path), str(one["id"])
        where = f"{what} in {os.path.basename(path)}"
    else:  # a learning: their whole file
        mdir, what = memory_folder_of(root, path) or _any_folder(root), "learning " + os.path.basename(path)
        where = f"learning {learning_place(path)}"
    digest = hashlib.sha256(json.dumps([one["file"], one.get("id"), one["ours"], one["theirs"]]).encode()).hexdigest()
    run = next((r["run"] for r in journal.runs(mdir) if r.get(DIGEST) == digest and r["kind"] == "sync-conflict"), None)
    if run is None:
        if arriving is not None:  # why before the run: undo must never put in place what is not recorded
            arriving(theirs, path)
        if one.get("id"):  # the file with their line in place of ours
            current = read_regular(path)  # why: a FIFO there is named by keep's caller, never waited on
            at = current.find(ours)
            if at < 0:
                raise ValueError("this machine's line is no longer in the file")
            before = current[:at] + theirs + current[at + len(ours):]
        else:
            before = theirs
        j = journal.Journal(mdir, "sync-conflict", os.path.basename(mdir), now)
        j.data[DIGEST] = digest
        j.track_as(path, before)
        # why no path and no "this machine": the run is synced, and read on the other machine too, where
        # the path is not its own and the version not kept is its own (docs/how/sync.md)
        j.note(f"{where}: edited on two machines; undo puts the version not kept in place")
        j.save()
        run = j.run
    if one.get("theirs_kept"):
        return (f"{path}: {what} was edited on both machines; kept the other machine's version (its status "
                f"moved on), this machine's is journalled: lh memory undo {run} (in that project) puts it in place")
    return (f"{path}: {what} was edited on both machines; kept this machine's version, the other one is "
            f"journalled: lh memory undo {run} (in that project) puts it in place")


def _stem(path: str) -> tuple[str, str]:
    """A learning's folder and its name without ``.md`` and without a ``-n`` the writer gave it."""
    folder, name = os.path.split(path)
    stem = name[:-3] if name.endswith(".md") else name
    head, _, n = stem.rpartition("-")
    if head and n.isdigit() and 2 <= int(n) <= _SECOND_UP_TO:
        stem = head
    return folder, stem


def _kept_as(path: str, text: bytes) -> str | None:
    """The name after ``path``'s that holds ``text`` already (written there by a round killed before
    it removed its note), or None."""
    folder, stem = _stem(path)
    for k in range(2, 1000):
        candidate = os.path.join(folder, f"{stem}-{k}.md")
        if os.path.isfile(candidate) and not os.path.islink(candidate) and read_bytes(candidate) == text:
            return candidate
    return None


def _second_name(path: str, text: bytes, arriving: Arriving | None = None) -> str:
    """Write ``text`` at the first free name after ``path``'s (``<slug>-2.md``, ``-3`` ...; a ``-n`` the
    writer gave it already is counted on from) in its folder; returns that path. ``arriving(text,
    name)`` is called before each name is tried. why before: a reader of the new file finds its place
    recorded already; a name another writer took first stays recorded, read as synced (the safe side)."""
    folder, stem = _stem(path)
    for k in range(2, 1000):
        candidate = os.path.join(folder, f"{stem}-{k}.md")
        if os.path.lexists(candidate):
            continue
        if arriving is not None:
            arriving(text, candidate)
        if atomic_write(candidate, text, exclusive=True):
            return candidate
    raise ValueError(f"every name from {stem}-2.md to {stem}-999.md is taken")


def memory_folder_of(root: str, learning: str) -> str | None:
    """The project memory folder under ``root`` a learning's ``project_folder`` names, or None: a
    pulled file's field is text anyone with the remote could have written, so only the plain name of
    a folder that is there counts (``../..`` or ``a/b`` name none)."""
    key = frontmatter.read_frontmatter_values(learning, ("project_folder",)).get("project_folder")
    if not isinstance(key, str) or not key or key in (".", "..") or "/" in key or os.sep in key or "\0" in key:
        return None
    folder = os.path.join(root, key)
    return folder if os.path.isdir(folder) and not os.path.islink(folder) else None


def _any_folder(root: str) -> str:
    folders = sorted(n for n in os.listdir(root) if os.path.isdir(os.path.join(root, n))) if os.path.isdir(root) else []
    if not folders:
        raise ValueError("no project memory folder to journal it in")
    return os.path.join(root, folders[0])


_UNDO_RUN = re.compile(r"lh memory undo ([0-9]{8}-[0-9]+-[0-9a-f]+) ")


def marked_undone(said: list[str], memory_dirs: list[str]) -> list[str]:
    """The ``conflict:`` lines ``lh sync --status`` lists, each whose run was undone since (here, or on
    the other machine: the run is synced) ending ``[undone <when>: lh memory history]``: the undo it
    offers would only say "already undone"."""
    out = []
    for line in said:
        found = _UNDO_RUN.search(line)
        when = _undone_at(found.group(1), memory_dirs) if found else None
        out.append(f"{line} [undone {when}: lh memory history]" if when else line)
    return out


def _undone_at(run: str, memory_dirs: list[str]) -> str | None:
    """When the journalled run ``run`` was undone, looked for in each memory folder; None if not."""
    for mdir in memory_dirs:
        try:  # why read_regular: a FIFO in a journal's place would hold lh sync --status in open()
            data = json.loads(read_regular(os.path.join(journal.folder(mdir), run + ".json")))
        except (OSError, ValueError):
            continue
        undone = data.get("undone") if isinstance(data, dict) else None
        return undone if isinstance(undone, str) and undone else None
    return None

