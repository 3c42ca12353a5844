"""Moving lazy-harness files out of Claude Code's auto-memory folder, once and losslessly.

Older versions wrote ``decisions.jsonl``, ``failures.jsonl`` and ``handoff.md`` into
``<claude dir>/projects/<key>/memory/``, a folder Claude Code 2.x owns (it indexes the ``.md`` files
there in MEMORY.md, and its consolidation and sync read them). They now live in
``paths.project_memory_dir`` (see docs/adr/0009). Only those three names are ever touched there.

Each step can be cut by a SIGKILL and the next run completes it without loss or duplicate
(``memory.migrate_merge`` brings one file over):
- a JSONL file is merged entry by entry into the new file (an entry whose normalised summary is
  already there is not appended again, a torn line is skipped), then removed;
- handoff.md is copied when the project has no handoff yet (a copy equal to the new file means a
  run was cut before the removal) or merged by ``memory.handoff.merge_markdown``, then removed.
All of it under the same folder lock a persist takes (``memory.apply``), so a worker persisting at
the same time waits. Who runs it: the SessionStart hook, the worker before it reads a project's memory, and
``lh memory path|show|search`` (docs/how/read-back.md).

Claude Code 2.1.330 also writes MEMORY.md, its index of the ``.md`` files in that folder, when it is
missing, and it does so at startup while the SessionStart hook runs: it may list ``handoff.md`` just
before the hook moves it, or have listed it in a version before. A line of MEMORY.md that links to
``handoff.md`` once that file is gone is then removed (:func:`stale_index`, :func:`drop_stale_lines`),
and only such a line: the rest of the file is Claude Code's and is kept byte for byte.

A project that gains an origin while another machine's clone at the same path has none copies its
path-keyed folder and leaves it for that machine (:func:`left_for`, docs/adr/0089); the copy is recorded
(:func:`remember_copy`) and the folder merged again only when a round changed one of its files.

Hot path: SessionStart imports this module and calls :func:`pending` (a few ``lstat``; one small read
more for a folder left for another machine) and :func:`stale_index` (one small read); everything else
(``memory.migrate_merge`` too) is imported only when there is something to do.
"""

from __future__ import annotations

import os

from lazy_harness import paths, project_identity
from lazy_harness.memory import last_key
from lazy_harness.memory.last_key import recorded_roots, remember_key, same_repository, still_owned
from lazy_harness.regular_file import read_regular

# why: not ``from typing import TYPE_CHECKING``: memory never imports ``typing`` at run time (the hooks
# load its read side: house style section 3)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from lazy_harness.memory.shapes import Env

JSONL = ("decisions.jsonl", "failures.jsonl", "handoff.jsonl", "marks.jsonl")
HANDOFF = "handoff.md"
NAMES = JSONL + (HANDOFF,)
# why apart: files only lazy-harness's own earlier folders hold, the usage record (``usage_log.USAGE``,
# first: the recount looks for it) and the record of the ids the store wrote (``written.FILE``: without
# it, a line deleted by hand there is written again here; neither imported: a hook's path), never looked
# for in Claude Code's folder, whose files are not ours
OWN = ("usage.jsonl", "written.jsonl")
RECOUNT = ("usage.jsonl", "marks.jsonl")  # merged in: the counts the budget cuts read are worked out again
# a key refused because another repository wrote it: told the person once (hooks/session_start.py)
OTHER_REPOSITORY = "was the memory of another repository"
STILL_OWNED = "is still the memory of"  # another project here uses the earlier key: left there


def legacy_dirs(key: str, root: str | None, env: Env | None = None, memory_dir: str | None = None) -> list[str]:
    """Folders that may hold this project's old files: Claude Code's memory folder of ``key`` and,
    for a path with characters outside the BMP, the one of the key lazy-harness used to compute; and,
    when the project is now known by its origin remote (``memory_dir`` is not named by its path
    key), the path-keyed folder beside it that held its memory before (docs/how/sync.md)."""
    keys = [key]
    if root:
        old = paths.legacy_project_key(root)
        if old != key and len(old.encode("utf-8", "replace")) < 256:
            keys.append(old)
    out = [paths.claude_memory_dir(k, env) for k in keys]
    if root and memory_dir:
        earlier = earlier_folder(root, memory_dir, env)
        if earlier:
            out.append(earlier)
    return out


