"""What the page shows, read from the same files and with the same functions as the CLI: the
projects, a project's entries (as ``lh memory show``), the runs (``lh memory history``), the queue
(``lh queue``), spend (``lh cost``) and what the hooks injected (hooks.log, as the hooks wrote it).

Everything returned is data; the page escapes it (memory text is untrusted).
"""

from __future__ import annotations

import os
import re
import threading
import time
from dataclasses import dataclass

from lazy_harness import jsonload, logfile, paths
from lazy_harness import queue as spool
from lazy_harness.memory import aliases, files, handoff, handoff_log, handoff_markdown, ids, intent, journal
from lazy_harness.project_identity import project_name, project_root
from lazy_harness.recall.readback import digest as recall
from lazy_harness.recall.readback import learnings as heads

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from lazy_harness.config.typed import Config
    from collections.abc import Callable, Iterator
    from lazy_harness.memory.usage_log import Tally
    from typing import TypeVar
    T = TypeVar("T")

TAIL_BYTES = 256 * 1024  # of hooks.log: the recent sessions
SESSIONS = 12  # sessions listed under "injected"
QUEUE_RECENT = 20
SPEND_DAYS = 14


@dataclass
class Project:
    key: str  # the memory folder's name: the page's handle on a project
    name: str
    memory_dir: str
    learnings_dir: str
    current: bool = False
    folder: str | None = None  # a folder of the project, for a command to name (``folder_of``)


def _tail(path: str, size: int) -> bytes:
    try:
        with open(path, "rb") as fh:
            fh.seek(0, os.SEEK_END)
            end = fh.tell()
            fh.seek(max(0, end - size))
            data = fh.read()
    except OSError:
        return b""
    return data if end <= size else data.partition(b"\n")[2]  # a cut first line is dropped


def _name_in(memory_dir: str) -> str | None:
    """The project name the newest decision or failure was written under, if any."""
    for name in (files.DECISIONS, files.FAILURES):
        for line in reversed(_tail(os.path.join(memory_dir, name), 16384).split(b"\n")):
            rec = jsonload.line_object(line)  # None: not an object, or nested past the stack (a synced line)
            if rec is not None and isinstance(rec.get("project"), str) and rec["project"].strip():
                return rec["project"].strip()
    return None


def _origins_by_key(learnings_dir: str) -> dict[str, str]:
    """``{memory key: the origin of the newest learning written under it}`` (their ``project_folder``)."""
    out: dict[str, str] = {}
    for path in files.recent_learning_files(learnings_dir, 10**9):  # newest first: the first seen wins
        head = _parsed(path, heads.read_head)
        key, origin = (head.get("project_folder"), head.get("origin")) if head else (None, None)
        if isinstance(key, str) and key and isinstance(origin, str) and origin.strip():
            out.setdefault(key, origin.strip())
    return out


def _handoff_name(memory_dir: str) -> str | None:
    """The project named in the marker of the folder's handoff.md, if any."""
    try:
        with open(os.path.join(memory_dir, files.HANDOFF), encoding="utf-8", errors="replace") as fh:
            text = fh.read(65536)  # the marker is its second line
    except OSError:
        return None
    name = handoff_markdown.parse_markdown(text)[0].get("project", "").strip()
    return name or None


def _name_of(memory_dir: str, origins: Callable[[], dict[str, str]]) -> str:
    """The name ``lh memory show`` gives the project of a memory folder seen from another folder: the
    one its newest decision or failure was written under; else the origin of a learning written under
    one of its keys (its own, then those ``aliases.jsonl`` names: the keys whose learnings ``show``
    lists as its own, ``aliases.owned``), else its handoff.md's; its key when nothing names it. why:
    a learning without a key is the project's by that name: named by its key, the page lost them."""
    found = _name_in(memory_dir)
    if found:
        return found
    own = os.path.basename(memory_dir)
    keys = aliases.owned(memory_dir).keys
    for key in [own, *sorted(keys - {own})]:
        if key in origins():
            return origins()[key]
    return _handoff_name(memory_dir) or own


