"""Per-session cursor: how far into its transcript a session was already distilled (ADR 0013).

When a session is processed again, the prompt holds only the conversation after the cursor (plus
the memory already written, which the prompt always shows); a session's first call reads it whole.

State: ``<state>/<session>.cursor``, JSON ``{"offset", "check", "at", "last", "task"}``: the byte offset
of the transcript read by the last successful distillation, a hash of its first 4 KiB and of the 4 KiB
before the offset, the ``uuid`` of the last user or assistant record before it, and the id of the task
(or ``lh distill`` run) whose distillation moved it. The cursor is used only when the file is still at
least that long and those bytes are unchanged (a rewritten or replaced transcript starts again from the
top). It advances only after the memory was persisted: a failed, waiting or killed run leaves it where
it was, so nothing is skipped. A run killed after the persist and before its task was finished (moved
to done/) leaves the task to the next worker, which finds nothing new past the cursor: the ``task``
(:func:`moved_by`) tells it that this was its own earlier run's distillation, finished as a success
(worker/pipeline.py), not a skip of a session with nothing new.

Forks (``claude --resume P --fork-session``, memory/lineage.py): the fork's transcript starts with
a copy of P's conversation, keeping P's ``uuid``s (after P ran ``/compact``, only what follows the
compaction: its summary, the reply it kept, the later turns). What the copy holds is judged from P's
own transcript (beside the fork's, or kept by the queue): a copied record is covered when its line
ends at or before where P's distillations reached there (P's cursor, or a fork's record, below).
A fork's first call leaves out the covered start of its copy; when P was distilled before but the
copy does not start at P's first record (the compacted case), also the rest of P's records, which
P's next call reads from its cursor; the remainder (a parent skipped as too short, never distilled)
is distilled as part of the fork. Then, only when the fork holds P's records from P's first one, it
records in ``<state>/<P>.covered`` (one ``uuid`` a line) the last of them, so that P distilled later
does not send them again: P's next call reads from after that record in its own transcript. A copy
P cannot be told about is left to P or, for a P never distilled, sent by both: memory's
de-duplication keeps one entry, where a turn left out by both is lost. Without P's transcript the
copy is covered up to what P's cursor names as ``last``. The record is written before the fork's
cursor, and again (skipping what is listed) when a killed process's cursor is caught up.

One distillation of a session at a time: ``<state>/<session>.distilling`` is a lock (``flock``;
removed only by ``lh queue purge``, while it holds it) held from reading the cursor to advancing it
(:func:`hold`), so the worker and ``lh distill`` of the same session never both read from the same
cursor: the second waits, then reads only what the first left.
"""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING

from lazy_harness import jsonload, paths
from lazy_harness import part_check as checks  # why the alias: part_check() below is this module's own
from lazy_harness.atomic import append_line, atomic_write, ensure_dir, lock, try_lock
from lazy_harness.regular_file import open_regular, read_regular

if TYPE_CHECKING:
    from lazy_harness.memory.shapes import Env
    from lazy_harness.worker.transcript_records import View

CHECK_BYTES = checks.CHECK_BYTES
LAST_BLOCK = 64 * 1024
LAST_SCAN_BYTES = 16 * 1024 * 1024  # looked back from an offset for the last record's uuid
SAID_SINCE_BUDGET = 20_000  # characters read past a failed part to see whether anything was said
COVERED = ".covered"
EARLIER = "[the conversation before this point was distilled earlier; its memory is listed above]\n"


def _file(env: Env | None, session_id: str, suffix: str = ".cursor") -> str:
    return os.path.join(paths.state_dir(env), f"{paths.safe_session_id(session_id)}{suffix}")


def hold(env: Env | None, session_id: str) -> tuple[int | None, bool]:
    """Take the session's distillation lock, waiting while another process holds it: (its descriptor,
    to give to :func:`release`, or None for no session id; whether it had to wait).
    why wait and not refuse: the holder is a distillation with a bounded model call; what it leaves
    after it is then read from the cursor it moved (often nothing new)."""
    if not session_id:
        return None, False
    path = os.path.join(ensure_dir(paths.state_dir(env)), f"{paths.safe_session_id(session_id)}.distilling")
    fd = try_lock(path)
    if fd is not None:
        return fd, False
    return lock(path), True


def release(fd: int | None) -> None:
    """Let the next distillation of the session go on (closing the descriptor drops its ``flock``)."""
    if fd is not None:
        os.close(fd)


def _check(path: str, offset: int) -> str | None:
    """A hash of the first and the last 4 KiB before ``offset``; None when the file is shorter."""
    return checks.check(path, offset)


