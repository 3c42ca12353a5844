"""What a project's memory folder owns besides entries written under its own key: ``aliases.jsonl``.

    {"op": "alias", "folder": "<an earlier memory key of this project>", "why": ..., "ts": ...}
    {"op": "adopt", "id": "<a learning id>", "why": ..., "ts": ...}

A project's key changes when its repository gains or changes its ``origin`` or its folder moves
(docs/how/project-key.md). Its decisions, failures and open items move into the new folder
(memory/migrate.py); its learnings stay where they are, in the shared learnings folder, each with
the key it was written under (``project_folder``). Rewriting each of those files would touch every
learning of the project and race with sync; an ``alias`` line instead says that learnings written
under the earlier key are this project's, and every reader (SessionStart, prompt recall, ``lh memory
search|show``, the page) counts them as its own. An ``adopt`` line does the same for one learning
written before keys were recorded (only its origin's name: ``lh memory unassigned``).

Append-only, one whole line per record, under the folder lock (memory.files.FolderLock), so a
record is either there or not and writing it twice changes nothing; sync merges the file as a set
of lines. Readers read it whole (a few lines).
Hot path: only ``os`` and our ``jsonload`` at import time.
"""

import os

from lazy_harness import jsonload

FILE = "aliases.jsonl"
ALIAS, ADOPT = "alias", "adopt"


class Owned:
    """The keys whose project-scoped learnings are this folder's (its own first) and the learning ids
    it adopted."""

    __slots__ = ("keys", "adopted", "memory_dir", "_elsewhere")

    def __init__(self, keys: frozenset, adopted: frozenset, memory_dir: str | None = None) -> None:
        self.keys, self.adopted, self.memory_dir = keys, adopted, memory_dir
        self._elsewhere: tuple[frozenset, frozenset] | None = None

    def lists(self, meta: dict, name: str) -> bool:
        """Whether a learning (its frontmatter, with ``id``) is the project's own (``lh memory show``,
        the page, consolidation): written under one of its keys, or adopted; one written before keys
        were recorded, by its origin ``name``, only while no folder adopted it and no other project's
        memory folder records that name (``lh memory unassigned``'s rule: two projects of one name get
        it listed, shown in neither until assigned). why the key first: ``~/work/api`` and
        ``~/clients/x/api`` share the name, and consolidating one deprecated the other's learnings."""
        if meta.get("id") in self.adopted:
            return True
        key = meta.get("project_folder")
        if isinstance(key, str) and key:
            return key in self.keys
        if meta.get("origin") != name:
            return False
        adopted, names = self.elsewhere()
        return meta.get("id") not in adopted and name not in names

    def elsewhere(self) -> tuple[frozenset, frozenset]:
        """(learning ids adopted by other memory folders, project names other folders record), read
        once, at the first keyless learning (not on the hooks' path: they never ask ``lists``)."""
        if self._elsewhere is None:
            adopted: set[str] = set()
            names: set[str] = set()
            root = os.path.dirname(self.memory_dir.rstrip(os.sep)) if self.memory_dir else ""
            try:
                keys = sorted(os.listdir(root)) if root else []
            except OSError:
                keys = []
            for key in keys:
                folder = os.path.join(root, key)
                if key not in self.keys and os.path.isdir(folder):
                    adopted.update(r["id"] for r in records(folder) if r["op"] == ADOPT)
                    names |= project_names(folder)
            self._elsewhere = frozenset(adopted), frozenset(names)
        return self._elsewhere


def project_names(memory_dir: str) -> set[str]:
    """The project names the first lines of a memory folder's decisions and failures carry."""
    out = set()
    for name in ("decisions.jsonl", "failures.jsonl"):
        try:
            with open(os.path.join(memory_dir, name), "rb") as fh:
                first = [fh.readline(65536) for _ in range(5)]
        except OSError:
            continue
        for raw in first:
            try:
                rec = jsonload.loads(raw) if raw.strip() else None
            except (ValueError, RecursionError):
                continue
            if isinstance(rec, dict) and isinstance(rec.get("project"), str) and rec["project"]:
                out.add(rec["project"])
    return out


def records(memory_dir: str) -> list[dict]:
    """Every well-formed record of the folder's file, in order; a torn or foreign line is skipped."""
    try:
        with open(os.path.join(memory_dir, FILE), "rb") as fh:
            data = fh.read()
    except OSError:
        return []
    out = []
    for raw in data.split(b"\n"):
        if not raw.strip():
            continue
        try:
            rec = jsonload.loads(raw)
        except (ValueError, RecursionError):
            continue
        if isinstance(rec, dict) and rec.get("op") in (ALIAS, ADOPT) and isinstance(rec.get(FIELD[rec["op"]]), str):
            out.append(rec)
    return out


FIELD = {ALIAS: "folder", ADOPT: "id"}  # the field each op names its value in


def owned(memory_dir: str) -> Owned:
    """The keys (the folder's own name and its aliases) and adopted ids of ``memory_dir``."""
    own = os.path.basename(memory_dir.rstrip(os.sep))
    recs = records(memory_dir)
    keys = frozenset([own] + [r["folder"] for r in recs if r["op"] == ALIAS])
    return Owned(keys, frozenset(r["id"] for r in recs if r["op"] == ADOPT), memory_dir)


def record(memory_dir: str, op: str, value: str, why: str, now: float, locked: bool = False,
           project: str | None = None) -> bool:
    """Add one record unless the folder has it already; True when written. ``locked``: the caller
    holds the folder lock (a second one in this process would wait for ever). ``project``: the name
    of the project writing it, kept in the record (``written_by``)."""
    if op not in FIELD or not value or "\n" in value:
        raise ValueError(f"not an {FILE} record: {op} {value!r}")
    from lazy_harness.atomic import append_line, ensure_dir
    from lazy_harness.logfile import stamp
    from lazy_harness.memory.files import FolderLock

    ensure_dir(memory_dir)

    def add() -> bool:
        if any(r["op"] == op and r[FIELD[op]] == value for r in records(memory_dir)):
            return False
        rec = {"op": op, FIELD[op]: value, "why": why, "ts": stamp(now)}
        append_line(os.path.join(memory_dir, FILE), jsonload.dumps({**rec, "project": project} if project else rec))
        return True

    if locked:
        return add()
    with FolderLock(memory_dir):
        return add()


def carry(old_dir: str, memory_dir: str, now: float, project: str | None = None, locked: bool = False) -> list[str]:
    """What the earlier folder ``old_dir`` owned (its aliases and adopted learnings), this one owns
    now: each of its records written here unless here already (a rerun adds nothing). Log lines."""
    old_key, own = os.path.basename(old_dir.rstrip(os.sep)), os.path.basename(memory_dir.rstrip(os.sep))
    out = []
    for rec in records(old_dir):
        value = rec[FIELD[rec["op"]]]
        if rec["op"] == ALIAS and value == own:
            continue  # why: the origin changed back: this folder's own key needs no alias
        if record(memory_dir, rec["op"], value, f"from {old_key}", now, locked=locked, project=project):
            out.append(f"{rec['op']} {value} carried over from {old_key}")
    return out


def written_by(memory_dir: str, name: str) -> bool:
    """Whether a project named ``name`` wrote one of the folder's records (an alias it adopted, the
    migration of its key): proof the folder is that project's even when its entries, merged from an
    adopted folder, carry the earlier name."""
    return any(r.get("project") == name for r in records(memory_dir))