def earlier_folder(root: str, memory_dir: str, env: Env | None = None) -> str | None:
    """The path-keyed folder beside ``memory_dir`` that held this project's memory before it was known
    by its origin remote; None when ``memory_dir`` is that folder, it is missing, or it belongs to
    another repository with the same path key (``_written_for``) or to one that was at this path
    before (``_path_key_ours``) and ``memory_dir`` does not count it as its own. Its journals stay
    there (``lh memory history`` lists them)."""
    key = paths.project_key(root)
    if os.path.basename(memory_dir.rstrip(os.sep)) == key:
        return None
    by_path = os.path.join(os.path.dirname(memory_dir.rstrip(os.sep)), key)
    if not os.path.isdir(by_path) or not _written_for(by_path, root):
        return None
    from lazy_harness.memory import aliases

    return by_path if key in aliases.owned(memory_dir).keys or _path_key_ours(root, env) else None


def unrecorded_alias(root: str | None, memory_dir: str, env: Env | None = None) -> str | None:
    """The path key of the folder that held this project's memory before it was known by its origin
    (``earlier_folder``), when ``memory_dir``'s ``aliases.jsonl`` does not name it yet: the learnings
    written under that key must stay this project's (memory/aliases.py). One ``stat`` when there is
    no such folder; then one small read."""
    if not root:
        return None
    key = paths.project_key(root)
    if os.path.basename(memory_dir.rstrip(os.sep)) == key:
        return None
    by_path = os.path.join(os.path.dirname(memory_dir.rstrip(os.sep)), key)
    if not os.path.isdir(by_path):
        return None
    from lazy_harness.memory import aliases

    if key in aliases.owned(memory_dir).keys:
        return None
    return key if _written_for(by_path, root) and _path_key_ours(root, env) else None


def _path_key_ours(root: str, env: Env | None) -> bool:
    """Whether the path-keyed folder of ``root`` may hold this repository's memory: the last-key file
    keeps no repository (older file, a folder without git: as before), or it names that path key and
    this repository. why: a repository made where another one was has its path key; the last key
    written there, not the path, says whose memory that folder is (a refused one is remembered as the
    new repository's key, so it is not asked again)."""
    key, _, kept = last_key.read_record(paths.last_key_file(root, env))
    if not kept:
        return True
    return key == paths.project_key(root) and same_repository(root, env)


def earlier_key(root: str | None, memory_dir: str, env: Env | None = None) -> str | None:
    """The memory key the worker last wrote for this project's folder (``paths.last_key_file``) when
    it is no longer ``memory_dir``'s (the origin was added, changed or removed), its folder is still
    there and ``memory_dir`` does not count it as its own yet. One small read. None too inside another
    user's repository (``project_identity.refused``): its key became its path because the repository
    is not the person's, not because its origin changed, and the origin's memory stays the origin's."""
    if not root:
        return None
    old = last_key.read(paths.last_key_file(root, env))[0]
    if old and project_identity.refused(root):
        return None
    if not old or old in (".", "..") or os.sep in old or old == os.path.basename(memory_dir.rstrip(os.sep)):
        return None
    if not os.path.isdir(os.path.join(os.path.dirname(memory_dir.rstrip(os.sep)), old)):
        return None
    from lazy_harness.memory import aliases

    if old not in aliases.owned(memory_dir).keys:
        return old
    # why a remote key even when aliased: its folder is copied, not emptied (:func:`take_over`), and
    # another machine still on that origin may write there after the copy; the first start after this
    # machine's own origin change merges it once more (nothing twice), then the key recorded is the
    # new one. Not while another clone here still uses it: that one's own move merges it, and asking
    # here would repeat the same line at every start
    return None if old.startswith("-") or still_owned(old, root, env) else old


