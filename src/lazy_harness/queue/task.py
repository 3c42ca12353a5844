"""The spool's folders and the task files in them: their names and their key=value format.

Hot path: only ``os`` (``read_task`` imports :mod:`lazy_harness.regular_file`, ``os`` only; ``iso_now``
:mod:`lazy_harness.logfile`, which hooks have loaded already).
"""

from __future__ import annotations

import os

from lazy_harness import CLAUDE, CODEX, PAYLOAD_AGENT, paths
from lazy_harness.atomic import ensure_dir

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

PENDING, TMP, PROCESSING, DONE, FAILED, STATE = "", "tmp", "processing", "done", "failed", "state"
INDEX = "index"  # the index tasks (queue/index_task.py)
KEPT = "kept"  # the transcripts kept for tasks that wait (queue/retain.py)
OPEN = os.path.join(STATE, "open")
SUFFIX = ".task"
# The agent whose session a task is: the field ``agent=codex`` for Codex CLI, absent for Claude Code
# (every task written before Codex was supported). The worker picks its transcript reader by it.
# CLAUDE and CODEX are the package root's (with PAYLOAD_AGENT, set in a payload by hooks/entry.py
# when the hook runs under Codex CLI), read from there by the hooks without the queue
AGENT = "agent"
# The folder the hook's agent keeps its transcripts in (Claude Code's projects folder, Codex's
# sessions folder), as the hook's environment names it
TRANSCRIPTS = "transcripts"
# Events a person asked for (``lh knowledge handoff-now``: the session re-read whole; ``lh queue
# retry``): a Stop or SessionEnd task that replaces one of these keeps its event, or what was asked
# is lost (the whole re-read became "nothing new since the last distillation")
ASKED_EVENTS = ("handoff-now", "retry")
# ``lh knowledge handoff-now --again``: the session re-read whole even when nothing was said since it was
# last distilled (without it, that handoff-now makes no model call: ADR 0075)
AGAIN = "again"
LOCK_NAME = ".worker.lock"  # the worker's single-instance lock (queue/consume.py takes it), never deleted
# The ids of the session's tasks whose run was cut short (a worker killed or stopped while it ran them; the task
# itself among them once it went back to the queue) and whose place this task holds, space-separated: such a
# run may have persisted and moved the session's cursor before it died, and the task that finds nothing new
# past that cursor finishes as that distillation's success (worker/pipeline.py), not as a skip
TOOK_OVER = "took_over"


def took_over(fields: Mapping[str, str]) -> list[str]:
    """The ids :data:`TOOK_OVER` names in a task's ``fields``."""
    return fields.get(TOOK_OVER, "").split()


def hand_over_run(old: Mapping[str, str], data: dict, cut_short: str = "") -> None:
    """The tasks whose place ``old`` held (:data:`TOOK_OVER`), and ``cut_short`` (the id of ``old`` when
    its own run was cut short), given to ``data``, which takes its place."""
    ids = list(dict.fromkeys([*took_over(data), *took_over(old), *([cut_short] if cut_short else [])]))
    if ids:
        data[TOOK_OVER] = " ".join(ids)


def hand_over_ask(old: dict, data: dict) -> None:
    """What the person asked of task ``old`` (its event in ``ASKED_EVENTS``, and ``AGAIN``), given to
    ``data``, a later task of the session that takes its place, unless ``data`` is an ask of its own."""
    if old.get("event") in ASKED_EVENTS and data.get("event") not in ASKED_EVENTS:
        data["event"] = old["event"]
        if old.get(AGAIN):
            data[AGAIN] = old[AGAIN]


def agent_of(payload: dict) -> str:
    """``codex`` for a payload a Codex CLI hook received (or an open-session record of one), else ``claude``."""
    return CODEX if payload.get(PAYLOAD_AGENT) == CODEX else CLAUDE


def folder(queue: str, which: str) -> str:
    return os.path.join(queue, which) if which else queue


