"""Per-session cursor: how far into its transcript a session was already distilled (ADR 0013).

When a session is processed again, the prompt holds only the conversation after the cursor (plus
the memory already written, which the prompt always shows); a session's first call reads it whole,
but for a fork: what it copied from its parent is left out as distilled earlier (memory/lineage.py).

State: ``<state>/<session>.cursor``, JSON ``{"offset", "check", "at"}``: the byte offset of the
transcript read by the last successful distillation and a hash of its first 4 KiB and of the 4 KiB
before the offset. The cursor is used only when the file is still at least that long and those
bytes are unchanged (a rewritten or replaced transcript starts again from the top). It advances
only after the memory was persisted: a failed, waiting or killed run leaves it where it was, so
nothing is skipped.

One distillation of a session at a time: ``<state>/<session>.distilling`` is a lock (``flock``;
removed only by ``lh queue purge``, while it holds it) held from reading the cursor to advancing it
(:func:`hold`), so the worker and ``lh distill`` of the same session never both read from the same
cursor: the second waits, then reads only what the first left.
"""

from __future__ import annotations

import hashlib
import json
import os
from typing import TYPE_CHECKING

from lazy_harness import paths
from lazy_harness.atomic import atomic_write, ensure_dir, lock, try_lock

if TYPE_CHECKING:
    from lazy_harness.memory.shapes import Env
    from lazy_harness.worker.transcript_records import View

CHECK_BYTES = 4096
EARLIER = "[the conversation before this point was distilled earlier; its memory is listed above]\n"


def _file(env: Env | None, session_id: str) -> str:
    return os.path.join(paths.state_dir(env), f"{paths.safe_session_id(session_id)}.cursor")


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
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as fh:
            for start in sorted({0, max(0, offset - CHECK_BYTES)}):
                fh.seek(start)
                want = min(CHECK_BYTES, offset - start)
                data = fh.read(want)
                if len(data) != want:
                    return None
                digest.update(data)
    except OSError:
        return None
    return digest.hexdigest()[:32]


def start(env: Env | None, session_id: str, path: str) -> int:
    """The byte offset to read new conversation from; 0 for a first call or an invalid cursor."""
    if not session_id:
        return 0
    try:
        with open(_file(env, session_id), encoding="utf-8") as fh:
            data = json.load(fh)
        offset = int(data["offset"])
        expected = str(data["check"])
    except (OSError, ValueError, KeyError, TypeError):
        return 0
    if offset <= 0 or _check(path, offset) != expected:
        return 0
    return offset


def advance(env: Env | None, session_id: str, path: str, offset: int, now: float) -> None:
    """Record that the transcript up to ``offset`` is distilled (call after a successful persist)."""
    check = _check(path, offset) if session_id and offset > 0 else None
    if check is None:
        return
    atomic_write(_file(env, session_id), json.dumps({"offset": offset, "check": check, "at": now}) + "\n")


def position(session_id: str, path: str, offset: int, now: float) -> dict | None:
    """What :func:`advance` would record, as plain data (for the checks' record of a persist: worker/owed.py);
    None when it would record nothing."""
    check = _check(path, offset) if session_id and offset > 0 else None
    if check is None:
        return None
    return {"session_id": session_id, "path": path, "offset": offset, "check": check, "at": now}


def catch_up(env: Env | None, moved: dict) -> bool:
    """Advance the cursor as :func:`position` said, once a killed process's persist committed and its own
    advance may not have happened: never backwards (a later distillation went further), and only while
    the transcript still holds the bytes it was read with. True when it moved."""
    sid, path, offset = str(moved["session_id"]), str(moved["path"]), int(moved["offset"])
    if not sid or start(env, sid, path) >= offset or _check(path, offset) != moved["check"]:
        return False
    atomic_write(_file(env, sid), json.dumps({"offset": offset, "check": moved["check"], "at": moved["at"]}) + "\n")
    return True


def read_view(path: str, budget_chars: int, offset: int, agent: str = "claude") -> View:
    """The transcript view for a prompt: whole when ``offset`` is 0, else only what follows it.
    ``agent`` picks the reader: a Claude Code transcript, or a Codex rollout (worker/rollout.py)."""
    if agent == "codex":
        from lazy_harness.worker import rollout

        view = rollout.read_view(path, budget_chars, text_from=offset)
    else:
        from lazy_harness.worker import transcript

        view = transcript.read_view(path, budget_chars, text_from=offset)
    if (offset or view.copied_from) and view.entries:  # a fork's copied part: distilled as its parent
        view.text = EARLIER + view.text
    return view