def take_over(old_dir: str, memory_dir: str, now: float, env: Env | None = None) -> list[str]:
    """Merge an earlier memory folder of this project into ``memory_dir`` (the caller holds its folder
    lock): decisions, failures, handoff log, marks, usage record and the record of written ids entry by
    entry (a usage or written line by its text, as sync merges it; ``migrate_merge``: a rerun after a
    cut adds nothing twice), handoff.md rendered again from the merged log (or, from a version before
    the log, merged item by item). Its
    learnings stay: an alias makes them this project's. The old files are removed, except from a folder
    others still read (:func:`_read_elsewhere`): copied, left as they are (a later merge adds nothing
    twice)."""
    from lazy_harness.memory import migrate_merge

    out = []
    keep = _read_elsewhere(old_dir, env)
    state = os.path.join(old_dir, "handoff.jsonl")
    had_state = os.path.isfile(state) and not os.path.islink(state)
    for name in JSONL + OWN:
        path = os.path.join(old_dir, name)
        if os.path.isfile(path) and not os.path.islink(path):
            out.append(migrate_merge.merge_jsonl(path, os.path.join(memory_dir, name), keep))
    md = os.path.join(old_dir, HANDOFF)
    if had_state:  # why: handoff.md beside handoff.jsonl is its rendering: render the merged log here
        from lazy_harness.memory import handoff

        handoff.write_markdown(memory_dir, {"session_id": "migrate", "task_id": os.path.basename(old_dir)}, now)
        if os.path.isfile(md) and not os.path.islink(md) and not keep:
            os.unlink(md)
    elif os.path.isfile(md) and not os.path.islink(md):
        out.append(migrate_merge.move_handoff(md, memory_dir, now, keep))
    return out


def _read_elsewhere(folder: str, env: Env | None) -> bool:
    """Whether the memory folder ``folder`` is still read by others once taken over: a remote key's
    (``paths.remote_key``: path keys start with ``-``) is every machine's through sync, where removing
    its files would remove them on every machine whose clone still has that origin; a path key's that
    sync brought from another machine (:func:`ran_here` says no), where its project still reads it;
    a path key's while a project the worker wrote for is still keyed by it (or a record without a root
    names it: its project cannot be told gone), which ``lh memory adopt --force`` takes over."""
    key = os.path.basename(folder.rstrip(os.sep))
    if not key.startswith("-") or not ran_here(folder, env):
        return True
    for last, other in recorded_roots(env):
        if last == key and (other is None or (os.path.isdir(other) and paths.memory_key(other) == key)):
            return True
    return False


def ran_here(folder: str, env: Env | None = None, folders: dict[str, str | None] | None = None) -> bool:
    """Whether the project of the memory folder ``folder`` ran or was written for on this machine.
    Always for a remote key (the same project on every machine) and for memory that is not synced
    (no repository in the data folder: every folder in it was written here). For a path key: the
    worker recorded that key or a root keyed by it (``paths.last_key_file``), or Claude Code keeps a
    project folder of that key, or one whose transcripts ran in a project keyed by it. why: every
    memory folder syncs, and a path-keyed one that arrived from another machine is the memory of a
    project that lives there. ``folders``: ``aliases.claude_folders`` when the caller read it already
    (it reads transcripts); else read only when the cheaper records did not decide."""
    key = os.path.basename(folder.rstrip(os.sep))
    if not key.startswith("-"):
        return True
    data = paths.data_dir(env)
    if not os.path.isdir(os.path.join(data, ".git")) or not paths.is_within(folder, data):
        return True
    roots = set()
    for last, root in recorded_roots(env):
        if last == key:
            return True
        if root:
            roots.add(root)
    if folders is None:
        if os.path.isdir(os.path.join(paths.projects_dir(env), key)):
            return True
        from lazy_harness.memory import aliases

        folders = aliases.claude_folders(env)
    if key in folders:
        return True
    for cwd in folders.values():
        if cwd:
            roots.update((cwd, project_identity.project_root(cwd)))
    return any(key in (paths.project_key(r), paths.legacy_project_key(r)) for r in roots)


def _written_for(folder: str, root: str) -> bool:
    """Whether the oldest decision or failure of a path-keyed folder names ``root``'s project (or
    there is none, or a project of ``root``'s name adopted what the folder holds). why: two
    repositories whose paths differ only in punctuation share a path key (``app.v2``, ``app_v2``);
    when one gets a remote, the other's memory must not move with it."""
    from lazy_harness import jsonload

    name = os.path.basename(root.rstrip(os.sep)) or "root"
    for file in ("decisions.jsonl", "failures.jsonl"):
        try:  # why read_regular: a FIFO in the file's place held the session start in open() for good
            rec = jsonload.loads(read_regular(os.path.join(folder, file), 65536).partition(b"\n")[0])
        except (OSError, ValueError, RecursionError):  # why the last: a line nested past the parser's depth
            continue
        if isinstance(rec, dict) and isinstance(rec.get("project"), str) and rec["project"] != name:
            # why: entries merged from an adopted folder keep its name; a record the project of this
            # name wrote in the folder's aliases.jsonl (the adoption) says the folder is still its own
            from lazy_harness.memory import aliases

            return aliases.written_by(folder, name)
    return True


