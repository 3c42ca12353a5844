"""Which sessions' conversation a session holds: its own, and for a fork the sessions it was forked from.

``claude --resume P --fork-session`` starts a new session with a copy of P's conversation: the copied
records come first in its transcript, under the fork's ``sessionId``, keeping P's ``uuid``s; Claude Code
2.1.332 names the session that made each copied user or assistant record in ``session_id`` (and, on
assistant records, ``requestSessionId``); a fork of a fork names the grandparent on what it copied from
there. ``codex fork P`` (codex-cli 0.171.0) names P in its rollout's ``session_meta``
(``forked_from_id``) and copies none of P's turns, which its model is sent all the same. What was
distilled from those sessions is what the fork's context already holds, so the read-back and prompt
recall leave it out as they leave out the session's own (ADR 0034), and the worker does not distill the
copied part again (worker/transcript_records.py).
:func:`own` is the one place that says which session ids are a session's own.

    <state>/<session>.lineage    the ids of the sessions it was forked from, one a line; a line
                                 ``?`` while it is a fork whose transcript was not read yet

Written by SessionStart (``source: fork``: only the ``?``, since 2.1.332 writes the fork's transcript
with its first prompt), by prompt recall while the ``?`` is there (from the head and the tail of the
transcript, bounded), and by the worker (from the whole transcript, at every read). why three
writers: each writes what the same transcript says, by an atomic replace; the hooks need it before
the worker has run. Hot path: only ``os`` and our hot-path modules at import time.
"""

from __future__ import annotations

import os

from lazy_harness import jsonload, paths
from lazy_harness.regular_file import open_regular

TYPE_CHECKING = False  # why: not typing's: the hooks load this module (house style section 3)
if TYPE_CHECKING:
    from collections.abc import Iterable

    from lazy_harness.memory.shapes import Env

SUFFIX = ".lineage"
PENDING = "?"
MAX_BYTES = 16 * 1024
SCAN_BYTES = 256 * 1024  # read from the head and from the tail of a fork's transcript by a hook


def state_file(env: Env | None, session: str) -> str:
    return os.path.join(paths.state_dir(env), paths.safe_session_id(session) + SUFFIX)


def _read(env: Env | None, session: str) -> list[str]:
    try:  # why open_regular: a FIFO in the record's place held every prompt of the session in open()
        with open(open_regular(state_file(env, session))[0], encoding="utf-8", errors="replace") as fh:
            return [ln.strip() for ln in fh.read(MAX_BYTES).split("\n") if ln.strip()]
    except OSError:
        return []


def own(env: Env | None, session: str, transcript: str = "", write: bool = True) -> tuple[str, ...]:
    """The ids whose entries are ``session``'s own: its id, then the sessions it was forked from
    (empty for no session). With ``transcript``, a fork not read yet is read first (bounded), and
    what it says recorded unless ``write`` is False (a reader: ``lh memory show --prompt``)."""
    if not session:
        return ()
    lines = _read(env, session)
    if PENDING in lines and transcript:
        found = from_transcript(transcript, session)
        if found is not None:
            ids = _joined(env, session, lines, found)
            if write and ids != lines:
                _write(env, session, ids)
            lines = ids
    return (session, *[s for s in lines if s != PENDING and s != session])


def mark_fork(env: Env | None, session: str) -> None:
    """A fork started (SessionStart ``source: fork``): its parents are read from its transcript later."""
    if session and not _read(env, session):
        _write(env, session, [PENDING])


def record(env: Env | None, session: str, parents: Iterable[str]) -> None:
    """Record that ``session`` holds the conversation of ``parents`` (and of what each was forked
    from, as recorded); written only when that adds an id or settles a pending fork."""
    if not session:
        return
    have = _read(env, session)
    ids = _joined(env, session, have, parents)
    if ids != have:
        _write(env, session, ids)


def _joined(env: Env | None, session: str, have: list[str], parents: Iterable[str]) -> list[str]:
    """``have`` without the pending mark, then ``parents`` and what each was forked from, as recorded."""
    ids = [s for s in have if s != PENDING]
    for parent in parents:
        for each in (*_read(env, parent), parent):
            if each and each != PENDING and each != session and each not in ids:
                ids.append(each)
    return ids


def _write(env: Env | None, session: str, ids: list[str]) -> None:
    from lazy_harness.atomic import atomic_write, ensure_dir

    path = state_file(env, session)
    ensure_dir(os.path.dirname(path))
    # why not fsynced: lost in a power cut, the worker writes it again at its next read
    atomic_write(path, "".join(f"{i}\n" for i in ids), durable=False)


def copied_from(record: dict) -> str:
    """The session a user or assistant record was copied from ('' when it is the session's own)."""
    sid = record.get("sessionId")
    for key in ("requestSessionId", "session_id"):
        value = record.get(key)
        if isinstance(value, str) and value and isinstance(sid, str) and value != sid:
            return value
    return ""


def from_transcript(path: str, session: str) -> list[str] | None:
    """The sessions named as the source of copied records in the first and the last ``SCAN_BYTES``
    of ``path`` (the oldest ancestors and the parent); None when it cannot be read (not written yet)."""
    try:  # why open_regular: a FIFO in a transcript's place blocks open()
        fd, _ = open_regular(path)
        with os.fdopen(fd, "rb") as fh:
            head = fh.read(SCAN_BYTES)
            size = fh.seek(0, os.SEEK_END)
            tail = b""
            if size > 2 * SCAN_BYTES:
                fh.seek(size - SCAN_BYTES)
                tail = fh.read(SCAN_BYTES).split(b"\n", 1)[-1]
    except OSError:
        return None
    found: list[str] = []
    for line in (head.rsplit(b"\n", 1)[0] if tail else head).split(b"\n") + tail.split(b"\n"):
        if b'"requestSessionId"' not in line and b'"session_id"' not in line and b'"forked_from_id"' not in line:
            continue
        rec = jsonload.line_object(line)
        parent = _parent_named(rec, session) if rec is not None else ""
        if parent and parent != session and parent not in found:
            found.append(parent)
    return found


def _parent_named(rec: dict, session: str) -> str:
    """The session ``rec`` says ``session`` holds the conversation of: a copied Claude Code record's
    source; for a Codex rollout (``codex fork``), its ``session_meta``'s ``forked_from_id`` (codex-cli
    0.171.0 writes no copy of the parent's turns, and sends them to the model all the same), when
    that record is ``session``'s own (a path to another session's rollout names no parent of it)."""
    if rec.get("type") in ("user", "assistant"):
        return copied_from(rec)
    payload = rec.get("payload") if rec.get("type") == "session_meta" else None
    if not isinstance(payload, dict) or payload.get("id") not in (None, session):
        return ""
    value = payload.get("forked_from_id")
    return value if isinstance(value, str) else ""
