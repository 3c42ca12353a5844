"""The projects the page lists: every project with a memory folder, each under the name ``lh memory
show`` and ``lh memory search`` give it (``memory.folder_names``); which folder a project's command
runs in (``folder_of``), and whether a session's or a task's folder is a project's (``of_project``).
What the page lists of a project is read by :mod:`.memory_lists`, :mod:`.held_and_usage`,
:mod:`.queue_and_spend` and :mod:`.hook_log`, from the same files and with the same functions as the CLI.

Everything returned is data; the page escapes it (memory text is untrusted).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from lazy_harness import paths
from lazy_harness.memory import folder_names, intent
from lazy_harness.project_identity import project_name
from lazy_harness.recall.readback import learnings as heads
from lazy_harness.ui.file_reads import parsed
from lazy_harness.ui.queue_tasks import session_cwds

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from lazy_harness.config.typed import Config
    from collections.abc import Iterator


@dataclass
class Project:
    key: str  # the memory folder's name: the page's handle on a project
    name: str
    memory_dir: str
    learnings_dir: str
    current: bool = False
    folder: str | None = None  # a folder of the project, for a command to name (``folder_of``)


def _head(path: str) -> dict | None:
    """A learning's head, kept while its file is unchanged (the page asks at each load)."""
    return parsed(path, heads.read_head)


def projects(cwd: str, cfg: Config, env: Mapping[str, str] | None) -> list[Project]:
    """Every project with a memory folder; the one holding ``cwd`` first (even without memory yet)."""
    import functools

    configured = cfg["memory"]["path"] or None
    ldir = paths.learnings_dir(cfg["knowledge"]["path"] or None, env)
    here = paths.memory_dir(cwd, env, configured)
    out = [Project(os.path.basename(here), project_name(cwd), here, ldir, current=True, folder=cwd)]
    origins = functools.cache(lambda: folder_names.origins_by_key(ldir, _head))  # once, when a folder needs it
    intent.settle_all(env)  # why: the page never lists what a writer killed before its commit left
    for mdir in paths.all_memory_dirs(env, configured):
        if mdir != here:
            out.append(Project(os.path.basename(mdir), folder_names.name_of(mdir, origins), mdir, ldir))
    return out


def labels(projects: list[Project]) -> list[str]:
    """What the picker lists each project as: its name, ``(this folder)`` after the current one's, and,
    after any other whose name another project has too (``api`` at ~/work/api and at ~/personal/api),
    its key (its memory folder's name, made from its folder's path; the page's header shows the folder)."""
    import collections

    count = collections.Counter(p.name for p in projects)
    return [f"{p.name} (this folder)" if p.current else f"{p.name} ({p.key})" if count[p.name] > 1 else p.name
            for p in projects]


def folder_of(p: Project, env: Mapping[str, str] | None) -> str | None:
    """A folder of project ``p`` whose ``--project`` names its memory: the one ``lh ui`` runs in for the
    current project; else the root the worker recorded for it (``last_key.recorded_roots``), else a
    folder a queued task of it ran in, while it exists; None when none is known."""
    from lazy_harness.memory import last_key

    if p.folder or p.current:
        return p.folder
    seen: dict[str, str] = {}

    def candidates() -> Iterator[str]:
        yield from (root for key, root in last_key.recorded_roots(env) if root and key == p.key)
        yield from sorted(set(session_cwds(env).values()))  # why sorted: the same answer every time

    return next((cwd for cwd in candidates() if os.path.isdir(cwd) and of_project(cwd, p, env, seen)), None)


def of_project(cwd: str, p: Project, env: Mapping[str, str] | None, seen: dict[str, str]) -> bool:
    """Whether a session or task in ``cwd`` belongs to ``p`` (``seen``: the answers so far)."""
    if not cwd:
        return False
    if cwd not in seen:
        # why: the project's memory root as the configured one, so a folder resolves where p's did
        seen[cwd] = paths.memory_dir(cwd, env, os.path.dirname(p.memory_dir))
    return seen[cwd] == p.memory_dir