def pending(key: str, root: str | None, env: Env | None = None, memory_dir: str | None = None) -> list[str]:
    """The old files still waiting to be moved (regular files only; one ``lstat`` per name): in the
    earlier folder beside ``memory_dir`` (:func:`earlier_folder`) the usage record too."""
    out = []
    beside = os.path.dirname(memory_dir.rstrip(os.sep)) if memory_dir else None
    # why first: a folder left for another machine stays beside this one, and telling it is this
    # project's (``earlier_folder``: its first entries, the aliases and their consents) costs a start
    # several times what its unchanged files do
    for folder in legacy_dirs(key, root, env, None if _copy_unchanged(root, memory_dir, env) else memory_dir):
        here = os.path.dirname(folder) == beside
        copied = copied_before(folder, memory_dir, env) if here and memory_dir else {}
        for name in NAMES + OWN if here else NAMES:
            path = os.path.join(folder, name)
            try:
                st = os.lstat(path)
            except OSError:
                continue
            # why the copy's record: a folder left for another machine (:func:`left_for`) stays, and
            # merging it again at every start would read every file of it each time for nothing
            if st.st_mode & 0o170000 == 0o100000 and copied.get(name) != _stamp(st):  # S_ISREG, no ``stat``
                out.append(path)
    return out


def _copy_unchanged(root: str | None, memory_dir: str | None, env: Env | None) -> bool:
    """Whether the path-keyed folder beside ``memory_dir`` was copied into it and left for another
    machine (:func:`remember_copy`), and none of its files changed since: one ``stat``, then, only for
    such a folder, one small read and an ``lstat`` per name."""
    if not root or not memory_dir:
        return False
    folder = os.path.join(os.path.dirname(memory_dir.rstrip(os.sep)), paths.project_key(root))
    if folder == memory_dir.rstrip(os.sep) or not os.path.isdir(folder):
        return False
    copied = copied_before(folder, memory_dir, env)
    return bool(copied) and stamps_of(folder) == copied


def _stamp(st: os.stat_result) -> str:
    return f"{st.st_size}:{st.st_mtime_ns}:{st.st_ino}"


def copied_before(folder: str, memory_dir: str | None, env: Env | None = None) -> dict[str, str]:
    """{file name: its stamp} of the files of the path-keyed ``folder`` last copied into ``memory_dir``
    and left for another machine (``paths.copied_file``); empty when none were, or into another folder.
    One small read, once the folder is kept."""
    if not memory_dir:
        return {}
    try:  # why read_regular: a FIFO in the file's place held the session start in open() for good
        text = read_regular(paths.copied_file(os.path.basename(folder.rstrip(os.sep)), env), 65536)
    except OSError:
        return {}
    head, _, rest = text.decode("utf-8", "replace").partition("\n")
    if head != os.path.basename(memory_dir.rstrip(os.sep)):
        return {}
    return dict(line.split(" ", 1) for line in rest.splitlines() if line.count(" ") == 1)


def remember_copy(folder: str, memory_dir: str, stamps: dict[str, str], env: Env | None = None) -> None:
    """Record that the files of ``folder`` as ``stamps`` shows them (taken before they were read) are in
    ``memory_dir`` now: :func:`pending` leaves them until one of them changes (a round brought the
    other machine's new lines, or removed them). why before the read: a file changed while it was
    merged then differs from its record and is merged again (nothing twice), never skipped."""
    from lazy_harness.atomic import atomic_write, ensure_dir

    path = paths.copied_file(os.path.basename(folder.rstrip(os.sep)), env)
    ensure_dir(os.path.dirname(path))
    text = os.path.basename(memory_dir.rstrip(os.sep)) + "\n" + "".join(f"{k} {v}\n" for k, v in sorted(stamps.items()))
    atomic_write(path, text.encode("utf-8"))


def forget_copy(folder: str, env: Env | None = None) -> None:
    """Drop the record of a copy of ``folder`` (:func:`remember_copy`): its files go now."""
    try:
        os.unlink(paths.copied_file(os.path.basename(folder.rstrip(os.sep)), env))
    except OSError:
        pass


