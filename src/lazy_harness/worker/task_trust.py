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


def call_env(fields: dict, env: Env | None) -> tuple[Env | None, str | None]:
    """The environment of the task's model call, and why the session's ``CODEX_HOME`` was not used
    (None when it was, or there was none to use). A Codex task's ``codex exec`` runs with the
    ``CODEX_HOME`` its session ran with, the folder holding the sessions folder the task names (as the
    hook saw it), when that differs from the worker's own; else ``env`` as it is.

    why: the worker is whichever one drains the queue, started by any session's hook (one of the
    default home, a Claude Code one): with its own home the call used another login and config.toml,
    so it failed unauthenticated or was billed to another account. why private.problem: every
    ``codex exec`` loads the home's config.toml (a provider, commands it runs), so a home another
    local user made or can write in is not used."""
    if agent_of(fields) != "codex":
        return env, None
    recorded = str(fields.get(TRANSCRIPTS) or "")
    home = os.path.dirname(recorded)
    if not recorded or os.path.basename(recorded) != "sessions" or home == paths.codex_home(env):
        return env, None
    from lazy_harness import private

    real = os.path.realpath(home)
    why = private.problem(real) if _users_own(recorded, "sessions") else f"{recorded} is not your own"
    if why is None and not os.path.isdir(real):
        why = f"{home} is not a folder"
    if why:
        return env, f"CODEX_HOME {home} of the session not used for the model call ({why})"
    return {**(os.environ if env is None else env), "CODEX_HOME": home}, None


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