def _own(env: Env | None, session_id: str, path: str) -> int:
    """The offset the session's own cursor holds; 0 for none or an invalid one."""
    data = _cursor(env, session_id)
    try:
        offset, expected = int(data["offset"]), str(data["check"])
    except (ValueError, KeyError, TypeError):
        return 0
    if offset <= 0 or _check(path, offset) != expected:
        return 0
    return offset


def _cursor(env: Env | None, session_id: str) -> dict:
    try:  # why read_regular: a FIFO in its place held the worker, and the whole queue, in open() for good
        data = json.loads(read_regular(_file(env, session_id)).decode("utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def start(env: Env | None, session_id: str, path: str) -> int:
    """The byte offset to read new conversation from: past what the session's own distillations read,
    past what a fork distilled of it, and for a fork not distilled yet, past what its parents'
    distillations cover of what it copied (or leave to themselves); 0 for a first call or an invalid cursor."""
    if not session_id:
        return 0
    own = _own(env, session_id, path)
    offset = max(own, _distilled_by_forks(env, session_id, path))
    if not own:  # why only then: the fork's own first distillation read its copy whole or past what was covered
        offset = max(offset, _copy_covered(env, session_id, path))
    return offset


def held_by(env: Env | None, session_id: str, path: str) -> str:
    """Whose distillations hold the session up to :func:`start`, for a session never distilled itself:
    ``"parents"`` (a fork: what it copied, distilled with the sessions it was forked from), ``"forks"`` (a
    session forked from it distilled its turns); ``""`` when it was distilled itself, or nothing is held."""
    if not session_id or _own(env, session_id, path):
        return ""
    copied, by_forks = _copy_covered(env, session_id, path), _distilled_by_forks(env, session_id, path)
    if copied and copied >= by_forks:
        return "parents"
    return "forks" if by_forks else ""


def advance(env: Env | None, session_id: str, path: str, offset: int, now: float, task: str = "") -> None:
    """Record that the transcript up to ``offset`` is distilled, by the task ``task`` (call after a
    successful persist)."""
    moved = position(session_id, path, offset, now, task)
    if moved is None:
        return
    # why first: a kill between the two leaves the cursor behind, which the owed record's catch_up
    # moves (and records this again, skipping what is listed); the other order lost the record
    _cover_parents(env, session_id, path, offset, _own(env, session_id, path))
    atomic_write(_file(env, session_id), json.dumps({k: moved[k] for k in _KEYS}) + "\n")


_KEYS = ("offset", "check", "at", "last", "task")


def position(session_id: str, path: str, offset: int, now: float, task: str = "") -> dict | None:
    """What :func:`advance` would record, as plain data (for the checks' record of a persist: worker/owed.py);
    None when it would record nothing."""
    check = _check(path, offset) if session_id and offset > 0 else None
    if check is None:
        return None
    return {"session_id": session_id, "path": path, "offset": offset, "check": check, "at": now,
            "last": _last_uuid(path, offset), "task": task}


def moved_by(env: Env | None, session_id: str, path: str) -> tuple[str, float | None]:
    """(the id of the task whose distillation moved the session's own cursor, when it did): ('', None)
    for no cursor, one that does not hold for the transcript as it is, or one written before it named
    its task."""
    if not session_id or not _own(env, session_id, path):
        return "", None
    data = _cursor(env, session_id)
    task, at = data.get("task"), data.get("at")
    if not isinstance(task, str) or not task:
        return "", None
    return task, float(at) if isinstance(at, (int, float)) and not isinstance(at, bool) else None


def part_check(path: str, offset: int) -> str:
    """The check of the transcript's first ``offset`` bytes as :func:`said_since` compares it ('' when
    the file is shorter or unreadable)."""
    return _check(path, offset) or ""


def said_since(path: str, offset: int, check: str, agent: str = "claude") -> bool:
    """Whether the session said anything after ``offset``, the end of a part read when the transcript's
    :func:`part_check` was ``check``: a user or assistant entry past it. True too when the file no longer
    holds those bytes (rewritten, replaced) or cannot be read: only a sure "nothing" is False."""
    from lazy_harness.errors import LhError

    if offset <= 0 or not check or _check(path, offset) != check:
        return True
    try:
        return bool(read_view(path, SAID_SINCE_BUDGET, offset, agent).entries)
    except (OSError, LhError):
        return True


def catch_up(env: Env | None, moved: dict) -> bool:
    """Advance the cursor as :func:`position` said, once a killed process's persist committed and its own
    advance may not have happened: never backwards (a later distillation went further), and only while
    the transcript still holds the bytes it was read with. True when it moved."""
    sid, path, offset = str(moved["session_id"]), str(moved["path"]), int(moved["offset"])
    if not sid or _check(path, offset) != moved["check"]:
        return False
    # why even when the cursor is there: a process killed after its cursor write and before this record
    # (as an earlier version wrote them) left the parents without it; it skips what is listed
    _cover_parents(env, sid, path, offset)
    if _own(env, sid, path) >= offset:
        return False
    last, task = moved.get("last"), moved.get("task")
    record = {"offset": offset, "check": moved["check"], "at": moved["at"],
              "last": last if isinstance(last, str) else _last_uuid(path, offset),
              "task": task if isinstance(task, str) else ""}
    atomic_write(_file(env, sid), json.dumps(record) + "\n")
    return True


def _record_uuid(line: bytes) -> str:
    """The uuid of a user or assistant record on ``line`` ('' for any other line)."""
    if b'"uuid"' not in line:
        return ""
    rec = jsonload.line_object(line)
    if rec is None or rec.get("type") not in ("user", "assistant") or rec.get("isSidechain") is True:
        return ""
    uid = rec.get("uuid")
    return uid if isinstance(uid, str) else ""


def _last_uuid(path: str, offset: int) -> str:
    """The uuid of the last user or assistant record whose line ends at or before ``offset``, looked
    for in the ``LAST_SCAN_BYTES`` before it ('' when none is there or the file cannot be read)."""
    try:  # why open_regular: a FIFO in its place held the worker, and the whole queue, in open() for good
        with open(open_regular(path)[0], "rb") as fh:
            end, carry = offset, b""
            while end > 0 and offset - end < LAST_SCAN_BYTES:
                begin = max(0, end - LAST_BLOCK)
                fh.seek(begin)
                lines = (fh.read(end - begin) + carry).split(b"\n")
                carry = lines.pop(0) if begin > 0 else b""  # why: its start is in the block before
                for line in reversed(lines):
                    uid = _record_uuid(line)
                    if uid:
                        return uid
                end = begin
    except OSError:
        return ""
    return ""


def read_view(path: str, budget_chars: int, offset: int, agent: str = "claude") -> View:
    """The transcript view for a prompt: whole when ``offset`` is 0, else only what follows it (a fork's
    copied conversation too: :func:`start` puts the offset past the part of it already distilled).
    ``agent`` picks the reader: a Claude Code transcript, or a Codex rollout (worker/rollout.py)."""
    if agent == "codex":
        from lazy_harness.worker import rollout

        view = rollout.read_view(path, budget_chars, text_from=offset)
    else:
        from lazy_harness.worker import transcript

        view = transcript.read_view(path, budget_chars, text_from=offset, keep_copied=True)
    if offset and view.entries:
        view.text = EARLIER + view.text
    return view


def _covered(env: Env | None, session_id: str) -> list[str]:
    """The uuids of the session's records up to which forks that copied them distilled them."""
    try:  # why read_regular: a FIFO in its place held the worker, and the whole queue, in open() for good
        text = read_regular(_file(env, session_id, COVERED)).decode("utf-8", "replace")
        return [ln.strip() for ln in text.splitlines() if ln.strip()]
    except OSError:
        return []


def _distilled_by_forks(env: Env | None, session_id: str, path: str) -> int:
    """Where, in the session's transcript, the furthest record a fork distilled of it ends; 0 for none."""
    uids = _covered(env, session_id)
    if not uids:
        return 0
    from lazy_harness.worker import transcript

    return max(transcript.line_ends(path, uids).values(), default=0)


def _copy_covered(env: Env | None, session_id: str, path: str) -> int:
    """Where the part of a fork's copied conversation left out of its first distillation ends (what its
    parents' distillations cover, or leave to themselves: :func:`_left_out`); 0 when the session is no
    fork or it distils all of its copy."""
    from lazy_harness.memory import lineage
    from lazy_harness.worker import transcript

    if not lineage.from_transcript(path, session_id):  # why: bounded; most sessions are no fork
        return 0
    copy = transcript.copied_part(path, session_id)
    held = {uid for uid, _, _ in copy}
    out: set[str] = set()
    for parent in dict.fromkeys(source for _, source, _ in copy if source):
        out |= _left_out(env, parent, path, copy, held)
    n = 0
    while n < len(copy) and copy[n][0] in out:
        n += 1
    return copy[n - 1][2] if n else 0


def _parent_side(env: Env | None, parent: str, path: str) -> tuple[list[tuple[str, int]], int, int] | None:
    """The parent's conversation records (uuid, where its line ends in its own transcript), how far in
    that transcript its distillations cover (its cursor, or a fork's record of it), and its own cursor's
    offset; None when its transcript is not found (beside the fork's, where Claude Code writes a fork,
    or kept by the queue when it was deleted) or cannot be read."""
    from lazy_harness.queue import retain
    from lazy_harness.worker import transcript

    beside = os.path.join(os.path.dirname(path), f"{paths.safe_session_id(parent)}.jsonl")
    found = retain.source(paths.queue_dir(env), parent, beside)
    records = transcript.conversation(found) if os.path.isfile(found) else None
    if not records:
        return None
    ends = dict(records)
    own = _own(env, parent, found)
    return records, max([own, *(ends.get(uid, 0) for uid in _covered(env, parent))]), own


def _from_start(records: list[tuple[str, int]], held: set[str]) -> list[str]:
    """The parent's records, from its first, that the fork holds, up to the first one it does not: the
    part a fork made after the parent's ``/compact`` lacks (it copies from the compaction on)."""
    out = []
    for uid, _ in records:
        if uid not in held:
            break
        out.append(uid)
    return out


def _left_out(env: Env | None, parent: str, path: str, copy: list[tuple[str, str, int]], held: set[str]) -> set[str]:
    """The fork's copied records not to distil for ``parent``: those at or before where the parent's
    distillations reached in its own transcript; and, when the parent was distilled before and its
    copy does not start at the parent's first record (so the parent cannot be told where to start
    after it: :func:`_cover_parents`), the rest of what the parent's transcript holds, which the
    parent's next distillation reads from its cursor. Without the parent's transcript: what its
    cursor's ``last`` or a fork's record of it names, and what precedes it in the copy; a cursor of the
    previous version (no ``last``) covers all the fork copied from the parent, as that version took it
    (sending a distilled turn again would duplicate what memory holds)."""
    side = _parent_side(env, parent, path)
    if side is None:
        cur = _cursor(env, parent)
        index = {uid: i for i, (uid, _, _) in enumerate(copy)}
        if cur.get("offset") and "last" not in cur:  # the previous version's: the copy up to what it read
            best = _read_by_then(path, parent, copy, cur.get("at"))
            return {uid for uid, _, _ in copy[:best + 1]}
        marks = [*_covered(env, parent), cur.get("last")]
        best = max((index[m] for m in marks if isinstance(m, str) and m in index), default=-1)
        return {uid for uid, _, _ in copy[:best + 1]}
    records, reached, own = side
    covered = {uid for uid, end in records if end <= reached and uid in held}
    if not own:  # why: never distilled (too short, not seen yet): nothing says it ever will be
        return covered
    return covered | ({uid for uid, _ in records if uid in held} - set(_from_start(records, held)))


def _read_by_then(path: str, parent: str, copy: list[tuple[str, str, int]], at: object) -> int:
    """Where in ``copy`` the parent's records end that were written before its cursor of the previous
    version (no ``last``) was, at ``at``: what that distillation can have read. -1 when none, or when
    the time cannot be read (a turn sent twice is de-duplicated, one left out is lost)."""
    if not isinstance(at, (int, float)) or isinstance(at, bool):
        return -1
    from lazy_harness.worker import transcript

    times = transcript.record_times(path)
    return max((i for i, (uid, source, _) in enumerate(copy) if source == parent and times.get(uid, at + 1) <= at),
               default=-1)


def _cover_parents(env: Env | None, session_id: str, path: str, offset: int, before: int = 0) -> None:
    """After a fork's distillation up to ``offset``: record, for each session it copied from, the last
    of that session's records it holds when it holds them all from the session's first record (all
    distilled now, by it or before it), unless the session's distillations reach past it already or it
    is listed. Nothing when the fork had a cursor already (``before``, its offset: recorded then)."""
    from lazy_harness.memory import lineage

    # why ``before`` is enough: a distillation reads the file to its end, and the copy precedes all the
    # fork said, so the first one passed the copy; this spares later ones a scan of it
    if before or len(lineage.own(env, session_id)) < 2:  # the worker records a fork's parents as it reads it
        return
    from lazy_harness.worker import transcript

    copy = [part for part in transcript.copied_part(path, session_id) if part[2] <= offset]
    if not copy:
        return
    held = {uid for uid, _, _ in copy}
    for parent in dict.fromkeys(source for _, source, _ in copy if source):
        side = _parent_side(env, parent, path)
        told = _from_start(side[0], held) if side else []
        if not side or not told or dict(side[0])[told[-1]] <= side[1] or told[-1] in _covered(env, parent):
            continue  # why no transcript: nothing of it is read again
        try:
            append_line(_file(env, parent, COVERED), told[-1])
        except OSError:  # why: the memory is persisted; at worst the parent sends this part again
            continue