def stamps_of(folder: str) -> dict[str, str]:
    """{file name: stamp} of the memory files in ``folder`` now (:func:`remember_copy`)."""
    out = {}
    for name in NAMES + OWN:
        try:
            st = os.lstat(os.path.join(folder, name))
        except OSError:
            continue
        if st.st_mode & 0o170000 == 0o100000:
            out[name] = _stamp(st)
    return out


def left_for(folder: str, memory_dir: str, env: Env | None = None) -> list[str]:
    """The machines other than this one whose decisions or failures the path-keyed ``folder`` holds and
    that have not moved to ``memory_dir`` themselves (no alias record of the folder's key there names
    them): the project's clone there has no origin yet and still reads and writes ``folder``, so its
    files are copied, not removed (docs/adr/0089-a-path-key-left-for-the-other-machines.md). An entry
    is another machine's when its ``machine`` names another host; one naming none (written before
    provenance) is counted as this machine's, as every entry was before. why not also what arrived
    through ``lh sync`` (``provenance.arrived``): that record goes by id, and this machine's own entry
    arrives back by its id once the other machine copied it into the origin's folder."""
    from lazy_harness.memory import aliases, lines, provenance

    me = provenance.here(env)[0]
    key = os.path.basename(folder.rstrip(os.sep))
    moved = {r.get("machine") for r in aliases.records(memory_dir) if r["op"] == aliases.ALIAS and r["folder"] == key}
    out: set[str] = set()
    for kind in ("decision", "failure"):
        for rec in lines.read_file(os.path.join(folder, f"{kind}s.jsonl")):
            theirs = rec.get("machine")
            if isinstance(theirs, str) and theirs and theirs != me and theirs not in moved:
                out.add(theirs)
    return sorted(out)


INDEX = "MEMORY.md"  # Claude Code's own index of its memory folder
_LINK = "](" + HANDOFF + ")"


def stale_index(key: str, root: str | None, env: Env | None = None) -> list[str]:
    """Claude Code's MEMORY.md files of this project that link to a ``handoff.md`` no longer there."""
    out = []
    for folder in legacy_dirs(key, root, env):
        if os.path.lexists(os.path.join(folder, HANDOFF)):
            continue
        try:  # why read_regular: a FIFO in the file's place held the session start in open() for good
            text = read_regular(os.path.join(folder, INDEX), 1 << 20)
        except OSError:
            continue
        if _LINK.encode() in text:
            out.append(os.path.join(folder, INDEX))
    return out


def drop_stale_lines(path: str) -> str | None:
    """Remove from MEMORY.md the lines linking to ``handoff.md`` while that file is missing; a log line
    or None when there was nothing to remove. why: Claude Code owns MEMORY.md, and a line of its index
    pointing at our moved file is a dead link it never rewrites (it writes MEMORY.md only when missing)."""
    from lazy_harness.atomic import atomic_write

    if os.path.lexists(os.path.join(os.path.dirname(path), HANDOFF)):
        return None
    try:  # why read_regular: a FIFO in the file's place would hold the session start in open() for good
        raw = read_regular(path)
    except OSError:
        return None
    lines = raw.decode("utf-8", "surrogateescape").splitlines(keepends=True)
    kept = [ln for ln in lines if _LINK not in ln]
    if len(kept) == len(lines):
        return None
    atomic_write(path, "".join(kept).encode("utf-8", "surrogateescape"), mode=os.stat(path).st_mode & 0o777)
    return f"migrate: {path}: {len(lines) - len(kept)} line(s) linking to the moved {HANDOFF} removed"


