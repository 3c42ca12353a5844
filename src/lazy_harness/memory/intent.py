"""The undo record of one persist: a session's entries land together or not at all (ADR 0021).

    <queue>/state/persist/<digest of the memory folder>.jsonl
    line 1   {"memory_dir", "task", "session", "appends": {path: {"size", "ino", "data"}},
              "handoff_md": text | null | absent}
    then     {"created": path, "sha": sha256 of its bytes}   one line before each learning is made
             {"journal": run}                                 before a journalled restore starts
             {"handoff_md_sha": sha256 of the bytes}          before handoff.md is rendered
             {"promise": path}                                before a record that stands or falls
                                                              with the persist is written

``begin`` writes line 1 (and fsyncs it) before the first byte of a persist is written: the size of
each JSONL file before, the exact bytes the persist will append to it, and handoff.md as it was.
``commit`` removes the record: that unlink is the point where the persist counts as done. Until
then any failure (a full disk, an I/O error, a kill) is rolled back by ``rollback``, at once by the
writer that failed or, after a kill, by the next writer of the folder or the worker's start
(``recover``): appended bytes cut off again (``ftruncate`` frees space, so it works on a full disk),
learnings it created removed (one edited since is the person's: kept, and named in what the rollback
returns, for the log), handoff.md put back (only while it holds what the persist rendered: a hand edit
saved since is the person's, imported by the next writer, less the lines of the items the persist
opened: their records are taken out, and read as an edit they passed for the person's), a restore's
journal run undone,
a record it promised removed (the checks the persist owes and the cursor's move: worker/owed.py, so
they exist exactly when the persist committed). Rolling back is
idempotent and the record stays until it has fully worked, so a rollback that itself failed is
done again later. Bytes someone else appended after ours (never under the folder lock: only a
writer that found our record left over) are kept, and so is a file a person saved since (an editor's
rename, or a save in place): then only our own lines are taken out, wherever they stand.

Machine-local (beside the queue, never synced); every writer of a memory folder that appends under
its lock calls ``recover`` first, so no line of another writer is ever cut.
"""

from __future__ import annotations

import os

from lazy_harness import jsonload, paths
from lazy_harness import sha as sha_module
from lazy_harness.atomic import atomic_write, ensure_dir, fsync_dir, read_bytes, write_all
from lazy_harness.regular_file import open_regular, read_regular

# why: not ``from typing import TYPE_CHECKING``: memory never imports ``typing`` at run time (the hooks
# load its read side: house style section 3)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from lazy_harness.memory.shapes import Env


def _file(memory_dir: str, env: Env | None = None) -> str:
    digest = sha_module.sha256()(os.path.realpath(memory_dir).encode("utf-8", "surrogateescape")).hexdigest()[:20]
    return os.path.join(paths.persist_intents_dir(env), f"{digest}.jsonl")


def sha(data: bytes) -> str:
    return sha_module.sha256()(data).hexdigest()


class Intent:
    """An open persist of one memory folder; the caller holds the folder's lock."""

    def __init__(self, path: str, memory_dir: str) -> None:
        self.path, self.memory_dir = path, memory_dir

    def _add(self, rec: dict) -> None:
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND)
        try:
            write_all(fd, (jsonload.dumps(rec) + "\n").encode("utf-8"))
            os.fsync(fd)
        finally:
            os.close(fd)

    def creating(self, path: str, data: bytes) -> None:
        """Say, before it exists, that this persist creates ``path`` with ``data``."""
        self._add({"created": path, "sha": sha(data)})

    def rendering(self, data: bytes) -> None:
        """Say, before handoff.md is written, what this persist writes into it: a rollback puts the
        old one back only over these bytes, never over a hand edit saved since."""
        self._add({"handoff_md_sha": sha(data)})

    def journal(self, run: str, roots: tuple[str, ...]) -> None:
        """Say that a journalled run (a restore) begins, to be undone with the rest."""
        self._add({"journal": run, "roots": list(roots)})

    def promising(self, path: str) -> None:
        """Say, before it is written, that ``path`` (a record under the queue's state folder) belongs to
        this persist: a rollback removes it, so it outlives only a persist that committed."""
        self._add({"promise": path})

    def commit(self) -> None:
        os.unlink(self.path)
        fsync_dir(os.path.dirname(self.path))

    def rollback(self, env: Env | None = None) -> list[str]:
        """Undo what was written so far; removes the record once all of it is undone."""
        return rollback_file(self.path, env)


