"""What the hooks injected, read from hooks.log as the hooks wrote it: the recent sessions of a
project, each with its SessionStart and prompt lines and the ids they showed."""

from __future__ import annotations

import os
import re

from lazy_harness import logfile, paths
from lazy_harness.project_identity import project_root
from lazy_harness.ui.file_reads import tail
from lazy_harness.ui.queue_tasks import session_cwds
from lazy_harness.ui.reading import of_project

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from lazy_harness.ui.reading import Project

TAIL_BYTES = 256 * 1024  # of hooks.log: the recent sessions
SESSIONS = 12  # sessions listed under "injected"

_LINE = re.compile(r"^(\S+) (SessionStart|UserPromptSubmit) session=(\S+) (.*?)(?: \(([\d.]+) ms\))?$")
_INJECTED = re.compile(r"injected \d+ \([^)]*\): ([\w,-]+)")


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
    text = tail(logfile.log_path(logfile.HOOKS, env), TAIL_BYTES).decode("utf-8", "replace")
    cwds = session_cwds(env)
    own = _own_sessions(p, cwd, env)
    by_session: dict[str, dict] = {}
    seen: dict[str, str] = {}
    for line in text.split("\n"):
        m = _LINE.match(line)
        if not m:
            continue
        when, event, sid, said = m.group(1), m.group(2), m.group(3), m.group(4)
        known = sid in own or sid in cwds
        if known and sid not in own and not of_project(cwds[sid], p, env, seen):
            continue
        found = _INJECTED.search(said)
        session = by_session.setdefault(sid, {"session": sid, "known": known, "events": []})
        session["events"].append({"when": when, "event": event, "said": said,
                                  "ids": found.group(1).split(",") if found else []})
        by_session[sid] = by_session.pop(sid)  # the most recently active last
    return list(reversed(list(by_session.values())))[:SESSIONS]
