"""The projects the page lists: every project with a memory folder, each under the name ``lh memory
show`` gives it; which folder a project's command runs in (``folder_of``), and whether a session's or
a task's folder is a project's (``of_project``). What the page lists of a project is read by
:mod:`.memory_lists`, :mod:`.held_and_usage`, :mod:`.queue_and_spend` and :mod:`.hook_log`, from the
same files and with the same functions as the CLI.

Everything returned is data; the page escapes it (memory text is untrusted).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from lazy_harness import jsonload, paths
from lazy_harness.memory import aliases, files, handoff_markdown, intent
from lazy_harness.project_identity import project_name
from lazy_harness.recall.readback import learnings as heads
from lazy_harness.ui.file_reads import parsed, tail
from lazy_harness.ui.queue_tasks import session_cwds

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from lazy_harness.config.typed import Config
    from collections.abc import Callable, Iterator


@dataclass
class Project:
    key: str  # the memory folder's name: the page's handle on a project
    name: str
    memory_dir: str
    learnings_dir: str
    current: bool = False
    folder: str | None = None  # a folder of the project, for a command to name (``folder_of``)


def _name_in(memory_dir: str) -> str | None:
    """The project name the newest decision or failure was written under, if any."""
    for name in (files.DECISIONS, files.FAILURES):
        for line in reversed(tail(os.path.join(memory_dir, name), 16384).split(b"\n")):
            rec = jsonload.line_object(line)  # None: not an object, or nested past the stack (a synced line)
            if rec is not None and isinstance(rec.get("project"), str) and rec["project"].strip():
                return rec["project"].strip()
    return None


def _origins_by_key(learnings_dir: str) -> dict[str, str]:
    """``{memory key: the origin of the newest learning written under it}`` (their ``project_folder``)."""
    out: dict[str, str] = {}
    for path in files.recent_learning_files(learnings_dir, 10**9):  # newest first: the first seen wins
        head = parsed(path, heads.read_head)
        key, origin = (head.get("project_folder"), head.get("origin")) if head else (None, None)
        if isinstance(key, str) and key and isinstance(origin, str) and origin.strip():
            out.setdefault(key, origin.strip())
    return out


def _handoff_name(memory_dir: str) -> str | None:
    """The project named in the marker of the folder's handoff.md, if any."""
    try:
        with open(os.path.join(memory_dir, files.HANDOFF), encoding="utf-8", errors="replace") as fh:
            text = fh.read(65536)  # the marker is its second line
    except OSError:
        return None
    name = handoff_markdown.parse_markdown(text)[0].get("project", "").strip()
    return name or None


def _name_of(memory_dir: str, origins: Callable[[], dict[str, str]]) -> str:
    """The name ``lh memory show`` gives the project of a memory folder seen from another folder: the
    one its newest decision or failure was written under; else the origin of a learning written under
    one of its keys (its own, then those ``aliases.jsonl`` names: the keys whose learnings ``show``
    lists as its own, ``aliases.owned``), else its handoff.md's; its key when nothing names it. why:
    a learning without a key is the project's by that name: named by its key, the page lost them."""
    found = _name_in(memory_dir)
    if found:
        return found
    own = os.path.basename(memory_dir)
    keys = aliases.owned(memory_dir).keys
    for key in [own, *sorted(keys - {own})]:
        if key in origins():
            return origins()[key]
    return _handoff_name(memory_dir) or own


def projects(cwd: str, cfg: Config, env: Mapping[str, str] | None) -> list[Project]:
    """Every project with a memory folder; the one holding ``cwd`` first (even without memory yet)."""
    import functools

    configured = cfg["memory"]["path"] or None
    ldir = paths.learnings_dir(cfg["knowledge"]["path"] or None, env)
    here = paths.memory_dir(cwd, env, configured)
    out = [Project(os.path.basename(here), project_name(cwd), here, ldir, current=True, folder=cwd)]
    origins = functools.cache(lambda: _origins_by_key(ldir))  # read once, and only when a folder needs it
    intent.settle_all(env)  # why: the page never lists what a writer killed before its commit left
    for mdir in paths.all_memory_dirs(env, configured):
        if mdir != here:
            out.append(Project(os.path.basename(mdir), _name_of(mdir, origins), mdir, ldir))
    return out


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