def projects(cwd: str, cfg: Config, env: Mapping[str, str] | None) -> list[Project]:
    """Every project with a memory folder; the one holding ``cwd`` first (even without memory yet)."""
    import functools

    configured = cfg["memory"]["path"] or None
    ldir = paths.learnings_dir(cfg["knowledge"]["path"] or None, env)
    here = paths.memory_dir(cwd, env, configured)
    out = [Project(os.path.basename(here), project_name(cwd), here, ldir, current=True, folder=cwd)]
    origins = functools.cache(lambda: _origins_by_key(ldir))  # read once, and only when a folder needs it
    intent.settle_all(env)  # why: the page never lists what a writer killed before its commit left
    for mdir in paths.all_memory_dirs(env, configured):
        if mdir != here:
            out.append(Project(os.path.basename(mdir), _name_of(mdir, origins), mdir, ldir))
    return out


def folder_of(p: Project, env: Mapping[str, str] | None) -> str | None:
    """A folder of project ``p`` whose ``--project`` names its memory: the one ``lh ui`` runs in for the
    current project; else the root the worker recorded for it (``last_key.recorded_roots``), else a
    folder a queued task of it ran in, while it exists; None when none is known."""
    from lazy_harness.memory import last_key

    if p.folder or p.current:
        return p.folder
    seen: dict[str, str] = {}

    def candidates() -> Iterator[str]:
        yield from (root for key, root in last_key.recorded_roots(env) if root and key == p.key)
        yield from sorted(set(_session_cwds(env).values()))  # why sorted: the same answer every time

    return next((cwd for cwd in candidates() if os.path.isdir(cwd) and _of_project(cwd, p, env, seen)), None)


# --- entries -------------------------------------------------------------------------------------

_PARSED: dict[tuple[str, object], tuple[tuple[int, int, int], object]] = {}
_PARSED_LOCK = threading.Lock()