def begin(memory_dir: str, task: str, session: str, appends: dict[str, bytes], handoff_md: bytes | None | bool,
          env: Env | None = None) -> Intent:
    """Write the record of a persist about to append ``appends`` (path -> exact bytes) and, unless
    ``handoff_md`` is False, re-render handoff.md (its bytes now, None when it is missing)."""
    files = {}
    for path, data in appends.items():
        try:
            st = os.stat(path)
            files[path] = {"size": st.st_size, "ino": st.st_ino, "data": data.decode("utf-8", "surrogateescape")}
        except FileNotFoundError:
            files[path] = {"size": -1, "ino": None, "data": data.decode("utf-8", "surrogateescape")}
    head: dict = {"memory_dir": memory_dir, "task": task, "session": session, "appends": files}
    if isinstance(handoff_md, bytes) or handoff_md is None:
        head["handoff_md"] = None if handoff_md is None else handoff_md.decode("utf-8", "surrogateescape")
    path = _file(memory_dir, env)
    ensure_dir(os.path.dirname(path))
    atomic_write(path, jsonload.dumps(head) + "\n")
    return Intent(path, memory_dir)


def appended_bytes(path: str, lines: list[str]) -> bytes:
    """The exact bytes appending ``lines`` to ``path`` writes: the newline ``entries.heal_tail`` first
    adds to a last line without one, then each line with its newline."""
    head = b""
    try:  # why open_regular: a FIFO in the file's place held the worker's persist in open() for good
        fd, st = open_regular(path)
    except FileNotFoundError:
        fd = -1
    if fd >= 0:
        try:
            size = st.st_size
            head = b"\n" if size > 0 and os.pread(fd, 1, size - 1) != b"\n" else b""
        finally:
            os.close(fd)
    return head + "".join(line + "\n" for line in lines).encode("utf-8")


def _records(path: str) -> list[dict]:
    data = read_regular(path)  # why: a FIFO in the record's place held the worker in open() for good
    out = []
    for line in data.split(b"\n"):
        rec = jsonload.line_object(line)  # None: a line torn by a kill named a learning not yet created
        if rec is not None:
            out.append(rec)
    return out


def _cut(path: str, info: dict) -> None:
    """Take this persist's bytes out of ``path`` again."""
    ours = info["data"].encode("utf-8", "surrogateescape")
    size = max(int(info["size"]), 0)
    try:
        fd = os.open(path, os.O_RDWR)
    except FileNotFoundError:
        return None
    try:
        st = os.fstat(fd)
        # why: a file saved since (an editor renames a temp over it, or rewrites it in place shorter) no
        # longer has our bytes at our offset: only our lines are taken out, wherever they now stand
        moved = (info["size"] >= 0 and st.st_ino != info["ino"]) or st.st_size < size
        if not moved:
            if st.st_size == size:
                return None
            tail = os.pread(fd, st.st_size - size, size)
            if ours.startswith(tail):
                os.ftruncate(fd, size)  # why: frees space, so it works on the full disk that failed the persist
                os.fsync(fd)
                if info["size"] < 0 and size == 0:
                    os.unlink(path)  # the persist created it
                return None
            # why: our bytes no longer start at our offset (a save in place shortened or lengthened the
            # file by other than what we appended): ours are taken out wherever they now stand
            moved = not tail.startswith(ours)
    finally:
        os.close(fd)
    from lazy_harness.atomic import rewrite

    mine = [ln for ln in ours.split(b"\n") if ln]
    start = 0 if moved else size
    rewrite(path, lambda data: data[:start] + _without_lines(data[start:], mine))
    return None