def migrate(memory_dir: str, key: str, root: str | None, env: Env | None = None, now: float = 0.0,
            settle: Callable[[], bool] | None = None) -> list[str]:
    """Move every pending old file of the project into ``memory_dir``, then drop MEMORY.md's links to
    a moved handoff.md. Returns log lines (empty when there was nothing to do). A file that cannot be
    moved stays where it is and is named in a line. ``settle``: whether a key refused as another
    repository's may be recorded as this one's now (so it is not said again); the SessionStart hook
    says no for a start nobody sees (``claude -p``), and the next start tells the person."""
    todo = pending(key, root, env, memory_dir)
    alias = unrecorded_alias(root, memory_dir, env)
    moved, out, unsettled = _earlier_to_take(root, memory_dir, env, settle)
    if not todo and not alias and not moved:
        return out + [line for line in map(drop_stale_lines, stale_index(key, root, env)) if line]
    from lazy_harness.atomic import ensure_dir
    from lazy_harness.memory.files import FolderLock

    ensure_dir(memory_dir)
    # why: a showing counted in the earlier folder, or a merge mark, changes the counts the budget cuts read
    recount = bool(moved) or any(os.path.basename(p) in RECOUNT for p in todo)
    with FolderLock(memory_dir):  # the lock memory.apply.apply holds while it writes
        # why: first, so a run cut after it still finds the files to move, and one cut before it records it
        if alias and root:
            out += _alias_earlier(memory_dir, alias, root, now)
        out += _move_pending(memory_dir, key, root, env, now)
        if moved and root:
            out += _take_over_key(memory_dir, moved, root, now, env)
        for folder in legacy_dirs(key, root, env, memory_dir):
            _sweep_temps(folder)
        out += [line for line in map(drop_stale_lines, stale_index(key, root, env)) if line]
        if root and not unsettled:  # why: a start or a command moved it; the next origin change must look here
            remember_key(root, memory_dir, env)
    # why after the lock: the worker takes the ranks lock without the folder's; none without a usage
    # record (marks of a folder no session was counted in, as sync recounts)
    if recount and os.path.exists(os.path.join(memory_dir, OWN[0])):
        from lazy_harness.memory import usage_log

        try:
            usage_log.refresh_ranks(env, memory_dir)
        except (OSError, ValueError) as exc:  # why not fatal: the next distillation writes them anyway
            out.append(f"migrate: usage counts not worked out again: {type(exc).__name__}: {exc}")
    try:  # the hold check on what came over (ADR 0024)
        from lazy_harness.memory import held

        found = held.scan_records(memory_dir, env)
        if found:
            held.hold(memory_dir, memory_dir, found, os.path.basename(memory_dir), now or 0.0, "migrated",
                      by_rules=True)
            out.append(f"migrate: held {len(found)} entr{'y' if len(found) == 1 else 'ies'} for approval: "
                       + ", ".join(f[1] for f in found))
    except Exception as exc:  # why: the move is done; the read-time check still holds them
        out.append(f"migrate: hold check failed: {type(exc).__name__}: {exc}")
    return out


def _move_pending(memory_dir: str, key: str, root: str | None, env: Env | None, now: float) -> list[str]:
    """Bring each pending file into ``memory_dir`` (the caller holds its folder lock); those of the
    earlier folder beside it are copied and left while another machine still reads it (:func:`left_for`),
    and what was copied is recorded (:func:`remember_copy`). Log lines."""
    from lazy_harness.memory import migrate_merge

    out: list[str] = []
    todo = pending(key, root, env, memory_dir)  # again under the lock: another process may have moved them
    beside = os.path.dirname(memory_dir.rstrip(os.sep))
    earlier = next((os.path.dirname(p) for p in todo if os.path.dirname(os.path.dirname(p)) == beside), None)
    others = left_for(earlier, memory_dir, env) if earlier else []
    stamps = stamps_of(earlier) if earlier else {}
    if earlier and not others:  # why every file: those unchanged since an earlier copy are not pending
        todo = [p for p in todo if os.path.dirname(p) != earlier] + [os.path.join(earlier, n) for n in stamps]
        forget_copy(earlier, env)
    if others:
        out.append(f"migrate: {earlier} left for {', '.join(others)}, whose clone of the project has no origin "
                   "yet and still reads it: copied, and copied again when it changes")
    for path in todo:
        keep = bool(others) and os.path.dirname(path) == earlier
        try:
            if os.path.basename(path) == HANDOFF:
                if keep and os.path.isfile(os.path.join(earlier or "", "handoff.jsonl")):
                    continue  # why: beside its log it is that log's rendering, merged with the log below
                out.append(migrate_merge.move_handoff(path, memory_dir, now, keep))
            else:
                out.append(migrate_merge.merge_jsonl(path, os.path.join(memory_dir, os.path.basename(path)), keep))
        except (OSError, ValueError) as exc:
            out.append(f"migrate: {path} left in place: {type(exc).__name__}: {exc}")
    if earlier and others:
        if any(os.path.basename(p) == "handoff.jsonl" for p in todo):
            from lazy_harness.memory import handoff

            handoff.write_markdown(memory_dir, {"session_id": "migrate", "task_id": os.path.basename(earlier)}, now)
        remember_copy(earlier, memory_dir, stamps, env)
    return out


