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
of lines. Readers read it whole (a few lines), through ``memory.lines`` like the other memory files:
a damaged line is salvaged when its op and value survived whole, else skipped, and named (the
hooks' log once, ``lh memory check``, ``lh doctor``); it is never rewritten.

Whose a learning without a key is (only its origin's name) is decided here, once, for every reader:
:func:`keyless_owner` over the projects this machine knows (:func:`known_projects`). ``lh memory
unassigned`` (memory/owners.py) adopts by it and lists what it gives no owner; ``Owned.lists`` (``lh
memory show``, the page, consolidation) lists such a learning only in the project it names.
Hot path: only ``os``, our ``jsonload`` and ``memory.lines`` at import time.
"""

from __future__ import annotations

import os

from lazy_harness import jsonload
from lazy_harness.memory import lines

# why: not ``from typing import TYPE_CHECKING``: memory never imports ``typing`` at run time (the hooks
# load this module: house style section 3)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from lazy_harness.memory.shapes import Env

FILE = "aliases.jsonl"
ALIAS, ADOPT = "alias", "adopt"
# (learning id -> the keys that adopted it, project name -> memory keys, Claude Code folder -> its cwd)
Keyless = tuple[dict[str, list[str]], dict[str, list[str]], dict[str, str | None]]


class Owned:
    """The keys whose project-scoped learnings are this folder's (its own first) and the learning ids
    it adopted."""

    __slots__ = ("keys", "adopted", "memory_dir", "_keyless")

    def __init__(self, keys: frozenset, adopted: frozenset, memory_dir: str | None = None) -> None:
        self.keys, self.adopted, self.memory_dir = keys, adopted, memory_dir
        self._keyless: Keyless | None = None

    def lists(self, meta: dict, name: str) -> bool:
        """Whether a learning (its frontmatter, with ``id``) is the project's own (``lh memory show``,
        the page, consolidation): written under one of its keys, or adopted; one written before keys
        were recorded, by its origin ``name``, only while no other folder adopted it and
        :func:`keyless_owner` gives it to this folder among the projects of that name this machine
        knows, as ``lh memory unassigned`` does (two projects of one name get it listed, shown in
        neither until assigned). why the key first: ``~/work/api`` and ``~/clients/x/api`` share the
        name, and consolidating one deprecated the other's learnings."""
        key = meta.get("project_folder")
        if isinstance(key, str) and key:  # why first: an adopt line takes only a learning without a key
            return key in self.keys
        if meta.get("id") in self.adopted:
            return True
        if meta.get("origin") != name:
            return False
        taken, by_name, folders = self.keyless()
        if meta.get("id") in taken:
            return not self.keys.isdisjoint(taken[meta["id"]])
        candidates = by_name.get(name, [])
        if self.memory_dir and self.keys.isdisjoint(candidates):
            # why: this folder is a project of that name also before anything on disk says so (no
            # entry of it names the project yet, no transcript, no root kept)
            candidates = sorted([*candidates, os.path.basename(self.memory_dir.rstrip(os.sep))])
        return keyless_owner(meta, candidates, folders) in self.keys

    def keyless(self) -> Keyless:
        """(who adopted what, the memory keys of each project name, Claude Code's folders with their
        ``cwd``), read once, at the first keyless learning of this name (not on the hooks' path: they
        never ask ``lists``)."""
        if self._keyless is None:
            root = os.path.dirname(self.memory_dir.rstrip(os.sep)) if self.memory_dir else ""
            folders = claude_folders()
            self._keyless = adopted_anywhere(root), keys_by_name(known_projects(root, None, folders)), folders
        return self._keyless


def project_names(memory_dir: str) -> set[str]:
    """The project names the first lines of a memory folder's decisions and failures carry."""
    out = set()
    for name in ("decisions.jsonl", "failures.jsonl"):
        try:  # why lines.open_regular: a FIFO in the file's place held the command in open() for good
            with open(lines.open_regular(os.path.join(memory_dir, name))[0], "rb") as fh:
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
    """Every record of the folder's file, in order. A damaged line is salvaged as the other memory
    files' are (``lines.records_of``, with :func:`salvage`), else skipped; either way the file is noted,
    and the hook or worker that read it logs it once (``memory.damage.report``); ``lh memory check``
    and ``lh doctor`` name it. why: a torn line used to be skipped without a word, and with it every
    learning written under that earlier key left its project. A line of an op this version does not
    know is left out (a newer version's), and a last line without its newline (a write in flight)."""
    try:
        found = lines.read_file(os.path.join(memory_dir, FILE), salvage)
    except OSError:
        return []
    return [rec for rec in found if rec.get("op") in FIELD and isinstance(rec.get(FIELD[rec["op"]]), str)]


FIELD = {ALIAS: "folder", ADOPT: "id"}  # the field each op names its value in


def salvage(text: str) -> dict | None:
    """A record rebuilt from a damaged line's surviving string fields (``lines.string_fields``): its op
    and the key or id it names must be whole JSON strings, so the value is exactly what was written
    (a value cut short has no closing quote and is not read); ``why``, ``ts`` and ``project`` when
    they survived too. None when the line does not hold that much."""
    rec = lines.string_fields(text, ("op", "folder", "id", "why", "ts", "project", "machine"))
    op = rec.get("op")
    if op not in FIELD or not rec.get(FIELD[op]):
        return None
    return {k: v for k, v in rec.items() if k not in FIELD.values() or k == FIELD[op]}


def owned(memory_dir: str, env: Env | None = None) -> Owned:
    """The keys (the folder's own name and the aliases that count: :func:`counted`) and adopted ids of
    ``memory_dir``. ``env``: whose machine state to read (the resident answerer answers with the
    asking hook's)."""
    own = os.path.basename(memory_dir.rstrip(os.sep))
    recs = records(memory_dir)
    named = list(dict.fromkeys(r["folder"] for r in recs if r["op"] == ALIAS and r["folder"] != own))
    keys = frozenset([own] + counted(own, named, os.path.dirname(memory_dir.rstrip(os.sep)), env))
    return Owned(keys, frozenset(r["id"] for r in recs if r["op"] == ADOPT), memory_dir)


def counted(own: str, named: list[str], memory_root: str | None = None, env: Env | None = None) -> list[str]:
    """The keys of ``named`` (aliases in the folder of key ``own``) that count as its own: those this
    machine wrote (:func:`consented`: a migration here, ``lh memory adopt``, ``--force`` too), and those
    no other project live on this machine holds (another machine's earlier key: what a synced alias is
    for). why: any clone of the sync remote can append a line; one naming the key of a live project
    here brought that project's memory into this one's sessions, without the person's consent (ADR
    0035). Costs nothing without aliases, one small read with them, the worker's key records only for
    one this machine did not write. ``memory_root``: the folder holding the memory folders (see
    :func:`_live_keys`)."""
    if not named:
        return []
    mine = consented(own, env)
    others = [k for k in named if k not in mine]
    live = _live_keys(others, memory_root, env) if others else set()
    return [k for k in named if k in mine or k not in live]


def consent_file(own: str, env: Env | None = None) -> str:
    """The aliases this machine wrote for the memory folder of key ``own``, one key a line: machine-local,
    one for every Claude Code profile as the memory is (``paths.alias_consent_file``), never synced."""
    from lazy_harness import paths

    return paths.alias_consent_file(own, env)


def consented(own: str, env: Env | None = None) -> set[str]:
    """The aliases this machine wrote for the folder of key ``own`` (:func:`consent_file`), and those a
    version before noted in this profile's ``<queue>/state/aliases``, copied into the machine's file
    at this first read (every other profile reads only that one)."""
    from lazy_harness import paths

    mine = _consents(consent_file(own, env))
    before = _consents(os.path.join(paths.profile_records_dir("aliases", env), own)) - mine
    for value in sorted(before):
        try:
            _consent(own, value, env)
        except OSError:
            break  # why: read here all the same; copied at a later read, when the folder may be written
    return mine | before


def _consents(path: str) -> set[str]:
    """The keys the consent file ``path`` names; none from a folder others may write (``last_key.trusted``)."""
    from lazy_harness.memory import last_key

    if not last_key.trusted(os.path.dirname(path)):
        return set()
    try:  # why lines.open_regular: a FIFO in the file's place held every reader of the aliases in open()
        with open(lines.open_regular(path)[0], encoding="utf-8", errors="replace") as fh:
            return {line.strip() for line in fh.read(1 << 20).split("\n") if line.strip()}
    except OSError:
        return set()


def _live_keys(keys: list[str], memory_root: str | None = None, env: Env | None = None) -> set[str]:
    """The keys of ``keys`` that are a project's live on this machine: the key it is written under
    today (the record of its last key, kept by the worker and by its session start: its root exists
    and is keyed by it, or a record without a root, whose project cannot be told gone, as
    ``last_key.still_owned`` reads it, while its memory folder is in ``memory_root``) or one of the
    aliases this machine wrote for it. All of them while the records folder may not be trusted: what
    it says is unknown, and a key counted live only keeps a synced alias from counting.

    why a rootless record needs its folder: versions before roots were kept wrote the key alone, and
    their ``lh memory adopt`` moved that folder into the adopting project's without a consent note;
    a project whose memory folder is gone writes nowhere, and its key is the adopter's alias now."""
    from lazy_harness import paths
    from lazy_harness.memory import last_key

    if not last_key.trusted(os.path.dirname(paths.last_key_file("/", env))):
        return set(keys)
    wanted, out = set(keys), set()
    for key, root in last_key.recorded_roots(env):
        if (root is not None and not (os.path.isdir(root) and paths.memory_key(root) == key)):
            continue
        if root is None and memory_root and not os.path.isdir(os.path.join(memory_root, key)):
            continue
        out |= ({key} | consented(key, env)) & wanted
    return out


def _consent(own: str, value: str, env: Env | None = None) -> None:
    """Note that this machine wrote the alias ``value`` in the folder of key ``own`` (:func:`counted`),
    in the machine's file also when this profile noted it before (the other profiles read only that
    one). Raises ``private.UnsafeFolder`` when its folder may not be used."""
    from lazy_harness.atomic import append_line
    from lazy_harness.memory import last_key

    path = consent_file(own, env)
    if value in _consents(path):
        return
    last_key.private_folder(os.path.dirname(path))
    append_line(path, value, heal=True)


def record(memory_dir: str, op: str, value: str, why: str, now: float, locked: bool = False,
           project: str | None = None, consent: bool = True, machine: str | None = None) -> bool:
    """Add one record unless the folder has it already; True when written. ``locked``: the caller
    holds the folder lock (a second one in this process would wait for ever). ``project``: the name
    of the project writing it, kept in the record (``written_by``). ``machine``: the machine that moved
    the memory, kept in the record (memory/migrate.py ``moved_machines``). ``consent``: an alias this machine
    decided on (:func:`counted`), noted also when a round brought the same line first; :func:`carry`
    passes on only what the earlier folder had."""
    if op not in FIELD or not value or "\n" in value:
        raise ValueError(f"not an {FILE} record: {op} {value!r}")
    from lazy_harness.atomic import append_line, ensure_dir
    from lazy_harness.logfile import stamp
    from lazy_harness.memory.files import FolderLock

    ensure_dir(memory_dir)

    def add() -> bool:
        if op == ALIAS and consent:
            _consent(os.path.basename(memory_dir.rstrip(os.sep)), value)
        if any(r["op"] == op and r[FIELD[op]] == value for r in records(memory_dir)):
            return False
        rec = {"op": op, FIELD[op]: value, "why": why, "ts": stamp(now)}
        if project:
            rec["project"] = project
        if machine:
            rec["machine"] = machine
        # why heal: a line cut short before its newline (a crash) would take this one into it, and the
        # salvage would keep only this one
        append_line(os.path.join(memory_dir, FILE), jsonload.dumps(rec), heal=True)
        return True

    if locked:
        return add()
    with FolderLock(memory_dir):
        return add()


def carry(old_dir: str, memory_dir: str, now: float, project: str | None = None, locked: bool = False) -> list[str]:
    """What the earlier folder ``old_dir`` owned (its aliases and adopted learnings), this one owns
    now: each of its records written here unless here already (a rerun adds nothing). Log lines."""
    old_key, own = os.path.basename(old_dir.rstrip(os.sep)), os.path.basename(memory_dir.rstrip(os.sep))
    mine = consented(old_key)
    out = []
    for rec in records(old_dir):
        value = rec[FIELD[rec["op"]]]
        if rec["op"] == ALIAS and value == own:
            continue  # why: the origin changed back: this folder's own key needs no alias
        if record(memory_dir, rec["op"], value, f"from {old_key}", now, locked=locked, project=project,
                  consent=value in mine):
            out.append(f"{rec['op']} {value} carried over from {old_key}")
    return out


def written_by(memory_dir: str, name: str) -> bool:
    """Whether a project named ``name`` wrote one of the folder's records (an alias it adopted, the
    migration of its key): proof the folder is that project's even when its entries, merged from an
    adopted folder, carry the earlier name."""
    return any(r.get("project") == name for r in records(memory_dir))


# --- whose a learning without a key is (ADR 0035) ---------------------------------------------------

CWD_LINES = 50  # lines of a transcript read to find its ``cwd``


def adopted_anywhere(memory_root: str) -> dict[str, list[str]]:
    """``{learning id: [memory keys that adopted it]}`` over every memory folder."""
    out: dict[str, list[str]] = {}
    for folder in memory_folders(memory_root):
        for lid in owned(folder).adopted:
            out.setdefault(lid, []).append(os.path.basename(folder))
    return out


def memory_folders(memory_root: str) -> list[str]:
    """The memory folders in ``memory_root``, by key."""
    try:
        keys = sorted(os.listdir(memory_root)) if memory_root else []
    except OSError:
        return []
    return [d for d in (os.path.join(memory_root, k) for k in keys) if os.path.isdir(d)]


def transcript_cwd(folder: str) -> str | None:
    """The ``cwd`` the newest transcript of a Claude Code project folder records; None when none does."""
    try:
        names = [n for n in os.listdir(folder) if n.endswith(".jsonl")]
    except OSError:
        return None
    names.sort(key=lambda n: _mtime(os.path.join(folder, n)), reverse=True)
    for name in names[:3]:
        try:  # why lines.open_regular: a FIFO named as a transcript held lh memory show in open() for good
            with open(lines.open_regular(os.path.join(folder, name))[0], "rb") as fh:
                for _ in range(CWD_LINES):
                    raw = fh.readline(1 << 20)
                    if not raw:
                        break
                    try:
                        rec = jsonload.loads(raw)
                    except (ValueError, RecursionError):
                        continue
                    if isinstance(rec, dict) and isinstance(rec.get("cwd"), str) and rec["cwd"]:
                        return rec["cwd"]
        except OSError:
            continue
    return None


def _mtime(path: str) -> float:
    try:
        return os.stat(path).st_mtime
    except OSError:
        return 0.0


def claude_folders(env: Env | None = None) -> dict[str, str | None]:
    """Each Claude Code project folder's name with the ``cwd`` its transcripts record."""
    from lazy_harness import paths

    base = paths.projects_dir(env)
    try:
        names = sorted(os.listdir(base))
    except OSError:
        return {}
    return {n: transcript_cwd(os.path.join(base, n)) for n in names if os.path.isdir(os.path.join(base, n))}


def known_projects(memory_root: str, env: Env | None = None,
                   folders: dict[str, str | None] | None = None) -> dict[str, dict]:
    """``{memory key: {"key", "names", "root" (or None), "live" (its folder exists)}}`` of every project
    this machine knows: those whose sessions Claude Code recorded, those the worker wrote for (the
    roots it keeps beside their last keys: live while the folder exists, also after Claude Code
    deleted the transcripts), and those with a memory folder (the names its entries carry).
    ``folders``: :func:`claude_folders` when the caller read it already (it reads transcripts)."""
    from lazy_harness import paths
    from lazy_harness.project_identity import project_name, project_root

    out: dict[str, dict] = {}
    seen = [cwd for cwd in (claude_folders(env) if folders is None else folders).values() if cwd]
    from lazy_harness.memory import last_key

    for cwd in seen + [root for _, root in last_key.recorded_roots(env) if root]:
        if os.path.isdir(cwd):
            root = project_root(cwd)
            key = paths.memory_key(root)
            entry = out.setdefault(key, {"key": key, "names": set(), "root": root, "live": True})
            entry["names"].add(project_name(root))
    for folder in memory_folders(memory_root):
        key = os.path.basename(folder)
        entry = out.setdefault(key, {"key": key, "names": set(), "root": None, "live": False})
        entry["names"] |= project_names(folder)
    return out


def keys_by_name(projects: dict[str, dict]) -> dict[str, list[str]]:
    """``{project name: [memory keys of the projects of that name]}`` (sorted) of :func:`known_projects`."""
    out: dict[str, list[str]] = {}
    for key, p in sorted(projects.items()):
        for name in p["names"]:
            out.setdefault(name, []).append(key)
    return out


def keyless_owner(head: dict, candidates: list[str], folders: dict[str, str | None],
                  env: Env | None = None) -> str | None:
    """The memory key a learning without one belongs to: the project whose Claude Code folder holds
    its session's transcript, else the one of ``candidates`` (the keys of the projects of its origin's
    name); None when that is not one project. why the transcript only among two or more: the project
    it proves is one of ``candidates`` (its folder's ``cwd`` made it one), so with one it is that one."""
    if len(candidates) < 2:
        return candidates[0] if candidates else None
    return by_transcript(head, folders, env) or _by_folder_name(head, candidates, env)


def _by_folder_name(head: dict, candidates: list[str], env: Env | None = None) -> str | None:
    """The one of ``candidates`` whose Claude Code folder, by its name (a path key is the name of both
    folders), holds the session's transcript, when its ``cwd`` cannot be read. why: the readers give it
    that project so (``provenance.legacy_owner``), and the session start showed it in one project while
    ``lh memory unassigned`` and ``lh memory search`` said it was in none."""
    from lazy_harness import paths

    session = head.get("origin_session")
    if not isinstance(session, str) or not session or "/" in session:
        return None
    base = paths.projects_dir(env)
    found = [k for k in candidates if os.path.exists(os.path.join(base, k, session + ".jsonl"))]
    return found[0] if len(found) == 1 else None


def by_transcript(head: dict, folders: dict[str, str | None], env: Env | None = None) -> str | None:
    """The memory key of the project whose Claude Code folder holds the learning's session transcript."""
    from lazy_harness import paths
    from lazy_harness.project_identity import project_name, project_root

    session = head.get("origin_session")
    if not isinstance(session, str) or not session or "/" in session:
        return None
    base = paths.projects_dir(env)
    for name, cwd in folders.items():
        if cwd and os.path.isdir(cwd) and os.path.exists(os.path.join(base, name, session + ".jsonl")):
            root = project_root(cwd)
            if project_name(root) == head.get("origin"):
                return paths.memory_key(root)
    return None