def ensure_layout(queue: str) -> None:
    for which in (PENDING, TMP, PROCESSING, DONE, FAILED, STATE, OPEN):
        ensure_dir(folder(queue, which))


# --- task file format: key=value lines, values escaped so a path can hold any character ---------

def _escape(value: str) -> str:
    value = value.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r")
    if value.isascii():
        return value
    # why: a lone surrogate (a path's undecodable byte, as Python reads it) cannot be written as UTF-8:
    # the task was lost to a UnicodeEncodeError; written as ``\uXXXX``, read back as the same character
    return "".join(f"\\u{ord(c):04x}" if "\ud800" <= c <= "\udfff" else c for c in value)


def _hex4(text: str) -> bool:
    return len(text) == 4 and all(c in "0123456789abcdefABCDEF" for c in text)


def _unescape(value: str) -> str:
    if "\\" not in value:  # why: most values (ids, paths, events); the loop below cost a sweep of 100 tasks ~4 ms
        return value
    out, i = [], 0
    while i < len(value):
        c = value[i]
        if c == "\\" and i + 1 < len(value):
            nxt = value[i + 1]
            if nxt == "u" and _hex4(value[i + 2:i + 6]):
                out.append(chr(int(value[i + 2:i + 6], 16)))
                i += 6
                continue
            out.append({"n": "\n", "r": "\r", "\\": "\\"}.get(nxt, nxt))
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def format_task(fields: dict) -> str:
    return "".join(f"{k}={_escape(str(v))}\n" for k, v in fields.items())


def parse_task(text: str) -> dict:
    fields = {}
    # why: split on "\n" only, the one line end format_task writes; splitlines() also breaks at
    # \x0c, \x85, U+2028..., which a value (a path, the model-written turn) may hold unescaped
    for line in text.split("\n"):
        if "=" in line and not line.startswith("#"):
            key, _, value = line.partition("=")
            fields[key.strip()] = _unescape(value)
    return fields


def read_task(path: str) -> dict:
    """The fields of the task file at ``path``; OSError when it cannot be read or is not a regular file.

    why regular_file: a FIFO (or a link to one, or to a device) named like a task made a plain open wait
    for a writer forever; ``lh status`` and every reader of the queue hung on it."""
    from lazy_harness.regular_file import read_regular

    text = read_regular(path).decode("utf-8", "replace")
    # why: read as a text file reads it (universal newlines): a task saved with \r\n line ends parses the same
    return parse_task(text.replace("\r\n", "\n").replace("\r", "\n"))


def task_id(name: str) -> str:
    return name[: -len(SUFFIX)] if name.endswith(SUFFIX) else name


def queued_at(name: str) -> str:
    """When the task ``name`` was queued, local time, from the nanoseconds its name starts with; "?" for a
    name that holds no time the clock can show (made by hand, or a number past the clock's range)."""
    import time

    try:
        return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(int(name.split("-", 1)[0]) / 1e9))
    except (ValueError, OverflowError, OSError):
        return "?"


def tmp_path_for(queue: str, name: str) -> str:
    """A name in tmp/ no other writer uses (two producers may try the same task name at once)."""
    return os.path.join(queue, TMP, f"{task_id(name)}.{os.getpid()}-{os.urandom(4).hex()}{SUFFIX}")


def iso_now(now: float) -> str:
    from lazy_harness.logfile import stamp

    return stamp(now)


def transcripts_folder(payload: dict, env: Mapping[str, str] | None = None) -> str:
    """The folder the agent of ``payload`` keeps its transcripts in, as ``env`` (the hook's) names it:
    ``$CODEX_HOME/sessions`` for Codex CLI, the Claude dir's ``projects`` for Claude Code."""
    if agent_of(payload) == CODEX:
        return os.path.join(paths.codex_home(env), "sessions")
    return paths.projects_dir(env)