def _parsed(path: str, parse: Callable[[str], T]) -> T | None:
    """``parse(path)``, kept while the file's mtime, size and inode stay the same (a page reload then
    reads only what changed); None for a missing file."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    key = (st.st_mtime_ns, st.st_size, st.st_ino)
    with _PARSED_LOCK:
        hit = _PARSED.get((path, parse))
    if hit is not None and hit[0] == key:
        return hit[1]  # type: ignore[return-value]  # why: stored under (path, parse) by this same parse below
    value = parse(path)
    with _PARSED_LOCK:
        _PARSED[(path, parse)] = (key, value)
    return value


def _read_records(path: str) -> list[dict]:
    # why the file's kind: a line without ``type`` and ``id`` (written by hand, or before ids) is a
    # failure in failures.jsonl; read as a decision it had a d- id, and Forget acted on another entry
    kind = "failure" if os.path.basename(path) == files.FAILURES else "decision"
    # why without_copies: a line a person duplicated by hand is one entry, as ``lh memory show`` lists it
    out = files.without_copies([rec for rec in files.read_entries(path) if recall.is_entry(rec)])
    for rec in out:
        rec["id"] = ids.of_record(rec, kind)
    return out


def records(path: str) -> list[dict]:
    """Every decision or failure of a JSONL file, oldest first, each with its ``id`` (copies: the
    caller may add fields)."""
    return [dict(rec) for rec in _parsed(path, _read_records) or []]


def entries(p: Project, kind: str) -> list[dict]:
    """Decisions or failures, newest first; a left-out one carries ``left_out``: its state as ``lh memory
    show`` tags it (memory/state.py: a forget wins over a hold)."""
    from lazy_harness.memory import marks, state

    name = files.DECISIONS if kind == "decision" else files.FAILURES
    named = marks.by_id(p.memory_dir, marks.OPS)
    out = records(os.path.join(p.memory_dir, name))
    for rec in out:
        rec["left_out"] = state.label(state.of_marks(named.get(rec["id"]))) or None
    return out[::-1]


def _read_learning(path: str) -> tuple[dict, str, str] | None:
    """(head, the text the hold check reads, the check's verdict on it: '' when it passes) of a
    learning file; None when unreadable. why
    the verdict here: kept with the head while the file is unchanged, the check (about 0.1 ms a
    learning) runs once per file, not at every page load."""
    from lazy_harness.memory import held, trust

    head = heads.read_head(path)
    if head is None:
        return None
    text = held.learning_text(path)[1]
    return head, text, (trust.reason(text) or "") if text else ""


def _learning_state(meta: dict, text: str, verdict: str, cross: str) -> tuple[str, str]:
    """``held_review.learning_state(meta, text, cross)``, as ``lh memory show`` and "Held for approval" work it
    out (the frontmatter, then the hold check), without running the check again on a text whose kept
    verdict passes: for such a text that function gives the frontmatter's state, but for a held or
    waiting one that claims an approval."""
    from lazy_harness.memory import held_review, state

    now = state.of_learning(meta, cross, text)
    if verdict or (now[0] in (state.HELD, state.WAITING) and state.claims_approval(meta)):
        return held_review.learning_state(meta, text, cross)
    return now


def learnings(p: Project, cross: str = "ask") -> tuple[list[dict], list[dict]]:
    """(this project's learnings, general learnings of other projects), newest first; each with ``id``,
    ``day``, ``title``, ``learning`` (the start of its text), ``path`` and ``left_out`` (how its state
    keeps it from this project's sessions: memory/state.py, with the hold check, as ``lh memory show``
    tags it). Each file is read once while it is unchanged: its head and the check's verdict are kept.
    One learning in two files (one id and title: written on two days, or copied by hand) is listed
    once, by its newest file, with ``also_in`` naming the others, as ``lh memory show`` lists it and
    SessionStart shows it (``learnings.once_each``)."""
    from lazy_harness.memory import state

    found: list[dict] = []
    texts: dict[str, tuple[str, str]] = {}
    for path in files.recent_learning_files(p.learnings_dir, 10**9):
        read = _parsed(path, _read_learning)
        if read is None:
            continue
        head, text, verdict = read
        meta = dict(head, path=path)
        meta["id"] = ids.of_learning(meta, path=path)
        texts[path] = (text, verdict)
        found.append(meta)
    own: list[dict] = []
    general: list[dict] = []
    owned = aliases.owned(p.memory_dir)  # earlier keys of the project and adopted learnings (ADR 0035)
    for meta in heads.once_each(found):
        mine = owned.lists(meta, p.name)
        if not mine and str(meta.get("scope") or "").strip().lower() == "project":
            continue
        day = os.path.basename(meta["path"])[:10]
        meta["day"] = day if re.fullmatch(r"\d{4}-\d{2}-\d{2}", day) else "undated"
        meta["left_out"] = state.label(_learning_state(meta, *texts[meta["path"]], cross), mine) or None
        (own if mine else general).append(meta)
    return own, general


_HELD: dict[tuple[str, str, str], tuple[tuple, list[dict]]] = {}


def _stamps(folder: str, names: list[str] | None = None) -> tuple:
    """(name, mtime_ns, size, inode) of each file of ``folder`` (of ``names`` in it, when given)."""
    import stat

    out = []
    try:
        listed = sorted(os.listdir(folder)) if names is None else names
    except OSError:
        return ()
    for name in listed:
        try:
            st = os.stat(os.path.join(folder, name))
        except OSError:
            continue
        if not stat.S_ISDIR(st.st_mode):
            out.append((name, st.st_mtime_ns, st.st_size, st.st_ino))
    return tuple(out)


def _held_inputs(p: Project) -> tuple:
    """What ``held_review.listing`` reads, by each file's stamp: the memory folder's files (entries, marks,
    the handoff log), every learning file and the approval key and adoption record."""
    from lazy_harness.memory import approval

    learnings = files.recent_learning_files(p.learnings_dir, 10**9)
    return (_stamps(p.memory_dir), _stamps(p.learnings_dir, [os.path.relpath(x, p.learnings_dir) for x in learnings]),
            tuple(_stamps(os.path.dirname(f), [os.path.basename(f)])
                  for f in (approval.key_file(None), approval.adopted_file(None))))


def held(p: Project, cross: str) -> list[dict]:
    """``held_review.listing`` of the project (what ``lh memory held`` lists), kept while no file it reads
    changed. why: it runs the hold check on every learning (about 0.6 s at 3,000 learnings) and reads
    every decision and failure; a page reload on an unchanged store then costs one stat per file. The
    stamps are taken before the listing: a file changed while it ran is read again at the next load."""
    from lazy_harness.memory import held_review

    where = (p.memory_dir, p.learnings_dir, cross)
    inputs = _held_inputs(p)
    with _PARSED_LOCK:
        hit = _HELD.get(where)
    if hit is not None and hit[0] == inputs:
        return list(hit[1])
    found = held_review.listing(p.memory_dir, p.learnings_dir, cross)
    with _PARSED_LOCK:
        _HELD[where] = (inputs, found)
    return list(found)


_USAGE: dict[str, tuple[tuple, Tally]] = {}


def usage_tally(p: Project) -> Tally:
    """The usage counts of the project as ``lh memory usage`` makes them (``usage_log.tally`` of
    usage.jsonl, a merged entry's for the one it was merged into), kept while usage.jsonl and
    marks.jsonl keep their time, size and inode; the caller must not change it. why: the file only
    grows (100,000 lines in six months) and reading and counting it took a second at every page load;
    the worker's count file has no recurrences, characters or weeks to reuse. The stamps are taken
    before the read: a line appended during it is counted at the next load."""
    from lazy_harness.memory import marks, usage_log

    inputs = _stamps(p.memory_dir, [usage_log.USAGE, marks.MARKS])
    with _PARSED_LOCK:
        hit = _USAGE.get(p.memory_dir)
    if hit is not None and hit[0] == inputs:
        return hit[1]
    found = usage_log.tally(usage_log.read(p.memory_dir), into=usage_log.merged_into(p.memory_dir))
    with _PARSED_LOCK:
        _USAGE[p.memory_dir] = (inputs, found)
    return found


def handoff_items(p: Project) -> list[dict]:
    """Open items, oldest first, each with ``history``: every record of its id, oldest first."""
    state, _ = handoff.load(p.memory_dir)
    history: dict[str, list[dict]] = {}
    for rec in handoff_log.read_records(p.memory_dir) or []:
        if isinstance(rec, dict) and isinstance(rec.get("id"), str):
            history.setdefault(rec["id"], []).append(rec)
    out = []
    for item in handoff.open_items(state):
        recs = sorted(history.get(item["id"], []), key=lambda r: str(r.get("ts") or ""))
        out.append({**item, "history": recs})
    return out


def runs(p: Project) -> list[dict]:
    """Every journalled change of the project, newest first (``lh memory history``)."""
    return journal.runs(p.memory_dir)


# --- queue and spend ------------------------------------------------------------------------------

STATES = (("pending", spool.PENDING), ("processing", spool.PROCESSING), ("done", spool.DONE), ("failed", spool.FAILED))


def _task_names(q: str, which: str) -> list[str]:
    try:
        return sorted(e.name for e in os.scandir(spool.folder(q, which))
                      if e.name.endswith(spool.SUFFIX) and e.is_file())
    except OSError:
        return []


def _when(name: str) -> str:
    try:
        return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(int(name.split("-", 1)[0]) / 1e9))
    except ValueError:
        return "?"


def queue(p: Project | None, env: Mapping[str, str] | None) -> dict:
    """``{"folder", "counts": {state: n}, "tasks": [...]}``: the recent tasks of the project (all
    projects when ``p`` is None), newest first; a failed one with its reason and its error's tail."""
    q = paths.queue_dir(env)
    counts, rows = {}, []
    for state, which in STATES:
        names = _task_names(q, which)
        counts[state] = len(names)
        rows += [(n, state, os.path.join(spool.folder(q, which), n)) for n in names]
    rows.sort(key=lambda r: r[0], reverse=True)
    tasks: list[dict] = []
    seen: dict[str, str] = {}
    for name, state, path in rows:
        if len(tasks) >= QUEUE_RECENT:
            break
        try:
            fields = spool.read_task(path)
        except OSError:
            continue
        if p is not None and not _of_project(fields.get("cwd", ""), p, env, seen):
            continue
        error = _tail(path + ".error", 2000).decode("utf-8", "replace").strip() if state == "failed" else ""
        tasks.append({"id": spool.task_id(name), "when": _when(name), "state": state,
                      "event": fields.get("event", "?"), "session": fields.get("session_id", ""),
                      "reason": fields.get("reason", "") or fields.get("wait_reason", ""), "error": error})
    return {"folder": q, "counts": counts, "tasks": tasks}


def _of_project(cwd: str, p: Project, env: Mapping[str, str] | None, seen: dict[str, str]) -> bool:
    """Whether a session or task in ``cwd`` belongs to ``p`` (``seen``: the answers so far)."""
    if not cwd:
        return False
    if cwd not in seen:
        # why: the project's memory root as the configured one, so a folder resolves where p's did
        seen[cwd] = paths.memory_dir(cwd, env, os.path.dirname(p.memory_dir))
    return seen[cwd] == p.memory_dir


def spend(env: Mapping[str, str] | None, now: float, days: int = SPEND_DAYS) -> list[tuple[str, float, int]]:
    """(day, dollars, calls) for each of the last ``days`` days, oldest first (``lh cost --by day``)."""
    from lazy_harness.cost import ledger

    start = time.mktime(time.localtime(now - (days - 1) * 86400)[:3] + (0, 0, 0, 0, 0, -1))
    groups = ledger.group(ledger.read_since(start, env), "day")
    out = []
    for n in range(days):
        day = time.strftime("%Y-%m-%d", time.localtime(start + n * 86400 + 3600))
        t = groups.get(day)
        out.append((day, t.cost_usd if t else 0.0, t.calls if t else 0))
    return out


# --- what the hooks injected ----------------------------------------------------------------------

_LINE = re.compile(r"^(\S+) (SessionStart|UserPromptSubmit) session=(\S+) (.*?)(?: \(([\d.]+) ms\))?$")
_INJECTED = re.compile(r"injected \d+ \([^)]*\): ([\w,-]+)")


def _session_cwds(env: Mapping[str, str] | None) -> dict[str, str]:
    """``{session id: cwd}`` from the queue's tasks (every state): how a session is tied to a project."""
    q = paths.queue_dir(env)
    out: dict[str, str] = {}
    for _, which in STATES:
        for name in _task_names(q, which):
            try:
                fields = spool.read_task(os.path.join(spool.folder(q, which), name))
            except OSError:
                continue
            if fields.get("session_id") and fields.get("cwd"):
                out.setdefault(fields["session_id"], fields["cwd"])
    return out


def _own_sessions(p: Project, cwd: str | None, env: Mapping[str, str] | None) -> set[str]:
    """Sessions whose transcript lies in Claude Code's folder of the project holding ``cwd``."""
    if not cwd:
        return set()
    folder = os.path.join(paths.projects_dir(env), paths.project_key(project_root(cwd)))
    try:
        return {n[:-6] for n in os.listdir(folder) if n.endswith(".jsonl")}
    except OSError:
        return set()


def injected(p: Project, cwd: str | None, env: Mapping[str, str] | None) -> list[dict]:
    """The recent sessions of the project (newest first) with each SessionStart and prompt line the
    hooks logged: ``{"session", "events": [{"when", "event", "said", "ids"}]}``. A session is the
    project's when a task of it ran in the project's folder or its transcript is in the project's
    Claude Code folder; sessions nothing ties to a project are listed too, marked ``known`` False."""
    text = _tail(logfile.log_path(logfile.HOOKS, env), TAIL_BYTES).decode("utf-8", "replace")
    cwds = _session_cwds(env)
    own = _own_sessions(p, cwd, env)
    by_session: dict[str, dict] = {}
    seen: dict[str, str] = {}
    for line in text.split("\n"):
        m = _LINE.match(line)
        if not m:
            continue
        when, event, sid, said = m.group(1), m.group(2), m.group(3), m.group(4)
        known = sid in own or sid in cwds
        if known and sid not in own and not _of_project(cwds[sid], p, env, seen):
            continue
        found = _INJECTED.search(said)
        session = by_session.setdefault(sid, {"session": sid, "known": known, "events": []})
        session["events"].append({"when": when, "event": event, "said": said,
                                  "ids": found.group(1).split(",") if found else []})
        by_session[sid] = by_session.pop(sid)  # the most recently active last
    return list(reversed(list(by_session.values())))[:SESSIONS]
