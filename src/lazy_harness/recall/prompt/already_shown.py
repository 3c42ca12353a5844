"""What a session has already been shown (``<queue>/state/<session>.shown``, an id a line), so a prompt
never repeats it: SessionStart starts it over (a resume keeps it), each prompt appends what it injected."""

from __future__ import annotations

import os

from lazy_harness import paths
from lazy_harness.regular_file import append_regular

# why: not ``from typing import TYPE_CHECKING``: the prompt hook and SessionStart load this module
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

    from lazy_harness.memory.shapes import Env

SUFFIX = ".shown"
MAX_BYTES = 64 * 1024


def state_file(env: Env | None, session_id: str) -> str:
    return os.path.join(paths.state_dir(env), paths.safe_session_id(session_id) + SUFFIX)


def read(env: Env | None, session_id: str) -> set[str]:
    if not session_id:
        return set()
    # why there, imported late: both hooks load memory.usage anyway (hotload.HOT)
    from lazy_harness.memory.usage import newest_text

    try:
        # why the end: past the cap the newest ids are the ones the next prompt must not show again
        text = newest_text(state_file(env, session_id), MAX_BYTES)
    except OSError:
        return set()
    return {ln.strip() for ln in text.split("\n") if ln.strip()}


def add(env: Env | None, session_id: str, ids: Iterable[str], replace: bool = False) -> None:
    """Append ``ids`` (or, with ``replace``, start the file over with them)."""
    text = "".join(f"{i}\n" for i in ids)
    if not session_id or not (text or replace):
        return
    path = state_file(env, session_id)
    if not text:  # why: nothing shown is no file: a start that prints nothing writes none
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass
        return
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    if replace:
        from lazy_harness.atomic import atomic_write

        # why not fsynced (0.8 ms of SessionStart): lost, an item may be shown once more
        atomic_write(path, text, durable=False)
        return
    # why no lock, no fsync: one small write per prompt; lost, an item may be shown once more
    fd = append_regular(path)  # why not os.open: a FIFO in the file's place held the prompt
    try:
        os.write(fd, text.encode("utf-8"))
    finally:
        os.close(fd)