def _without_lines(data: bytes, mine: list[bytes]) -> bytes:
    """``data`` less each of the lines ``mine`` once (the last copy: ours were appended) and less a torn
    start of one of them (a line that is no record and that one of ours begins with); every other line
    is kept as it stands. why: someone appended after our bytes, or saved the file since: theirs stay."""
    lines = data.split(b"\n")
    whole, torn = lines[:-1], lines[-1]
    drop, left = set(), list(mine)
    for at in range(len(whole) - 1, -1, -1):
        if whole[at] in left:
            left.remove(whole[at])
            drop.add(at)
    for at, line in enumerate(whole):
        if at not in drop and line and _torn_start(line, left):
            drop.add(at)
            break
    keep = [line + b"\n" for at, line in enumerate(whole) if at not in drop and line]
    if torn and not _torn_start(torn, mine):
        keep.append(torn)
    return b"".join(keep)


def _torn_start(line: bytes, mine: list[bytes]) -> bool:
    """Whether ``line`` is the start of one of ``mine`` cut by a kill (a whole record never is)."""
    return any(m.startswith(line) and m != line for m in mine) and jsonload.line_object(line) is None


def rollback_file(path: str, env: Env | None = None) -> list[str]:
    """Roll back the persist recorded in ``path`` (the record stays when a step raises, for the next try);
    returns a line for each learning it created that was kept because it was edited since."""
    try:
        recs = _records(path)
    except FileNotFoundError:
        return []
    if not recs or "appends" not in recs[0]:
        os.unlink(path)  # a record whose head never reached the disk: nothing was written after it
        return []
    head, kept = recs[0], []
    memory_dir = head.get("memory_dir", "")
    for rec in reversed(recs[1:]):
        if rec.get("journal"):
            from lazy_harness.errors import LhError
            from lazy_harness.memory import journal

            try:
                journal.undo(memory_dir, tuple(rec.get("roots") or (memory_dir,)), rec["journal"])
            except LhError:
                pass  # no such run (killed before it was saved) or undone already
        elif rec.get("promise"):
            _unpromise(str(rec["promise"]), env)
        elif rec.get("created"):
            try:
                same = sha(read_regular(rec["created"])) == rec.get("sha")
                if same:
                    from lazy_harness.memory.files import unlink_created

                    unlink_created(rec["created"])
                else:  # why: the person's now; named, as the task's re-run may write its learning again
                    kept.append(f"{rec['created']}: a learning the persist created, edited since; kept")
            except FileNotFoundError:
                pass
            except OSError as exc:  # why: a FIFO or a folder in its place is not the learning written: left there
                kept.append(f"{rec['created']}: {exc.strerror or exc}, not the learning the persist created; kept")
    for target, info in head["appends"].items():
        _cut(target, info)
    if "handoff_md" in head:
        _handoff_back(head, recs, memory_dir)
    os.unlink(path)
    return kept


def _handoff_back(head: dict, recs: list[dict], memory_dir: str) -> None:
    """handoff.md as it was before the persist: put back while it holds what the persist rendered; saved
    by hand since (after a kill, before the next writer), the person's file is kept, less the lines of
    the items the persist opened (their records are taken out), and the next writer imports the edit."""
    from lazy_harness.atomic import FileChanged, file_key
    from lazy_harness.memory import files, handoff_log, handoff_markdown

    md = os.path.join(memory_dir, files.HANDOFF)
    before = None if head["handoff_md"] is None else head["handoff_md"].encode("utf-8", "surrogateescape")
    key = file_key(md)
    now = read_bytes(md)
    ours = {rec["handoff_md_sha"] for rec in recs[1:] if rec.get("handoff_md_sha")}
    if now != before and now is not None and sha(now) in ours:
        if before is None:
            os.unlink(md)
        else:
            atomic_write(md, before)
    elif now != before and now is not None:
        log = head["appends"].get(os.path.join(memory_dir, handoff_log.STATE)) or {}
        opened = {}
        for line in str(log.get("data") or "").split("\n"):
            rec = jsonload.line_object(line)
            if rec is not None and rec.get("op") == handoff_log.OPEN and isinstance(rec.get("text"), str):
                opened[str(rec.get("id"))] = rec["text"]
        try:
            text = now.decode("utf-8")
        except UnicodeDecodeError:
            text = None  # why: damaged, not an edit: the next writer keeps a copy and renders it again
        kept = text if text is None or not opened else handoff_markdown.without_items(text, opened)
        if kept is not None and kept != text:
            try:
                atomic_write(md, kept, unchanged=key)
            except FileChanged:
                pass  # why: saved again just now; the person's newer file is left as it is
    try:
        os.unlink(os.path.join(memory_dir, files.HANDOFF_OPEN_CACHE))
    except FileNotFoundError:
        pass