def _earlier_to_take(root: str | None, memory_dir: str, env: Env | None,
                     settle: Callable[[], bool] | None) -> tuple[str | None, list[str], bool]:
    """(the earlier key to take over or None, log lines, whether a refusal was left unsettled): not one
    another project here still uses, nor one another repository wrote (:func:`migrate`'s ``settle``)."""
    moved = earlier_key(root, memory_dir, env)
    if not moved or not root:
        return None, [], False
    if not os.path.isdir(root):  # why: a folder away (moved and back, a disk not mounted) tells nothing of
        return None, [], True   # its repository; said "another repository" and recorded its path key
    owner = still_owned(moved, root, env)
    if owner:  # why: left where it is, never split: the person says whether the two are one
        whose = "another project" if owner == "?" else owner
        return None, [f"migrate: {moved} {STILL_OWNED} {whose}, left there; if that folder and {root} "
                      f"are one project: lh memory adopt --force -- {moved}"], False
    if same_repository(root, env):
        return moved, [], False
    out = [f"migrate: {moved} {OTHER_REPOSITORY} at {root}, left there; if it is this project's: "
           f"lh memory adopt -- {moved}"]
    unsettled = settle is not None and not settle()
    if not unsettled:
        remember_key(root, memory_dir, env)  # why: the folder is this repository's now; told once
    return None, out, unsettled


def _alias_earlier(memory_dir: str, alias: str, root: str, now: float) -> list[str]:
    """The project gained an origin (the caller holds the folder lock): what its path-keyed folder
    ``alias`` owned is carried over (an alias it adopted, learnings assigned to it), then ``alias``
    itself is recorded; its files are merged by the caller. why this order: a run cut before the
    alias carries again (nothing twice); after it, the files still wait and are moved."""
    from lazy_harness.memory import aliases

    name = os.path.basename(root.rstrip(os.sep)) or "root"
    out = [f"migrate: {line}" for line in
           aliases.carry(os.path.join(os.path.dirname(memory_dir.rstrip(os.sep)), alias), memory_dir, now, name,
                         locked=True)]
    from lazy_harness.memory import provenance

    # why the machine: another machine that wrote in the path-keyed folder reads it until it moves too
    # (:func:`left_for`); the last of them to move removes its files
    if aliases.record(memory_dir, aliases.ALIAS, alias, "the project gained an origin", now, locked=True,
                      project=name, machine=provenance.here()[0] or None):
        out.append(f"migrate: learnings written under {alias} are this project's ({aliases.FILE})")
    return out


def _take_over_key(memory_dir: str, moved: str, root: str, now: float, env: Env | None) -> list[str]:
    """The origin changed or went (the caller holds the folder lock): the folder of the key ``moved``
    the project was last written under is taken over (its entries, then what it owned), then its key
    recorded as an alias. why the alias last: a run cut before it finds the key unaliased and ends it."""
    from lazy_harness.memory import aliases

    name = os.path.basename(root.rstrip(os.sep)) or "root"
    old_dir = os.path.join(os.path.dirname(memory_dir.rstrip(os.sep)), moved)
    out = take_over(old_dir, memory_dir, now, env)
    out += [f"migrate: {line}" for line in aliases.carry(old_dir, memory_dir, now, name, locked=True)]
    if aliases.record(memory_dir, aliases.ALIAS, moved, "the project's origin changed", now, locked=True,
                      project=name):
        out.append(f"migrate: {moved}'s memory taken over; its learnings are this project's ({aliases.FILE})")
    return out


def _sweep_temps(folder: str) -> None:
    """Our half-written temp files (``.<name>.<pid>.<random>.tmp``, of the files we move or of MEMORY.md,
    which :func:`drop_stale_lines` rewrites) whose writer is dead; nothing else."""
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        parts = name.rsplit(".", 3)
        if len(parts) != 4 or parts[3] != "tmp" or parts[0][1:] not in (*NAMES, INDEX) or not parts[1].isdigit():
            continue
        try:
            os.kill(int(parts[1]), 0)
            continue  # the writer still runs
        except ProcessLookupError:
            pass
        except OSError:
            continue
        try:
            os.unlink(os.path.join(folder, name))
        except OSError:
            pass
