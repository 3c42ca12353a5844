"""Whether the worker may run a task: the agent it names, its transcript inside that agent's own
transcripts folder, its memory folder directly under the memory root. The pipeline
(worker/pipeline.py) asks before it reads anything; ``lh distill`` runs a transcript named on its
command line without asking.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from lazy_harness import paths
from lazy_harness.errors import TaskError
from lazy_harness.queue.task import TRANSCRIPTS

if TYPE_CHECKING:
    from lazy_harness.memory.shapes import Env


AGENTS = ("claude", "codex")  # a task's ``agent`` (no field: claude); it picks the transcript reader


def agent_of(fields: dict) -> str:
    """The agent whose session the task names: ``claude`` when the task has no ``agent`` field."""
    agent = fields.get("agent") or "claude"
    if agent not in AGENTS:
        raise TaskError(f"unknown agent {agent!r} in the task (known: {', '.join(AGENTS)})")
    return agent


def check_trust(fields: dict, env: Env | None, memory_root: str | None = None) -> None:
    """A task is trusted only when its transcript lies inside the Claude dir's projects folder (a Codex
    task's: inside ``$CODEX_HOME/sessions``) and its memory folder is ``<memory root>/<key>``
    (``memory_root``: ``paths.memory_root`` of the config)."""
    if agent_of(fields) == "codex":
        from lazy_harness.worker import rollout

        projects = rollout.sessions_dir(env)
    else:
        projects = paths.projects_dir(env)
    root = memory_root or paths.memory_root(None, env)
    transcript = fields.get("session_jsonl", "")
    memory = fields.get("memory_dir", "")
    allowed = [projects]
    recorded = str(fields.get(TRANSCRIPTS) or "")
    if recorded and recorded != projects and _users_own(recorded, "sessions" if agent_of(fields) == "codex"
                                                         else "projects"):
        allowed.append(recorded)  # the hook's agent ran with another CLAUDE_CONFIG_DIR or CODEX_HOME
    if not transcript or not any(paths.is_within(transcript, folder) for folder in allowed):
        raise TaskError(f"untrusted task: session_jsonl {transcript!r} is outside {' and '.join(allowed)}")
    real = os.path.realpath(memory) if memory else ""
    if not memory or os.path.dirname(real) != os.path.realpath(root) or os.path.basename(real) in ("", ".", ".."):
        raise TaskError(f"untrusted task: memory_dir {memory!r} is not <memory root>/<key> under {root}")


def _users_own(folder: str, name: str) -> bool:
    """Whether ``folder`` is an agent's transcripts folder (named ``name``) that is the user's own and
    closed to others' writes, as the folder a task names must be to be trusted."""
    import stat

    real = os.path.realpath(folder)
    if os.path.basename(real) != name or not os.path.isabs(folder):
        return False
    try:
        st = os.stat(real)
    except OSError:
        return False
    return stat.S_ISDIR(st.st_mode) and st.st_uid == os.geteuid() and not st.st_mode & 0o022