def _unpromise(path: str, env: Env | None) -> None:
    """Remove a record the rolled-back persist promised; only a file under the queue's state folder."""
    if not paths.is_within(path, paths.state_dir(env)):
        return  # why: the record names its own path; never a file elsewhere
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def pending(path: str, promise: str) -> bool:
    """Whether the undo record at ``path`` is there and names ``promise``: the persist that promised it
    neither committed nor was rolled back yet (a rollback removes ``promise``)."""
    try:
        return any(rec.get("promise") == promise for rec in _records(path)[1:])
    except OSError:
        return False


def recover(memory_dir: str, env: Env | None = None) -> list[str]:
    """Roll back a persist of ``memory_dir`` left unfinished by a killed writer (hold the folder lock)."""
    path = _file(memory_dir, env)
    if not os.path.exists(path):
        return []
    return ["rolled back an unfinished persist"] + rollback_file(path, env)


def settle(memory_dir: str, env: Env | None = None) -> list[str]:
    """For a reader (SessionStart, ``lh memory``, the page, a command's index update): roll back a
    persist of ``memory_dir`` whose writer was killed, so nothing is shown that never committed and
    what it lists stays there after the next worker's start. Only when no writer holds the folder's
    lock: a live writer's persist commits or rolls back by itself, and a reader never waits for it.
    Returns what was done (or why not), for the reader's log. Costs a ``stat`` when there is no record
    (the usual case)."""
    if not os.path.exists(_file(memory_dir, env)):
        return []
    import fcntl

    try:
        fd = os.open(memory_dir, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return []
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # the lock memory.files.FolderLock takes
        except BlockingIOError:
            return []
        return recover(memory_dir, env)
    except OSError as exc:  # why: a reader still reads; the next writer or the worker's start tries again
        return [f"an unfinished persist was not rolled back: {type(exc).__name__}: {exc}"]
    finally:
        os.close(fd)


def _left(env: Env | None) -> list[tuple[str, str]]:
    """(undo record, its memory folder or "" when unreadable) of every persist left unfinished."""
    folder = paths.persist_intents_dir(env)
    try:
        names = sorted(n for n in os.listdir(folder) if n.endswith(".jsonl"))
    except OSError:
        return []
    out = []
    for name in names:
        path = os.path.join(folder, name)
        try:
            out.append((path, str(_records(path)[0].get("memory_dir") or "")))
        except (OSError, IndexError):
            out.append((path, ""))
    return out


def settle_all(env: Env | None = None) -> list[str]:
    """:func:`settle` for every memory folder a killed writer left a persist of: a reader of one
    project settles the others too, as the learnings a persist creates are in the one folder every
    project reads. One ``listdir`` of an (almost always) empty folder when there is none. A record
    whose folder is gone or whose head a kill cut is left to the worker's start."""
    return [f"{memory_dir}: {line}" for _, memory_dir in _left(env)
            if memory_dir and os.path.isdir(memory_dir) for line in settle(memory_dir, env)]


def recover_all(env: Env | None = None) -> list[str]:
    """At the worker's start: every unfinished persist rolled back, each under its folder's lock."""
    from lazy_harness.memory.files import FolderLock

    out = []
    for path, memory_dir in _left(env):
        name = os.path.basename(path)
        if not memory_dir or not os.path.isdir(memory_dir):
            out += [f"{memory_dir or name}: unfinished persist rolled back"] + rollback_file(path, env)
            continue
        with FolderLock(memory_dir):
            out += [f"{memory_dir}: {line}" for line in recover(memory_dir, env)]
    return out
